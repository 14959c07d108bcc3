package dev.dht.operator.volumes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VolumeExpansionTest {
  private static final Quantity ONE = new Quantity("1Gi");
  private static final Quantity TWO = new Quantity("2Gi");

  private static VolumeExpansion.Claim bound(String name, Quantity requested, Quantity capacity) {
    return new VolumeExpansion.Claim(name, requested, capacity, true, Set.of());
  }

  private static VolumeExpansion.Claim unbound(String name) {
    return new VolumeExpansion.Claim(name, ONE, null, false, Set.of());
  }

  @Test
  void asksTheBoundClaimsThatAskLessAndNeverShrinks() {
    var claims =
        List.of(
            bound("data-demo-0", ONE, ONE),
            bound("data-demo-1", new Quantity("2048Mi"), TWO),
            bound("data-demo-2", new Quantity("3Gi"), new Quantity("3Gi")),
            unbound("data-demo-3"));
    assertThat(VolumeExpansion.toExpand(TWO, claims)).containsExactly("data-demo-0");
  }

  @Test
  void theAskedClaimsResizeAndAnUnboundOneDoesNotHoldTheConditionBack() {
    var claims =
        List.of(
            bound("data-demo-0", ONE, ONE),
            new VolumeExpansion.Claim(
                "data-demo-1", TWO, ONE, true, Set.of("FileSystemResizePending")),
            unbound("data-demo-2"));
    var outcome =
        VolumeExpansion.after(TWO, claims, VolumeExpansion.toExpand(TWO, claims), Map.of(), ONE);

    assertThat(outcome.status().getSize()).isEqualTo("2Gi");
    assertThat(outcome.status().getTemplateSize()).isEqualTo("1Gi");
    assertThat(outcome.status().getClaims())
        .extracting(ClaimState::getName, ClaimState::getRequested, ClaimState::getPhase)
        .containsExactly(
            tuple("data-demo-0", "2Gi", ClaimState.Phase.Resizing),
            tuple("data-demo-1", "2Gi", ClaimState.Phase.FileSystemResizePending),
            tuple("data-demo-2", "1Gi", ClaimState.Phase.Unbound));
    assertThat(outcome.condition())
        .isEqualTo(
            new VolumeExpansion.Verdict(
                false,
                "Resizing",
                "data-demo-0 Resizing, data-demo-1 FileSystemResizePending on the way to 2Gi; a"
                    + " file system grows when its pod restarts (kubectl dht restart)"));
  }

  @Test
  void aRefusalSaysWhatToDo() {
    var claims = List.of(bound("data-demo-0", ONE, ONE), bound("data-demo-1", ONE, ONE));
    String said = "only dynamically provisioned pvc can be resized";
    var outcome =
        VolumeExpansion.after(
            TWO,
            claims,
            VolumeExpansion.toExpand(TWO, claims),
            Map.of("data-demo-0", said, "data-demo-1", said),
            ONE);
    assertThat(outcome.status().getClaims())
        .allSatisfy(c -> {
          assertThat(c.getPhase()).isEqualTo(ClaimState.Phase.Refused);
          assertThat(c.getRequested()).isEqualTo("1Gi");
          assertThat(c.getMessage()).isEqualTo(said);
        });
    assertThat(outcome.condition().atSize()).isFalse();
    assertThat(outcome.condition().reason()).isEqualTo("ExpansionRefused");
    assertThat(outcome.condition().message())
        .startsWith(
            "the apiserver refused to expand data-demo-0, data-demo-1 from 1Gi to 2Gi: only"
                + " dynamically provisioned pvc can be resized. A claim grows only if its"
                + " StorageClass allows expansion")
        .contains("set spec.storage.size back to 1Gi");
  }

  @Test
  void atSizeWhenEveryBoundVolumeHoldsIt() {
    var claims =
        List.of(bound("data-demo-0", TWO, TWO), bound("data-demo-1", TWO, TWO), unbound("x"));
    var outcome = VolumeExpansion.after(TWO, claims, List.of(), Map.of(), ONE);
    assertThat(outcome.condition())
        .isEqualTo(
            new VolumeExpansion.Verdict(true, "AtSize", "every bound claim (2) holds 2Gi or more"));
  }

  @Test
  void noBoundClaimNoCondition() {
    assertThat(VolumeExpansion.after(TWO, List.of(), List.of(), Map.of(), null).condition())
        .isNull();
    var claims = List.of(unbound("data-demo-0"));
    assertThat(VolumeExpansion.after(TWO, claims, List.of(), Map.of(), ONE).condition()).isNull();
  }
}
