package dev.dht.contract.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON for the backup documents that cross between operator, nodes and the object store. */
final class BackupJson {
  /** Documents from the other side may carry fields this version does not know. */
  static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private BackupJson() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
      throw new IllegalArgumentException(
          "not a valid " + type.getSimpleName() + ": " + cause.getMessage(), e);
    }
  }
}
