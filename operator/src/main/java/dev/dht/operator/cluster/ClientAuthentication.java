package dev.dht.operator.cluster;

import dev.dht.operator.users.Authentication;

/**
 * Whether a cluster's nodes get a users file ({@code --users-file}, Secret {@code <c>-users}), and
 * the mode it sets. Every cluster gets one (so that its mode changes without a restart), and
 * demands credentials unless its spec says {@code none}; but a cluster made before users existed
 * keeps running as it did (no file, no restart, its clients not refused) until its spec sets {@code
 * spec.authentication}. Pure.
 */
record ClientAuthentication(boolean usersFile, Authentication mode) {
  static final ClientAuthentication LEGACY = new ClientAuthentication(false, Authentication.None);

  /** From the spec's wish (null: unset) and the status (null: a new cluster). */
  static ClientAuthentication decide(Authentication wanted, DhtClusterStatus status) {
    if (wanted != null) {
      return new ClientAuthentication(true, wanted);
    }
    boolean madeBeforeUsers =
        status != null
            && status.getUsers() == null
            && (status.getMembership() != null
                || (status.getMembers() != null && !status.getMembers().isEmpty()));
    return madeBeforeUsers ? LEGACY : new ClientAuthentication(true, Authentication.Required);
  }
}
