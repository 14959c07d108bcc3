package dev.dht.node.bootstrap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Whether the node serves reads, or is still deciding or bootstrapping after an empty start. */
public record BootstrapMetrics(DataState data) implements MeterBinder {
  @Override
  public void bindTo(MeterRegistry registry) {
    for (DataState.Phase phase : DataState.Phase.values()) {
      Gauge.builder("dht_data_phase", data, d -> d.phase() == phase ? 1 : 0)
          .description(
              "1 for the phase the node is in: serving reads, or after a start on an empty data"
                  + " directory deciding (asking its peers) or bootstrapping (pulling from them)")
          .tag("phase", phase.label())
          .register(registry);
    }
  }
}
