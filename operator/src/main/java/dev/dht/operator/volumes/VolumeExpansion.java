package dev.dht.operator.volumes;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How a cluster's node volumes reach spec.storage.size: which claims to ask the larger size of,
 * where each one stands, and when the StatefulSet may be recreated with the larger claim template
 * (its templates are immutable). Volumes never shrink. Pure.
 */
public final class VolumeExpansion {
  /** The condition type: every claim holds the size. */
  public static final String CONDITION = "StorageResized";

  private VolumeExpansion() {}

  /**
   * A claim as read: the size it asks for, its volume's (null while unbound) and the types of its
   * conditions ({@code Resizing}, {@code FileSystemResizePending}).
   */
  public record Claim(
      String name, Quantity requested, Quantity capacity, boolean bound, Set<String> conditions) {
    Claim asking(Quantity size) {
      return new Claim(name, size, capacity, bound, conditions);
    }
  }

  /**
   * The claims to ask {@code wanted} of: bound ones that ask less (the apiserver expands no other).
   */
  public static List<String> toExpand(Quantity wanted, List<Claim> claims) {
    return claims.stream()
        .filter(c -> c.bound() && less(c.requested(), wanted))
        .map(Claim::name)
        .toList();
  }

  /**
   * Where the volumes stand once the claims of {@link #toExpand} were asked: the status, the
   * condition and whether to recreate the StatefulSet ({@code template}: the size its claim
   * template gives, null without a StatefulSet). {@code refused}: the claims the apiserver refused,
   * with its reason; the others of {@code toExpand} now ask {@code wanted}.
   */
  public static Outcome after(
      Quantity wanted,
      List<Claim> claims,
      List<String> asked,
      Map<String, String> refused,
      Quantity template) {
    var states = new ArrayList<ClaimState>();
    boolean anyBound = false;
    boolean allAsking = true;
    for (var claim : claims) {
      var now =
          asked.contains(claim.name()) && !refused.containsKey(claim.name())
              ? claim.asking(wanted)
              : claim;
      anyBound |= now.bound();
      allAsking &= !now.bound() || !less(now.requested(), wanted);
      states.add(state(now, wanted, refused.get(now.name())));
    }
    var status =
        StorageStatus.builder()
            .size(wanted.toString())
            .templateSize(template == null ? null : template.toString())
            .claims(states)
            .build();
    boolean recreate =
        template != null && less(template, wanted) && refused.isEmpty() && anyBound && allAsking;
    return new Outcome(status, condition(wanted, states), recreate);
  }

  /** The status, the condition (null without claims) and whether to recreate the StatefulSet. */
  public record Outcome(StorageStatus status, Verdict condition, boolean recreateStatefulSet) {}

  /** The condition's status, reason and message. */
  public record Verdict(boolean atSize, String reason, String message) {}

  private static ClaimState state(Claim claim, Quantity wanted, String refusal) {
    ClaimState.Phase phase;
    if (refusal != null) {
      phase = ClaimState.Phase.Refused;
    } else if (!claim.bound()) {
      phase = ClaimState.Phase.Unbound;
    } else if (claim.capacity() != null && !less(claim.capacity(), wanted)) {
      phase = ClaimState.Phase.AtSize;
    } else if (claim.conditions().contains("FileSystemResizePending")) {
      phase = ClaimState.Phase.FileSystemResizePending;
    } else {
      phase = ClaimState.Phase.Resizing;
    }
    return ClaimState.builder()
        .name(claim.name())
        .requested(claim.requested() == null ? null : claim.requested().toString())
        .capacity(claim.capacity() == null ? null : claim.capacity().toString())
        .phase(phase)
        .message(refusal)
        .build();
  }

  private static Verdict condition(Quantity wanted, List<ClaimState> claims) {
    if (claims.isEmpty()) {
      return null;
    }
    var refused = claims.stream().filter(c -> c.getPhase() == ClaimState.Phase.Refused).toList();
    if (!refused.isEmpty()) {
      var first = refused.getFirst();
      return new Verdict(
          false,
          "ExpansionRefused",
          "the apiserver refused to expand "
              + names(refused)
              + " from "
              + first.getRequested()
              + " to "
              + wanted
              + ": "
              + first.getMessage()
              + ". Their StorageClass must allow expansion (allowVolumeExpansion: true); until"
              + " then set spec.storage.size back to "
              + first.getRequested()
              + ", or move the data to a cluster on a class that does (backup and restore)");
    }
    var behind = claims.stream().filter(c -> c.getPhase() != ClaimState.Phase.AtSize).toList();
    if (behind.isEmpty()) {
      return new Verdict(
          true, "AtSize", "every claim (" + claims.size() + ") holds " + wanted + " or more");
    }
    var pending =
        behind.stream().filter(c -> c.getPhase() == ClaimState.Phase.FileSystemResizePending);
    String restart =
        pending.findAny().isPresent()
            ? "; a file system grows when its pod restarts (kubectl dht restart)"
            : "";
    return new Verdict(
        false,
        "Resizing",
        behind.stream().map(c -> c.getName() + " " + c.getPhase()).collect(Collectors.joining(", "))
            + " on the way to "
            + wanted
            + restart);
  }

  private static String names(List<ClaimState> claims) {
    return claims.stream().map(ClaimState::getName).collect(Collectors.joining(", "));
  }

  private static boolean less(Quantity a, Quantity b) {
    return a == null || a.getNumericalAmount().compareTo(b.getNumericalAmount()) < 0;
  }
}
