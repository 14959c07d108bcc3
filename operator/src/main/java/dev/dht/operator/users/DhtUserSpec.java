package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Who the user belongs to, what it may do, and how fast. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "self.cluster == oldSelf.cluster",
    message = "spec.cluster is fixed: make a new DhtUser for another cluster")
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtUserSpec {
  @Required
  @Pattern("^[a-z]([-a-z0-9]*[a-z0-9])?$")
  @JsonPropertyDescription(
      "The DhtCluster, in this namespace, whose nodes accept this user. Fixed once set: a"
          + " user moves to another cluster as a new DhtUser.")
  private String cluster;

  @Size(max = 100)
  @JsonPropertyDescription(
      "What the user may do, on which keys; no rule allows nothing (its token is still"
          + " recognised: 403, not 401).")
  @Builder.Default
  private List<Acl> acls = new ArrayList<>();

  @JsonPropertyDescription("A rate limit; unset: none.")
  private Quota quota;

  @JsonPropertyDescription(
      "Also a client certificate for the user, next to the token: Secret <name>-tls (tls.crt,"
          + " tls.key, and ca.crt to verify the nodes), subject CN dht-user.<name>.<8 hex digits of the user's UID>, from the"
          + " cluster's CA (or its cert-manager issuer), 90 days, renewed 30 days before its end"
          + " and during a CA rotation. Only on TLS clusters. Default: false.")
  private Boolean clientCertificate;

  /** Whether the user asks for a client certificate. */
  @JsonIgnore
  public boolean wantsCertificate() {
    return Boolean.TRUE.equals(clientCertificate);
  }

  /** A rate limit of the user's requests. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Quota {
    @Required
    @Min(1)
    @JsonPropertyDescription(
        "Requests per second the user may make of each node (the node it sends a request to"
            + " counts it, like Kafka's per-broker quotas), with a burst of one second's worth;"
            + " beyond it the node answers 429 with Retry-After.")
    private Integer requestsPerSecond;
  }
}
