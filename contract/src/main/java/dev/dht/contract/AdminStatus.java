package dev.dht.contract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;

/**
 * A node's {@code GET /v0/admin/status}: the membership it runs with, its default ack/from, its
 * repair, stream and clean-up, the hints it holds for others, its storage's size, the fingerprints
 * of the cluster secrets it sends and accepts, its settings, whether it serves reads yet, and
 * whether its clock is fenced, and its client authentication: {@code usersRevision}, the revision
 * of the {@link UsersDocument} in force (null: the node reads none), and {@code authentication},
 * {@code required} or {@code none} (null: a node older than client authentication); and the {@code
 * features} the node understands in what the operator gives it ({@link #ZONES}: zones in the
 * members file; null: a node older than features). The node writes it and the operator reads it,
 * both through {@link #toJson()} and {@link #fromJson(String)}; fields a reader does not know are
 * ignored, so that nodes and operators of neighbouring versions understand each other during an
 * upgrade.
 */
public record AdminStatus(
    String self,
    long epoch,
    boolean inTransition,
    String readFrom,
    List<Member> members,
    int defaultAck,
    int defaultFrom,
    Run repair,
    Run stream,
    CleanupRun cleanup,
    Hints hints,
    StorageSize storage,
    List<String> secretFingerprints,
    Settings settings,
    Bootstrap bootstrap,
    Tombstones tombstones,
    Clock clock,
    Long usersRevision,
    String authentication,
    List<String> features) {

  /** The feature of a node that reads its members' zones in the members file. */
  public static final String ZONES = "zones";

  /** Whether the node says it understands {@code feature}. */
  public boolean supports(String feature) {
    return features != null && features.contains(feature);
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** A run's state, as {@link Run#state()} and {@link CleanupRun#state()} spell it. */
  public static final String RUNNING = "running";

  public static final String IDLE = "idle";

  /**
   * A member URL, its state in the membership (normal, joining, leaving or lost) and its zone
   * (null: none; absent from nodes before zones).
   */
  public record Member(String url, String state, String zone) {
    public Member(String url, String state) {
      this(url, state, null);
    }
  }

  /**
   * A repair or stream run: running or idle, how many runs (and failed ones), when the current run
   * started and the last one that reached every peer completed, its peer and progress, what it
   * received and purged, when the next one runs, and the membership epoch a stream last completed
   * ({@code completedEpoch}, -1: none).
   */
  public record Run(
      String state,
      long runs,
      long failedRuns,
      long startedMillis,
      long lastCompletedMillis,
      long lastDurationMs,
      String lastError,
      String peer,
      int peersDone,
      int peers,
      double progress,
      long bucketsDiffering,
      long keysReceived,
      long bytesReceived,
      long tombstonesPurged,
      long nextRunMillis,
      long epoch,
      long completedEpoch) {
    public boolean running() {
      return RUNNING.equals(state);
    }
  }

  /** The clean-up after a change of membership: the epoch it last completed, keys it removed. */
  public record CleanupRun(
      String state, long completedEpoch, long removed, long lastCompletedMillis) {
    public boolean running() {
      return RUNNING.equals(state);
    }
  }

  /** Hints held for other nodes: in all, by target URL, and their bytes on disk. */
  public record Hints(long pending, Map<String, Long> pendingByTarget, long bytes) {}

  /**
   * Whether the node serves reads: {@code serving}, or, after a start on an empty data directory,
   * {@code deciding} (asking its peers whether any holds data) or {@code bootstrapping} (pulling
   * from them); and since when it holds data (wall-clock millis: 0 if it started on its own data,
   * else its first write; -1: none), which a peer that started empty after that may miss.
   */
  public record Bootstrap(String phase, long heldDataSinceMillis) {
    public static final String SERVING = "serving";

    public boolean serving() {
      return SERVING.equals(phase);
    }
  }

  /**
   * Tombstones: when this node's last repair run that reached every peer began ({@code 0}: never),
   * and the wall-clock millisecond before which it has purged tombstones ({@code 0}: none). A node
   * that comes back on data older than a peer's {@code purgedBeforeMillis} may hold values whose
   * deletes are gone.
   */
  public record Tombstones(long repairedSinceMillis, long purgedBeforeMillis) {}

  /**
   * Whether the node fenced itself because its clock is out by more than the maximum clock offset
   * from a majority of the peers it measured recently ({@code reason} says how far; null when not
   * fenced), its median offset to them in ms (positive: its clock is ahead), how many peers it
   * measured and how many of them are out. Null in the status of a node that predates it.
   */
  public record Clock(
      boolean fenced, long offsetMs, int peersMeasured, int peersOut, String reason) {}

  /** RocksDB's estimate of the keys, and the bytes of its SST files. */
  public record StorageSize(long estimatedKeys, long sstBytes) {}

  /** The settings the node runs with. */
  public record Settings(
      int nodeId,
      int eventLoops,
      int storageThreads,
      int maxInflight,
      long requestTimeoutMs,
      int maxKeyBytes,
      int maxValueBytes,
      long maxClockOffsetMs,
      long hintWindowMs,
      long maxHintBytes,
      long hintReplayBytesPerSecond,
      long repairIntervalMs,
      long repairBytesPerSecond,
      long tombstoneGraceMs,
      boolean secured) {}

  public String toJson() {
    return write(this);
  }

  public static AdminStatus fromJson(String json) {
    try {
      return JSON.readValue(json, AdminStatus.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not an admin status: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * One part of the status ({@link Run}, {@link CleanupRun}, ...) as JSON, for its own endpoint.
   */
  public static String write(Record part) {
    try {
      return JSON.writeValueAsString(part);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("records of plain values always serialize", e);
    }
  }
}
