package dev.dht.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code openssl verify} (curl's and many clients' library) says of our certificates, as files
 * the way a node or a user gets them. Skipped where openssl is not installed.
 */
class OpensslAgreesTest {
  private static final Instant NOW = Instant.now();

  @TempDir Path dir;

  @BeforeAll
  static void needsOpenssl() {
    assumeTrue(run(List.of("openssl", "version")).exit() == 0, "openssl is not installed");
  }

  @Test
  void aLeafVerifiesForServersAndClientsWithItsNames() throws IOException {
    var ca = ca("demo CA");
    Path caFile = write("ca.crt", Pem.certificate(ca.certificate()));
    Path leafFile = write("tls.crt", Pem.certificate(leaf(ca).certificate()));
    for (String purpose : List.of("sslserver", "sslclient")) {
      var result = verify(caFile, leafFile, "-purpose", purpose);
      assertThat(result.exit()).as(result.output()).isZero();
      assertThat(result.output()).contains("tls.crt: OK");
    }
    for (String host : List.of("demo-0.demo-peers.ns.svc", "demo.ns.svc.cluster.local")) {
      var result = verify(caFile, leafFile, "-verify_hostname", host);
      assertThat(result.exit()).as(host + ": " + result.output()).isZero();
    }
    assertThat(verify(caFile, leafFile, "-verify_hostname", "other.ns.svc").exit()).isNotZero();
  }

  @Test
  void aBundleOfTwoCasVerifiesLeavesOfEitherAndAStrangersNot() throws IOException {
    var oldCa = ca("demo CA old");
    var newCa = ca("demo CA new");
    Path bundle =
        write("bundle.crt", Pem.certificates(List.of(newCa.certificate(), oldCa.certificate())));
    assertThat(verify(bundle, write("old.crt", Pem.certificate(leaf(oldCa).certificate()))).exit())
        .isZero();
    assertThat(verify(bundle, write("new.crt", Pem.certificate(leaf(newCa).certificate()))).exit())
        .isZero();
    var stranger = write("stranger.crt", Pem.certificate(leaf(ca("stranger CA")).certificate()));
    assertThat(verify(bundle, stranger).exit()).isNotZero();
  }

  @Test
  void opensslReadsOurPkcs8Key() throws IOException {
    Path key = write("tls.key", Pem.privateKey(leaf(ca("demo CA")).privateKey()));
    var result = run(List.of("openssl", "pkey", "-in", key.toString(), "-noout", "-text"));
    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(result.output()).contains("prime256v1");
  }

  private static CertificateAuthority ca(String name) {
    return CertificateAuthority.generate(
        name, Validity.of(NOW.minus(Duration.ofMinutes(1)), Duration.ofDays(365)));
  }

  private static IssuedCertificate leaf(CertificateAuthority ca) {
    return ca.issue(
        new LeafRequest(
            "demo.ns node",
            TestPki.NODE_NAMES,
            Validity.of(NOW.minus(Duration.ofMinutes(1)), Duration.ofDays(90))));
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static Result verify(Path caFile, Path leaf, String... options) {
    var command = new ArrayList<>(List.of("openssl", "verify", "-CAfile", caFile.toString()));
    command.addAll(List.of(options));
    command.add(leaf.toString());
    return run(command);
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command) {
    try {
      var process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(-1, "timed out");
      }
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      return new Result(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, e.toString());
    }
  }
}
