package dev.dht.loadgen;

/** One request to send: a PUT of the run's value or a GET, to {@code uri}. */
record PlannedRequest(boolean put, String uri) {}
