package dev.dht.loadgen.engine;

/**
 * One keep-alive connection that carries one request at a time. Implementations call the callback
 * exactly once per {@link #send}, on the event loop that owns the connection.
 */
interface Transport {

  /** Why a request produced no HTTP response. */
  enum Failure {
    CONNECT,
    TIMEOUT,
    IO
  }

  interface Callback {
    void onResponse(int status, long bodyBytes);

    void onFailure(Failure failure);
  }

  void send(PlannedRequest request, Callback callback);

  /** Opens the connection ahead of the run, then runs {@code done} (also if it failed). */
  default void open(Runnable done) {
    done.run();
  }
}
