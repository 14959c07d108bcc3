package dev.dht.operator.loadtest.report;

import dev.dht.operator.bounded.BoundedGzip;
import dev.dht.operator.bounded.TooLargeException;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.job.LoadTestModel;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * A load test's larger artifacts (flame graphs, spectra, charts) as ConfigMaps: each artifact is
 * gzipped and, if need be, split into parts of at most {@link #PART_BYTES} (a ConfigMap holds at
 * most 1 MiB), one ConfigMap per part, {@code <test>-artifact-<artifact>-<part>}, owned by the test
 * and labelled with it. A test keeps at most {@link #MAX_TOTAL_BYTES} compressed, an artifact is at
 * most {@link #MAX_ARTIFACT_BYTES} uncompressed; artifacts beyond that are left out, and said so.
 * Reading them back trusts nothing of what it reads (anyone who may write ConfigMaps in the
 * namespace may write these): the number of parts, their size and what they unpack to are capped.
 * Pure: builds and reads the objects, applies nothing.
 */
public final class Artifacts {
  /** Below ConfigMap's 1 MiB, with room for the object's metadata. */
  static final int PART_BYTES = 900 * 1024;

  /** All artifacts of one test, compressed. */
  static final long MAX_TOTAL_BYTES = 16L * 1024 * 1024;

  /** So the parts of one artifact: at most 19. */
  static final int MAX_PARTS = (int) ((MAX_TOTAL_BYTES + PART_BYTES - 1) / PART_BYTES);

  /**
   * One artifact, uncompressed: the largest the operator collects, a flame graph (0.2 to 2 MiB from
   * a busy node, with room for deep stacks). Also what the report site unpacks at most, so that a
   * part that unpacks to a gigabyte of zeros (a megabyte compressed) stops there.
   */
  public static final int MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;

  public static final String ARTIFACT_LABEL = "dht.dev/artifact";
  static final String PART_ANNOTATION = "dht.dev/artifact-part";
  public static final String CONTENT_TYPE_ANNOTATION = "dht.dev/content-type";
  static final String DATA_KEY = "part.gz";
  private static final java.util.regex.Pattern PART_PATTERN =
      java.util.regex.Pattern.compile("(\\d{1,3})/(\\d{1,3})");

  /** One artifact: a file name (e.g. {@code flame-demo-0-cpu.html}) and its content. */
  public record Artifact(String name, String contentType, byte[] content) {}

  /** What was stored: the artifacts' names and ConfigMaps, and what was left out and why. */
  public record Stored(List<String> names, List<ConfigMap> configMaps, List<String> left) {}

  private Artifacts() {}

  public static Stored build(DhtLoadTest test, List<Artifact> artifacts) {
    var names = new ArrayList<String>();
    var maps = new ArrayList<ConfigMap>();
    var left = new ArrayList<String>();
    long total = 0;
    for (Artifact artifact : artifacts) {
      if (artifact.content().length > MAX_ARTIFACT_BYTES) {
        left.add(
            artifact.name()
                + " ("
                + artifact.content().length
                + " bytes): over the "
                + MAX_ARTIFACT_BYTES / (1024 * 1024)
                + " MiB an artifact may have");
        continue;
      }
      byte[] gz = gzip(artifact.content());
      if (total + gz.length > MAX_TOTAL_BYTES) {
        left.add(
            artifact.name()
                + " ("
                + gz.length
                + " bytes compressed): over the "
                + MAX_TOTAL_BYTES / (1024 * 1024)
                + " MiB a test keeps");
        continue;
      }
      total += gz.length;
      names.add(artifact.name());
      int parts = Math.max(1, (gz.length + PART_BYTES - 1) / PART_BYTES);
      for (int part = 0; part < parts; part++) {
        byte[] slice =
            Arrays.copyOfRange(gz, part * PART_BYTES, Math.min(gz.length, (part + 1) * PART_BYTES));
        maps.add(configMap(test, artifact, part, parts, slice));
      }
    }
    return new Stored(List.copyOf(names), List.copyOf(maps), List.copyOf(left));
  }

  /** The ConfigMap names of {@code artifact} (its parts, in order). */
  public static String name(DhtLoadTest test, String artifact, int part) {
    return test.getMetadata().getName() + "-artifact-" + slug(artifact) + "-" + part;
  }

  /**
   * How many parts the artifact of this part has, as the part says ({@code i/n}); {@link
   * IllegalArgumentException} if it says nothing readable or more than {@link #MAX_PARTS}.
   */
  public static int partCount(ConfigMap part) {
    return partOf(part)[1];
  }

  /**
   * An artifact's content, from its part ConfigMaps (in any order), each of which must be there
   * once: UncheckedIOException (a {@link dev.dht.operator.bounded.TooLargeException} inside) if the
   * parts hold more than a test keeps compressed or unpack to more than {@link
   * #MAX_ARTIFACT_BYTES}; IllegalArgumentException if they are not the parts of one artifact.
   */
  public static byte[] read(List<ConfigMap> parts) {
    if (parts.isEmpty() || parts.size() > MAX_PARTS) {
      throw new IllegalArgumentException(parts.size() + " parts: 1 to " + MAX_PARTS + " are read");
    }
    var seen = new java.util.TreeMap<Integer, byte[]>();
    long compressed = 0;
    for (ConfigMap part : parts) {
      int[] of = partOf(part);
      if (of[1] != parts.size() || seen.containsKey(of[0])) {
        throw new IllegalArgumentException("parts do not make one artifact of " + of[1]);
      }
      var data = part.getBinaryData() == null ? null : part.getBinaryData().get(DATA_KEY);
      if (data == null) {
        throw new IllegalArgumentException("part " + of[0] + " holds no " + DATA_KEY);
      }
      // base64 is 4 characters for 3 bytes: the check comes before the decoded copy is made
      compressed += data.length() / 4L * 3;
      if (compressed > MAX_TOTAL_BYTES) {
        throw new UncheckedIOException(
            new TooLargeException("the artifact (compressed)", MAX_TOTAL_BYTES));
      }
      seen.put(of[0], java.util.Base64.getDecoder().decode(data));
    }
    var gz = new ByteArrayOutputStream();
    seen.values().forEach(gz::writeBytes);
    try {
      return BoundedGzip.gunzip(gz.toByteArray(), MAX_ARTIFACT_BYTES, "the artifact");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ConfigMap configMap(
      DhtLoadTest test, Artifact artifact, int part, int parts, byte[] slice) {
    var meta = test.getMetadata();
    var labels = new java.util.LinkedHashMap<>(LoadTestModel.labels(meta.getName()));
    labels.put(ARTIFACT_LABEL, slug(artifact.name()));
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name(test, artifact.name(), part))
        .withNamespace(meta.getNamespace())
        .withLabels(labels)
        .withAnnotations(
            Map.of(
                PART_ANNOTATION,
                part + "/" + parts,
                CONTENT_TYPE_ANNOTATION,
                artifact.contentType(),
                "dht.dev/artifact-name",
                artifact.name()))
        .withOwnerReferences(Owners.controller(test))
        .endMetadata()
        .withBinaryData(Map.of(DATA_KEY, java.util.Base64.getEncoder().encodeToString(slice)))
        .build();
  }

  /** {@code i/n} of a part: its index and the artifact's part count, both checked. */
  private static int[] partOf(ConfigMap map) {
    var annotations = map.getMetadata().getAnnotations();
    String part = annotations == null ? null : annotations.get(PART_ANNOTATION);
    var matcher = part == null ? null : PART_PATTERN.matcher(part);
    if (matcher == null || !matcher.matches()) {
      throw new IllegalArgumentException("no part i/n on " + map.getMetadata().getName());
    }
    int index = Integer.parseInt(matcher.group(1));
    int count = Integer.parseInt(matcher.group(2));
    if (count < 1 || count > MAX_PARTS || index >= count) {
      throw new IllegalArgumentException(
          "part " + part + ": an artifact has 1 to " + MAX_PARTS + " parts");
    }
    return new int[] {index, count};
  }

  /** A name usable in object names and label values: lower case, [a-z0-9-]. */
  public static String slug(String name) {
    String slug = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    return slug.replaceAll("^-+|-+$", "");
  }

  private static byte[] gzip(byte[] content) {
    var out = new ByteArrayOutputStream();
    try (var gz = new GZIPOutputStream(out)) {
      gz.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
