package dev.dht.node.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwards the TCP connections it accepts to a target. Cut, it is a black hole: the connections it
 * forwarded are closed, and those it accepts meanwhile are held, never answered, until it is mended
 * (then closed), as when packets are dropped.
 */
final class TcpProxy implements AutoCloseable {
  private static final int CONNECT_TIMEOUT_MS = 1000;

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  TcpProxy(InetSocketAddress listen, InetSocketAddress target) throws IOException {
    this.target = target;
    server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(listen, 128);
    Thread.ofVirtual().start(this::accept);
  }

  /** Cuts (true) or mends (false) the link; either way, every connection open now is closed. */
  void cut(boolean cut) {
    this.cut = cut;
    open.forEach(TcpProxy::closeQuietly);
    open.clear();
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      open.add(client);
      if (!cut) {
        Thread.ofVirtual().start(() -> forward(client));
      }
    }
  }

  private void forward(Socket client) {
    Socket upstream = new Socket();
    open.add(upstream);
    try {
      upstream.connect(target, CONNECT_TIMEOUT_MS);
      Thread.ofVirtual().start(() -> copy(upstream, client));
      copy(client, upstream);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }

  /** Copies until either side ends, then closes both (the other copier then ends too). */
  private void copy(Socket from, Socket to) {
    byte[] buffer = new byte[16 << 10];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // a side closed or was cut
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    cut(true);
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
