package dev.dht.operator.scaling;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the operator reaches a cluster's nodes for admin requests: the cluster secret they demand,
 * their admin port, and, on a TLS cluster, the CAs (PEM) their certificates chain to; null: plain
 * HTTP.
 */
public record NodeAccess(String secret, int adminPort, String trustedCas) {
  /** The admin address of the node whose member URL is {@code memberUrl}: scheme, host, port. */
  public String adminAddress(String memberUrl) {
    URI member = URI.create(memberUrl);
    return (trustedCas == null ? "http" : "https") + "://" + member.getHost() + ":" + adminPort;
  }

  /** A TLS context that trusts the cluster's CAs only (and checks the nodes' host names). */
  SSLContext sslContext() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      int i = 0;
      for (Certificate ca :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(trustedCas.getBytes(StandardCharsets.US_ASCII)))) {
        trust.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory managers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      managers.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, managers.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException("the cluster's CA bundle cannot be read: " + e, e);
    }
  }
}
