package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether a cluster's nodes demand credentials of their clients. */
public enum Authentication {
  /** Every client request is refused (401) without the token of a DhtUser of the cluster. */
  @JsonProperty("required")
  Required,
  /** Anyone who reaches the client port may do anything: an explicit choice for experiments. */
  @JsonProperty("none")
  None;

  /** The name in the spec and in the nodes' users file. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
