package dev.dht.operator.tls;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Whether an object was made by the operator for a given owner: it carries a controller owner
 * reference with the owner's UID. Anything else of the same name (made by hand, by another tool, or
 * left by an earlier cluster of the same name) is never adopted nor overwritten: a Secret may hold
 * keys someone else relies on.
 */
public final class OwnedSecrets {
  private OwnedSecrets() {}

  public static boolean madeFor(HasMetadata object, HasMetadata owner) {
    var references = object.getMetadata().getOwnerReferences();
    String uid = owner.getMetadata().getUid();
    return uid != null
        && references != null
        && references.stream()
            .anyMatch(reference ->
                Boolean.TRUE.equals(reference.getController())
                    && Objects.equals(uid, reference.getUid()));
  }
}
