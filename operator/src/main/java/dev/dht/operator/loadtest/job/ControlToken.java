package dev.dht.operator.loadtest.job;

import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.loadtest.DhtLoadTest;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The token of a test's generator control ports: a Secret {@code <test>-control} that the operator
 * makes before the Job, owned by the test (garbage-collected with it), with a random 256-bit token
 * under {@value #KEY}. The generator pods mount it and demand it on every control request but
 * {@code /metrics}; the operator sends it. A Secret of that name the test does not control (by UID:
 * made by someone else, e.g. before the test) is neither read nor overwritten: the test waits
 * ({@value #NOT_OWNED}) until it is gone, since its maker would know the token.
 */
public final class ControlToken {
  /** The key of the token in the Secret. */
  public static final String KEY = "token";

  /** TargetReady's reason while a Secret of the name is someone else's. */
  public static final String NOT_OWNED = "ControlSecretNotOwned";

  /** TargetReady's reason while the test's own Secret is not usable (no token, just deleted). */
  public static final String NOT_READY = "ControlSecretNotReady";

  /** Why the Job cannot be made yet: a TargetReady reason and message. */
  public record Waiting(String reason, String message) {}

  private static final String SUFFIX = "-control";
  private static final SecureRandom RANDOM = new SecureRandom();

  private ControlToken() {}

  /** The name of the test's control Secret. */
  public static String secretName(String testName) {
    return testName + SUFFIX;
  }

  /** A new random token: 32 bytes, base64url without padding (43 characters). */
  static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The Secret for {@code test} holding {@code token}: the test's labels, owned by it. Pure. */
  static Secret desired(DhtLoadTest test, String token) {
    String name = test.getMetadata().getName();
    return new SecretBuilder()
        .withNewMetadata()
        .withName(secretName(name))
        .withNamespace(test.getMetadata().getNamespace())
        .withLabels(LoadTestModel.labels(name))
        .withOwnerReferences(Owners.controller(test))
        .endMetadata()
        .withType("Opaque")
        .withData(SecretTexts.encode(Map.of(KEY, token)))
        .build();
  }

  /**
   * The token in {@code secret}, if the Secret is {@code test}'s own (by UID) and holds one. Pure.
   */
  static Optional<String> tokenOf(Secret secret, DhtLoadTest test) {
    if (secret == null || !Owners.isControlledBy(secret, test)) {
      return Optional.empty();
    }
    return Optional.ofNullable(SecretTexts.text(secret, KEY))
        .map(String::strip)
        .filter(token -> !token.isEmpty());
  }

  /**
   * Makes the test's Secret if there is none; null once the test's own Secret holds a token, else
   * why the Job cannot be made.
   */
  public static Waiting notReady(KubernetesClient client, DhtLoadTest test) {
    var secrets = client.secrets().inNamespace(test.getMetadata().getNamespace());
    String name = secretName(test.getMetadata().getName());
    var found = secrets.withName(name).get();
    if (found == null) {
      try {
        secrets.resource(desired(test, newToken())).create();
        return null;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        // made meanwhile, by whom its owner reference says
        found = secrets.withName(name).get();
      }
    }
    if (found == null) {
      return new Waiting(
          NOT_READY, "Secret " + name + " was made and deleted again meanwhile; making it anew");
    }
    if (!Owners.isControlledBy(found, test)) {
      return new Waiting(
          NOT_OWNED,
          "a Secret named "
              + name
              + " exists and is not this test's (the operator makes it, with the generators'"
              + " control token, and never takes one it did not make): delete or rename it");
    }
    if (tokenOf(found, test).isEmpty()) {
      return new Waiting(
          NOT_READY,
          "Secret "
              + name
              + " holds no token under '"
              + KEY
              + "': delete it, and a new one is made");
    }
    return null;
  }

  /**
   * The token of {@code test}'s own Secret; empty if it is gone or is not the test's: then no token
   * is sent, never one from a Secret the operator did not make.
   */
  public static Optional<String> read(KubernetesClient client, DhtLoadTest test) {
    return tokenOf(
        client
            .secrets()
            .inNamespace(test.getMetadata().getNamespace())
            .withName(secretName(test.getMetadata().getName()))
            .get(),
        test);
  }
}
