package dev.dht.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Build step after Fabric8's crd-generator-maven-plugin (process-classes, see operator/pom.xml):
 * puts each generated CRD's additionalPrinterColumns in the order the custom resource class
 * declares its {@link AdditionalPrinterColumn} annotations. The generator (7.5) sorts them by
 * jsonPath, which puts AGE (.metadata.creationTimestamp) first; kubectl's convention is AGE last.
 *
 * <p>It moves the columns' lines of the generated YAML as they are, so the file keeps the
 * generator's formatting. Usage: {@code PrinterColumnOrder <dir of the generated CRDs> <custom
 * resource class>...}.
 */
public final class PrinterColumnOrder {
  private static final String COLUMNS = "  - additionalPrinterColumns:";
  private static final String ITEM = "    - ";

  private PrinterColumnOrder() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: PrinterColumnOrder <crd dir> <class>...");
    }
    Path dir = Path.of(args[0]);
    for (String className : Arrays.asList(args).subList(1, args.length)) {
      Class<? extends HasMetadata> type = Class.forName(className).asSubclass(HasMetadata.class);
      Path file = dir.resolve(HasMetadata.getFullResourceName(type) + "-v1.yml");
      List<String> declared =
          Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class))
              .map(AdditionalPrinterColumn::jsonPath)
              .toList();
      String before = Files.readString(file);
      String after = reorder(before, declared);
      if (!after.equals(before)) {
        Files.writeString(file, after);
      }
    }
  }

  /**
   * {@code yaml} (one CRD version, as the generator writes it) with its printer columns in the
   * order of {@code jsonPaths}; fails if the columns are not exactly those.
   */
  static String reorder(String yaml, List<String> jsonPaths) throws IOException {
    List<String> lines = new ArrayList<>(yaml.lines().toList());
    int start = lines.indexOf(COLUMNS);
    if (start < 0) {
      if (!jsonPaths.isEmpty()) {
        throw new IllegalStateException("no additionalPrinterColumns in the generated CRD");
      }
      return yaml;
    }
    // the column items: "    - jsonPath: ..." and their deeper-indented lines
    List<List<String>> items = new ArrayList<>();
    int end = start + 1;
    while (end < lines.size() && lines.get(end).startsWith("    ")) {
      String line = lines.get(end);
      if (line.startsWith(ITEM)) {
        items.add(new ArrayList<>());
      } else if (!line.startsWith("      ")) {
        break; // the next key of the version, e.g. "    name:"
      }
      items.getLast().add(line);
      end++;
    }
    List<String> generated = new ArrayList<>();
    for (JsonNode column :
        new ObjectMapper(new YAMLFactory())
            .readTree(yaml)
            .at("/spec/versions/0/additionalPrinterColumns")) {
      generated.add(column.get("jsonPath").asText());
    }
    if (generated.size() != items.size()
        || !new ArrayList<>(generated)
            .stream().sorted().toList().equals(jsonPaths.stream().sorted().toList())) {
      throw new IllegalStateException(
          "generated printer columns " + generated + " are not the declared " + jsonPaths);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingInt(i -> jsonPaths.indexOf(generated.get(i))));
    List<String> out = new ArrayList<>(lines.subList(0, start + 1));
    order.forEach(i -> out.addAll(items.get(i)));
    out.addAll(lines.subList(end, lines.size()));
    return String.join("\n", out) + (yaml.endsWith("\n") ? "\n" : "");
  }
}
