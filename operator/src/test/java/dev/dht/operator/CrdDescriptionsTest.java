package dev.dht.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtScheduledBackup;
import dev.dht.operator.cluster.CrdFileIsCurrentTest;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.users.DhtUser;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kubectl explain} answers for the kind and every field: the schema of each committed CRD
 * (crds/) has a description, and so does each of its properties, at every depth. And the printer
 * columns are in kubectl's convention: in the order the class declares them, AGE last.
 */
class CrdDescriptionsTest {
  private static final Map<String, Class<? extends HasMetadata>> CRDS =
      Map.of(
          "dhtclusters.dht.dev-v1.yml", DhtCluster.class,
          "dhtloadtests.dht.dev-v1.yml", DhtLoadTest.class,
          "dhtusers.dht.dev-v1.yml", DhtUser.class,
          "dhtbackups.dht.dev-v1.yml", DhtBackup.class,
          "dhtscheduledbackups.dht.dev-v1.yml", DhtScheduledBackup.class);
  private static final Map<String, String> KIND_DESCRIPTIONS =
      Map.of(
          "dhtclusters.dht.dev-v1.yml", DhtCluster.DESCRIPTION,
          "dhtloadtests.dht.dev-v1.yml", DhtLoadTest.DESCRIPTION,
          "dhtusers.dht.dev-v1.yml", DhtUser.DESCRIPTION,
          "dhtbackups.dht.dev-v1.yml", DhtBackup.DESCRIPTION,
          "dhtscheduledbackups.dht.dev-v1.yml", DhtScheduledBackup.DESCRIPTION);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "dhtclusters.dht.dev-v1.yml",
        "dhtloadtests.dht.dev-v1.yml",
        "dhtusers.dht.dev-v1.yml",
        "dhtbackups.dht.dev-v1.yml",
        "dhtscheduledbackups.dht.dev-v1.yml"
      })
  void theKindHasADescription(String file) throws IOException {
    assertThat(version(file).at("/schema/openAPIV3Schema/description").asText())
        .as(
            "crds/%s: openAPIV3Schema.description, what kubectl explain says of the kind"
                + " (%s.DESCRIPTION, through its @SchemaCustomizer)",
            file, CRDS.get(file).getSimpleName())
        .isNotBlank()
        .isEqualTo(KIND_DESCRIPTIONS.get(file));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "dhtclusters.dht.dev-v1.yml",
        "dhtloadtests.dht.dev-v1.yml",
        "dhtusers.dht.dev-v1.yml",
        "dhtbackups.dht.dev-v1.yml",
        "dhtscheduledbackups.dht.dev-v1.yml"
      })
  void everyPropertyHasADescription(String file) throws IOException {
    JsonNode schema = version(file).at("/schema/openAPIV3Schema");
    assertThat(schema.isObject()).as("%s has an openAPIV3Schema", file).isTrue();
    var undescribed = new ArrayList<String>();
    int properties = walk(schema, "", undescribed);
    assertThat(properties).as("properties of %s", file).isGreaterThan(10);
    assertThat(undescribed)
        .as(
            "properties of crds/%s without a description (@JsonPropertyDescription on the"
                + " field; Kubernetes types: @SchemaFrom a copy in KubernetesSchemas)",
            file)
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "dhtclusters.dht.dev-v1.yml",
        "dhtloadtests.dht.dev-v1.yml",
        "dhtusers.dht.dev-v1.yml",
        "dhtbackups.dht.dev-v1.yml",
        "dhtscheduledbackups.dht.dev-v1.yml"
      })
  void printerColumnsAreInDeclaredOrderAgeLast(String file) throws IOException {
    var names = new ArrayList<String>();
    var paths = new ArrayList<String>();
    for (JsonNode column : version(file).get("additionalPrinterColumns")) {
      names.add(column.get("name").asText());
      paths.add(column.get("jsonPath").asText());
    }
    assertThat(names).last().isEqualTo("Age");
    assertThat(paths).last().isEqualTo(".metadata.creationTimestamp");
    assertThat(paths)
        .as("the order of the @AdditionalPrinterColumn annotations (PrinterColumnOrder)")
        .isEqualTo(
            Arrays.stream(CRDS.get(file).getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::jsonPath)
                .toList());
  }

  /** Counts the properties under {@code schema}; adds the paths of those without description. */
  static int walk(JsonNode schema, String path, List<String> undescribed) {
    int count = 0;
    var properties = schema.path("properties");
    for (var it = properties.fields(); it.hasNext(); ) {
      var property = it.next();
      String at = path + "." + property.getKey();
      count++;
      if (property.getValue().path("description").asText().isBlank()) {
        undescribed.add(at);
      }
      count += walk(property.getValue(), at, undescribed);
    }
    if (schema.path("items").isObject()) {
      count += walk(schema.get("items"), path + "[]", undescribed);
    }
    if (schema.path("additionalProperties").isObject()) {
      count += walk(schema.get("additionalProperties"), path + "{}", undescribed);
    }
    return count;
  }

  private static JsonNode version(String file) throws IOException {
    JsonNode crd =
        new ObjectMapper(new YAMLFactory()).readTree(CrdFileIsCurrentTest.committed(file).toFile());
    JsonNode versions = crd.at("/spec/versions");
    assertThat(versions.size()).as("versions of %s", file).isEqualTo(1);
    return versions.get(0);
  }
}
