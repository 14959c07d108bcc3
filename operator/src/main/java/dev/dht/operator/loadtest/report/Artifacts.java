package dev.dht.operator.loadtest.report;

import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.job.LoadTestModel;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A load test's larger artifacts (flame graphs, spectra, charts) as ConfigMaps: each artifact is
 * gzipped and, if need be, split into parts of at most {@link #PART_BYTES} (a ConfigMap holds at
 * most 1 MiB), one ConfigMap per part, {@code <test>-artifact-<artifact>-<part>}, owned by the test
 * and labelled with it. A test keeps at most {@link #MAX_TOTAL_BYTES} compressed; artifacts beyond
 * that are left out, and said so. Pure: builds and reads the objects, applies nothing.
 */
public final class Artifacts {
  /** Below ConfigMap's 1 MiB, with room for the object's metadata. */
  static final int PART_BYTES = 900 * 1024;

  /** All artifacts of one test, compressed. */
  static final long MAX_TOTAL_BYTES = 16L * 1024 * 1024;

  public static final String ARTIFACT_LABEL = "dht.dev/artifact";
  static final String PART_ANNOTATION = "dht.dev/artifact-part";
  public static final String CONTENT_TYPE_ANNOTATION = "dht.dev/content-type";
  static final String DATA_KEY = "part.gz";

  /** One artifact: a file name (e.g. {@code flame-demo-0-cpu.html}) and its content. */
  record Artifact(String name, String contentType, byte[] content) {}

  /** What was stored: the artifacts' names and ConfigMaps, and what was left out and why. */
  public record Stored(List<String> names, List<ConfigMap> configMaps, List<String> left) {}

  private Artifacts() {}

  public static Stored build(DhtLoadTest test, List<Artifact> artifacts) {
    var names = new ArrayList<String>();
    var maps = new ArrayList<ConfigMap>();
    var left = new ArrayList<String>();
    long total = 0;
    for (Artifact artifact : artifacts) {
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
  static String name(DhtLoadTest test, String artifact, int part) {
    return test.getMetadata().getName() + "-artifact-" + slug(artifact) + "-" + part;
  }

  /** An artifact's content, from its part ConfigMaps (in any order). */
  public static byte[] read(List<ConfigMap> parts) {
    var sorted =
        parts.stream()
            .sorted(Comparator.comparingInt(Artifacts::partIndex))
            .map(c -> c.getBinaryData().get(DATA_KEY))
            .map(java.util.Base64.getDecoder()::decode)
            .toList();
    var gz = new ByteArrayOutputStream();
    sorted.forEach(gz::writeBytes);
    return gunzip(gz.toByteArray());
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

  private static int partIndex(ConfigMap map) {
    String part = map.getMetadata().getAnnotations().get(PART_ANNOTATION);
    return Integer.parseInt(part.substring(0, part.indexOf('/')));
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

  private static byte[] gunzip(byte[] gz) {
    try (var in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
