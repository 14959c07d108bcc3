package dev.dht.operator.tls;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * status.tls: the cluster's CA (or cert-manager issuer) and node certificate as the operator last
 * saw them.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor
public class TlsStatus {
  @JsonPropertyDescription(
      "The cert-manager issuer that signs the node certificate (Issuer/<name> or"
          + " ClusterIssuer/<name>, spec.tls.issuerRef); unset when the operator's CA does.")
  private String issuer;

  @JsonPropertyDescription(
      "SHA-256 fingerprint of the CA that signs the node certificate (as openssl x509 -noout"
          + " -fingerprint -sha256 prints it).")
  private String caFingerprint;

  @JsonPropertyDescription(
      "When the CA expires (RFC 3339). It is replaced, with an overlap, 30 days before.")
  private String caNotAfter;

  @JsonPropertyDescription(
      "SHA-256 fingerprints of the CAs in the trust bundle (ca.crt of <name>-ca-cert and"
          + " <name>-node-tls): the current CA first, then, during a rotation, the previous one.")
  @Builder.Default
  private List<String> trustedCaFingerprints = new ArrayList<>();

  @JsonPropertyDescription(
      "When the node certificate expires (RFC 3339). It is re-issued 30 days before, when the"
          + " names it must carry change, or when it is not signed by the current CA.")
  private String certificateNotAfter;

  @JsonPropertyDescription(
      "The step of a CA rotation under way: NewCaTrusted (a new CA is trusted next to the old"
          + " one; the node certificate is re-issued by it at nextStepAt) or CertificateReissued"
          + " (the node certificate is the new CA's; the old CA leaves the trust bundle at"
          + " nextStepAt). Unset when no rotation runs.")
  private RotationPhase rotationPhase;

  @JsonPropertyDescription(
      "When the next step of the rotation is due (RFC 3339): each step waits until the kubelet"
          + " has had time to update the files mounted in every node pod.")
  private String nextStepAt;

  @JsonPropertyDescription(
      "The last value of the annotation dht.dev/rotate-ca that started a rotation (or that a new"
          + " CA satisfied); setting the annotation to another value rotates the CA again.")
  private String rotateCaHandled;
}
