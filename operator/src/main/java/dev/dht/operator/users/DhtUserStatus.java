package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Where the user's credentials are, and whether they can be used. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtUserStatus {
  @JsonPropertyDescription("metadata.generation this status was computed for.")
  private Long observedGeneration;

  @JsonPropertyDescription(
      "The Secret with the user's token (key token), <name>-token in this namespace; delete it"
          + " to get a new token (the old one is refused within seconds).")
  private String secret;

  @JsonPropertyDescription("When the current token was made (its Secret's creation time).")
  private String tokenIssued;

  @JsonPropertyDescription(
      "The Secret with the user's client certificate (tls.crt, tls.key, ca.crt), <name>-tls, once"
          + " issued (spec.clientCertificate).")
  private String certificateSecret;

  @JsonPropertyDescription("When the client certificate ends (RFC 3339); it is renewed before.")
  private String certificateNotAfter;

  @SchemaFrom(type = KubernetesSchemas.Condition[].class)
  @JsonPropertyDescription(
      "Ready: the credentials exist and the cluster's nodes were given them (or the reason"
          + " not).")
  @Builder.Default
  private List<Condition> conditions = new ArrayList<>();
}
