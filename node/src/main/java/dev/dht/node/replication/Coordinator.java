package dev.dht.node.replication;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import dev.dht.node.hints.HintStore;
import dev.dht.node.loop.DelayedActions;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * Runs one client request against the key's replicas: sends to all {@code from} of them in
 * parallel, answers once {@code ack} succeeded, and fails with {@link QuorumFailedException} when
 * that became impossible or the request deadline passed. Stragglers finish in the background. A
 * write that a replica failed or did not answer in time becomes a hint for that replica. One
 * instance per event loop; all callbacks of a request run on that loop.
 */
public final class Coordinator {
  /** How late a deadline may fire: the resolution of the shared deadline timer. */
  private static final long TIMER_RESOLUTION_MS = 5;

  /**
   * Why this node's own replica refused an op (the clock is fenced, or the version too far ahead).
   */
  private static final String NOT_ADMITTED =
      "this node's replica refused the op: its clock is fenced, or the version is stamped more than"
          + " the maximum clock offset ahead of it";

  /** Why a lost member's replica counts as failed without being asked. */
  private static final String LOST = "the replica is a member lost for good, being removed";

  /** How long a write that must be stamped past the clock's reservation waits for its extension. */
  private static final long RESERVATION_WAIT_MS = 2;

  private final Vertx vertx;
  private final ClusterState cluster;
  private final HybridClock clock;
  private final LocalReplica local;
  private final PeerClient peers;
  private final HintStore hints;
  private final NodeMetrics metrics;
  private final long requestTimeoutMs;
  private final DelayedActions deadlines;
  private final RecentP99 hopNanos = new RecentP99(TimeUnit.MILLISECONDS.toNanos(20));

  public Coordinator(
      Vertx vertx,
      ClusterState cluster,
      HybridClock clock,
      LocalReplica local,
      PeerClient peers,
      HintStore hints,
      NodeMetrics metrics,
      long requestTimeoutMs) {
    this.hints = hints;
    this.vertx = vertx;
    this.cluster = cluster;
    this.clock = clock;
    this.local = local;
    this.peers = peers;
    this.metrics = metrics;
    this.requestTimeoutMs = requestTimeoutMs;
    this.deadlines =
        new DelayedActions(vertx, requestTimeoutMs, TIMER_RESOLUTION_MS, System::nanoTime);
  }

  /**
   * The newest version among {@code ack} replicas; null when none has the key. The record is read
   * from one replica (this node, if it is one) and only the version from the others, {@code ack} in
   * all; a replica that fails, or has not answered within the recent p99 of peer answers, is
   * replaced by one not asked yet.
   */
  public Future<Record> read(Topology topology, byte[] key, Replication.Rings r) {
    Replication reads = topology.reads(r);
    int[] replicas = selfFirst(topology, topology.replicas(key, reads.from()));
    Call call = new Call(topology, replicas, null, ReplicaOp.read(key), r);
    call.startRead(reads.ack());
    return call.result.future();
  }

  /** A copy of {@code replicas} with this node's first, if it is one. */
  private static int[] selfFirst(Topology topology, int[] replicas) {
    int[] ordered = replicas.clone();
    for (int i = 1; i < ordered.length; i++) {
      if (topology.isSelf(ordered[i])) {
        ordered[i] = ordered[0];
        ordered[0] = replicas[i];
      }
    }
    return ordered;
  }

  /**
   * Stores {@code record} (stamped once, by the caller) on the key's replicas; in a membership
   * transition, on both rings' replicas, with each ring's {@code ack} answers needed from it.
   */
  public Future<Record> write(Topology topology, byte[] key, Record record, Replication.Rings r) {
    return fanOut(topology, topology.writeReplicas(key, r), ReplicaOp.write(key, record), r);
  }

  private Future<Record> fanOut(
      Topology topology, Topology.WriteSet targets, ReplicaOp op, Replication.Rings r) {
    Call call = new Call(topology, targets.replicas(), targets.groups(), op, r);
    for (int i = 0; i < call.replicas.length; i++) {
      call.send(i);
    }
    return call.result.future();
  }

