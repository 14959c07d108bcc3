package dev.dht.node.replication;

import dev.dht.node.storage.Record;

/**
 * One operation on a replica: read a key ({@code record} null), read only its version ({@code
 * digest}: answered with the record's header, no value), or store a record. Answered with the
 * replica's record for a read (null: none), with null for a write.
 */
public record ReplicaOp(byte[] key, Record record, boolean digest) {
  public static ReplicaOp read(byte[] key) {
    return new ReplicaOp(key, null, false);
  }

  public static ReplicaOp digest(byte[] key) {
    return new ReplicaOp(key, null, true);
  }

  public static ReplicaOp write(byte[] key, Record record) {
    return new ReplicaOp(key, record, false);
  }

  public boolean isWrite() {
    return record != null;
  }
}
