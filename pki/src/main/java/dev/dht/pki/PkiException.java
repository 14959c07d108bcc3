package dev.dht.pki;

/**
 * A certificate or key could not be made or read. Unchecked: the JDK's checked security exceptions
 * mean a bug or a corrupt input here, and callers handle both the same way.
 */
public class PkiException extends RuntimeException {
  public PkiException(String message, Throwable cause) {
    super(message, cause);
  }

  public PkiException(String message) {
    super(message);
  }
}
