package dev.dht.contract.backup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A complete backup: written to the store ({@code backups/<id>/backup.json}) once every member's
 * manifest is there and every file they list is in the store, and only then. A restore reads
 * nothing else first, and refuses a backup without it.
 *
 * @param format the layout's version: 1, or 2 with zones (so that a node before zones, which would
 *     place the copies without them, refuses to restore it)
 * @param epoch the membership epoch every member's checkpoint was taken in
 * @param members the members' URLs, in order; member i's manifest is {@code nodes/<i>.json}
 * @param from the cluster's default replication factor then
 * @param cut the earliest of the members' cuts (each member's clock when it was asked for its part,
 *     after the backup started): every write acknowledged before the backup started is in it
 * @param newest the bound of every timestamp in the backup
 * @param zones the members' zones, in member order (null for one without); null: no zones (as
 *     written before zones existed). Placement then used them: a restore must too
 */
public record BackupSummary(
    int format,
    String backup,
    long epoch,
    List<String> members,
    int from,
    long cut,
    long newest,
    long createdMillis,
    int files,
    long bytes,
    int filesUploaded,
    long bytesUploaded,
    List<String> zones) {
  public static final int FORMAT = 1;

  /** The format of a backup whose members had zones. */
  public static final int ZONED_FORMAT = 2;

  public BackupSummary {
    if (format != FORMAT && format != ZONED_FORMAT) {
      throw new IllegalArgumentException(
          "backup format "
              + format
              + " is not one this version reads ("
              + FORMAT
              + " or "
              + ZONED_FORMAT
              + ")");
    }
    if ((format == ZONED_FORMAT) != (zones != null)) {
      throw new IllegalArgumentException(
          "backup format " + format + (zones == null ? " without" : " with") + " zones");
    }
    members = List.copyOf(members == null ? List.of() : members);
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a backup has at least one member");
    }
    if (zones != null && zones.size() != members.size()) {
      throw new IllegalArgumentException(members.size() + " members, " + zones.size() + " zones");
    }
    zones = zones == null ? null : Collections.unmodifiableList(new ArrayList<>(zones)); // nulls
  }

  /** Each member's zone, null for none (all null in a backup written without zones). */
  public List<String> memberZones() {
    return zones != null ? zones : Collections.nCopies(members.size(), null);
  }

  public String toJson() {
    return BackupJson.write(this);
  }

  /** The format of a backup of members with these zones (null: none). */
  public static int format(List<String> zones) {
    return zones == null ? FORMAT : ZONED_FORMAT;
  }

  public static BackupSummary parse(String json) {
    return BackupJson.read(json, BackupSummary.class);
  }
}
