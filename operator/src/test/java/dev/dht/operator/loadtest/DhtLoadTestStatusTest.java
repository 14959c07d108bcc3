package dev.dht.operator.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The copy a reconcile starts from carries every field of the status before it. */
class DhtLoadTestStatusTest {
  private int next = 1;

  @Test
  void aCopyOfAStatusWithEveryFieldSetEqualsIt() throws Exception {
    var status = fill(DhtLoadTestStatus.class);
    for (Field field : fields(DhtLoadTestStatus.class)) {
      assertThat(field.get(status)).as(field.getName()).isNotNull();
    }

    var copy = DhtLoadTestStatus.copyOf(status);

    assertThat(copy).isNotSameAs(status).isEqualTo(status).hasSameHashCodeAs(status);
    for (Field field : fields(DhtLoadTestStatus.class)) {
      assertThat(field.get(copy)).as(field.getName()).isEqualTo(field.get(status));
    }
    // as deep as the hand-written copy: new lists of conditions and artifacts, shared results
    assertThat(copy.getConditions()).isNotSameAs(status.getConditions());
    assertThat(copy.getArtifacts()).isNotSameAs(status.getArtifacts());
    assertThat(copy.getResults()).isSameAs(status.getResults());
    copy.getConditions().clear();
    assertThat(status.getConditions()).hasSize(1);
  }

  @Test
  void aCopyOfNoStatusIsAnEmptyOne() {
    var copy = DhtLoadTestStatus.copyOf(null);

    assertThat(copy).isEqualTo(new DhtLoadTestStatus());
    assertThat(copy.getConditions()).isEmpty();
    assertThat(copy.getArtifacts()).isEmpty();
  }

  @Test
  void aFieldMoreMakesStatusesDiffer() throws Exception {
    for (Field field : fields(DhtLoadTestStatus.class)) {
      var status = fill(DhtLoadTestStatus.class);
      var other = DhtLoadTestStatus.copyOf(status);
      field.set(other, null);
      assertThat(other).as(field.getName()).isNotEqualTo(status);
    }
  }

  private static List<Field> fields(Class<?> type) {
    var fields = new ArrayList<Field>();
    for (Field field : type.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers())) {
        field.setAccessible(true);
        fields.add(field);
      }
    }
    return fields;
  }

  /** An instance of a status class with every field set, each to a value of its own. */
  private <T> T fill(Class<T> type) throws Exception {
    T object = type.getDeclaredConstructor().newInstance();
    for (Field field : fields(type)) {
      field.set(object, value(field.getGenericType()));
    }
    return object;
  }

  private Object value(Type type) throws Exception {
    var raw = (Class<?>) (type instanceof ParameterizedType p ? p.getRawType() : type);
    int n = next++;
    if (raw == String.class) {
      return "s" + n;
    } else if (raw == Long.class) {
      return (long) n;
    } else if (raw == Integer.class) {
      return n;
    } else if (raw == Double.class) {
      return n + 0.5;
    } else if (raw == Boolean.class) {
      return n % 2 == 0;
    } else if (raw == List.class) {
      var element = ((ParameterizedType) type).getActualTypeArguments()[0];
      return new ArrayList<>(List.of(value(element)));
    } else if (raw == Condition.class) {
      return new ConditionBuilder().withType("T" + n).withStatus("True").build();
    } else if (raw.getPackageName().startsWith("dev.dht.operator")) {
      return fill(raw);
    }
    throw new AssertionError("no test value for " + type + ": add one");
  }
}
