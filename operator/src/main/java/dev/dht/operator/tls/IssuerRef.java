package dev.dht.operator.tls;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * spec.tls.issuerRef: a cert-manager issuer that signs the node certificate instead of the
 * operator's CA (cert-manager's own {@code issuerRef}, as its Certificates take it).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class IssuerRef {
  public static final String ISSUER = "Issuer";
  public static final String CLUSTER_ISSUER = "ClusterIssuer";
  public static final String CERT_MANAGER_GROUP = "cert-manager.io";

  @Required
  @Pattern("^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
  @JsonPropertyDescription("Name of the Issuer (in the cluster's namespace) or ClusterIssuer.")
  private String name;

  @Default(ISSUER)
  @Pattern("^[A-Z][A-Za-z0-9]{0,62}$")
  @JsonPropertyDescription(
      "Issuer (in the cluster's namespace), ClusterIssuer, or an external issuer's kind. Default:"
          + " Issuer.")
  @Builder.Default
  private String kind = ISSUER;

  @Default(CERT_MANAGER_GROUP)
  @JsonPropertyDescription(
      "API group of the issuer: cert-manager.io, or an external issuer's group. Default:"
          + " cert-manager.io.")
  @Builder.Default
  private String group = CERT_MANAGER_GROUP;

  /**
   * How status and messages name it: {@code Issuer/name} (with the group when not cert-manager's).
   */
  public String describe() {
    String k = kind == null ? ISSUER : kind;
    String g = group == null || group.isEmpty() ? CERT_MANAGER_GROUP : group;
    return (g.equals(CERT_MANAGER_GROUP) ? k : k + "." + g) + "/" + name;
  }
}
