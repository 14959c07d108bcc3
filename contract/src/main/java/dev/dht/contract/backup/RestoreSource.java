package dev.dht.contract.backup;

/**
 * What a new cluster restores: a complete backup ({@code backup}, its id) in an object store. The
 * operator writes it as JSON into the ConfigMap of a cluster created from a backup.
 */
public record RestoreSource(ObjectStoreSettings store, String backup) {
  public static final int MAX_BYTES = ObjectStoreSettings.MAX_BYTES;

  public RestoreSource {
    if (store == null) {
      throw new IllegalArgumentException("a restore needs the object store");
    }
    BackupIds.require(backup);
  }

  public String toJson() {
    return BackupJson.write(this);
  }

  public static RestoreSource parse(String json) {
    if (json.length() > MAX_BYTES) {
      throw new IllegalArgumentException("restore source over " + MAX_BYTES + " bytes");
    }
    return BackupJson.read(json, RestoreSource.class);
  }
}
