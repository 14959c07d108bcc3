package dev.dht.operator.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllowedJvmOptionsTest {
  private static final AllowedJvmOptions OPTIONS =
      new AllowedJvmOptions(List.of("-Xmx", "-Xms", "-XX:MaxRAMPercentage=", "-XX:+UseZGC"));

  @Test
  void noPrefixAllowsAnyOption() {
    assertThat(new AllowedJvmOptions(List.of()).check(List.of("-javaagent:/x.jar"))).isEmpty();
  }

  @Test
  void everyOptionMustStartWithAPrefix() {
    assertThat(OPTIONS.check(List.of())).isEmpty();
    assertThat(OPTIONS.check(List.of("-Xmx2g", "-Xms1g", "-XX:MaxRAMPercentage=60", "-XX:+UseZGC")))
        .isEmpty();
    var refusal = OPTIONS.check(List.of("-Xmx2g", "-javaagent:/tmp/a.jar")).orElseThrow();
    assertThat(refusal.reason()).isEqualTo("JvmOptionNotAllowed");
    assertThat(refusal.message())
        .isEqualTo(
            "spec.jvmOptions[1] '-javaagent:/tmp/a.jar' is not allowed by the operator's policy:"
                + " policy.jvmOptions allows options starting with -Xmx, -Xms,"
                + " -XX:MaxRAMPercentage=, -XX:+UseZGC");
    assertThat(OPTIONS.check(List.of("-XX:OnOutOfMemoryError=sh -c x"))).isPresent();
    assertThat(OPTIONS.check(List.of("-agentpath:/x.so"))).isPresent();
    assertThat(OPTIONS.check(List.of("@/tmp/argfile"))).isPresent();
    assertThat(OPTIONS.check(List.of(""))).isPresent();
  }

  @Test
  void anOptionThatTheLauncherWouldSplitIsRefusedEvenIfItStartsRight() {
    for (String sneaky :
        List.of(
            "-Xmx1g -javaagent:/tmp/a.jar",
            "-Xmx1g\t-javaagent:/tmp/a.jar",
            "-Xmx1g\n-javaagent:/tmp/a.jar",
            "-Xmx'1g'",
            "-Xmx\"1g\"")) {
      var refusal = OPTIONS.check(List.of(sneaky));
      assertThat(refusal).as(sneaky).isPresent();
      assertThat(refusal.get().message()).contains("whitespace or a quote");
    }
  }

  @Test
  void aPrefixMustStartAnOption() {
    assertThatThrownBy(() -> new AllowedJvmOptions(List.of("-")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AllowedJvmOptions(List.of("Xmx"))).hasMessageContaining("'Xmx'");
  }
}
