package dev.dht.node;

import io.vertx.core.json.JsonObject;

/** The settings a node runs with, as its admin status shows them. */
final class NodeSettings {
  private NodeSettings() {}

  static JsonObject json(NodeConfig c) {
    return new JsonObject()
        .put("nodeId", c.nodeId())
        .put("eventLoops", c.eventLoops())
        .put("storageThreads", c.storageThreads())
        .put("maxInflight", c.maxInflight())
        .put("requestTimeoutMs", c.requestTimeoutMs())
        .put("maxKeyBytes", c.maxKeyBytes())
        .put("maxValueBytes", c.maxValueBytes())
        .put("maxClockOffsetMs", c.maxClockOffsetMs())
        .put("hintWindowMs", c.hints().windowMs())
        .put("maxHintBytes", c.hints().maxBytes())
        .put("hintReplayBytesPerSecond", c.hints().replayBytesPerSecond())
        .put("repairIntervalMs", c.repair().intervalMs())
        .put("repairBytesPerSecond", c.repair().bytesPerSecond())
        .put("tombstoneGraceMs", c.repair().tombstoneGraceMs())
        .put("secured", c.clusterSecret() != null);
  }
}
