package dev.dht.operator.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

class EventsTest {
  private static final io.fabric8.kubernetes.api.model.ConfigMap OBJECT =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withName("demo")
          .withUid("u-1")
          .endMetadata()
          .build();

  @Test
  void theSameEventHasTheSameNameSoThatItIsCountedNotRepeated() {
    var once = new Events.Transition("Warning", "SecretMissing", "the Secret is missing");
    var again = new Events.Transition("Warning", "SecretMissing", "the Secret is missing");
    assertThat(Events.name(OBJECT, once)).isEqualTo(Events.name(OBJECT, again));
    assertThat(Events.name(OBJECT, once)).startsWith("demo.").hasSize("demo.".length() + 16);
  }

  @Test
  void anotherReasonOrMessageIsAnotherEvent() {
    var a = new Events.Transition("Normal", "RollingRestart", "restarting pod demo-0");
    var b = new Events.Transition("Normal", "RollingRestart", "restarting pod demo-1");
    var c = new Events.Transition("Normal", "Scaling", "restarting pod demo-0");
    assertThat(Events.name(OBJECT, a)).isNotEqualTo(Events.name(OBJECT, b));
    assertThat(Events.name(OBJECT, a)).isNotEqualTo(Events.name(OBJECT, c));
  }
}
