package dev.dht.node.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileProps;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads a small file when its modification time or size changes (polling: Kubernetes updates a
 * mounted ConfigMap by swapping a symlink, which file-system events do not follow reliably). Uses
 * Vert.x's non-blocking file system, so it may run on an event loop.
 */
public final class FileWatcher {
  private static final Logger log = LoggerFactory.getLogger(FileWatcher.class);

  private final Vertx vertx;
  private final String path;
  private final Consumer<String> onChange;
  private long lastModified = -1;
  private long lastSize = -1;
  private long timerId = -1;

  public FileWatcher(Vertx vertx, String path, Consumer<String> onChange) {
    this.vertx = vertx;
    this.path = path;
    this.onChange = onChange;
  }

  public void start(long periodMs) {
    timerId = vertx.setPeriodic(periodMs, id -> poll());
  }

  public void stop() {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
  }

  private void poll() {
    vertx.fileSystem().props(path).onSuccess(this::checkProps);
  }

  private void checkProps(FileProps props) {
    if (props.lastModifiedTime() == lastModified && props.size() == lastSize) {
      return;
    }
    lastModified = props.lastModifiedTime();
    lastSize = props.size();
    vertx.fileSystem().readFile(path).onSuccess(this::apply);
  }

  private void apply(Buffer content) {
    try {
      onChange.accept(content.toString());
    } catch (RuntimeException e) {
      log.warn("ignoring the new content of {}: {}", path, e.getMessage());
    }
  }
}
