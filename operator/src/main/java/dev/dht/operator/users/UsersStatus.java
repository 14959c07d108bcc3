package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A DhtCluster's status.users: what its nodes are told of clients. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class UsersStatus {
  @JsonPropertyDescription("Whether the nodes demand credentials of clients: required or none.")
  private Authentication authentication;

  @JsonPropertyDescription(
      "The revision of the users file (Secret <name>-users) the nodes were last given.")
  private Long revision;

  @JsonPropertyDescription("The DhtUsers in it (those whose token exists).")
  private Integer users;

  @JsonPropertyDescription("Nodes that answered with an older revision than this one.")
  private Integer nodesBehind;
}
