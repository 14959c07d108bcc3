package dev.dht.node.hints;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * The hint store's counters and size, read from the store (which the node holds, as the meters'
 * weak references need). Each target's pending gauge comes from the store's {@code onTarget}.
 */
public record HintMetrics(HintStore hints) implements MeterBinder {
  @Override
  public void bindTo(MeterRegistry registry) {
    counter(
        registry, "stored", "hints written for replicas that missed a write", HintStore::stored);
    counter(
        registry, "replayed", "hints replayed to their target and deleted", HintStore::replayed);
    counter(
        registry,
        "expired",
        "hints deleted unreplayed: older than the hint window",
        HintStore::expired);
    counter(
        registry,
        "dropped",
        "hints not kept: beyond the size bound, or unwritable",
        HintStore::dropped);
    Gauge.builder("dht_hints_bytes", hints, HintStore::storedBytes)
        .description("bytes of hints on disk")
        .register(registry);
  }

  private void counter(
      MeterRegistry registry, String what, String description, ToDoubleFunction<HintStore> count) {
    FunctionCounter.builder("dht_hints_" + what, hints, count)
        .description(description)
        .register(registry);
  }
}