  public ClusterState cluster() {
    return cluster;
  }

  /**
   * One request in flight: its quorum, its deadline and its result.
   *
   * <p>A write that a replica refuses because it holds a newer version (the coordinator's clock is
   * behind) is stamped again, above that version, and sent again to every replica, once: so a write
   * that starts after another one was acknowledged is ordered after it whatever the clocks, as long
   * as write quorums intersect ({@code 2·ack > from}). A replica that did not store the write, for
   * whatever reason, does not count toward {@code ack}: a newer version reported in the second
   * round (a concurrent write), or one too far ahead of this clock to be stamped above (the clock
   * refuses to stamp more than the maximum clock offset ahead of its wall clock), fails the write
   * rather than acknowledge one that a quorum read would not return.
   *
   * <p>A read keeps every replica's answer: when the quorum is reached and the answers disagree, it
   * first writes the newest version to the replicas that answered with an older one (or none), and
   * answers once {@code ack} replicas are known to hold it, so a later quorum read cannot return an
   * older version. Replicas that answer after that are repaired in the background.
   */
  private final class Call {
    final Topology topology;
    final int[] replicas;
    final int[] groups; // the rings each replica is in (null: a read, the current ring)
    final Replication.Rings replication;
    final Promise<Record> result = Promise.promise();
    final DelayedActions.Scheduled deadline;
    final long deadlineNanos;
    final Record[] records; // reads: what each replica answered
    final boolean[] answered; // reads: which replicas answered successfully
    final boolean[] digest; // reads: which replicas were asked for the version only
    int asked; // reads: replicas 0..asked-1 were asked; the others are spares
    long speculation = -1; // reads: the timer that asks a spare
    boolean fetching; // reads: the newest version's record is being fetched
    ReplicaOp op;
    Quorum quorum;
    int round; // writes: 1 once stamped again
    Record answer; // reads: the version being returned, once the quorum is reached
    int repairsPending;
    int holders; // reads: replicas known to hold the answer
    int newerVersions; // writes: replicas that kept a newer version instead

    Call(
        Topology topology,
        int[] replicas,
        int[] groups,
        ReplicaOp op,
        Replication.Rings replication) {
      this.topology = topology;
      this.replicas = replicas;
      this.groups = groups;
      this.op = op;
      this.replication = replication;
      this.quorum = newQuorum();
      this.deadline = deadlines.schedule(this::expire);
      this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs);
      this.records = op.isWrite() ? null : new Record[replicas.length];
      this.answered = op.isWrite() ? null : new boolean[replicas.length];
      this.digest = op.isWrite() ? null : new boolean[replicas.length];
    }

