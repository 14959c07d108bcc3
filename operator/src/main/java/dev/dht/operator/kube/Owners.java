package dev.dht.operator.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.Optional;

/**
 * The controller owner reference that lets the garbage collector delete an object with its owner,
 * and the checks that an object belongs to a given owner: by its UID, which a label or a name
 * cannot fake (any tenant can set labels, and a name can be taken before the owner exists).
 */
public final class Owners {
  private Owners() {}

  public static OwnerReference controller(HasMetadata owner) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withController(true)
        .build();
  }

  /**
   * Whether {@code object} has an owner reference to {@code owner}, this very object (its UID, not
   * its name). Whoever creates an object may write any owner reference, so this says the creator
   * knew the owner's UID: true of what the operator made for the owner, false of an object that
   * existed before the owner (a UID is only known once the owner exists). The controller flag is
   * not asked for: objects the operator made through JOSDK's dependents carry a reference without
   * it.
   */
  public static boolean isOwnedBy(HasMetadata object, HasMetadata owner) {
    return reference(object, owner).isPresent();
  }

  /** As {@link #isOwnedBy}, and {@code owner} is the controller (as the Job controller sets it). */
  public static boolean isControlledBy(HasMetadata object, HasMetadata owner) {
    return reference(object, owner).filter(r -> Boolean.TRUE.equals(r.getController())).isPresent();
  }

  private static Optional<OwnerReference> reference(HasMetadata object, HasMetadata owner) {
    String uid = owner.getMetadata().getUid();
    var references = object.getMetadata().getOwnerReferences();
    if (uid == null || references == null) {
      return Optional.empty();
    }
    return references.stream()
        .filter(r -> uid.equals(r.getUid()) && owner.getKind().equals(r.getKind()))
        .findFirst();
  }
}
