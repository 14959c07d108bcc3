package dev.dht.contract.backup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON for the backup documents that cross between operator, nodes and the object store. */
public final class BackupJson {
  /** Documents from the other side may carry fields this version does not know. */
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private BackupJson() {}

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code json} as a {@code type}; IllegalArgumentException with the reason if it is not one. */
  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
      throw new IllegalArgumentException(
          "not a valid " + type.getSimpleName() + ": " + cause.getMessage(), e);
    }
  }
}
