package dev.dht.pki;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/**
 * Key pairs on the NIST P-256 curve (secp256r1), from the JDK's own provider.
 *
 * <p>Why P-256 and not RSA: a key pair takes about a millisecond where RSA-2048 takes tens to
 * hundreds (an operator makes one per certificate, a test suite hundreds); keys and signatures are
 * a few dozen bytes, so handshakes and Secrets stay small; and every TLS stack that talks to the
 * nodes accepts it: it is TLS 1.3's mandatory curve (the JDK, Netty with or without OpenSSL, curl,
 * Go). Ed25519 certificates are still refused by some clients.
 */
public final class EcKeys {
  static final String CURVE = "secp256r1";

  private EcKeys() {}

  public static KeyPair generate() {
    try {
      var generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new PkiException("cannot generate a " + CURVE + " key pair", e);
    }
  }
}
