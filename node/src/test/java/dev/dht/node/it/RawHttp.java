package dev.dht.node.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection. For what {@link DhtClient} cannot do:
 * malformed request lines (a bad percent escape), and reading chunked range responses chunk by
 * chunk, either collected or streamed without buffering.
 */
public final class RawHttp {
  /** A response; {@code chunks} holds each chunk's payload when the body was chunked. */
  public record Response(
      int status, Map<String, String> headers, byte[] body, List<byte[]> chunks) {
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** Receives each chunk of a streamed body; {@code buffer} is reused for the next chunk. */
  public interface ChunkSink {
    void chunk(byte[] buffer, int length);
  }

  private static final int TIMEOUT_MS = 60_000;

  private RawHttp() {}

  public static Response get(int port, String target) {
    return exchange(port, "GET", target, null);
  }

  /** Sends {@code method target} (sent verbatim, not encoded) with an optional body. */
  public static Response exchange(int port, String method, String target, byte[] body) {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    head.append("Connection: close\r\n");
    if (body != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("\r\n");
    try (Socket socket = connect(port)) {
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      int status = statusOf(readLine(in));
      Map<String, String> headers = readHeaders(in);
      List<byte[]> chunks = new ArrayList<>();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        readChunks(
            in,
            (buffer, length) -> {
              byte[] chunk = java.util.Arrays.copyOf(buffer, length);
              chunks.add(chunk);
              all.write(chunk, 0, length);
            });
      } else if (headers.containsKey("content-length")) {
        all.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
      } else {
        all.write(in.readAllBytes());
      }
      return new Response(status, headers, all.toByteArray(), chunks);
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target + " failed: " + e, e);
    }
  }

  /**
   * GETs a chunked response and hands every chunk to {@code sink} as it arrives; only the current
   * chunk is held in memory. Returns the status; a non-chunked body is skipped.
   */
  public static int stream(int port, String target, ChunkSink sink) {
    try (Socket socket = connect(port)) {
      OutputStream out = socket.getOutputStream();
      String head =
          "GET "
              + target
              + " HTTP/1.1\r\nHost: 127.0.0.1:"
              + port
              + "\r\nConnection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
      int status = statusOf(readLine(in));
      Map<String, String> headers = readHeaders(in);
      if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        throw new IllegalStateException("expected a chunked body, got headers " + headers);
      }
      readChunks(in, sink);
      return status;
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + target + " failed: " + e, e);
    }
  }

  private static Socket connect(int port) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    socket.setSoTimeout(TIMEOUT_MS);
    return socket;
  }

  private static int statusOf(String statusLine) {
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IllegalStateException("not an HTTP status line: " + statusLine);
    }
    return Integer.parseInt(parts[1]);
  }

  private static Map<String, String> readHeaders(InputStream in) throws IOException {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    return headers;
  }

  private static void readChunks(InputStream in, ChunkSink sink) throws IOException {
    byte[] buffer = new byte[1 << 16];
    while (true) {
      String sizeLine = readLine(in);
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
      if (size == 0) {
        while (!readLine(in).isEmpty()) {
          // trailers: none expected, skipped
        }
        return;
      }
      if (buffer.length < size) {
        buffer = new byte[size];
      }
      int read = in.readNBytes(buffer, 0, size);
      if (read < size) {
        throw new EOFException("chunk cut short: " + read + " of " + size + " bytes");
      }
      sink.chunk(buffer, size);
      if (!readLine(in).isEmpty()) {
        throw new IllegalStateException("chunk not followed by CRLF");
      }
    }
  }

  /** A CRLF-terminated line without the terminator. */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed mid-line: " + line);
      }
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
      previous = b;
    }
  }
}
