package dev.dht.loadgen.engine;

/** One request to send: a PUT of the run's value or a GET, to {@code uri}. */
record PlannedRequest(boolean put, String uri) {}
