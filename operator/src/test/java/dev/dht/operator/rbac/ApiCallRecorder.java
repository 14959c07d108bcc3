package dev.dht.operator.rbac;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The operator's side of one test class's run: its client, which, once {@link #start started},
 * impersonates the chart's ServiceAccount (so the apiserver refuses what the chart does not allow)
 * and records every call with its answer into {@link Recordings}, until {@link #stop}. Before the
 * start (the test extension applying CRDs through the same client) it is the admin, unrecorded.
 */
public final class ApiCallRecorder implements Interceptor {
  private final Queue<ApiCall> calls = new ConcurrentLinkedQueue<>();
  private volatile ChartRbac rbac;
  private volatile boolean recording;

  /** A new client whose requests go through this recorder. */
  public KubernetesClient newClient() {
    return new KubernetesClientBuilder()
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("dht-rbac-recorder", this))
        .build();
  }

  /** From now on as the chart's ServiceAccount, recorded as {@code testClass}'s calls. */
  public void start(String testClass, ChartRbac chart) {
    this.rbac = chart;
    this.recording = true;
    Recordings.add(new Recordings.Recording(testClass, chart, calls));
  }

  /**
   * No more recording (still impersonating): the namespace is going away, and what the operator is
   * refused meanwhile says nothing about the chart.
   */
  public void stop() {
    recording = false;
  }

  /** The namespace of the run, once started. */
  String namespace() {
    var chart = rbac;
    return chart == null ? null : chart.namespace();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    var chart = rbac;
    if (chart != null) {
      builder.setHeader("Impersonate-User", chart.user());
      for (String group : chart.groups()) {
        builder.header("Impersonate-Group", group);
      }
    }
  }

  @Override
  public void after(
      HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> body) {
    if (recording) {
      calls.add(ApiCall.of(request.method(), request.uri(), response.code()));
    }
  }
}
