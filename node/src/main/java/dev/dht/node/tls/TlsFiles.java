package dev.dht.node.tls;

import java.nio.file.Path;

/**
 * The node's certificate (chain), its PKCS#8 private key, and the CAs its peers' certificates must
 * chain to: PEM files, re-read while the node runs (a Kubernetes Secret mounted as a volume).
 */
public record TlsFiles(Path certFile, Path keyFile, Path caFile) {}
