package dev.dht.operator.volumes;

import static org.assertj.core.api.Assertions.assertThat;

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

  @Test
  void asksTheBoundClaimsThatAskLessAndNeverShrinks() {
    var claims =
        List.of(
            bound("data-demo-0", ONE, ONE),
            bound("data-demo-1", new Quantity("2048Mi"), TWO),
            bound("data-demo-2", new Quantity("3Gi"), new Quantity("3Gi")),
            new VolumeExpansion.Claim("data-demo-3", ONE, null, false, Set.of()));
    assertThat(VolumeExpansion.toExpand(TWO, claims)).containsExactly("data-demo-0");
  }

  @Test
  void onceEveryBoundClaimAsksTheSizeTheStatefulSetIsRecreatedAndTheVolumesResize() {
    var claims =
        List.of(
            bound("data-demo-0", ONE, ONE),
            new VolumeExpansion.Claim(
                "data-demo-1", TWO, ONE, true, Set.of("FileSystemResizePending")),
            new VolumeExpansion.Claim("data-demo-2", ONE, null, false, Set.of()));
    var asked = VolumeExpansion.toExpand(TWO, claims);
    var outcome = VolumeExpansion.after(TWO, claims, asked, Map.of(), ONE);

    assertThat(outcome.recreateStatefulSet()).isTrue();
    assertThat(outcome.status().getSize()).isEqualTo("2Gi");
    assertThat(outcome.status().getTemplateSize()).isEqualTo("1Gi");
    assertThat(outcome.status().getClaims())
        .extracting(ClaimState::getName, ClaimState::getRequested, ClaimState::getPhase)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("data-demo-0", "2Gi", ClaimState.Phase.Resizing),
            org.assertj.core.groups.Tuple.tuple(
                "data-demo-1", "2Gi", ClaimState.Phase.FileSystemResizePending),
            org.assertj.core.groups.Tuple.tuple("data-demo-2", "1Gi", ClaimState.Phase.Unbound));
    assertThat(outcome.condition().atSize()).isFalse();
    assertThat(outcome.condition().reason()).isEqualTo("Resizing");
    assertThat(outcome.condition().message())
        .isEqualTo(
            "data-demo-0 Resizing, data-demo-1 FileSystemResizePending, data-demo-2 Unbound on"
                + " the way to 2Gi; a file system grows when its pod restarts (kubectl dht"
                + " restart)");
  }

  @Test
  void aRefusalKeepsTheStatefulSetAndSaysWhatToDo() {
    var claims = List.of(bound("data-demo-0", ONE, ONE), bound("data-demo-1", ONE, ONE));
    var outcome =
        VolumeExpansion.after(
            TWO,
            claims,
            VolumeExpansion.toExpand(TWO, claims),
            Map.of(
                "data-demo-0", "only dynamically provisioned pvc can be resized",
                "data-demo-1", "only dynamically provisioned pvc can be resized"),
            ONE);
    assertThat(outcome.recreateStatefulSet()).isFalse();
    assertThat(outcome.status().getClaims())
        .allSatisfy(c -> {
          assertThat(c.getPhase()).isEqualTo(ClaimState.Phase.Refused);
          assertThat(c.getRequested()).isEqualTo("1Gi");
        });
    assertThat(outcome.condition().reason()).isEqualTo("ExpansionRefused");
    assertThat(outcome.condition().message())
        .startsWith(
            "the apiserver refused to expand data-demo-0, data-demo-1 from 1Gi to 2Gi: only"
                + " dynamically provisioned pvc can be resized. Their StorageClass must allow"
                + " expansion")
        .contains("set spec.storage.size back to 1Gi");
  }

  @Test
  void atSizeWhenEveryVolumeHoldsItAndTheTemplateFollowed() {
    var claims = List.of(bound("data-demo-0", TWO, TWO), bound("data-demo-1", TWO, TWO));
    var outcome = VolumeExpansion.after(TWO, claims, List.of(), Map.of(), TWO);
    assertThat(outcome.recreateStatefulSet()).isFalse();
    assertThat(outcome.condition())
        .isEqualTo(
            new VolumeExpansion.Verdict(true, "AtSize", "every claim (2) holds 2Gi or more"));
  }

  @Test
  void noClaimsNoCondition() {
    var outcome = VolumeExpansion.after(TWO, List.of(), List.of(), Map.of(), null);
    assertThat(outcome.condition()).isNull();
    assertThat(outcome.recreateStatefulSet()).isFalse();
  }
}
