package dev.dht.contract;

/**
 * The names of the load generator's command and flags, for the operator that starts generators in a
 * DhtLoadTest's Job: the generator's own flag definitions use these names, so a renamed flag breaks
 * the build instead of a load test.
 */
public final class LoadGenFlags {
  /** The subcommand of the node image's jar that runs the generator. */
  public static final String COMMAND = "loadgen";

  public static final String URL = "--url";
  public static final String CA_FILE = "--ca-file";
  public static final String TOKEN_FILE = "--token-file";
  public static final String WORKLOAD = "--workload";
  public static final String RATE = "--rate";
  public static final String DURATION = "--duration";
  public static final String WARMUP = "--warmup";
  public static final String SELF_WARM_UP = "--self-warm-up";
  public static final String CONNECTIONS = "--connections";
  public static final String THREADS = "--threads";
  public static final String KEYSPACE = "--keyspace";
  public static final String DISTRIBUTION = "--distribution";
  public static final String ZIPF_THETA = "--zipf-theta";
  public static final String READ_RATIO = "--read-ratio";
  public static final String VALUE_SIZE = "--value-size";
  public static final String ACK = "--ack";
  public static final String FROM = "--from";
  public static final String TIMEOUT = "--timeout";
  public static final String SEED = "--seed";
  public static final String KEY_PREFIX = "--key-prefix";
  public static final String PROFILE_NODES = "--profile-nodes";
  public static final String PROFILE_EVENTS = "--profile-events";
  public static final String PROFILE_SECRET_FILE = "--profile-secret-file";
  public static final String JSON = "--json";
  public static final String HTML = "--html";
  public static final String TERMINATION_LOG = "--termination-log";
  public static final String GENERATORS = "--generators";
  public static final String GENERATOR_INDEX = "--generator-index";
  public static final String CONTROL_PORT = "--control-port";
  public static final String CONTROL_TOKEN_FILE = "--control-token-file";
  public static final String AWAIT_START = "--await-start";
  public static final String START_TIMEOUT = "--start-timeout";
  public static final String LINGER = "--linger";
  public static final String U_LATENCY = "--u-latency";
  public static final String QUIET = "--quiet";

  private LoadGenFlags() {}
}
