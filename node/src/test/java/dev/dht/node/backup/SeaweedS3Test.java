package dev.dht.node.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test fixture {@link SeaweedS3} gives a real S3 endpoint: it refuses requests that are not
 * signed with its keys, keeps what was put with them, comes back with its data after a SIGKILL (and
 * takes writes again), and leaves no process behind. Only the JDK talks to it here (requests signed
 * by {@link SigV4}).
 */
class SeaweedS3Test {
  @TempDir static Path shared;
  private static SeaweedS3 store;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    store = SeaweedS3.start(shared.resolve("store"));
  }

  @AfterAll
  static void stop() {
    store.close();
  }

  @Test
  void refusesAnUnsignedRequest() throws Exception {
    HttpResponse<String> listing =
        HTTP.send(HttpRequest.newBuilder(bucketListing(store)).build(), BodyHandlers.ofString());

    assertThat(listing.statusCode()).isEqualTo(403);
    assertThat(listing.body()).contains("AccessDenied");
  }

  @Test
  void refusesARequestSignedWithAnotherSecret() throws Exception {
    SigV4 wrong = new SigV4(store.accessKey(), store.secretKey() + "0", store.region());

    HttpResponse<String> listing =
        HTTP.send(
            wrong.request("GET", bucketListing(store), new byte[0], Instant.now()),
            BodyHandlers.ofString());

    assertThat(listing.statusCode()).isEqualTo(403);
    assertThat(listing.body()).contains("SignatureDoesNotMatch");
  }

  @Test
  void keepsWhatIsPutWithItsKeys() throws Exception {
    byte[] content = "a backup's first bytes".getBytes(StandardCharsets.UTF_8);

    assertThat(send(store, "PUT", object(store, "keeps/one"), content).statusCode()).isEqualTo(200);
    HttpResponse<byte[]> read = send(store, "GET", object(store, "keeps/one"), new byte[0]);

    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo(content);
  }

  @Test
  void hasNoBucketButItsOwn() throws Exception {
    URI other = store.endpoint().resolve("/not-" + store.bucket() + "?list-type=2");

    assertThat(send(store, "GET", bucketListing(store), new byte[0]).statusCode()).isEqualTo(200);
    HttpResponse<byte[]> missing = send(store, "GET", other, new byte[0]);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(new String(missing.body(), StandardCharsets.UTF_8)).contains("NoSuchBucket");
    // and no bucket appears on upload
    assertThat(
            send(
                    store,
                    "PUT",
                    store.endpoint().resolve("/not-" + store.bucket() + "/k"),
                    new byte[1])
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void comesBackAfterAKillWithItsDataAndStopLeavesNoProcess(@TempDir Path dir) throws Exception {
    try (SeaweedS3 own = SeaweedS3.start(dir)) {
      byte[] content = "written before the crash".getBytes(StandardCharsets.UTF_8);
      assertThat(send(own, "PUT", object(own, "before-kill"), content).statusCode()).isEqualTo(200);

      own.kill();
      assertThatThrownBy(() -> send(own, "GET", object(own, "before-kill"), new byte[0]))
          .isInstanceOf(ConnectException.class);

      own.restart();
      HttpResponse<byte[]> read = send(own, "GET", object(own, "before-kill"), new byte[0]);
      assertThat(read.statusCode()).isEqualTo(200);
      assertThat(read.body()).isEqualTo(content);
      assertThat(
              HTTP.send(
                      HttpRequest.newBuilder(bucketListing(own)).build(), BodyHandlers.discarding())
                  .statusCode())
          .isEqualTo(403);
      own.awaitWritable(); // SeaweedFS's master holds new writes for 15 s after a restart
      assertThat(send(own, "PUT", object(own, "after-restart"), content).statusCode())
          .isEqualTo(200);

      long pid = own.pid();
      List<ProcessHandle> children = ProcessHandle.of(pid).orElseThrow().descendants().toList();
      own.stop();
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(children).noneMatch(ProcessHandle::isAlive);
      assertThatThrownBy(() -> send(own, "GET", bucketListing(own), new byte[0]))
          .isInstanceOf(ConnectException.class);
    }
  }

  @Test
  void saysHowToBuildWeedWhenItIsMissing(@TempDir Path dir) {
    assertThatThrownBy(() -> SeaweedS3.start(dir, dir.resolve("no-weed-here")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no-weed-here is missing")
        .hasMessageContaining("scripts/seaweedfs.sh");
  }

  @Test
  void showsTheLogWhenWeedDoesNotStart(@TempDir Path dir) throws IOException {
    Path failing = dir.resolve("weed");
    Files.writeString(
        failing, "#!/bin/sh\necho 'flag provided but not defined: -s3.lance' >&2\nexit 2\n");
    Files.setPosixFilePermissions(failing, PosixFilePermissions.fromString("rwx------"));

    assertThatThrownBy(() -> SeaweedS3.start(dir.resolve("data"), failing))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with code 2 while starting")
        .hasMessageContaining("flag provided but not defined: -s3.lance");
  }

  private static URI bucketListing(SeaweedS3 s3) {
    return s3.endpoint().resolve("/" + s3.bucket() + "?list-type=2");
  }

  private static URI object(SeaweedS3 s3, String key) {
    return s3.endpoint().resolve("/" + s3.bucket() + "/" + key);
  }

  private static HttpResponse<byte[]> send(SeaweedS3 s3, String method, URI uri, byte[] payload)
      throws IOException, InterruptedException {
    SigV4 signer = new SigV4(s3.accessKey(), s3.secretKey(), s3.region());
    return HTTP.send(
        signer.request(method, uri, payload, Instant.now()), BodyHandlers.ofByteArray());
  }
}
