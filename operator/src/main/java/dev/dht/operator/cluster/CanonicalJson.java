package dev.dht.operator.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dht.operator.rolling.PodRevision;

/** Kubernetes objects as JSON with map keys in order, and short hashes of that. Pure. */
final class CanonicalJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private CanonicalJson() {}

  /** 8 hex digits of the SHA-256 of {@code value}'s canonical JSON. */
  static String hash(Object value) {
    try {
      String json =
          value instanceof ObjectNode node ? node.toString() : MAPPER.writeValueAsString(value);
      return PodRevision.hash(json, 8);
    } catch (Exception e) {
      throw new IllegalArgumentException("cannot serialize " + value.getClass(), e);
    }
  }

  static ObjectNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  static <T> T copy(T value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }
}
