#!/usr/bin/env bash
# A local 3-node dht cluster on 127.0.0.1:8080-8082, plain HTTP.
#   run    start in the foreground until Ctrl-C (make run)
#   start  start in the background and return once every node answers (make bench, tests)
#   stop   stop the nodes started by `start`
#   urls   print the nodes' client URLs, comma-separated
# Env: DATA_DIR (default ./data), PORTS (default "8080 8081 8082"), NODE_JVM_OPTS, NODE_ARGS,
# NODE_CPUS (e.g. "0": the nodes run on those cores only, through taskset).
# TLS=1: TLS on every port, with a CA and a node certificate made by openssl in $DATA_DIR/tls; the
# nodes then listen on 127.0.0.1, 127.0.0.2 and 127.0.0.3 (clients on PORTS, peers on 7070 and
# admin on 9090 of each address: a peer port is the same number on every member).
# AUTH=1: clients need a token (the users document $DATA_DIR/users.json admits one user, "local",
# allowed everything, whose token is in $DATA_DIR/token): curl -H "Authorization: Bearer $(cat ...)".
set -euo pipefail
cd "$(dirname "$0")/.."

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=${JAR:-app/target/dht.jar}
DATA_DIR="$(mkdir -p "${DATA_DIR:-data}" && cd "${DATA_DIR:-data}" && pwd)"
PORTS=(${PORTS:-8080 8081 8082})
PID_FILE="$DATA_DIR/pids"
# None by default: a node started without a heap option starts its JVM again with its heap defaults
# (docs/design/startup.md), as `java -jar dht.jar` does for anyone.
NODE_JVM_OPTS="${NODE_JVM_OPTS:-}"
# Three nodes share this machine's cores: one event loop each batches more per loop turn.
NODE_ARGS="${NODE_ARGS---event-loops 1 --storage-threads 2}"

TLS="${TLS:-}"
TLS_DIR="$DATA_DIR/tls"
AUTH="${AUTH:-}"
host() { if [ -n "$TLS" ]; then echo "127.0.0.$(($1 + 1))"; else echo 127.0.0.1; fi; }
members() { local IFS=,; local urls=() i; for i in "${!PORTS[@]}"; do urls+=("http://$(host "$i"):${PORTS[$i]}"); done; echo "${urls[*]}"; }
client_urls() { if [ -n "$TLS" ]; then members | sed 's|http://|https://|g'; else members; fi; }
# ready I: whether node I says it is ready (its admin port)
ready() {
  if [ -n "$TLS" ]; then
    curl -fsS -o /dev/null --cacert "$TLS_DIR/ca.crt" "https://$(host "$1"):9090/health/ready" 2>/dev/null
  else
    curl -fsS -o /dev/null "http://127.0.0.1:${PORTS[$1]}/health/ready" 2>/dev/null
  fi
}

# A CA and one certificate every node serves and presents to its peers (EC P-256, 30 days).
make_certificates() {
  [ -f "$TLS_DIR/tls.crt" ] && return 0
  command -v openssl > /dev/null || { apt-get update -qq && apt-get install -y -qq openssl > /dev/null; }
  mkdir -p "$TLS_DIR"
  (cd "$TLS_DIR" &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
      -subj "/CN=dht local CA" -keyout ca.key -out ca.crt 2>/dev/null &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=dht local node" \
      -keyout tls.key -out tls.csr 2>/dev/null &&
    openssl x509 -req -in tls.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -out tls.crt \
      -extfile <(printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2,IP:127.0.0.3" \
        "extendedKeyUsage=serverAuth,clientAuth" "basicConstraints=CA:FALSE") 2>/dev/null &&
    rm -f tls.csr ca.srl)
}

# The token of the one user, and the users document with its SHA-256.
make_users() {
  [ -f "$DATA_DIR/token" ] || head -c 32 /dev/urandom | base64 | tr -d '=+/\n' > "$DATA_DIR/token"
  local hash; hash=$(tr -d '\n' < "$DATA_DIR/token" | sha256sum | cut -d' ' -f1)
  printf '{"revision": 1, "authentication": "required", "users": [{"name": "local", "tokenSha256": "%s", "acls": [{"prefix": "", "operations": ["read", "write", "delete", "range"]}]}]}\n' \
    "$hash" > "$DATA_DIR/users.json"
}

auth_args() { [ -z "$AUTH" ] || echo "--users-file $DATA_DIR/users.json"; }

tls_args() {
  [ -n "$TLS" ] || return 0
  echo "--listen-address $(host "$1") --peer-port 7070 --admin-port 9090 --tls-cert-file $TLS_DIR/tls.crt" \
    "--tls-key-file $TLS_DIR/tls.key --tls-ca-file $TLS_DIR/ca.crt"
}

start_nodes() {
  [ -f "$JAR" ] || { echo "missing $JAR: run 'make build' first" >&2; exit 1; }
  local i p
  for i in "${!PORTS[@]}"; do # a node of another cluster would pass the readiness checks below
    p=${PORTS[$i]}
    if (exec 3<>"/dev/tcp/$(host "$i")/$p") 2>/dev/null; then
      echo "port $p is in use (a cluster already running? stop it first)" >&2; exit 1
    fi
  done
  [ -f "$DATA_DIR/secret" ] || head -c 24 /dev/urandom | base64 > "$DATA_DIR/secret"
  [ -z "$TLS" ] || make_certificates
  [ -z "$AUTH" ] || make_users
  : > "$PID_FILE"
  for i in "${!PORTS[@]}"; do
    p=${PORTS[$i]}
    # shellcheck disable=SC2086,SC2046
    ${NODE_CPUS:+taskset -c "$NODE_CPUS"} "$JAVA" $NODE_JVM_OPTS --enable-native-access=ALL-UNNAMED -jar "$JAR" \
      --self "http://$(host "$i"):$p" --cluster "$(members)" --data-dir "$DATA_DIR/node-$p" \
      --cluster-secret-file "$DATA_DIR/secret" $(tls_args "$i") $(auth_args) $NODE_ARGS > "$DATA_DIR/node-$p.log" 2>&1 &
    echo $! >> "$PID_FILE"
  done
  for i in "${!PORTS[@]}"; do
    for _ in $(seq 1 1200); do # 2 min at most: a node may warm up first (--warm-up-s)
      ready "$i" && break
      sleep 0.1
    done
    ready "$i" || {
      echo "node $(host "$i"):${PORTS[$i]} did not become ready; log: $DATA_DIR/node-${PORTS[$i]}.log" >&2
      stop_nodes; exit 1; }
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
  start) start_nodes; echo "cluster up: $(client_urls) (data in $DATA_DIR)" ;;
  urls) client_urls ;;
  stop) stop_nodes ;;
  run)
    trap 'echo; echo "stopping..."; stop_nodes; exit 0' INT TERM
    start_nodes
    if [ -n "$TLS" ]; then
      try="curl --cacert $TLS_DIR/ca.crt"
    else
      try=curl
    fi
    [ -z "$AUTH" ] || try="$try -H \"Authorization: Bearer \$(cat $DATA_DIR/token)\""
    first=$(client_urls | cut -d, -f1); second=$(client_urls | cut -d, -f2)
    cat <<MSG
dht: 3 nodes up on $(client_urls)
data lives in $DATA_DIR (one RocksDB directory per node; logs beside them)
try:
  $try -i -X PUT '$first/v0/entity?id=hello&ack=2&from=3' --data-binary 'world'
  $try -i '$second/v0/entity?id=hello'
Ctrl-C stops the cluster.
MSG
    wait
    ;;
  *) echo "usage: $0 run|start|stop" >&2; exit 2 ;;
esac
