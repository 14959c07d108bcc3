package dev.dht.operator.tls;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * spec.tls: whether the nodes serve TLS, with certificates from the operator's CA or from a
 * cert-manager issuer.
 */
@ValidationRule(
    value = "!has(self.issuerRef) || !has(self.enabled) || self.enabled",
    message = "issuerRef needs TLS: drop it or drop enabled: false")
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class TlsSpec {
  @Default("true")
  @JsonPropertyDescription(
      "Whether the nodes serve their client, peer and admin ports over TLS, peers authenticating"
          + " each other with their certificates (mutual TLS). The operator runs a CA for the"
          + " cluster and keeps three Secrets: <name>-ca (the CA and its key), <name>-ca-cert"
          + " (ca.crt, the CA certificates clients trust) and <name>-node-tls (the nodes'"
          + " certificate, key and ca.crt); it renews them and rotates the CA without restarting"
          + " the nodes (status.tls). false makes a plain-HTTP cluster, an explicit choice for"
          + " experiments. Counts when the cluster is created: a later change is not applied"
          + " (condition TransportChangeRefused; status.transport says what runs). Default:"
          + " true.")
  @Builder.Default
  private Boolean enabled = true;

  @JsonPropertyDescription(
      "A cert-manager issuer (Issuer or ClusterIssuer) that signs the node certificate instead of"
          + " the operator's CA. The operator then keeps a cert-manager Certificate <name>-node-tls"
          + " (EC P-256, 90 days, renewed 30 days before its end) whose Secret the nodes mount,"
          + " and copies its ca.crt into <name>-ca-cert for clients. The issuer must put ca.crt"
          + " into the Secret (CA, self-signed and Vault issuers do; ACME ones do not): peers"
          + " verify each other with it. Set when the cluster is created or never: a cluster"
          + " cannot move between the operator's CA and cert-manager (the nodes would stop"
          + " trusting each other); the issuer itself may be changed to one that signs with the"
          + " same CA.")
  private IssuerRef issuerRef;

  /** Whether TLS is on: unset means on (the default). */
  @JsonIgnore
  public boolean on() {
    return enabled == null || enabled;
  }
}
