package dev.dht.operator.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;

class OwnersTest {
  private static Job job(String name, String uid) {
    var job = new Job();
    job.setMetadata(new ObjectMetaBuilder().withName(name).withUid(uid).build());
    return job;
  }

  private static Pod podWith(String kind, String name, String uid, Boolean controller) {
    var pod = new Pod();
    pod.setMetadata(
        new ObjectMetaBuilder()
            .withName("p")
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion("batch/v1")
                    .withKind(kind)
                    .withName(name)
                    .withUid(uid)
                    .withController(controller)
                    .build())
            .build());
    return pod;
  }

  @Test
  void ownershipIsByUidNotByName() {
    var job = job("t-loadgen", "uid-1");
    assertThat(Owners.isOwnedBy(podWith("Job", "t-loadgen", "uid-1", null), job)).isTrue();
    assertThat(Owners.isOwnedBy(podWith("Job", "t-loadgen", "uid-0", true), job))
        .as("a Job of the same name before it")
        .isFalse();
    assertThat(Owners.isOwnedBy(podWith("CronJob", "t-loadgen", "uid-1", true), job)).isFalse();
    var bare = new ConfigMap();
    bare.setMetadata(new ObjectMetaBuilder().withName("t-loadgen").build());
    assertThat(Owners.isOwnedBy(bare, job)).as("no owner references at all").isFalse();
  }

  @Test
  void controlAlsoNeedsTheControllerFlag() {
    var job = job("t-loadgen", "uid-1");
    assertThat(Owners.isControlledBy(podWith("Job", "t-loadgen", "uid-1", true), job)).isTrue();
    assertThat(Owners.isControlledBy(podWith("Job", "t-loadgen", "uid-1", false), job)).isFalse();
    assertThat(Owners.isControlledBy(podWith("Job", "t-loadgen", "uid-1", null), job)).isFalse();
  }

  @Test
  void theReferenceTheOperatorWritesIsRecognised() {
    var job = job("t-loadgen", "uid-1");
    var pod = new Pod();
    pod.setMetadata(
        new ObjectMetaBuilder().withName("p").withOwnerReferences(Owners.controller(job)).build());
    assertThat(Owners.isControlledBy(pod, job)).isTrue();
  }
}
