package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class FlameGraphsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theNodesMeasurementOfWhatProfilingCostInWords() throws Exception {
    var measured =
        JSON.readTree(
            "{\"requestsBefore\":3000,\"requestsDuring\":4500,\"cpuMsPerRequestBefore\":0.2,"
                + "\"cpuMsPerRequestDuring\":0.21,\"changePercent\":5.0}");
    assertThat(FlameGraphs.overhead(measured))
        .isEqualTo(
            "+5.0% CPU per request while profiled (0.2100 ms, against 0.2000 ms in the seconds"
                + " before; 4500 and 3000 requests)");
    var unmeasured =
        JSON.readTree(
            "{\"requestsBefore\":3,\"requestsDuring\":4500,\"unmeasured\":\"fewer than 200\"}");
    assertThat(FlameGraphs.overhead(unmeasured)).isEqualTo("not measured (fewer than 200)");
  }
}
