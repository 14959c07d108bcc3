package dev.dht.node.auth;

import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A user as the request path checks it: for each operation the key prefixes it is granted, and its
 * quota on this node. Made once per document (a user's quota carries over to the next document if
 * its rate stays), read by every event loop without locks.
 */
public final class ClientUser {
  /**
   * Whoever sends requests to a node that requires no authentication: every operation on every key,
   * no quota.
   */
  public static final ClientUser ANYONE =
      new ClientUser("anyone", everyKeyFor(Operation.values()), null);

  private static final Operation[] OPERATIONS = Operation.values();

  private final String name;
  private final KeyPrefixes[] byOperation;
  private final TokenBucket quota;

  private ClientUser(String name, KeyPrefixes[] byOperation, TokenBucket quota) {
    this.name = name;
    this.byOperation = byOperation;
    this.quota = quota;
  }

  /**
   * The request path's form of {@code user}; its quota is {@code previousQuota} if that has the
   * user's rate (a new document then gives no fresh burst), else a full new bucket.
   */
  static ClientUser of(User user, TokenBucket previousQuota, LongSupplier nanoClock) {
    KeyPrefixes[] byOperation = new KeyPrefixes[OPERATIONS.length];
    for (Operation operation : OPERATIONS) {
      List<String> prefixes = new ArrayList<>();
      for (Acl acl : user.acls()) {
        if (acl.operations().contains(operation)) {
          prefixes.add(acl.prefix());
        }
      }
      byOperation[operation.ordinal()] = KeyPrefixes.of(prefixes);
    }
    TokenBucket quota = null;
    if (user.requestsPerSecond() > 0) {
      quota =
          previousQuota != null && previousQuota.perSecond() == user.requestsPerSecond()
              ? previousQuota
              : new TokenBucket(user.requestsPerSecond(), nanoClock);
    }
    return new ClientUser(user.name(), byOperation, quota);
  }

  private static KeyPrefixes[] everyKeyFor(Operation[] operations) {
    KeyPrefixes[] all = new KeyPrefixes[operations.length];
    java.util.Arrays.fill(all, KeyPrefixes.of(List.of("")));
    return all;
  }

  public String name() {
    return name;
  }

  /** Whether this user may {@code operation} (read, write or delete) the key {@code key}. */
  public boolean may(Operation operation, byte[] key) {
    return byOperation[operation.ordinal()].covers(key);
  }

  /**
   * Whether this user may read the range from {@code start} to {@code end} (null: the last key).
   */
  public boolean mayRange(byte[] start, byte[] end) {
    return byOperation[Operation.RANGE.ordinal()].coversRange(start, end);
  }

  /** The prefixes {@code operation} is granted on, for the reason of a refusal. */
  public KeyPrefixes prefixes(Operation operation) {
    return byOperation[operation.ordinal()];
  }

  /**
   * Takes one request from the user's quota: 0 if it may go, else the nanoseconds until it may (a
   * user without a quota always may).
   */
  public long takeQuota() {
    return quota == null ? 0 : quota.tryTake();
  }

  /** The quota's requests per second; 0: none. */
  public long requestsPerSecond() {
    return quota == null ? 0 : quota.perSecond();
  }

  TokenBucket quota() {
    return quota;
  }

  @Override
  public String toString() {
    return name;
  }
}
