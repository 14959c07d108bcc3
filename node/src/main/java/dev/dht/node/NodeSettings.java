package dev.dht.node;

import dev.dht.contract.AdminStatus;

/** The settings a node runs with, as its admin status shows them. */
final class NodeSettings {
  private NodeSettings() {}

  static AdminStatus.Settings of(NodeConfig c) {
    return new AdminStatus.Settings(
        c.nodeId(),
        c.eventLoops(),
        c.storageThreads(),
        c.maxInflight(),
        c.requestTimeoutMs(),
        c.maxKeyBytes(),
        c.maxValueBytes(),
        c.maxClockOffsetMs(),
        c.hints().windowMs(),
        c.hints().maxBytes(),
        c.hints().replayBytesPerSecond(),
        c.repair().intervalMs(),
        c.repair().bytesPerSecond(),
        c.repair().tombstoneGraceMs(),
        c.clusterSecret() != null);
  }
}
