package dev.dht.operator.volumes;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How a cluster's node volumes reach spec.storage.size: which claims to ask the larger size of, and
 * where each one stands. Volumes never shrink. Pure.
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
   * Where the volumes stand once the claims of {@link #toExpand} were asked: the status and the
   * condition ({@code template}: the size the StatefulSet's claim template gives, null without a
   * StatefulSet). {@code refused}: the claims the apiserver refused, with its reason; the others of
   * {@code toExpand} now ask {@code wanted}.
   */
  public static Outcome after(
      Quantity wanted,
      List<Claim> claims,
      List<String> asked,
      Map<String, String> refused,
      Quantity template) {
    var states = new ArrayList<ClaimState>();
    for (var claim : claims) {
      var now =
          asked.contains(claim.name()) && !refused.containsKey(claim.name())
              ? claim.asking(wanted)
              : claim;
      states.add(state(now, wanted, refused.get(now.name())));
    }
    var status =
        StorageStatus.builder()
            .size(wanted.toString())
            .templateSize(template == null ? null : template.toString())
            .claims(states)
            .build();
    return new Outcome(status, condition(wanted, states));
  }

  /** The status, and the condition (null without a bound claim). */
  public record Outcome(StorageStatus status, Verdict condition) {}

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

  /** Over the bound claims: one not bound yet is asked the size once it is. */
  private static Verdict condition(Quantity wanted, List<ClaimState> all) {
    var claims = all.stream().filter(c -> c.getPhase() != ClaimState.Phase.Unbound).toList();
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
              + ". A claim grows only if its StorageClass allows expansion (allowVolumeExpansion:"
              + " true); until it does, set spec.storage.size back to "
              + first.getRequested()
              + ", or restore a backup into a cluster on a class that does");
    }
    var behind = claims.stream().filter(c -> c.getPhase() != ClaimState.Phase.AtSize).toList();
    if (behind.isEmpty()) {
      return new Verdict(
          true, "AtSize", "every bound claim (" + claims.size() + ") holds " + wanted + " or more");
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
