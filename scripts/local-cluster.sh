#!/usr/bin/env bash
# A local 3-node dht cluster on 127.0.0.1:8080-8082.
#   run    start in the foreground until Ctrl-C (make run)
#   start  start in the background and return once every node answers (make bench, tests)
#   stop   stop the nodes started by `start`
# Env: DATA_DIR (default ./data), PORTS (default "8080 8081 8082"), NODE_JVM_OPTS, NODE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=${JAR:-app/target/dht.jar}
DATA_DIR="$(mkdir -p "${DATA_DIR:-data}" && cd "${DATA_DIR:-data}" && pwd)"
PORTS=(${PORTS:-8080 8081 8082})
PID_FILE="$DATA_DIR/pids"
NODE_JVM_OPTS="${NODE_JVM_OPTS:--Xms256m -Xmx512m -XX:+UseG1GC -XX:+AlwaysPreTouch}"
# Three nodes share this machine's cores: one event loop each batches more per loop turn.
NODE_ARGS="${NODE_ARGS---event-loops 1 --storage-threads 2}"

members() { local IFS=,; local urls=(); for p in "${PORTS[@]}"; do urls+=("http://127.0.0.1:$p"); done; echo "${urls[*]}"; }

start_nodes() {
  [ -f "$JAR" ] || { echo "missing $JAR: run 'make build' first" >&2; exit 1; }
  for p in "${PORTS[@]}"; do # a node of another cluster would pass the readiness checks below
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "port $p is in use (a cluster already running? stop it first)" >&2; exit 1
    fi
  done
  [ -f "$DATA_DIR/secret" ] || head -c 24 /dev/urandom | base64 > "$DATA_DIR/secret"
  : > "$PID_FILE"
  for p in "${PORTS[@]}"; do
    # shellcheck disable=SC2086
    "$JAVA" $NODE_JVM_OPTS --enable-native-access=ALL-UNNAMED -jar "$JAR" \
      --self "http://127.0.0.1:$p" --cluster "$(members)" --data-dir "$DATA_DIR/node-$p" \
      --cluster-secret-file "$DATA_DIR/secret" $NODE_ARGS > "$DATA_DIR/node-$p.log" 2>&1 &
    echo $! >> "$PID_FILE"
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 1 1200); do # 2 min at most: a node may warm up first (--warm-up-s)
      curl -fsS -o /dev/null "http://127.0.0.1:$p/health/ready" 2>/dev/null && break
      sleep 0.1
    done
    curl -fsS -o /dev/null "http://127.0.0.1:$p/health/ready" || {
      echo "node on port $p did not become ready; log: $DATA_DIR/node-$p.log" >&2; stop_nodes; exit 1; }
  done
}

stop_nodes() {
  [ -f "$PID_FILE" ] || return 0
  local pids; pids=$(cat "$PID_FILE")
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 1 150); do
    # shellcheck disable=SC2086
    kill -0 $pids 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$PID_FILE"
}

case "${1:-run}" in
  start) start_nodes; echo "cluster up: $(members) (data in $DATA_DIR)" ;;
  stop) stop_nodes ;;
  run)
    trap 'echo; echo "stopping..."; stop_nodes; exit 0' INT TERM
    start_nodes
    cat <<MSG
dht: 3 nodes up on $(members)
data lives in $DATA_DIR (one RocksDB directory per node; logs beside them)
try:
  curl -i -X PUT 'http://127.0.0.1:${PORTS[0]}/v0/entity?id=hello&ack=2&from=3' --data-binary 'world'
  curl -i 'http://127.0.0.1:${PORTS[1]}/v0/entity?id=hello'
Ctrl-C stops the cluster.
MSG
    wait
    ;;
  *) echo "usage: $0 run|start|stop" >&2; exit 2 ;;
esac
