package dev.dht.node.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The query string of a request, decoded exactly: {@code +} is a space, {@code %XX} a byte, and a
 * value must be valid UTF-8. Lossy decoding would map different invalid ids to one key; here they
 * are refused instead. The first occurrence of a parameter wins.
 */
final class Query {
  /** A query value that cannot be decoded; the message is the client-facing reason. */
  static final class MalformedException extends IllegalArgumentException {
    MalformedException(String message) {
      super(message, null);
    }
  }

  private final String raw;

  Query(String raw) {
    this.raw = raw;
  }

  /** The decoded UTF-8 bytes of parameter {@code name}; null if absent, empty if {@code name=}. */
  byte[] bytes(String name) {
    String value = rawValue(name);
    return value == null ? null : utf8(name, percentDecode(name, value));
  }

  /** The decoded text of parameter {@code name}; null if absent. */
  String text(String name) {
    byte[] bytes = bytes(name);
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private String rawValue(String name) {
    if (raw == null) {
      return null;
    }
    int at = 0;
    while (at <= raw.length()) {
      int end = raw.indexOf('&', at);
      if (end < 0) {
        end = raw.length();
      }
      if (raw.startsWith(name, at)) {
        int afterName = at + name.length();
        if (afterName == end) {
          return "";
        }
        if (raw.charAt(afterName) == '=') {
          return raw.substring(afterName + 1, end);
        }
      }
      at = end + 1;
    }
    return null;
  }

  private static byte[] percentDecode(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7F) { // raw controls are not valid in a URI; %00..%1F encode them
        throw new MalformedException("'" + name + "' has a raw control character at " + i);
      }
    }
    if (value.indexOf('%') < 0 && value.indexOf('+') < 0) {
      return value.getBytes(StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '+') {
        out.write(' ');
      } else if (c == '%') {
        int high = i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
        int low = high >= 0 ? Character.digit(value.charAt(i + 2), 16) : -1;
        if (low < 0) {
          throw new MalformedException("'" + name + "' has a malformed percent-escape at " + i);
        }
        out.write(high << 4 | low);
        i += 2;
      } else if (c < 0x80) {
        out.write(c);
      } else {
        out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }

  private static byte[] utf8(String name, byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
      return bytes;
    } catch (CharacterCodingException e) {
      throw new MalformedException("'" + name + "' is not valid UTF-8 once percent-decoded");
    }
  }
}
