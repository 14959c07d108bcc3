package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.LoadTests;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ArtifactsTest {
  private static final DhtLoadTest TEST = LoadTests.test("put-10k", "demo");

  private static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes); // incompressible
    return bytes;
  }

  @Test
  void aSmallArtifactIsOneCompressedConfigMapOwnedByTheTest() {
    byte[] html = "<html>flame</html>".repeat(10_000).getBytes(StandardCharsets.UTF_8);
    var stored =
        Artifacts.build(
            TEST, List.of(new Artifacts.Artifact("flame demo-0 cpu.html", "text/html", html)));
    assertThat(stored.left()).isEmpty();
    assertThat(stored.configMaps())
        .singleElement()
        .satisfies(map -> {
          assertThat(map.getMetadata().getName())
              .isEqualTo("put-10k-artifact-flame-demo-0-cpu-html-0");
          assertThat(map.getMetadata().getOwnerReferences().getFirst().getUid())
              .isEqualTo("uid-put-10k");
          assertThat(map.getMetadata().getAnnotations())
              .containsEntry("dht.dev/artifact-part", "0/1");
          assertThat(map.getBinaryData().get("part.gz").length())
              .as("compressed")
              .isLessThan(html.length / 10);
        });
    assertThat(Artifacts.read(stored.configMaps())).isEqualTo(html);
  }

  @Test
  void aLargeArtifactIsSplitIntoPartsBelowTheConfigMapLimitAndReadBackWhole() {
    byte[] big = random(2_500_000, 1);
    var stored =
        Artifacts.build(
            TEST, List.of(new Artifacts.Artifact("big.bin", "application/octet-stream", big)));
    assertThat(stored.configMaps()).hasSize(3);
    for (var map : stored.configMaps()) {
      int decoded = java.util.Base64.getDecoder().decode(map.getBinaryData().get("part.gz")).length;
      assertThat(decoded).isLessThanOrEqualTo(Artifacts.PART_BYTES);
      assertThat(decoded).isLessThan(1024 * 1024);
    }
    var shuffled = new ArrayList<>(stored.configMaps());
    Collections.shuffle(shuffled, new Random(7));
    assertThat(Artifacts.read(shuffled)).isEqualTo(big);
  }

  @Test
  void artifactsBeyondTheTotalLimitAreLeftOutAndSaidSo() {
    var artifacts = new ArrayList<Artifacts.Artifact>();
    for (int i = 0; i < 5; i++) {
      artifacts.add(
          new Artifacts.Artifact("part-" + i, "application/octet-stream", random(4_000_000, i)));
    }
    var stored = Artifacts.build(TEST, artifacts);
    assertThat(stored.left())
        .hasSize(1)
        .first()
        .asString()
        .startsWith("part-4 (")
        .contains("16 MiB");
    long kept =
        stored.configMaps().stream()
            .mapToLong(
                m -> java.util.Base64.getDecoder().decode(m.getBinaryData().get("part.gz")).length)
            .sum();
    assertThat(kept).isLessThanOrEqualTo(Artifacts.MAX_TOTAL_BYTES);
  }

  /** Part ConfigMaps as someone who may write ConfigMaps in the namespace could make them. */
  private static io.fabric8.kubernetes.api.model.ConfigMap part(int index, int count, byte[] gz) {
    var map = new io.fabric8.kubernetes.api.model.ConfigMap();
    map.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("put-10k-artifact-bomb-html-" + index)
            .withAnnotations(java.util.Map.of("dht.dev/artifact-part", index + "/" + count))
            .build());
    map.setBinaryData(
        java.util.Map.of("part.gz", java.util.Base64.getEncoder().encodeToString(gz)));
    return map;
  }

  /**
   * A gigabyte of zeros in two parts of about half a megabyte: unpacking stops at the 16 MiB an
   * artifact may have, having allocated about that, not the gigabyte.
   */
  @Test
  void aGzipBombInAnArtifactStopsAtTheCap() {
    byte[] bomb = dev.dht.operator.bounded.GzipBombs.zeros(1024);
    int half = bomb.length / 2;
    var parts =
        List.of(
            part(1, 2, java.util.Arrays.copyOfRange(bomb, half, bomb.length)),
            part(0, 2, java.util.Arrays.copyOf(bomb, half)));

    long before = dev.dht.operator.bounded.Allocations.ofThisThread();
    assertThatThrownBy(() -> Artifacts.read(parts))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasRootCauseInstanceOf(dev.dht.operator.bounded.TooLargeException.class)
        .hasMessageContaining("the artifact (uncompressed) is larger than the 16 MiB");
    long allocated = dev.dht.operator.bounded.Allocations.ofThisThread() - before;
    assertThat(allocated).isLessThan(3L * Artifacts.MAX_ARTIFACT_BYTES + 8L * bomb.length);
  }

  @Test
  void partsThatDoNotMakeOneArtifactAreRefused() {
    byte[] gz = "x".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Artifacts.read(List.of(part(0, 2, gz))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Artifacts.read(List.of(part(0, 2, gz), part(0, 2, gz))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Artifacts.read(List.of(part(0, 500, gz))))
        .as("more parts than a test's artifacts can fill")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 19 parts");
    assertThatThrownBy(() -> Artifacts.read(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anArtifactOverItsCapIsLeftOutAndSaidSo() {
    byte[] huge = new byte[Artifacts.MAX_ARTIFACT_BYTES + 1];
    var stored =
        Artifacts.build(TEST, List.of(new Artifacts.Artifact("huge.html", "text/html", huge)));
    assertThat(stored.configMaps()).isEmpty();
    assertThat(stored.left()).singleElement().asString().contains("16 MiB an artifact may have");
  }
}
