package dev.dht.node.backup;

/** SeaweedFS's S3 identity file ({@code -s3.config}), JSON. */
final class S3Config {
  private S3Config() {}

  /**
   * One identity with every S3 action on every bucket; no anonymous access. Keys are plain ASCII
   * letters, digits and dashes here, so they need no JSON escaping.
   */
  static String oneIdentity(String accessKey, String secretKey) {
    for (String key : new String[] {accessKey, secretKey}) {
      if (!key.matches("[A-Za-z0-9-]+")) {
        throw new IllegalArgumentException("S3 keys here are letters, digits and dashes only");
      }
    }
    return """
    {
      "identities": [
        {
          "name": "dht",
          "credentials": [{"accessKey": "%s", "secretKey": "%s"}],
          "actions": ["Admin", "Read", "List", "Tagging", "Write"]
        }
      ]
    }
    """
        .formatted(accessKey, secretKey);
  }
}
