package dev.dht.node.repair;

import dev.dht.contract.AdminStatus;
import dev.dht.node.backup.NodeBackups;
import dev.dht.node.bootstrap.DataState;
import dev.dht.node.hints.HintStore;
import dev.dht.node.profiling.Profiler;
import dev.dht.node.storage.Storage;

/**
 * A node's background upkeep as its admin endpoint sees it: anti-entropy repair, streaming for a
 * membership transition, cleanup after one, how far tombstones are purged, the hints it holds for
 * others, its storage and whether it serves reads yet, its backups and restore, the profiler, and
 * the settings the node runs with.
 */
public record Maintenance(
    Repairer repairer,
    Repairer streamer,
    TombstoneHorizon tombstones,
    Cleanup cleanup,
    HintStore hints,
    Storage storage,
    DataState data,
    NodeBackups backups,
    Profiler profiler,
    AdminStatus.Settings settings) {}
