package dev.dht.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.dht.operator.cluster.DhtClusterSpec;
import dev.dht.operator.cluster.DhtClusterStatus;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodAffinity;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The schema-only copies of Kubernetes types have exactly the JSON properties of Fabric8's classes,
 * of the same types: a property missing from a copy would be missing from the CRD, and the
 * apiserver would prune it from what users write. And every {@code @SchemaFrom} of the model names
 * the copy of its field's type.
 */
class KubernetesSchemasTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Fabric8's class -> its copy. */
  private static final Map<Class<?>, Class<?>> COPIES =
      Map.ofEntries(
          Map.entry(ResourceRequirements.class, KubernetesSchemas.ResourceRequirements.class),
          Map.entry(ResourceClaim.class, KubernetesSchemas.ResourceClaim.class),
          Map.entry(LocalObjectReference.class, KubernetesSchemas.LocalObjectReference.class),
          Map.entry(Condition.class, KubernetesSchemas.Condition.class),
          Map.entry(Toleration.class, KubernetesSchemas.Toleration.class),
          Map.entry(
              TopologySpreadConstraint.class, KubernetesSchemas.TopologySpreadConstraint.class),
          Map.entry(LabelSelector.class, KubernetesSchemas.LabelSelector.class),
          Map.entry(
              LabelSelectorRequirement.class, KubernetesSchemas.LabelSelectorRequirement.class),
          Map.entry(Affinity.class, KubernetesSchemas.Affinity.class),
          Map.entry(NodeAffinity.class, KubernetesSchemas.NodeAffinity.class),
          Map.entry(PreferredSchedulingTerm.class, KubernetesSchemas.PreferredSchedulingTerm.class),
          Map.entry(NodeSelector.class, KubernetesSchemas.NodeSelector.class),
          Map.entry(NodeSelectorTerm.class, KubernetesSchemas.NodeSelectorTerm.class),
          Map.entry(NodeSelectorRequirement.class, KubernetesSchemas.NodeSelectorRequirement.class),
          Map.entry(PodAffinity.class, KubernetesSchemas.PodAffinity.class),
          Map.entry(PodAntiAffinity.class, KubernetesSchemas.PodAntiAffinity.class),
          Map.entry(WeightedPodAffinityTerm.class, KubernetesSchemas.WeightedPodAffinityTerm.class),
          Map.entry(PodAffinityTerm.class, KubernetesSchemas.PodAffinityTerm.class),
          Map.entry(NetworkPolicyPeer.class, KubernetesSchemas.NetworkPolicyPeer.class),
          Map.entry(IPBlock.class, KubernetesSchemas.IPBlock.class));

  @Test
  void eachCopyHasTheJsonPropertiesOfFabric8sClass() {
    COPIES.forEach((original, copy) ->
        assertThat(properties(copy))
            .as("JSON properties of %s (copy of %s)", copy.getName(), original.getName())
            .isEqualTo(properties(original)));
  }

  @Test
  void everySchemaFromOfTheModelNamesTheCopyOfItsFieldsType() {
    var seen = new HashSet<Class<?>>();
    int checked = 0;
    for (Class<?> root :
        new Class<?>[] {
          DhtClusterSpec.class,
          DhtClusterStatus.class,
          DhtLoadTestSpec.class,
          DhtLoadTestStatus.class
        }) {
      checked += checkSchemaFroms(root, seen);
    }
    assertThat(checked).as("@SchemaFrom fields found").isGreaterThanOrEqualTo(10);
  }

  private static int checkSchemaFroms(Class<?> type, Set<Class<?>> seen) {
    if (!type.getName().startsWith("dev.dht.") || type.isEnum() || !seen.add(type)) {
      return 0;
    }
    int checked = 0;
    for (Field field : type.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers())) {
        continue;
      }
      JavaType fieldType = MAPPER.getTypeFactory().constructType(field.getGenericType());
      SchemaFrom from = field.getAnnotation(SchemaFrom.class);
      if (from != null) {
        assertThat(shape(MAPPER.constructType(from.type()), Map.of()))
            .as("@SchemaFrom of %s.%s", type.getSimpleName(), field.getName())
            .isEqualTo(shape(fieldType, COPIES));
        checked++;
        continue;
      }
      assertThat(COPIES)
          .as("%s.%s has a Kubernetes type: give it @SchemaFrom", type.getName(), field.getName())
          .doesNotContainKey(innermost(fieldType).getRawClass());
      checked += checkSchemaFroms(innermost(fieldType).getRawClass(), seen);
    }
    return checked;
  }

  private static JavaType innermost(JavaType type) {
    return type.isContainerType() ? innermost(type.getContentType()) : type;
  }

  /** name -> shape of its type, copies of Kubernetes types standing for them. */
  private static Map<String, String> properties(Class<?> type) {
    var out = new TreeMap<String, String>();
    var description = MAPPER.getSerializationConfig().introspect(MAPPER.constructType(type));
    for (BeanPropertyDefinition p : description.findProperties()) {
      if (p.getPrimaryMember().hasAnnotation(com.fasterxml.jackson.annotation.JsonIgnore.class)) {
        continue;
      }
      out.put(p.getName(), shape(p.getPrimaryType(), COPIES));
    }
    return out;
  }

  /** The type as the CRD schema sees it: lists and arrays alike, Fabric8 classes as their copy. */
  private static String shape(JavaType type, Map<Class<?>, Class<?>> copies) {
    if (type.isArrayType() || type.isCollectionLikeType()) {
      return "list<" + shape(type.getContentType(), copies) + ">";
    }
    if (type.isMapLikeType()) {
      return "map<"
          + shape(type.getKeyType(), copies)
          + ","
          + shape(type.getContentType(), copies)
          + ">";
    }
    return copies.getOrDefault(type.getRawClass(), type.getRawClass()).getName();
  }
}
