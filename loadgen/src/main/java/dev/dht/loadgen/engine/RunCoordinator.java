package dev.dht.loadgen.engine;

/**
 * Whoever a {@link LoadRunner} answers to when it runs together with other generators (the control
 * port's run control): it gives the start time, hears where the run stands once a second, and may
 * ask for the run to end early. Called from the runner's thread.
 */
public interface RunCoordinator {
  /**
   * Blocks until a start time is given and returns it in epoch milliseconds; -1 at once when the
   * run need not wait.
   */
  long awaitStart() throws InterruptedException;

  /** The load starts. */
  void running();

  /** Where the run stands, after each whole second. */
  void live(LiveStats stats);

  /** Why the run should end early, null as long as it should not. */
  String abortReason();

  /** The runner cut the run short for the abort asked for. */
  void cut();
}
