package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.PeerFrames;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica side of {@link PeerFrames} against what a peer, or anything reaching the peer port,
 * sends over a plain socket: the upgrade needs the secret; a frame of ops is answered by id; a
 * malformed batch is refused alone; a frame larger than any batch is refused from its header and
 * closes the connection, and the node serves on.
 */
class PeerFramesHostileTest {
  private static final String SECRET = "frames-secret";

  @TempDir Path root;

  private record Answer(byte kind, int id, Buffer payload) {}

  @Test
  void framesAreAnsweredByIdAndHostileOnesCloseOnlyTheirConnection() throws Exception {
    String[] secret = LocalCluster.secretFlags(root, SECRET);
    try (LocalCluster cluster = LocalCluster.start(root, 1, secret[0], secret[1])) {
      int port = cluster.port(0);
      try (Socket socket = new Socket("127.0.0.1", port)) {
        assertThat(upgrade(socket, "wrong")).startsWith("HTTP/1.1 403");
      }

      try (Socket socket = new Socket("127.0.0.1", port)) {
        assertThat(upgrade(socket, SECRET)).startsWith("HTTP/1.1 101");
        long timestamp = new HybridClock(System::currentTimeMillis, 9, 500).next();
        Record record = Record.value(timestamp, "framed".getBytes(StandardCharsets.UTF_8));
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(PeerFrames.ops(7, 1000, List.of(ReplicaOp.write(key, record))).getBytes());
        out.write(PeerFrames.ops(8, 1000, List.of(ReplicaOp.read(key))).getBytes());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        Answer written = read(in);
        assertThat(written.kind()).isEqualTo(PeerFrames.RESULTS);
        assertThat(written.id()).isEqualTo(7);
        Answer read = read(in);
        assertThat(read.id()).isEqualTo(8);
        List<BatchCodec.Result> results =
            BatchCodec.decodeResults(read.payload().slice(8, read.payload().length()), 1);
        assertThat(results.getFirst().record().valueBytes()).isEqualTo(record.valueBytes());

        Buffer malformed =
            Buffer.buffer().appendInt(1 + 4 + 4 + 1).appendByte(PeerFrames.OPS).appendInt(9);
        malformed.appendInt(1000).appendByte((byte) 7); // an op of an unknown kind
        out.write(malformed.getBytes());
        Answer refused = read(in);
        assertThat(refused.kind()).isEqualTo(PeerFrames.REFUSED);
        assertThat(refused.id()).isEqualTo(9);
        assertThat(PeerFrames.refusedStatus(refused.payload())).isEqualTo(400);
        assertThat(PeerFrames.refusedReason(refused.payload())).contains("unknown op kind 7");

        // still open: the next frame is answered
        out.write(PeerFrames.ops(10, 1000, List.of(ReplicaOp.read(key))).getBytes());
        assertThat(read(in).id()).isEqualTo(10);

        out.write(
            Buffer.buffer().appendInt(1 << 30).appendByte(PeerFrames.OPS).appendInt(11).getBytes());
        Answer huge = read(in);
        assertThat(PeerFrames.refusedStatus(huge.payload())).isEqualTo(400);
        assertThat(PeerFrames.refusedReason(huge.payload())).contains("at most");
        assertThat(in.read()).as("the connection is closed").isEqualTo(-1);
      }
      assertThat(cluster.client(0).get("k").text()).isEqualTo("framed");
      assertThat(
              cluster
                  .client(0)
                  .send(
                      "GET",
                      PeerFrames.PATH,
                      java.net.http.HttpRequest.BodyPublishers.noBody(),
                      java.util.Map.of(InternalApi.SECRET_HEADER, SECRET))
                  .status())
          .as("no upgrade asked")
          .isEqualTo(400);
    }
  }

  private static String upgrade(Socket socket, String secret) throws IOException {
    socket.setSoTimeout(10_000);
    socket
        .getOutputStream()
        .write(
            ("GET "
                    + PeerFrames.PATH
                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: "
                    + PeerFrames.PROTOCOL
                    + "\r\nConnection: Upgrade\r\n"
                    + InternalApi.SECRET_HEADER
                    + ": "
                    + secret
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
    StringBuilder head = new StringBuilder();
    var in = socket.getInputStream();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("closed after " + head);
      }
      head.append((char) b);
    }
    return head.toString();
  }

  private static Answer read(DataInputStream in) throws IOException {
    int length = in.readInt();
    byte kind = in.readByte();
    int id = in.readInt();
    byte[] payload = new byte[length - 5];
    in.readFully(payload);
    return new Answer(kind, id, Buffer.buffer(payload));
  }
}
