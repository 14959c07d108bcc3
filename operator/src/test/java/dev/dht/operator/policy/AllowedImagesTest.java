package dev.dht.operator.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllowedImagesTest {
  private static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);
  private static final AllowedImages IMAGES =
      new AllowedImages(
          List.of(
              "registry.example.com/dht/",
              "localhost:5000/dht-node",
              "docker.io/library/dht:1.2",
              "mirror.example/dht@" + DIGEST));

  private static boolean allowed(String image) {
    return IMAGES.check("spec.image", image, "local/dht-node:0.1.0").isEmpty();
  }

  @Test
  void noEntryAllowsAnyImage() {
    assertThat(new AllowedImages(List.of()).check("spec.image", "any/thing:1", "op")).isEmpty();
  }

  @Test
  void aPrefixEndingInASlashAllowsEveryRepositoryBelowIt() {
    assertThat(allowed("registry.example.com/dht/node:1.4")).isTrue();
    assertThat(allowed("registry.example.com/dht/node")).isTrue();
    assertThat(allowed("registry.example.com/dht/team/node:1")).isTrue();
    assertThat(allowed("registry.example.com/dht/node@" + DIGEST)).isTrue();
    assertThat(allowed("registry.example.com/dht/node:1.4@" + DIGEST)).isTrue();
    assertThat(allowed("registry.example.com/dhtx/node:1")).as("a path boundary").isFalse();
    assertThat(allowed("registry.example.com/dht")).isFalse();
    assertThat(allowed("evil.example/registry.example.com/dht/node:1")).isFalse();
    assertThat(allowed("registry.example.com.evil/dht/node:1")).isFalse();
  }

  @Test
  void aRepositoryAllowsItsTagsAndDigestsOnly() {
    assertThat(allowed("localhost:5000/dht-node")).isTrue();
    assertThat(allowed("localhost:5000/dht-node:0.2")).isTrue();
    assertThat(allowed("localhost:5000/dht-node@" + DIGEST)).isTrue();
    assertThat(allowed("localhost:5000/dht-node-evil:0.2")).isFalse();
    assertThat(allowed("localhost:5000/dht-node/evil:0.2")).isFalse();
    assertThat(allowed("localhost:5001/dht-node:0.2")).isFalse();
  }

  @Test
  void aReferenceWithATagOrDigestAllowsExactlyThatReference() {
    assertThat(allowed("docker.io/library/dht:1.2")).isTrue();
    assertThat(allowed("docker.io/library/dht:1.3")).isFalse();
    assertThat(allowed("docker.io/library/dht")).isFalse();
    assertThat(allowed("dht:1.2")).as("compared as written, not normalised").isFalse();
    assertThat(allowed("mirror.example/dht@" + DIGEST)).isTrue();
    assertThat(allowed("mirror.example/dht:latest")).isFalse();
    assertThat(allowed("mirror.example/dht@sha256:" + "f".repeat(64))).isFalse();
  }

  @Test
  void theOperatorsOwnImageIsAlwaysAllowed() {
    assertThat(allowed("local/dht-node:0.1.0")).isTrue();
    assertThat(allowed("local/dht-node:0.0.9")).isFalse();
  }

  @Test
  void aRefusalNamesTheFieldTheImageAndTheEntries() {
    var refusal = IMAGES.check("spec.image", "evil/x:1", "op").orElseThrow();
    assertThat(refusal.reason()).isEqualTo("ImageNotAllowed");
    assertThat(refusal.message())
        .isEqualTo(
            "spec.image 'evil/x:1' is not allowed by the operator's policy: it is none of"
                + " policy.images (registry.example.com/dht/, localhost:5000/dht-node,"
                + " docker.io/library/dht:1.2, mirror.example/dht@"
                + DIGEST
                + ") nor the operator's own node image");
  }

  @Test
  void theRepositoryIsTheReferenceWithoutTagAndDigest() {
    assertThat(AllowedImages.repository("host:5000/a/b:1@" + DIGEST)).isEqualTo("host:5000/a/b");
    assertThat(AllowedImages.repository("host:5000/a/b")).isEqualTo("host:5000/a/b");
    assertThat(AllowedImages.repository("b:1")).isEqualTo("b");
    assertThat(AllowedImages.repository("b@" + DIGEST)).isEqualTo("b");
  }
}
