package dev.dht.node.auth;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Who a client request comes from, on one event loop (one instance per loop, used from it only):
 * the user whose token the {@code Authorization: Bearer} header carries, else the user whose
 * certificate the TLS handshake verified. A token sent decides alone: a wrong one is refused even
 * over a connection with a user's certificate, so a client never acts as another user than the one
 * it names. The token is hashed with SHA-256 into buffers this instance reuses and looked up by its
 * hash, so a request allocates nothing here and the node never holds a token, only hashes.
 */
public final class ClientAuthenticator {
  private static final String BEARER = "Bearer";

  private final MessageDigest sha256;
  private final byte[] hash = new byte[TokenHashes.HASH_BYTES];
  private byte[] token = new byte[128];
  private Refusal refusal;

  public ClientAuthenticator() {
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }

  /**
   * The user {@code request} comes from in {@code users}; null if none, and then {@link #refusal()}
   * says why.
   */
  public ClientUser authenticate(HttpServerRequest request, UserDirectory users) {
    String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (authorization != null) {
      return byToken(authorization, users);
    }
    if (request.isSSL() && users.takesCertificates()) {
      String commonName = CertificateNames.commonName(request.sslSession());
      if (commonName != null) {
        return found(users.byCommonName(commonName), Refusal.UNKNOWN_CERTIFICATE);
      }
    }
    return refused(Refusal.MISSING);
  }

  /** Why the last {@link #authenticate} found no user. */
  public Refusal refusal() {
    return refusal;
  }

  private ClientUser byToken(String authorization, UserDirectory users) {
    int start = tokenStart(authorization);
    if (start < 0) {
      return refused(Refusal.MALFORMED);
    }
    int length = tokenBytes(authorization, start);
    sha256.update(token, 0, length);
    try {
      sha256.digest(hash, 0, hash.length);
    } catch (DigestException e) {
      throw new IllegalStateException("a SHA-256 fits in 32 bytes", e);
    }
    return found(users.byTokenHash(hash), Refusal.UNKNOWN_TOKEN);
  }

  /**
   * Where the token of {@code Bearer <token>} starts (the scheme in any case, then spaces); -1 if
   * the header is not that, or the token is empty.
   */
  static int tokenStart(String authorization) {
    if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return -1;
    }
    int at = BEARER.length();
    if (at >= authorization.length() || authorization.charAt(at) != ' ') {
      return -1;
    }
    while (at < authorization.length() && authorization.charAt(at) == ' ') {
      at++;
    }
    return at < authorization.length() ? at : -1;
  }

  /**
   * The token's bytes into {@link #token}, their count returned. Header values arrive as ISO-8859-1
   * text (one char per byte on the wire), so each char is its byte and a token of UTF-8 bytes is
   * hashed as sent; a char beyond one byte (not from the wire) is encoded in UTF-8.
   */
  private int tokenBytes(String authorization, int start) {
    int length = authorization.length() - start;
    if (token.length < length) {
      token = new byte[Math.max(length, token.length * 2)];
    }
    for (int i = 0; i < length; i++) {
      char c = authorization.charAt(start + i);
      if (c > 0xFF) {
        byte[] utf8 = authorization.substring(start).getBytes(StandardCharsets.UTF_8);
        token = utf8.length > token.length ? utf8 : token;
        System.arraycopy(utf8, 0, token, 0, utf8.length);
        return utf8.length;
      }
      token[i] = (byte) c;
    }
    return length;
  }

  private ClientUser found(ClientUser user, Refusal otherwise) {
    return user != null ? user : refused(otherwise);
  }

  private ClientUser refused(Refusal why) {
    refusal = why;
    return null;
  }
}
