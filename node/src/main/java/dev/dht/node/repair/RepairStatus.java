package dev.dht.node.repair;

import dev.dht.contract.AdminStatus;

/**
 * What this node's repair is doing and has done, as the admin endpoint and the metrics show it.
 * Written by the repairer's event loop only, read from anywhere.
 */
public final class RepairStatus {
  volatile boolean running;
  volatile long runs;
  volatile long failedRuns;
  volatile long startedMillis;
  volatile long lastCompletedMillis;
  volatile long lastDurationMs;
  volatile String lastError;
  volatile String peer;
  volatile int peersDone;
  volatile int peers;
  volatile long bucketsDiffering;
  volatile long keysReceived;
  volatile long bytesReceived;
  volatile long tombstonesPurged;
  volatile long nextRunMillis;
  volatile long epoch = -1;
  volatile long streamedEpoch = -1;
  volatile long repairedSinceMillis = TombstoneHorizon.NEVER;

  /** The membership epoch a stream last completed for; -1 if none. */
  public long streamedEpoch() {
    return streamedEpoch;
  }

  /**
   * When the last run that reached every peer began (wall-clock millis; {@link
   * TombstoneHorizon#NEVER} if none): this node holds every record its peers held then.
   */
  public long repairedSinceMillis() {
    return repairedSinceMillis;
  }

  public boolean running() {
    return running;
  }

  public long runs() {
    return runs;
  }

  public long failedRuns() {
    return failedRuns;
  }

  /** Wall-clock ms of the end of the last run that reached every peer; 0 if none yet. */
  public long lastCompletedMillis() {
    return lastCompletedMillis;
  }

  /** Peers done in the current run, as a fraction (1 when idle). */
  public double progress() {
    return running && peers > 0 ? (double) peersDone / peers : 1.0;
  }

  public long keysReceived() {
    return keysReceived;
  }

  public long bytesReceived() {
    return bytesReceived;
  }

  public long tombstonesPurged() {
    return tombstonesPurged;
  }

  /** This run as the admin status shows it. */
  public AdminStatus.Run view() {
    return new AdminStatus.Run(
        running ? AdminStatus.RUNNING : AdminStatus.IDLE,
        runs,
        failedRuns,
        startedMillis,
        lastCompletedMillis,
        lastDurationMs,
        lastError,
        peer,
        peersDone,
        peers,
        progress(),
        bucketsDiffering,
        keysReceived,
        bytesReceived,
        tombstonesPurged,
        nextRunMillis,
        epoch,
        streamedEpoch);
  }
}
