package dev.dht.operator.tls;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** spec.tls: whether the nodes serve TLS, with certificates from the operator's CA. */
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

  /** Whether TLS is on: unset means on (the default). */
  @JsonIgnore
  public boolean on() {
    return enabled == null || enabled;
  }
}
