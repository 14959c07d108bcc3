package dev.dht.operator.loadtest.site;

import java.util.List;
import java.util.Map;

/**
 * What the report site asks the apiserver about a reader, as kube-rbac-proxy does: who a bearer
 * token is (TokenReview), then whether that user may get load tests (SubjectAccessReview).
 */
interface Reviews {

  /** Who the token is, or why the apiserver did not take it. */
  Authentication authenticate(String token);

  /**
   * Whether {@code viewer} may {@code get} dhtloadtests.dht.dev named {@code name} (null: any) in
   * {@code namespace} (null: in every namespace).
   */
  Authorization authorize(Viewer viewer, String namespace, String name);

  /** A user as the TokenReview named them: what the SubjectAccessReview asks about. */
  record Viewer(String name, String uid, List<String> groups, Map<String, List<String>> extra) {
    public Viewer {
      groups = List.copyOf(groups);
      extra = Map.copyOf(extra);
    }
  }

  /** A TokenReview's answer: {@code viewer} if the token is valid, else {@code error}. */
  record Authentication(Viewer viewer, String error) {
    static Authentication of(Viewer viewer) {
      return new Authentication(viewer, null);
    }

    static Authentication refused(String error) {
      return new Authentication(null, error == null || error.isBlank() ? "not valid" : error);
    }

    boolean authenticated() {
      return viewer != null;
    }
  }

  /** A SubjectAccessReview's answer, with the authorizer's reason (may be empty). */
  record Authorization(boolean allowed, String reason) {
    /** Why {@code viewer} may not read the page of {@code namespace} and {@code name}. */
    String refusal(Viewer viewer, String namespace, String name) {
      return viewer.name()
          + " may not get dhtloadtests.dht.dev"
          + (name == null ? "" : "/" + name)
          + " in namespace "
          + namespace
          + (reason.isEmpty() ? "" : " (" + reason + ")")
          + "\n";
    }
  }

  /**
   * A review that could not be made (the apiserver failed, was too slow, or too many reviews ran at
   * once): answered with {@code status}, never remembered.
   */
  final class Unavailable extends RuntimeException {
    private final int status;

    Unavailable(int status, String message, Throwable cause) {
      super(message, cause);
      this.status = status;
    }

    int status() {
      return status;
    }
  }
}
