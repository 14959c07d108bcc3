package dev.dht.operator.scaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Members' zones by ordinal as a {@link Membership} keeps them: {@code ""} for a member without
 * one, and a list that may be shorter than the members (empty: none has a zone), so that a status
 * of an older operator and a cluster without zones read alike.
 */
final class Zones {
  private Zones() {}

  /** The zone of {@code ordinal}; null for none (or no list: a status of an older operator). */
  static String of(List<String> zones, int ordinal) {
    String zone = zones != null && ordinal < zones.size() ? zones.get(ordinal) : null;
    return zone == null || zone.isEmpty() ? null : zone;
  }

  /** The zones of ordinals {@code 0..n-1} as kept: empty when none has one. */
  static List<String> kept(List<String> zones, int n) {
    List<String> kept = new ArrayList<>();
    boolean any = false;
    for (int i = 0; i < n; i++) {
      String zone = of(zones, i);
      kept.add(zone == null ? "" : zone);
      any |= zone != null;
    }
    return any ? List.copyOf(kept) : List.of();
  }

  /**
   * The zones of ordinals {@code 0..n-1} that the members' nodes are labelled with ({@code
   * observed}, "" for a node without the label) as kept; null if one is unknown (a pod not
   * scheduled yet, a node not read).
   */
  static List<String> observed(Map<Integer, String> observed, int n) {
    List<String> zones = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String seen = observed.get(i);
      if (seen == null) {
        return null;
      }
      zones.add(seen);
    }
    return kept(zones, n);
  }
}
