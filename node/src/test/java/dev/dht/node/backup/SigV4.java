package dev.dht.node.backup;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 in the Authorization header, enough for {@link SeaweedS3}'s write probe
 * and {@link SeaweedS3Test}, which use the JDK alone: path-style URLs whose path needs no more
 * encoding, a query of name=value pairs, the payload hashed. Real clients get this from the AWS
 * SDK.
 */
final class SigV4 {
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final String SIGNED_HEADERS = "host;x-amz-content-sha256;x-amz-date";

  private final String accessKey;
  private final String secretKey;
  private final String region;

  SigV4(String accessKey, String secretKey, String region) {
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.region = region;
  }

  /** A request for {@code method uri} with {@code payload}, signed at {@code now}. */
  HttpRequest request(String method, URI uri, byte[] payload, Instant now) {
    String day = DAY.format(now);
    String time = TIME.format(now);
    String payloadHash = hex(sha256(payload));
    String host = uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
    String canonical =
        String.join(
            "\n",
            method,
            uri.getRawPath(),
            canonicalQuery(uri.getRawQuery()),
            "host:" + host,
            "x-amz-content-sha256:" + payloadHash,
            "x-amz-date:" + time,
            "",
            SIGNED_HEADERS,
            payloadHash);
    String scope = day + "/" + region + "/s3/aws4_request";
    String toSign =
        String.join(
            "\n",
            "AWS4-HMAC-SHA256",
            time,
            scope,
            hex(sha256(canonical.getBytes(StandardCharsets.UTF_8))));
    byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), day);
    for (String part : new String[] {region, "s3", "aws4_request"}) {
      key = hmac(key, part);
    }
    String authorization =
        "AWS4-HMAC-SHA256 Credential="
            + accessKey
            + "/"
            + scope
            + ", SignedHeaders="
            + SIGNED_HEADERS
            + ", Signature="
            + hex(hmac(key, toSign));
    return HttpRequest.newBuilder(uri)
        .method(method, HttpRequest.BodyPublishers.ofByteArray(payload))
        .header("x-amz-date", time)
        .header("x-amz-content-sha256", payloadHash)
        .header("Authorization", authorization)
        .build();
  }

  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    return Arrays.stream(rawQuery.split("&"))
        .map(pair -> pair.contains("=") ? pair : pair + "=")
        .sorted()
        .collect(Collectors.joining("&"));
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
