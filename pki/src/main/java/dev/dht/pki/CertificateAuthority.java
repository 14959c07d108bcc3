package dev.dht.pki;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority: its self-signed certificate and the key it signs with. It issues leaf
 * certificates for servers that are also clients (mutual TLS between peers).
 *
 * <p>Only BouncyCastle's certificate builders are used; keys, signatures and the certificate
 * objects come from the JDK's providers, so nothing needs BouncyCastle registered as a provider.
 */
public record CertificateAuthority(X509Certificate certificate, PrivateKey privateKey) {
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * A new CA with a fresh key. Give each CA its own common name (e.g. with the time it was made):
   * during a rotation two CAs are trusted at once, and distinct subjects keep every client's chain
   * building simple (the key identifiers tell them apart as well).
   */
  public static CertificateAuthority generate(String commonName, Validity validity) {
    var keys = EcKeys.generate();
    var subject = name(commonName);
    try {
      var extensions = new JcaX509ExtensionUtils();
      var builder =
          builder(subject, subject, validity, keys.getPublic())
              // pathLen 0: it signs leaves only, never another CA
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(sign(builder, keys.getPrivate()), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new PkiException("cannot make the CA " + commonName, e);
    }
  }

  /** A leaf certificate with a fresh key, signed by this CA: for servers and their peers. */
  public IssuedCertificate issue(LeafRequest request) {
    return issue(
        request.commonName(),
        request.validity(),
        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth},
        alternativeNames(request));
  }

  /**
   * A client certificate with a fresh key, signed by this CA: only its common name says who it is
   * (no alternative names), and it is good for the client end of a connection only.
   */
  public IssuedCertificate issueClient(String commonName, Validity validity) {
    return issue(commonName, validity, new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth}, null);
  }

  private IssuedCertificate issue(
      String commonName, Validity validity, KeyPurposeId[] purposes, GeneralNames names) {
    var keys = EcKeys.generate();
    try {
      var extensions = new JcaX509ExtensionUtils();
      var builder =
          builder(
                  X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
                  name(commonName),
                  validity,
                  keys.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              // digitalSignature is all an ECDSA key does in TLS (no key encipherment)
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(keys.getPublic()))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  extensions.createAuthorityKeyIdentifier(certificate));
      if (names != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, names);
      }
      return new IssuedCertificate(sign(builder, privateKey), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new PkiException("cannot issue a certificate for " + commonName, e);
    }
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, Validity validity, PublicKey key) {
    return new JcaX509v3CertificateBuilder(
        issuer,
        serialNumber(),
        Date.from(validity.notBefore()),
        Date.from(validity.notAfter()),
        subject,
        key);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException {
    try {
      var signer = new JcaContentSignerBuilder(SIGNATURE).build(key);
      return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    } catch (OperatorCreationException e) {
      throw new PkiException("cannot sign with " + SIGNATURE, e);
    }
  }

  /** 127 random bits, positive and never zero: unique without a counter to keep. */
  private static BigInteger serialNumber() {
    return new BigInteger(127, RANDOM).setBit(126);
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE)
        .addRDN(BCStyle.O, "dht")
        .addRDN(BCStyle.CN, commonName)
        .build();
  }

  private static GeneralNames alternativeNames(LeafRequest request) {
    var names = new ArrayList<GeneralName>();
    for (String dns : request.dnsNames()) {
      names.add(new GeneralName(GeneralName.dNSName, dns));
    }
    for (String ip : request.ipAddresses()) {
      // BouncyCastle parses the literal (IPv4 or IPv6) and refuses anything else
      names.add(new GeneralName(GeneralName.iPAddress, ip));
    }
    return new GeneralNames(names.toArray(GeneralName[]::new));
  }
}
