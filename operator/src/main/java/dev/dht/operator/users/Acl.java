package dev.dht.operator.users;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** One rule of a user: the operations it may do on the keys that start with a prefix. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class Acl {
  @Default("")
  @Size(max = 1024)
  @JsonPropertyDescription(
      "Keys this rule covers: those whose UTF-8 bytes start with the prefix's. Empty (the"
          + " default): every key.")
  @Builder.Default
  private String prefix = "";

  @Required
  @Size(min = 1, max = 4)
  @JsonPropertyDescription(
      "What the user may do there: read (GET a key), write (PUT), delete (DELETE), range (GET"
          + " /v0/entities with start and end inside the prefix; an empty prefix allows any"
          + " range, also without end).")
  @Builder.Default
  private List<Operation> operations = new ArrayList<>();

  /** The rule with the given operations (tests, generated users). */
  public static Acl of(String prefix, Operation... operations) {
    return Acl.builder().prefix(prefix).operations(List.of(operations)).build();
  }
}
