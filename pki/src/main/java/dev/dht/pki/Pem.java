package dev.dht.pki;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * PEM text in and out: certificates (one, or a bundle of several in one text) and private keys.
 *
 * <p>Keys are written as PKCS#8 ({@code -----BEGIN PRIVATE KEY-----}), the form every consumer
 * reads: Vert.x's {@code PemKeyCertOptions}, Netty, OpenSSL, curl, Go. Reading also accepts the
 * older OpenSSL forms ({@code BEGIN EC PRIVATE KEY}, {@code BEGIN RSA PRIVATE KEY}), so that a key
 * made with openssl by hand loads too.
 */
public final class Pem {
  private static final String CERTIFICATE = "CERTIFICATE";
  private static final String PRIVATE_KEY = "PRIVATE KEY";

  /** The JDK's key factory for each key algorithm a PKCS#8 key may name. */
  private static final Map<ASN1ObjectIdentifier, String> KEY_ALGORITHMS =
      Map.of(
          X9ObjectIdentifiers.id_ecPublicKey, "EC",
          PKCSObjectIdentifiers.rsaEncryption, "RSA",
          EdECObjectIdentifiers.id_Ed25519, "Ed25519");

  private Pem() {}

  public static String certificate(X509Certificate certificate) {
    return certificates(List.of(certificate));
  }

  /** A bundle: the certificates one after the other, in the given order. */
  public static String certificates(List<X509Certificate> certificates) {
    var text = new StringWriter();
    try (var out = new PemWriter(text)) {
      for (var certificate : certificates) {
        out.writeObject(new PemObject(CERTIFICATE, certificate.getEncoded()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    } catch (CertificateException e) {
      throw new PkiException("cannot encode a certificate", e);
    }
    return text.toString();
  }

  /** A key as PKCS#8 PEM. */
  public static String privateKey(PrivateKey key) {
    if (!"PKCS#8".equals(key.getFormat())) {
      throw new PkiException("a " + key.getAlgorithm() + " key in " + key.getFormat());
    }
    var text = new StringWriter();
    try (var out = new PemWriter(text)) {
      out.writeObject(new PemObject(PRIVATE_KEY, key.getEncoded()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  /**
   * Every certificate in the text, in order (a bundle may hold several). Text around the PEM blocks
   * is ignored; a block that is not a certificate is an error.
   */
  public static List<X509Certificate> parseCertificates(String pem) {
    var certificates = new ArrayList<X509Certificate>();
    var converter = new JcaX509CertificateConverter();
    try (var parser = new PEMParser(new StringReader(pem))) {
      for (Object object; (object = parser.readObject()) != null; ) {
        if (!(object instanceof X509CertificateHolder holder)) {
          throw new PkiException("not a certificate: " + object.getClass().getSimpleName());
        }
        certificates.add(converter.getCertificate(holder));
      }
    } catch (IOException | CertificateException e) {
      throw new PkiException("cannot read the certificates", e);
    }
    return certificates;
  }

  /** The one certificate in the text. */
  public static X509Certificate parseCertificate(String pem) {
    var certificates = parseCertificates(pem);
    if (certificates.size() != 1) {
      throw new PkiException("expected one certificate, found " + certificates.size());
    }
    return certificates.getFirst();
  }

  /** The first private key in the text: PKCS#8, or OpenSSL's EC/RSA form. */
  public static PrivateKey parsePrivateKey(String pem) {
    try (var parser = new PEMParser(new StringReader(pem))) {
      for (Object object; (object = parser.readObject()) != null; ) {
        if (object instanceof PrivateKeyInfo info) {
          return toKey(info);
        }
        if (object instanceof PEMKeyPair pair) {
          return toKey(pair.getPrivateKeyInfo());
        }
      }
    } catch (IOException e) {
      throw new PkiException("cannot read the private key", e);
    }
    throw new PkiException("no private key in the text (an encrypted key is not read)");
  }

  private static PrivateKey toKey(PrivateKeyInfo info) throws IOException {
    var oid = info.getPrivateKeyAlgorithm().getAlgorithm();
    String algorithm = KEY_ALGORITHMS.get(oid);
    if (algorithm == null) {
      throw new PkiException("a private key of unknown algorithm " + oid);
    }
    try {
      return KeyFactory.getInstance(algorithm)
          .generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new PkiException("cannot read the " + algorithm + " private key", e);
    }
  }
}
