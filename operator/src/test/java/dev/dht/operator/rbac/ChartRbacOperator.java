package dev.dht.operator.rbac;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.junit.DefaultPerClassNamespaceNameSupplier;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Operators under test run with the chart's RBAC: their client impersonates the chart's
 * ServiceAccount, bound to the chart's rules in the test namespace (the chart's {@code
 * watchNamespaces} mode), and records every call for {@code ChartRbacTest}. A rule the code needs
 * and the chart lacks fails the test that needs it (403), and {@code ChartRbacTest} names it.
 */
public final class ChartRbacOperator {
  private ChartRbacOperator() {}

  /**
   * JOSDK's extension, one namespace per class, with the operator's client ({@code
   * getKubernetesClient()}) under the chart's RBAC from the operator's start (CRDs are applied
   * before, as the admin) and the admin's for the test ({@code
   * getInfrastructureKubernetesClient()}). Do not replace its before-start hook.
   */
  public static LocallyRunOperatorExtension.Builder builder() {
    var recorder = new ApiCallRecorder();
    var testClass = new AtomicReference<String>();
    var names = new DefaultPerClassNamespaceNameSupplier();
    var builder =
        LocallyRunOperatorExtension.builder()
            .oneNamespacePerClass(true)
            .withKubernetesClient(recorder.newClient())
            .withInfrastructureKubernetesClient(adminClient(recorder))
            .withBeforeStartHook(extension -> {
              var admin = extension.getInfrastructureKubernetesClient();
              var chart = ChartRbac.render(admin, extension.getNamespace());
              chart.install(admin);
              recorder.start(testClass.get(), chart);
            });
    builder.withPerClassNamespaceNameSupplier(context -> {
      testClass.set(context.getRequiredTestClass().getName());
      return names.apply(context);
    });
    return builder;
  }

  /**
   * The admin's client, which stops the recording when it deletes the run's namespace (the
   * extension does before it stops the operator): the operator's calls are refused meanwhile.
   */
  private static KubernetesClient adminClient(ApiCallRecorder recorder) {
    Interceptor teardown =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            var call = ApiCall.of(request.method(), request.uri(), 0);
            if (call.permission().equals("delete namespaces")
                && call.name().equals(recorder.namespace())) {
              recorder.stop();
            }
          }
        };
    return new KubernetesClientBuilder()
        .withHttpClientBuilderConsumer(
            b -> b.addOrReplaceInterceptor("dht-rbac-teardown", teardown))
        .build();
  }

  /**
   * A namespace of its own with the chart's RBAC installed, for an operator a test builds itself
   * (its client: {@link #operatorClient()}). Closing stops the recording, then deletes the
   * namespace.
   */
  public static final class Run implements AutoCloseable {
    private final KubernetesClient admin = new KubernetesClientBuilder().build();
    private final ApiCallRecorder recorder = new ApiCallRecorder();
    private final KubernetesClient operatorClient = recorder.newClient();
    private final String namespace;

    public Run(Class<?> testClass, String namespace) {
      this.namespace = namespace;
      admin
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
      var chart = ChartRbac.render(admin, namespace);
      chart.install(admin);
      recorder.start(testClass.getName(), chart);
    }

    public String namespace() {
      return namespace;
    }

    /** The admin's client, for the test. */
    public KubernetesClient admin() {
      return admin;
    }

    /** The client for the operator: the chart's ServiceAccount, recorded. */
    public KubernetesClient operatorClient() {
      return operatorClient;
    }

    @Override
    public void close() {
      recorder.stop();
      operatorClient.close();
      admin.namespaces().withName(namespace).delete();
      admin.close();
    }
  }
}
