package dev.dht.operator.loadtest.job;

import org.HdrHistogram.Histogram;

/**
 * A generator pod as its control port last described it ({@code GET /progress}).
 *
 * @param address its control base URL, null while the pod has no IP
 * @param phase waiting, starting, running or done; null when it did not answer
 * @param startAt the start time it was given (epoch ms), if any
 * @param measuring its measured window has opened (as of its last whole second)
 * @param measuredSeconds how much of the measured window has passed (0 during the warm-up)
 * @param requests measured so far; {@code errors} and {@code non2xx} likewise
 * @param measured the measured latencies so far (microseconds), null before the window
 */
public record GeneratorProgress(
    int index,
    String pod,
    String address,
    String phase,
    Long startAt,
    double elapsedSeconds,
    boolean measuring,
    double measuredSeconds,
    long requests,
    long errors,
    long non2xx,
    Histogram measured) {

  /** A pod that did not answer (or has no IP yet). */
  public static GeneratorProgress silent(int index, String pod, String address) {
    return new GeneratorProgress(index, pod, address, null, null, 0, false, 0, 0, 0, 0, null);
  }

  public boolean answered() {
    return phase != null;
  }
}
