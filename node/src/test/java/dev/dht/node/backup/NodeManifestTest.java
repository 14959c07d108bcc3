package dev.dht.node.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeManifestTest {
  private static final String SHA = "ab" + "0".repeat(62);

  @Test
  void roundTripsAndNamesFilesByContent() {
    var manifest =
        new NodeManifest(
            1,
            "b",
            1,
            7,
            List.of("http://a:1", "http://b:2"),
            2,
            100,
            200,
            300,
            List.of(new NodeManifest.File("000012.sst", SHA, 4096)),
            1,
            4096);
    assertThat(NodeManifest.parse(manifest.toJson())).isEqualTo(manifest);
    assertThat(manifest.bytes()).isEqualTo(4096);
    assertThat(BackupLayout.file(SHA)).isEqualTo("files/ab/" + SHA);
    assertThat(BackupLayout.manifest("b", 1)).isEqualTo("backups/b/nodes/1.json");
    assertThat(BackupLayout.backupOf("backups/b/nodes/1.json")).isEqualTo("b");
    assertThat(BackupLayout.backupOf("files/ab/" + SHA)).isNull();
  }

  @Test
  void aManifestCannotNameAFileOutsideItsCheckpoint() {
    for (String name : List.of("../CURRENT", "a/b", "", "..")) {
      assertThatThrownBy(() -> new NodeManifest.File(name, SHA, 1))
          .as(name)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> new NodeManifest.File("x.sst", "../../etc", 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() ->
            NodeManifest.parse(
                "{\"format\":1,\"backup\":\"b\",\"member\":2,\"members\":[\"x\"],\"files\":[]}"))
        .hasMessageContaining("member 2 of 1");
  }
}
