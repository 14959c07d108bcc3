package dev.dht.operator.policy;

import java.util.List;
import java.util.Optional;

/**
 * policy.jvmOptions: the prefixes a DhtCluster's spec.jvmOptions entries must start with ({@code
 * -Xmx}, {@code -XX:MaxRAMPercentage=}, {@code -XX:+UseZGC}). None (the chart's default): any
 * option. The nodes get their options in JDK_JAVA_OPTIONS, which the java launcher splits at
 * whitespace and reads quotes in, so with prefixes an entry with whitespace or a quote is refused
 * too: {@code "-Xmx1g -javaagent:/x.jar"} starts with {@code -Xmx} but is two options. Pure.
 */
public record AllowedJvmOptions(List<String> prefixes) {
  public static final String VALUE = "policy.jvmOptions";

  public AllowedJvmOptions {
    prefixes = List.copyOf(prefixes);
    for (String prefix : prefixes) {
      if (!prefix.startsWith("-") || prefix.length() < 2) {
        throw new IllegalArgumentException(
            "'" + prefix + "' is not the start of a JVM option (-Xmx, -XX:+UseZGC, ...)");
      }
    }
  }

  /** Why one of {@code options} (spec.jvmOptions) may not be given, if one may not. */
  public Optional<Refusal> check(List<String> options) {
    if (prefixes.isEmpty()) {
      return Optional.empty();
    }
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      String field = "spec.jvmOptions[" + i + "] " + Refusal.quote(option);
      if (option.chars().anyMatch(c -> Character.isWhitespace(c) || c == '"' || c == '\'')) {
        return refused(
            field
                + " holds whitespace or a quote: the JVM would read it as other options than the"
                + " one the operator's policy checked; give each option as an entry of its own");
      }
      if (prefixes.stream().noneMatch(option::startsWith)) {
        return refused(
            field
                + " is not allowed by the operator's policy: "
                + VALUE
                + " allows options starting with "
                + String.join(", ", prefixes));
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal> refused(String message) {
    return Optional.of(new Refusal(Refusal.JVM_OPTION_NOT_ALLOWED, message));
  }
}
