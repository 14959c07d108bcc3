package dev.dht.operator.backup;

import dev.dht.contract.backup.RestoreStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeSet;

/**
 * How far a restore got, from what each node of the cluster reports ({@code GET /v0/admin/restore};
 * null: no answer): Completed once every node completed its share (each remembered: a node
 * restarted since reports nothing), else Restoring with the counts so far and the first failure's
 * reason.
 */
public final class RestoreTally {
  private RestoreTally() {}

  /**
   * {@code state} (the resolved source) updated by the answers of the {@code nodes} first members,
   * by ordinal; a Completed state stays so.
   */
  public static RestoreState next(
      RestoreState state, int nodes, Map<Integer, RestoreStatus> answers, Instant now) {
    if (state.completed()) {
      return state;
    }
    var done = new TreeSet<>(state.getRestored());
    long kept = 0;
    long bytes = 0;
    String reason = null;
    for (int i = 0; i < nodes; i++) {
      RestoreStatus answer = answers.get(i);
      if (answer == null || !state.getBackup().equals(answer.backup())) {
        continue;
      }
      kept += answer.keysKept();
      bytes += answer.bytesDownloaded();
      if (RestoreStatus.COMPLETED.equals(answer.phase())) {
        done.add(i);
      } else if (RestoreStatus.FAILED.equals(answer.phase())
          && reason == null
          && !done.contains(i)) { // a node done and restarted since restores nothing now
        reason = "node " + i + ": " + answer.reason();
      }
    }
    boolean completed = done.size() >= nodes;
    return state.toBuilder()
        .phase(completed ? RestoreState.COMPLETED : RestoreState.RESTORING)
        .nodes(nodes)
        .restored(new ArrayList<>(done))
        .keysKept(kept)
        .bytesDownloaded(bytes)
        .reason(reason)
        .completedAt(completed ? now.toString() : null)
        .build();
  }
}
