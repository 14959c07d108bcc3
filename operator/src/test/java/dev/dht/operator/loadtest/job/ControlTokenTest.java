package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.LoadTests;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test's control Secret as made, and whose token is taken (the apiserver side: the operator
 * test).
 */
class ControlTokenTest {
  private final DhtLoadTest test = LoadTests.test("put-10k", "demo");

  @Test
  void theSecretIsTheTestsOwnLabelledAndHoldsTheToken() {
    var secret = ControlToken.desired(test, "tok");
    assertThat(secret.getMetadata().getName()).isEqualTo("put-10k-control");
    assertThat(secret.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(secret.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/managed-by", "dht-operator")
        .containsEntry("app.kubernetes.io/instance", "put-10k");
    assertThat(secret.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(r -> {
          assertThat(r.getUid()).isEqualTo("uid-put-10k");
          assertThat(r.getController()).isTrue();
        });
    assertThat(SecretTexts.text(secret, ControlToken.KEY)).isEqualTo("tok");
    assertThat(ControlToken.tokenOf(secret, test)).contains("tok");
  }

  @Test
  void aTokenIs256RandomBitsInBase64Url() {
    String token = ControlToken.newToken();
    assertThat(token).matches("[A-Za-z0-9_-]{43}");
    assertThat(Base64.getUrlDecoder().decode(token)).hasSize(32);
    assertThat(ControlToken.newToken()).isNotEqualTo(token);
  }

  @Test
  void aSecretTheTestDoesNotControlIsNeverRead() {
    var foreign =
        new SecretBuilder()
            .withNewMetadata()
            .withName("put-10k-control")
            .withNamespace("ns")
            .withLabels(LoadTestModel.labels("put-10k"))
            .endMetadata()
            .withData(SecretTexts.encode(Map.of(ControlToken.KEY, "known-to-its-maker")))
            .build();
    assertThat(ControlToken.tokenOf(foreign, test)).as("no owner").isEmpty();

    var reference = ControlToken.desired(test, "x").getMetadata().getOwnerReferences().getFirst();
    foreign.getMetadata().setOwnerReferences(List.of(withUid(reference, "uid-other")));
    assertThat(ControlToken.tokenOf(foreign, test)).as("another test's").isEmpty();

    var notController = withUid(reference, reference.getUid());
    notController.setController(false);
    foreign.getMetadata().setOwnerReferences(List.of(notController));
    assertThat(ControlToken.tokenOf(foreign, test)).as("owned, not controlled").isEmpty();

    assertThat(ControlToken.tokenOf(null, test)).isEmpty();
    assertThat(ControlToken.tokenOf(ControlToken.desired(test, "  "), test))
        .as("an empty token")
        .isEmpty();
  }

  private static OwnerReference withUid(OwnerReference reference, String uid) {
    return new OwnerReferenceBuilder(reference).withUid(uid).build();
  }
}
