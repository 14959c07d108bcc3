package dev.dht.node.storage;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.rocksdb.TickerType;

/** RocksDB's properties and tickers as gauges, read at scrape time (which runs on a worker). */
public record StorageMetrics(Storage storage) implements MeterBinder {
  private static final TickerType[] TICKERS = {
    TickerType.BYTES_WRITTEN,
    TickerType.BYTES_READ,
    TickerType.BLOCK_CACHE_HIT,
    TickerType.BLOCK_CACHE_MISS,
    TickerType.STALL_MICROS
  };

  @Override
  public void bindTo(MeterRegistry registry) {
    property(registry, "rocksdb.estimate-num-keys", "dht_rocksdb_estimated_keys");
    property(registry, "rocksdb.total-sst-files-size", "dht_rocksdb_sst_bytes");
    property(registry, "rocksdb.cur-size-all-mem-tables", "dht_rocksdb_memtable_bytes");
    property(registry, "rocksdb.block-cache-usage", "dht_rocksdb_block_cache_bytes");
    for (TickerType ticker : TICKERS) {
      Gauge.builder(
              "dht_rocksdb_ticker",
              storage,
              s -> s.isOpen() ? s.statistics().getTickerCount(ticker) : Double.NaN)
          .tag("ticker", ticker.name().toLowerCase())
          .register(registry);
    }
  }

  private void property(MeterRegistry registry, String property, String name) {
    Gauge.builder(name, storage, s -> s.longProperty(property)).register(registry);
  }
}
