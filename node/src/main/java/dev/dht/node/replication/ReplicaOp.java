package dev.dht.node.replication;

import dev.dht.node.storage.Record;

/**
 * One operation on a replica: read a key ({@code record} null) or store a record. Answered with the
 * replica's record for a read (null: none), with null for a write.
 */
public record ReplicaOp(byte[] key, Record record) {
  public static ReplicaOp read(byte[] key) {
    return new ReplicaOp(key, null);
  }

  public static ReplicaOp write(byte[] key, Record record) {
    return new ReplicaOp(key, record);
  }

  public boolean isWrite() {
    return record != null;
  }
}
