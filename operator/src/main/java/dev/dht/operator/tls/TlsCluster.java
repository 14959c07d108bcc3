package dev.dht.operator.tls;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;

/**
 * What the TLS Secrets of a cluster are made from: the cluster object (their owner: name,
 * namespace, UID, the rotation annotation), the labels they carry, and the DNS names of the node
 * certificate.
 */
public record TlsCluster(HasMetadata owner, Map<String, String> labels, List<String> dnsNames) {
  public TlsCluster {
    labels = Map.copyOf(labels);
    dnsNames = List.copyOf(dnsNames);
  }

  String name() {
    return owner.getMetadata().getName();
  }

  String namespace() {
    return owner.getMetadata().getNamespace();
  }

  SecretNames secretNames() {
    return SecretNames.of(name());
  }

  /** The value of {@value CertificatePlan#ROTATE_ANNOTATION}, null when unset. */
  String rotationRequested() {
    var annotations = owner.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(CertificatePlan.ROTATE_ANNOTATION);
  }
}
