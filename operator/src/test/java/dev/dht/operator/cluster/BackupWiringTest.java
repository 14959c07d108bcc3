package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.NodeFlags;
import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.BootstrapSpec;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.RestoreState;
import org.junit.jupiter.api.Test;

class BackupWiringTest {
  private static final ObjectStoreSpec STORE =
      ObjectStoreSpec.builder()
          .endpoint("http://seaweedfs.storage:8333")
          .bucket("dht-backups")
          .credentialsSecret("store-keys")
          .build();

  @Test
  void aClusterWithoutBackupsGetsNoFileNoFlagAndNoMount() {
    var model = Clusters.model(Clusters.cluster("demo", "prod", 3));
    assertThat(model.backups()).isEqualTo(BackupWiring.NONE);
    assertThat(ConfigMapDependent.build(model).getData()).containsOnlyKeys("members");
    assertThat(NodePodTemplate.args(model))
        .noneMatch(a -> a.startsWith(NodeFlags.BACKUP_STORE_FILE))
        .noneMatch(a -> a.startsWith(NodeFlags.RESTORE_FILE));
  }

  @Test
  void specBackupIsAStoreFileUnderNamespaceAndClusterWithItsSecretMounted() {
    var cluster = Clusters.cluster("demo", "prod", 3);
    cluster.getSpec().setBackup(BackupSpec.builder().objectStore(STORE).build());
    var model = Clusters.model(cluster);
    var settings =
        ObjectStoreSettings.parse(
            ConfigMapDependent.build(model).getData().get("backup-store.json"));
    assertThat(settings.prefix()).isEqualTo("prod/demo");
    assertThat(settings.pathStyle()).as("an endpoint: path style by default").isTrue();
    assertThat(settings.credentialsDir()).isEqualTo(BackupWiring.STORE_CREDENTIALS_DIR);
    assertThat(settings.uploadBytesPerSecond()).isEqualTo(20L << 20);
    assertThat(NodePodTemplate.args(model))
        .contains(NodeFlags.BACKUP_STORE_FILE + "=/etc/dht/backup-store.json");
    var container = NodePodTemplate.nodeContainer(model);
    assertThat(container.getVolumeMounts())
        .anyMatch(m -> m.getMountPath().equals(BackupWiring.STORE_CREDENTIALS_DIR));
  }

  @Test
  void aPathTheNodesWouldRefuseIsAProblemNotAStore() {
    var cluster = Clusters.cluster("demo", "prod", 3);
    cluster
        .getSpec()
        .setBackup(
            BackupSpec.builder().objectStore(STORE.toBuilder().path("a/../b").build()).build());
    var model = Clusters.model(cluster);
    var wiring = model.backups();
    assertThat(wiring.store()).isNull();
    assertThat(wiring.storeProblem()).contains("prefix");
    assertThat(ConfigMapDependent.build(model).getData()).doesNotContainKey("backup-store.json");
    cluster.getSpec().setBackup(BackupSpec.builder().objectStore(STORE).build());
    assertThat(NodePodTemplate.revision(Clusters.model(cluster)))
        .as("fixing the path restarts nothing: the flag and the mount were there")
        .isEqualTo(NodePodTemplate.revision(model));
  }

  @Test
  void theRestoreFileIsThereUntilTheRestoreCompletedTheFlagAndMountStay() {
    var cluster = Clusters.cluster("copy", "prod", 5);
    cluster
        .getSpec()
        .setBootstrap(
            BootstrapSpec.builder()
                .backup(BootstrapSpec.Source.builder().name("nightly").build())
                .build());
    var unresolved = Clusters.model(cluster);
    assertThat(unresolved.backups().restoreFlag()).isTrue();
    assertThat(unresolved.backups().restore()).isNull();

    var state =
        RestoreState.builder()
            .backup("nightly")
            .objectStore(STORE.toBuilder().path("prod/orig").build())
            .phase(RestoreState.RESTORING)
            .build();
    var restoring = unresolved.withRestore(state);
    var source =
        RestoreSource.parse(ConfigMapDependent.build(restoring).getData().get("restore.json"));
    assertThat(source.backup()).isEqualTo("nightly");
    assertThat(source.store().prefix()).isEqualTo("prod/orig");
    assertThat(source.store().credentialsDir()).isEqualTo(BackupWiring.RESTORE_CREDENTIALS_DIR);

    var done = unresolved.withRestore(state.toBuilder().phase(RestoreState.COMPLETED).build());
    assertThat(ConfigMapDependent.build(done).getData()).doesNotContainKey("restore.json");
    assertThat(NodePodTemplate.args(done))
        .contains(NodeFlags.RESTORE_FILE + "=/etc/dht/restore.json");
    assertThat(NodePodTemplate.revision(done)).isEqualTo(NodePodTemplate.revision(restoring));
  }
}