    /** Asks the first {@code ack} replicas: the record of the first, the version of the others. */
    void startRead(int ack) {
      int first = Math.min(ack, replicas.length);
      asked = first; // before sending: a failure answered at once asks the next spare
      for (int i = 0; i < first; i++) {
        digest[i] = i > 0;
      }
      for (int i = 0; i < first; i++) {
        send(i);
      }
      if (asked < replicas.length && !quorum.decided()) {
        long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(hopNanos.p99() + 999_999));
        speculation =
            vertx.setTimer(
                ms,
                t -> {
                  speculation = -1;
                  if (!quorum.decided()) {
                    metrics.readSpeculated();
                    askSpare();
                  }
                });
      }
    }

    /** Asks the next replica not asked yet, for its record; none left: nothing. */
    private void askSpare() {
      if (asked < replicas.length) {
        send(asked++);
      }
    }

    void send(int i) {
      int sent = round;
      ReplicaOp what = op.isWrite() || !digest[i] ? op : ReplicaOp.digest(op.key());
      call(replicas[i], what)
          .onComplete(done -> {
            if (done.failed() && what.isWrite() && keepsHints(replicas[i])) {
              hints.add(topology.member(replicas[i]), what.key(), what.record());
            }
            if (sent == round) { // else: an answer to a write since stamped again
              answered(i, done);
            }
          });
    }

    private Future<Record> call(int replica, ReplicaOp what) {
      return call(replica, what, deadlineNanos);
    }

    private boolean keepsHints(int replica) {
      return !topology.isSelf(replica) && topology.state(replica) != Topology.State.LOST;
    }

    private Future<Record> call(int replica, ReplicaOp what, long dueNanos) {
      if (topology.state(replica) == Topology.State.LOST) {
        return Future.failedFuture(LOST);
      }
      if (topology.isSelf(replica)) {
        return refusedLocally(what)
            ? Future.failedFuture(NOT_ADMITTED)
            : local.apply(what, dueNanos);
      }
      long start = System.nanoTime();
      return peers
          .apply(topology.member(replica), what, dueNanos)
          .andThen(done -> {
            long nanos = System.nanoTime() - start;
            metrics.hop(done.succeeded(), nanos);
            if (done.succeeded()) {
              hopNanos.add(nanos);
            }
          });
    }

    /**
     * The checks a replica makes of a peer's ops, made of this node's own: nothing while the clock
     * is fenced (its replica is then out, as for its peers), and no version stamped further ahead
     * than the maximum clock offset (a read repair must not spread one).
     */
    private boolean refusedLocally(ReplicaOp what) {
      return what.isWrite()
          ? !clock.admits(what.record().timestamp())
          : clock.fencedReason() != null;
    }

    /** The answers the quorum needs, as the client reads it. */
    private String needed() {
      Replication now = op.isWrite() ? replication.current() : topology.reads(replication);
      String needed = "ack=" + now.ack() + " of from=" + now.from();
      if (topology.inTransition() && op.isWrite()) {
        Replication next = replication.next();
        needed +=
            next.equals(now)
                ? " in each ring of a membership change"
                : " (the current ring) and ack="
                    + next.ack()
                    + " of from="
                    + next.from()
                    + " (the next ring of a change of the defaults)";
      }
      return needed;
    }

    private Quorum newQuorum() {
      if (topology.inTransition() && op.isWrite()) {
        return Quorum.joint(replication.current(), replication.next());
      }
      Replication r = op.isWrite() ? replication.current() : topology.reads(replication);
      return new Quorum(r.ack(), r.from());
    }

    private int groupsOf(int i) {
      return groups == null ? Topology.WriteSet.CURRENT : groups[i];
    }

    private void answered(int i, AsyncResult<Record> done) {
      if (done.succeeded() && done.result() != null) {
        clock.observe(done.result().timestamp());
      }
      boolean late = quorum.decided();
      boolean keptOut =
          op.isWrite()
              && done.succeeded()
              && done.result() != null
              && done.result().newerThan(op.record());
      if (keptOut
          && !late
          && round == 0
          && clock.aheadOfWallMs(done.result().timestamp()) <= clock.maxOffsetMs()) {
        stampAgain(done.result());
        return;
      }
      Quorum.Outcome outcome =
          done.failed() || keptOut
              ? quorum.failure(groupsOf(i))
              : quorum.success(op.isWrite() ? null : done.result(), groupsOf(i));
      newerVersions += keptOut ? 1 : 0;
      if (op.isWrite()) {
        if (outcome == Quorum.Outcome.REACHED) {
          finish(null);
        } else if (outcome == Quorum.Outcome.FAILED) {
          fail(
              newerVersions == 0
                  ? "too many replica failures"
                  : "too many replica failures; "
                      + newerVersions
                      + " replicas kept a newer version instead (a clock out of sync?)");
        }
        return;
      }
      if (done.succeeded()) {
        records[i] = done.result();
        answered[i] = true;
      }
      if (late) {
        repairLate(i);
      } else if (outcome == Quorum.Outcome.REACHED) {
        resolve();
      } else if (outcome == Quorum.Outcome.FAILED) {
        fail("too many replica failures");
      } else if (done.failed()) {
        askSpare();
      }
    }

    /** A replica holds {@code newer}: the write goes out again, stamped above it. */
    private void stampAgain(Record newer) {
      round = 1;
      if (result.future().isComplete()) {
        return;
      }
      long timestamp;
      try {
        timestamp = clock.nextAfter(newer.timestamp());
      } catch (HybridClock.NotReservedException e) {
        vertx.setTimer(RESERVATION_WAIT_MS, t -> stampAgain(newer)); // a synced write away
        return;
      } catch (HybridClock.FencedException e) {
        deadline.cancel();
        result.tryFail(e);
        return;
      }
      metrics.writeStampedAgain();
      op = ReplicaOp.write(op.key(), op.record().withTimestamp(timestamp));
      quorum = newQuorum();
      for (int i = 0; i < replicas.length; i++) {
        send(i);
      }
    }

    /**
     * The quorum answered: fetch the newest record if only a digest has it, else repair, answer.
     */
    private void resolve() {
      ReadResolution.Step step = ReadResolution.resolve(records, answered, digest);
      if (step instanceof ReadResolution.Fetch fetch) {
        fetchRecord(fetch.replica());
        return;
      }
      ReadResolution.Answer resolved = (ReadResolution.Answer) step;
      answer = resolved.newest();
      int[] stale = resolved.stale();
      if (stale.length == 0) {
        finish(answer);
        return;
      }
      metrics.readRepair(true, stale.length);
      for (boolean ok : answered) {
        holders += ok ? 1 : 0;
      }
      holders -= stale.length;
      repairsPending = stale.length;
      ReplicaOp repair = ReplicaOp.write(op.key(), answer);
      for (int i : stale) {
        call(replicas[i], repair)
            .onComplete(done -> {
              holders += done.succeeded() ? 1 : 0;
              if (--repairsPending == 0) {
                if (holders >= topology.reads(replication).ack()) {
                  finish(answer);
                } else {
                  fail("read repair reached " + holders + " replicas");
                }
              }
            });
      }
    }

    /** Reads the record of replica {@code i}, whose digest is the newest version, then resolves. */
    private void fetchRecord(int i) {
      metrics.readDigestFetched();
      readRecord(i);
    }

    /**
     * Reads replica {@code i}'s record, then resolves again. If that fails, its answer no longer
     * counts and a spare's record is read in its place, since the read needs {@code ack} answers;
     * with no spare left, the read fails.
     */
    private void readRecord(int i) {
      fetching = true;
      call(replicas[i], op)
          .onComplete(done -> {
            fetching = false;
            if (result.future().isComplete()) {
              return;
            }
            if (done.succeeded()) {
              records[i] = done.result();
              answered[i] = true;
              digest[i] = false;
              resolve();
            } else if (asked < replicas.length) {
              answered[i] = false;
              records[i] = null;
              readRecord(asked++);
            } else {
              fail("a replica did not send its record, and no other is left: " + done.cause());
            }
          });
    }

    /** A replica answered after the quorum: repaired in the background if it is behind. */
    private void repairLate(int i) {
      if (answered[i] && answer != null && ReadResolution.behind(answer, records[i], digest[i])) {
        metrics.readRepair(false, 1);
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs);
        call(replicas[i], ReplicaOp.write(op.key(), answer), due);
      }
    }

    private void finish(Record record) {
      deadline.cancel();
      cancelSpeculation();
      result.tryComplete(record);
    }

    private void fail(String why) {
      deadline.cancel();
      cancelSpeculation();
      result.tryFail(new QuorumFailedException(needed(), why));
    }

    private void cancelSpeculation() {
      if (speculation >= 0) {
        vertx.cancelTimer(speculation);
        speculation = -1;
      }
    }

    private void expire() {
      if (quorum.expire() || repairsPending > 0 || fetching) {
        fail("deadline of " + requestTimeoutMs + " ms");
      }
    }
  }
}
