package dev.dht.node.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP connection to a node for bytes no HTTP client would send: broken request lines, lying
 * lengths, pipelining, resets. Reads whatever the node answers until it closes or goes quiet.
 */
public final class RawSocket implements AutoCloseable {
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.[01] (\\d{3})");

  private final Socket socket;

  public RawSocket(int port) {
    try {
      socket = new Socket();
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(10_000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code text} (ISO-8859-1); false if the node had closed the connection already. */
  public boolean send(String text) {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  public boolean send(byte[] bytes) {
    try {
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Ends this side's output (a half-close); the node may still answer. */
  public void shutdownOutput() {
    try {
      socket.shutdownOutput();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes with a TCP reset instead of a FIN (SO_LINGER 0). */
  public void reset() {
    try {
      socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Everything the node sends until it closes the connection, or until {@code quietMs} pass with
   * nothing new (a reset counts as the end).
   */
  public String readAll(int quietMs) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try {
      socket.setSoTimeout(quietMs);
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        all.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException | SocketException e) {
      // quiet or reset: what arrived is the answer
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all.toString(StandardCharsets.ISO_8859_1);
  }

  /** Whether the node has closed the connection (reads the end of the stream within 10 s). */
  public boolean closedByPeer() {
    try {
      socket.setSoTimeout(10_000);
      InputStream in = socket.getInputStream();
      while (in.read() >= 0) {
        // drain what is left
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  /** The status codes of every response in {@code text}, in order. */
  public static List<Integer> statuses(String text) {
    List<Integer> statuses = new ArrayList<>();
    Matcher m = STATUS.matcher(text);
    while (m.find()) {
      statuses.add(Integer.parseInt(m.group(1)));
    }
    return statuses;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
