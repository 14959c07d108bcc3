package dev.dht.operator.kube;

import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/** The container security context every pod the operator creates runs with. */
public final class SecurityContexts {
  private SecurityContexts() {}

  /** Non-root, no privilege escalation, read-only root file system, no capabilities. */
  public static SecurityContext restricted() {
    return new SecurityContextBuilder()
        .withRunAsNonRoot(true)
        .withAllowPrivilegeEscalation(false)
        .withReadOnlyRootFilesystem(true)
        .withNewCapabilities()
        .withDrop("ALL")
        .endCapabilities()
        .build();
  }
}
