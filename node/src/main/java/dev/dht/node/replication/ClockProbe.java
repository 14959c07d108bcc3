package dev.dht.node.replication;

import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a clock sample of every peer at most about a second old: each second, asks {@link
 * InternalApi#CLOCK_PATH} of each peer that no other exchange sampled within the last second. Under
 * traffic that asks nothing (the batches sample); an idle node, and a fenced one (it coordinates no
 * writes), still measures its offset, so that it fences itself and comes back by itself. Runs on
 * one event loop.
 */
public final class ClockProbe {
  private static final long PERIOD_MS = 1000;

  private final Vertx vertx;
  private final HttpClient client;
  private final ClusterState cluster;
  private final PeerTransport transport;
  private final ClockOffsets offsets;
  private final Set<String> inFlight = new HashSet<>();
  private long timer = -1;

  public ClockProbe(
      Vertx vertx,
      HttpClient client,
      ClusterState cluster,
      PeerTransport transport,
      ClockOffsets offsets) {
    this.vertx = vertx;
    this.client = client;
    this.cluster = cluster;
    this.transport = transport;
    this.offsets = offsets;
  }

  /** Starts the periodic probes; call on the event loop that will run them. */
  public void start() {
    timer = vertx.setPeriodic(PERIOD_MS, t -> tick());
  }

  public void stop() {
    vertx.cancelTimer(timer);
  }

  private void tick() {
    Topology topology = cluster.topology();
    for (int m = 0; m < topology.members().size(); m++) {
      String member = topology.member(m);
      if (!topology.isSelf(m)
          && topology.state(m) != Topology.State.LOST
          && offsets.ageMs(member) >= PERIOD_MS
          && inFlight.add(member)) {
        probe(member);
      }
    }
  }

  private void probe(String member) {
    RequestOptions options =
        transport
            .request(member, HttpMethod.GET, InternalApi.CLOCK_PATH)
            .setConnectTimeout(PERIOD_MS)
            .setIdleTimeout(PERIOD_MS);
    long sentNanos = System.nanoTime();
    client
        .request(options)
        .compose(req -> req.send())
        .compose(response -> {
          ClockSample.take(offsets, member, response, sentNanos);
          return response.end();
        })
        .onComplete(done -> inFlight.remove(member));
  }
}
