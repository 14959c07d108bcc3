package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * A node's thread counts when the DhtCluster sets none, from the CPU its container may count on:
 * its CPU limit, else its request. One event loop per whole core of it (at least one), two storage
 * workers per event loop. More threads than that only add context switches when nodes share cores:
 * measured on 2 cores with three node pods of 250m, 2 loops and 8 workers each gave PUT p99 several
 * times that of 1 and 2 (README, in-cluster speed). Pure.
 */
public record NodeThreads(int eventLoops, int storageWorkers) {
  static final int STORAGE_WORKERS_PER_LOOP = 2;

  public static NodeThreads forResources(ResourceRequirements resources) {
    int cores = CpuCores.of(resources);
    return new NodeThreads(cores, cores * STORAGE_WORKERS_PER_LOOP);
  }
}
