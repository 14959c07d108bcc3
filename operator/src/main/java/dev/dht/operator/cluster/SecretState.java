package dev.dht.operator.cluster;

/** What a reconciliation found of the cluster's Secret ({@link SecretDependent#ensure}). */
enum SecretState {
  /** There, and the operator's: owned by this very cluster (an owner reference with its UID). */
  OURS,

  /** Gone from a cluster whose nodes may run with it: not made again (SecretMissing). */
  MISSING,

  /**
   * There, but not made for this cluster: someone's Secret that happens to have the name. Never
   * mounted, so nothing is applied (SecretNotOwned): the cluster's pods run the user's image, which
   * could read it.
   */
  NOT_OURS
}
