package dev.dht.pki;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/** A certificate with its private key, as a server or client presents it. */
public record IssuedCertificate(X509Certificate certificate, PrivateKey privateKey) {}
