package dev.dht.operator.loadtest.site;

import dev.dht.operator.loadtest.DhtLoadTest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The reviews, created on the apiserver with the operator's identity (RBAC: create tokenreviews and
 * subjectaccessreviews), each within {@link #TIMEOUT_MS} and never retried: a reader waits for an
 * answer, so a slow apiserver is a 504, not a hanging page.
 */
final class ApiserverReviews implements Reviews {
  static final int TIMEOUT_MS = 5_000;

  private final KubernetesClient client;

  ApiserverReviews(KubernetesClient client) {
    this.client =
        client
            .newClient(
                new RequestConfigBuilder()
                    .withRequestTimeout(TIMEOUT_MS)
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .adapt(KubernetesClient.class);
  }

  /** With the apiserver's own audiences (none asked for): tokens made for the Kubernetes API. */
  @Override
  public Authentication authenticate(String token) {
    var review =
        call(
            "TokenReview",
            () ->
                client
                    .authentication()
                    .v1()
                    .tokenReviews()
                    .create(
                        new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build()));
    var status = review.getStatus();
    if (status == null || !Boolean.TRUE.equals(status.getAuthenticated())) {
      return Authentication.refused(status == null ? null : status.getError());
    }
    var user = status.getUser();
    return Authentication.of(
        new Viewer(
            user.getUsername(),
            user.getUid(),
            user.getGroups() == null ? List.of() : user.getGroups(),
            user.getExtra() == null ? Map.of() : user.getExtra()));
  }

  @Override
  public Authorization authorize(Viewer viewer, String namespace, String name) {
    var review =
        call(
            "SubjectAccessReview",
            () ->
                client
                    .authorization()
                    .v1()
                    .subjectAccessReview()
                    .create(
                        new SubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withUser(viewer.name())
                            .withUid(viewer.uid())
                            .withGroups(viewer.groups())
                            .withExtra(viewer.extra())
                            .withNewResourceAttributes()
                            .withVerb("get")
                            .withGroup(HasMetadata.getGroup(DhtLoadTest.class))
                            .withResource(HasMetadata.getPlural(DhtLoadTest.class))
                            .withNamespace(namespace)
                            .withName(name)
                            .endResourceAttributes()
                            .endSpec()
                            .build()));
    var status = review.getStatus();
    boolean allowed = status != null && Boolean.TRUE.equals(status.getAllowed());
    String reason =
        status == null
            ? ""
            : Stream.of(status.getReason(), status.getEvaluationError())
                .filter(text -> text != null && !text.isBlank())
                .collect(Collectors.joining("; "));
    return new Authorization(allowed, reason);
  }

  /** A review, its failure as the status the reader gets: 504 too slow, 502 anything else. */
  private static <T> T call(String kind, Supplier<T> review) {
    try {
      return review.get();
    } catch (KubernetesClientException e) {
      boolean slow = false;
      for (Throwable t = e; t != null; t = t.getCause()) {
        slow |=
            t instanceof HttpTimeoutException
                || t instanceof TimeoutException
                || t instanceof InterruptedIOException;
      }
      throw new Unavailable(
          slow ? 504 : 502,
          "the apiserver "
              + (slow
                  ? "did not answer the " + kind + " within " + TIMEOUT_MS + " ms"
                  : "refused the " + kind + ": " + e.getMessage()),
          e);
    }
  }
}
