package dev.dht.node.http;

/** Request size limits: a longer key gets 400, a larger value 413. */
public record Limits(int maxKeyBytes, int maxValueBytes) {}
