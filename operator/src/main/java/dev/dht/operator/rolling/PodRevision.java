package dev.dht.operator.rolling;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a node pod was created from, as short hashes of named parts: {@value #INPUTS} (the cluster's
 * settings that need a restart and the operator defaults it accepted) and the parts of its rendered
 * pod template (image, node flags, ...). A pod template carries it as one annotation, {@code
 * "env=1a2b3c4d flags=... inputs=..."}. Pure.
 */
public record PodRevision(SortedMap<String, String> parts) {
  public static final String INPUTS = "inputs";

  /** Stands for the single config hash of pods created by operators before revisions. */
  public static final String OLDER_OPERATOR = "older-operator";

  private static final Map<String, String> LABELS =
      Map.of(
          "image",
          "image",
          "flags",
          "node flags",
          "env",
          "JVM options",
          "resources",
          "resources",
          "scheduling",
          "scheduling",
          "template",
          "pod template",
          INPUTS,
          "settings",
          OLDER_OPERATOR,
          "an older operator's template");

  public PodRevision {
    parts = Collections.unmodifiableSortedMap(new TreeMap<>(parts));
  }

  /** The revision an annotation value stands for; null for none. */
  public static PodRevision parse(String annotation) {
    if (annotation == null || annotation.isBlank()) {
      return null;
    }
    var parts = new TreeMap<String, String>();
    for (String part : annotation.trim().split("\\s+")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        parts.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return new PodRevision(parts);
  }

  /** A pod created by an operator before revisions, with the config hash it carries. */
  public static PodRevision ofOlderOperator(String configHash) {
    return new PodRevision(new TreeMap<>(Map.of(OLDER_OPERATOR, configHash)));
  }

  /** The annotation value: the parts in name order. */
  public String annotation() {
    var text = new StringBuilder();
    parts.forEach((name, hash) ->
        text.append(text.isEmpty() ? "" : " ").append(name).append('=').append(hash));
    return text.toString();
  }

  /** One short hash of the whole revision, for status and events. */
  public String id() {
    return hash(annotation(), 16);
  }

  public String inputs() {
    return parts.get(INPUTS);
  }

  /** The parts that differ from {@code other}'s, named for people, in name order. */
  public List<String> changesFrom(PodRevision other) {
    if (parts.containsKey(OLDER_OPERATOR) || other.parts.containsKey(OLDER_OPERATOR)) {
      return List.of(LABELS.get(OLDER_OPERATOR));
    }
    var names = new TreeMap<String, Boolean>();
    parts.keySet().forEach(n -> names.put(n, true));
    other.parts.keySet().forEach(n -> names.put(n, true));
    var changes = new ArrayList<String>();
    for (String name : names.keySet()) {
      if (!Objects.equals(parts.get(name), other.parts.get(name))) {
        changes.add(LABELS.getOrDefault(name, name));
      }
    }
    return changes;
  }

  /** The first {@code hexDigits} hex digits of the SHA-256 of {@code text}. */
  public static String hash(String text, int hexDigits) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of()
          .formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)))
          .substring(0, hexDigits);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }
}
