package dev.dht.node.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataIdentityTest {
  private static final String SELF = "http://demo-1.demo-peers:8080";

  @TempDir Path dir;

  @Test
  void whatANodeStartsOn() {
    var recorded = new DataIdentity(SELF, 4);
    assertThat(DataIdentity.classify(false, recorded, SELF, 4)).isEqualTo(DataIdentity.Start.EMPTY);
    assertThat(DataIdentity.classify(true, recorded, SELF, 4))
        .isEqualTo(DataIdentity.Start.CONTINUOUS);
    assertThat(DataIdentity.classify(true, null, SELF, 9))
        .as("a directory of a version that kept no identity")
        .isEqualTo(DataIdentity.Start.CONTINUOUS);
    assertThat(DataIdentity.classify(true, recorded, SELF, 7))
        .as("the membership changed since it was last a member")
        .isEqualTo(DataIdentity.Start.RETURNING);
    assertThat(DataIdentity.classify(true, recorded, "http://demo-2.demo-peers:8080", 4))
        .isEqualTo(DataIdentity.Start.FOREIGN);
  }

  @Test
  void isWrittenAndReadBackAndTakenForAnotherMembersWhenUnreadable() throws Exception {
    assertThat(DataIdentity.read(dir)).isNull();
    new DataIdentity(SELF, 12).write(dir);
    assertThat(DataIdentity.read(dir)).isEqualTo(new DataIdentity(SELF, 12));
    Files.writeString(dir.resolve(DataIdentity.FILE), "self x\nepoch twelve\n");
    assertThat(DataIdentity.read(dir)).isEqualTo(DataIdentity.UNREADABLE);
    Files.writeString(dir.resolve(DataIdentity.FILE), "epoch 3\n");
    assertThat(DataIdentity.classify(true, DataIdentity.read(dir), SELF, 3))
        .isEqualTo(DataIdentity.Start.FOREIGN);
  }
}
