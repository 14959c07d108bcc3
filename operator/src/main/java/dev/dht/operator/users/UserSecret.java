package dev.dht.operator.users;

import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's credentials: a Secret {@code <user>-token}, owned by the user (so it goes with it),
 * holding a random 256-bit token under {@value #TOKEN}. A Secret of that name that the user does
 * not own (by UID) is never read: creating a DhtUser must not turn someone's Secret into a
 * credential. It carries the operator's managed-by label: RBAC cannot narrow the operator's list
 * and watch of Secrets, so the operator selects its own by that label.
 */
public final class UserSecret {
  /** The key of the token in the Secret. */
  public static final String TOKEN = "token";

  /** The label that names the user a Secret belongs to. */
  public static final String USER_LABEL = "dht.dev/user";

  /** The labels of the users' Secrets, which their informer selects. */
  static final String SELECTOR = "app.kubernetes.io/managed-by=dht-operator," + USER_LABEL;

  /** The name of the Secret with the token of the user {@code user}. */
  public static String nameOf(String user) {
    return user + "-token";
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private UserSecret() {}

  /** A new Secret for {@code user}, with a new token. */
  static Secret issue(DhtUser user) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    var metadata = user.getMetadata();
    return new SecretBuilder()
        .withNewMetadata()
        .withName(nameOf(metadata.getName()))
        .withNamespace(metadata.getNamespace())
        .withLabels(
            Map.of(
                USER_LABEL,
                metadata.getName(),
                "app.kubernetes.io/name",
                "dht",
                "app.kubernetes.io/managed-by",
                "dht-operator"))
        .withOwnerReferences(List.of(Owners.controller(user)))
        .endMetadata()
        .withType("Opaque")
        .withData(SecretTexts.encode(Map.of(TOKEN, token)))
        .build();
  }

  /** The token in {@code secret}, if it is {@code user}'s own (owned by its UID) and has one. */
  public static Optional<String> token(Secret secret, DhtUser user) {
    if (secret == null || !Owners.isControlledBy(secret, user)) {
      return Optional.empty();
    }
    return Optional.ofNullable(SecretTexts.text(secret, TOKEN))
        .map(String::strip)
        .filter(token -> !token.isEmpty());
  }

  /** Whether {@code secret} is {@code user}'s own. */
  static boolean ownedBy(Secret secret, DhtUser user) {
    return Owners.isControlledBy(secret, user);
  }
}
