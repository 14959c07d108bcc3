package dev.dht.operator.policy;

import java.util.List;
import java.util.Optional;

/**
 * policy.images: the images a DhtCluster's spec.image may name. Each entry is one of
 *
 * <ul>
 *   <li>a repository prefix, ending in {@code /}: {@code registry.example.com/dht/} allows every
 *       image whose repository starts with it, whatever its tag or digest;
 *   <li>a repository: {@code registry.example.com/dht/node} allows it with any tag or digest;
 *   <li>a reference with a tag and/or a digest: {@code registry.example.com/dht/node:1.4} or {@code
 *       ...@sha256:...} allows exactly that reference.
 * </ul>
 *
 * References are compared as written, not normalised: {@code local/x} and {@code docker.io/local/x}
 * are different to the policy. None (the chart's default): any image. Pure.
 */
public record AllowedImages(List<String> entries) {
  public static final String VALUE = "policy.images";

  public AllowedImages {
    entries = List.copyOf(entries);
  }

  /**
   * Why {@code image} (of {@code field}, for the message) may not run, if it may not; {@code
   * operatorImage}, the operator's own node image, always may.
   */
  public Optional<Refusal> check(String field, String image, String operatorImage) {
    if (entries.isEmpty()
        || image.equals(operatorImage)
        || entries.stream().anyMatch(e -> allows(e, image))) {
      return Optional.empty();
    }
    return Optional.of(
        new Refusal(
            Refusal.IMAGE_NOT_ALLOWED,
            field
                + " "
                + Refusal.quote(image)
                + " is not allowed by the operator's policy: it is none of "
                + VALUE
                + " ("
                + String.join(", ", entries)
                + ") nor the operator's own node image"));
  }

  private static boolean allows(String entry, String image) {
    if (entry.endsWith("/")) {
      return repository(image).startsWith(entry);
    }
    if (!repository(entry).equals(entry)) {
      return image.equals(entry); // a tag or digest: exactly this reference
    }
    return repository(image).equals(entry);
  }

  /**
   * The reference without its tag and digest ({@code host:5000/a/b:1@sha256:..} → host:5000/a/b).
   */
  static String repository(String reference) {
    int at = reference.indexOf('@');
    String name = at < 0 ? reference : reference.substring(0, at);
    int colon = name.lastIndexOf(':');
    return colon > name.lastIndexOf('/') ? name.substring(0, colon) : name;
  }
}
