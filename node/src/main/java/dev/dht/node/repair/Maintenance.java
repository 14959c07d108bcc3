package dev.dht.node.repair;

import io.vertx.core.json.JsonObject;

/**
 * A node's background upkeep as its admin endpoint sees it: anti-entropy repair, streaming for a
 * membership transition, cleanup after one, and the settings the node runs with.
 */
public record Maintenance(
    Repairer repairer, Repairer streamer, Cleanup cleanup, JsonObject settings) {}
