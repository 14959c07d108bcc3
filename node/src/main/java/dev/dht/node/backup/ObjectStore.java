package dev.dht.node.backup;

import dev.dht.contract.backup.ObjectStoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible object store, through the AWS SDK's S3 client: the owner of that client and of
 * its connections. Object names are relative to the settings' prefix. Every method blocks: call
 * them on the backup thread, never on an event loop.
 */
final class ObjectStore implements AutoCloseable {
  /** Credential files in the settings' credentials directory (a mounted Secret's keys). */
  static final String ACCESS_KEY_FILE = "access-key-id";

  static final String SECRET_KEY_FILE = "secret-access-key";

  private final ObjectStoreSettings settings;
  private final S3Client s3;

  private final AwsCredentialsProvider credentials;

  private ObjectStore(
      ObjectStoreSettings settings, S3Client s3, AwsCredentialsProvider credentials) {
    this.settings = settings;
    this.s3 = s3;
    this.credentials = credentials;
  }

  /** A client of the store of {@code settings}, with credentials read now. */
  static ObjectStore open(ObjectStoreSettings settings) {
    AwsCredentialsProvider credentials = credentials(settings.credentialsDir());
    S3ClientBuilder builder =
        S3Client.builder()
            .region(Region.of(settings.region()))
            .forcePathStyle(settings.pathStyle())
            .credentialsProvider(credentials)
            // checksums only where S3 requires them: not every S3-compatible store takes the
            // SDK's default trailing checksums (files are verified by their SHA-256 on restore)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .httpClientBuilder(
                ApacheHttpClient.builder()
                    .maxConnections(4)
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(30)))
            .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofMinutes(2)));
    if (settings.endpoint() != null) {
      builder.endpointOverride(URI.create(settings.endpoint()));
    }
    return new ObjectStore(settings, builder.build(), credentials);
  }

  private static AwsCredentialsProvider credentials(String dir) {
    if (dir == null) {
      return DefaultCredentialsProvider.builder().build();
    }
    try {
      Path base = Path.of(dir);
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(
              Files.readString(base.resolve(ACCESS_KEY_FILE)).strip(),
              Files.readString(base.resolve(SECRET_KEY_FILE)).strip()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the object store's credentials in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The size of object {@code name}; -1 if there is none. */
  long size(String name) {
    try {
      return s3.headObject(b -> b.bucket(settings.bucket()).key(settings.key(name)))
          .contentLength();
    } catch (NoSuchKeyException e) {
      return -1;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return -1;
      }
      throw e;
    }
  }

  /** Uploads {@code file} as {@code name}, read through {@code pacer}. */
  void upload(String name, Path file, TransferPacer pacer) throws IOException {
    long size = Files.size(file);
    // an attempt may take as long as the pacer makes it, and then some
    Duration attempt = pacer.atRate(size).multipliedBy(2).plus(Duration.ofMinutes(5));
    s3.putObject(
        b ->
            b.bucket(settings.bucket())
                .key(settings.key(name))
                .contentLength(size)
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(attempt)),
        RequestBody.fromContentProvider(
            () -> {
              try {
                return pacer.paced(Files.newInputStream(file));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            size,
            "application/octet-stream"));
  }

  void put(String name, String text) {
    s3.putObject(
        b -> b.bucket(settings.bucket()).key(settings.key(name)).contentType("application/json"),
        RequestBody.fromString(text, StandardCharsets.UTF_8));
  }

  /**
   * The text of object {@code name}; null if there is none. A document over {@code maxBytes} is
   * refused, not read.
   */
  String get(String name, int maxBytes) throws IOException {
    try (ResponseInputStream<GetObjectResponse> in =
        s3.getObject(b -> b.bucket(settings.bucket()).key(settings.key(name)))) {
      Long length = in.response().contentLength();
      if (length != null && length > maxBytes) {
        in.abort();
        throw new IOException(name + " is " + length + " bytes, over " + maxBytes);
      }
      byte[] bytes = in.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        in.abort();
        throw new IOException(name + " is over " + maxBytes + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (NoSuchKeyException e) {
      return null;
    }
  }

  /**
   * Downloads object {@code name} into {@code target} (which must not exist), through {@code
   * pacer}.
   */
  void download(String name, Path target, TransferPacer pacer) throws IOException {
    try (ResponseInputStream<GetObjectResponse> in =
        s3.getObject(b -> b.bucket(settings.bucket()).key(settings.key(name)))) {
      try {
        Files.copy(pacer.paced(in), target);
      } catch (IOException | RuntimeException e) {
        in.abort(); // a close would read the rest of the object first, unpaced
        throw e;
      }
    }
  }

  /** Every object whose name starts with {@code prefix}. */
  List<S3Object> list(String prefix) {
    List<S3Object> all = new ArrayList<>();
    s3.listObjectsV2Paginator(b -> b.bucket(settings.bucket()).prefix(settings.key(prefix)))
        .contents()
        .forEach(all::add);
    return all;
  }

  /** The name, relative to the prefix, of a listed object. */
  String relative(S3Object object) {
    return settings.prefix().isEmpty()
        ? object.key()
        : object.key().substring(settings.prefix().length() + 1);
  }

  /** Deletes the objects (relative names), a thousand per request. */
  void delete(List<String> names) {
    for (int from = 0; from < names.size(); from += 1000) {
      List<ObjectIdentifier> chunk =
          names.subList(from, Math.min(names.size(), from + 1000)).stream()
              .map(n -> ObjectIdentifier.builder().key(settings.key(n)).build())
              .toList();
      var answer =
          s3.deleteObjects(
              b -> b.bucket(settings.bucket()).delete(Delete.builder().objects(chunk).build()));
      if (answer.hasErrors() && !answer.errors().isEmpty()) {
        var first = answer.errors().getFirst();
        throw new IllegalStateException(
            "the store did not delete "
                + answer.errors().size()
                + " objects, e.g. "
                + first.key()
                + ": "
                + first.message());
      }
    }
  }

  @Override
  public void close() {
    s3.close();
    if (credentials instanceof AutoCloseable closeable) { // the client does not close it
      try {
        closeable.close();
      } catch (Exception e) {
        // nothing held that outlives the process
      }
    }
  }
}
