package dev.dht.node.http;

/**
 * Limits of one request and connection: a longer key gets 400, a larger value 413, a body not
 * complete within {@code bodyTimeoutMs} 408; idle connections close after {@code
 * idleTimeoutSeconds}.
 */
public record Limits(
    int maxKeyBytes, int maxValueBytes, long bodyTimeoutMs, int idleTimeoutSeconds) {}
