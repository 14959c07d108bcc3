package dev.dht.node.tls;

import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS engine: BoringSSL through netty-tcnative when its native library loads (handshakes and
 * record encryption several times cheaper than the JDK's engine), else the JDK's.
 */
public final class TlsEngine {
  private static final Logger log = LoggerFactory.getLogger(TlsEngine.class);

  private TlsEngine() {}

  public static SSLEngineOptions options() {
    if (OpenSSLEngineOptions.isAvailable()) {
      return new OpenSSLEngineOptions();
    }
    log.warn("BoringSSL (netty-tcnative) is not available here: TLS runs on the JDK's engine");
    return new JdkSSLEngineOptions();
  }

  /** The engine's name, for the start-up log. */
  public static String name() {
    return OpenSSLEngineOptions.isAvailable() ? "BoringSSL" : "JDK";
  }
}
