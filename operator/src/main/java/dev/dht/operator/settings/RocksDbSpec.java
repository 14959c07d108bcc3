package dev.dht.operator.settings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** spec.rocksdb: the nodes' storage engine. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class RocksDbSpec {
  @Min(1)
  @Max(1 << 20)
  @JsonPropertyDescription(
      "RocksDB block cache of each node, in MiB, 1 to 1048576. It lives outside the Java heap, in"
          + " the half of the memory limit the heap leaves. Default: 64. Sets --block-cache-mb; a"
          + " change restarts the nodes one at a time.")
  private Long blockCacheMb;
}
