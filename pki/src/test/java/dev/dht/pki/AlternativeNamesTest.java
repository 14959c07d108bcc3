package dev.dht.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Whatever DNS names are asked, the leaf says exactly those, in order, and verifies. */
class AlternativeNamesTest {
  private static final CertificateAuthority CA = TestPki.ca("names CA");

  @Property(tries = 50)
  void theLeafCarriesTheNamesAsked(
      @ForAll @Size(min = 1, max = 12) List<@From("names") String> names) throws Exception {
    var leaf =
        CA.issue(new LeafRequest("n", names, Validity.of(TestPki.NOW, Duration.ofHours(1))))
            .certificate();
    assertThat(CertificateInfo.of(leaf).dnsNames()).isEqualTo(names);
    assertThat(Signatures.issuedBy(leaf, CA.certificate())).isTrue();
    assertThat(Pem.parseCertificate(Pem.certificate(leaf))).isEqualTo(leaf);
  }

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> label =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .numeric()
            .withChars('-')
            .ofMinLength(1)
            .ofMaxLength(20)
            .filter(l -> !l.startsWith("-") && !l.endsWith("-"));
    Arbitrary<String> name = label.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join(".", l));
    return Arbitraries.oneOf(name, name.map(n -> "*." + n));
  }
}
