package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.RoundingMode;

/**
 * The whole cores a container may count on: its CPU limit, else its CPU request, rounded down, at
 * least one. Thread counts follow it. Pure.
 */
public final class CpuCores {
  private CpuCores() {}

  public static int of(ResourceRequirements resources) {
    Quantity cpu = null;
    if (resources != null) {
      cpu = resources.getLimits() == null ? null : resources.getLimits().get("cpu");
      if (cpu == null && resources.getRequests() != null) {
        cpu = resources.getRequests().get("cpu");
      }
    }
    if (cpu == null) {
      return 1;
    }
    return Math.max(
        1, Quantity.getAmountInBytes(cpu).setScale(0, RoundingMode.FLOOR).intValueExact());
  }
}
