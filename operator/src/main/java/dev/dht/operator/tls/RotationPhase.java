package dev.dht.operator.tls;

/**
 * Where a rotation of the CA stands. Each step waits for the kubelet to bring the last change to
 * every node's mounted files first, so no node ever meets a certificate it does not trust yet.
 */
public enum RotationPhase {
  /**
   * A new CA is made and trusted next to the old one; the node certificate is still the old CA's.
   */
  NewCaTrusted,
  /**
   * The node certificate is the new CA's; the old CA is still trusted, for nodes not yet updated.
   */
  CertificateReissued
}
