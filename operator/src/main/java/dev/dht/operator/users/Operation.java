package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What an ACL allows on the keys of its prefix. */
public enum Operation {
  /** GET of a key. */
  @JsonProperty("read")
  Read,
  /** PUT of a key. */
  @JsonProperty("write")
  Write,
  /** DELETE of a key. */
  @JsonProperty("delete")
  Delete,
  /** GET of {@code /v0/entities}: keys and values of a range within the prefix. */
  @JsonProperty("range")
  Range;

  /** The name in the spec and in the nodes' users file. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
