package dev.dht.contract.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackupDocumentsTest {
  @Test
  void settingsRoundTripWithDefaults() {
    var settings =
        ObjectStoreSettings.parse(
            "{\"endpoint\":\"http://store:8333\",\"bucket\":\"dht-backups\",\"prefix\":\"ns/c1\","
                + "\"pathStyle\":true,\"credentialsDir\":\"/etc/dht/store\"}");
    assertThat(settings.region()).isEqualTo("us-east-1");
    assertThat(settings.uploadBytesPerSecond()).isZero();
    assertThat(settings.key("files/ab/x")).isEqualTo("ns/c1/files/ab/x");
    assertThat(ObjectStoreSettings.parse(settings.toJson())).isEqualTo(settings);
    var root = new ObjectStoreSettings(null, "eu-west-1", "b12", "", false, null, 5);
    assertThat(root.key("backups/x")).isEqualTo("backups/x");
  }

  @Test
  void settingsRefuseWhatWouldEscapeOrMisdirect() {
    for (String bad :
        List.of(
            "{\"bucket\":\"B\"}",
            "{\"bucket\":\"ok-bucket\",\"prefix\":\"/abs\"}",
            "{\"bucket\":\"ok-bucket\",\"prefix\":\"a/../b\"}",
            "{\"bucket\":\"ok-bucket\",\"prefix\":\"a//b\"}",
            "{\"bucket\":\"ok-bucket\",\"endpoint\":\"file:///etc\"}",
            "{\"bucket\":\"ok-bucket\",\"uploadBytesPerSecond\":-1}",
            "{\"bucket\":\"ok-bucket\",\"surprise\":1}",
            "not json")) {
      assertThatThrownBy(() -> ObjectStoreSettings.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not valid object store settings");
    }
  }

  @Test
  void backupIdsAreNamesThatStayInTheirFolder() {
    assertThat(BackupIds.require("nightly-2026-11-26.1")).isEqualTo("nightly-2026-11-26.1");
    for (String bad : List.of("", "..", "a/b", "A", "-a", "a..b", "x".repeat(254))) {
      assertThatThrownBy(() -> BackupIds.require(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aSummaryOfAnotherFormatIsRefused() {
    var summary =
        new BackupSummary(1, "b", 3, List.of("http://a:1"), 3, 10, 20, 30, 4, 500, 4, 500, null);
    assertThat(BackupSummary.parse(summary.toJson())).isEqualTo(summary);
    assertThatThrownBy(
            () -> BackupSummary.parse(summary.toJson().replace("\"format\":1", "\"format\":3")))
        .hasMessageContaining("format 3 is not one this version reads (1 or 2)");
  }

  @Test
  void aSummaryKeepsItsMembersZonesAndOneWrittenBeforeZonesHasNone() {
    var members = List.of("http://a:1", "http://b:1", "http://c:1");
    var zoned =
        new BackupSummary(
            2, "b", 3, members, 3, 10, 20, 30, 4, 500, 4, 500, Arrays.asList("z1", null, "z2"));
    assertThat(BackupSummary.parse(zoned.toJson())).isEqualTo(zoned);
    assertThat(zoned.memberZones()).containsExactly("z1", null, "z2");
    String before =
        new BackupSummary(1, "b", 3, members, 3, 10, 20, 30, 4, 500, 4, 500, null)
            .toJson()
            .replace(",\"zones\":null", "");
    assertThat(before).doesNotContain("zones");
    assertThat(BackupSummary.parse(before).memberZones()).containsExactly(null, null, null);
    assertThatThrownBy(() ->
            new BackupSummary(2, "b", 3, members, 3, 10, 20, 30, 4, 500, 4, 500, List.of("z")))
        .hasMessageContaining("3 members, 1 zones");
    // a node before zones reads format 1 only: it refuses a backup it would place without them
    assertThatThrownBy(
            () -> BackupSummary.parse(zoned.toJson().replace("\"format\":2", "\"format\":1")))
        .hasMessageContaining("format 1 with zones");
    assertThatThrownBy(
            () -> new BackupSummary(2, "b", 3, members, 3, 10, 20, 30, 4, 500, 4, 500, null))
        .hasMessageContaining("format 2 without zones");
  }

  @Test
  void aRestoreSourceNamesAValidBackup() {
    var store = new ObjectStoreSettings(null, null, "bucket", "p", true, null, 0);
    var source = new RestoreSource(store, "b-1");
    assertThat(RestoreSource.parse(source.toJson())).isEqualTo(source);
    assertThatThrownBy(() -> new RestoreSource(store, "../x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RestoreSource(null, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
