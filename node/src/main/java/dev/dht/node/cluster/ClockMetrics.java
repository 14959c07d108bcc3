package dev.dht.node.cluster;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Whether the node fenced itself for its clock, and its measured offset to its peers. */
public record ClockMetrics(ClockOffsets offsets) implements MeterBinder {
  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("dht_clock_fenced", offsets, o -> o.verdict().fenced() ? 1 : 0)
        .description(
            "1 while the node's clock is out by more than the maximum clock offset from a majority"
                + " of its peers: it coordinates no writes, serves no replica and is not Ready")
        .register(registry);
    Gauge.builder("dht_clock_offset_ms", offsets, o -> o.verdict().offsetMs())
        .description(
            "the median offset of the node's wall clock to its peers' (positive: ahead), measured"
                + " over internal exchanges")
        .register(registry);
  }
}
