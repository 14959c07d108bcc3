package dev.dht.node.auth;

/**
 * Why a client request was refused before it touched any data, with its status and its label in the
 * metrics: no credentials or credentials of no user ({@code 401}), a user over its quota ({@code
 * 429}), or a user whose ACLs do not grant the request ({@code 403}).
 */
public enum Refusal {
  MISSING(401, "missing", "missing credentials: send Authorization: Bearer <token>"),
  MALFORMED(401, "malformed", "the Authorization header is not 'Bearer <token>'"),
  UNKNOWN_TOKEN(401, "unknown-token", "unknown token"),
  UNKNOWN_CERTIFICATE(
      401,
      "unknown-certificate",
      "unknown client certificate: its common name is no user's; send Authorization: Bearer"
          + " <token>"),
  OVER_QUOTA(429, "over-quota", "over its quota"),
  FORBIDDEN(403, "forbidden", "not allowed");

  private final int status;
  private final String label;
  private final String reason;

  Refusal(int status, String label, String reason) {
    this.status = status;
    this.label = label;
    this.reason = reason;
  }

  public int status() {
    return status;
  }

  /** The metrics label. */
  public String label() {
    return label;
  }

  /** What the answer says (for 401s; a 403 or a 429 says more about the user). */
  public String reason() {
    return reason;
  }
}
