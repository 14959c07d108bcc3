package dev.dht.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The operator's writer and the nodes' reader of the settings file, against each other. */
class SettingsFileTest {
  @Property
  void whatIsWrittenIsReadBack(@ForAll Integer ack, @ForAll Integer from) {
    var file = new SettingsFile(ack, from);
    assertThat(SettingsFile.parse(file.write())).isEqualTo(file);
  }

  @Test
  void readsPropertiesAsJavaDoesAndLeavesAbsentOrBlankValuesUnset() {
    assertThat(SettingsFile.parse("default-ack=2\ndefault-from=3\n"))
        .isEqualTo(new SettingsFile(2, 3));
    assertThat(SettingsFile.parse("default-ack = 1")).isEqualTo(new SettingsFile(1, null));
    assertThat(SettingsFile.parse("default-from: 5\n")).isEqualTo(new SettingsFile(null, 5));
    assertThat(SettingsFile.parse("# nothing\nother=1\ndefault-ack=\n"))
        .isEqualTo(new SettingsFile(null, null));
    assertThat(new SettingsFile(2, 3).write()).isEqualTo("default-ack=2\ndefault-from=3\n");
  }

  @Test
  void namesAValueThatIsNotANumber() {
    assertThatThrownBy(() -> SettingsFile.parse("default-from=three"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("default-from is not a number: three");
  }
}
