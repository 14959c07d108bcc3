#!/usr/bin/env bash
# make heal-bench: how fast replicas heal. Three local nodes (from=3); fills KEYS keys of VALUE_SIZE
# bytes at 2/3, then
#   1. a wiped node: node 3 is killed, its data directory deleted, and restarted empty: it pulls its
#      keys from its peers before it is Ready (unpaced: REPAIR_RATE bytes/s); prints keys/s;
#   2. a repair run with nothing to repair, what every repair interval costs a node (digests of
#      every key it shares with each peer, on both sides); prints keys/s and the keys a node can
#      repair within the default interval (1 h) at that pace;
#   3. hints: node 3 is killed, HINT_SECONDS of writes at HINT_RATE req/s go to nodes 1 and 2 (each
#      keeps a hint per write node 3 missed), node 3 is restarted; prints how long until no hint is
#      pending, and the replay rate.
# Stops by itself (~4 min with the defaults). Settings (environment or make variables):
#   KEYS=1000000 VALUE_SIZE=100 FILL_RATE=12000 REPAIR_RATE=1073741824 HINT_RATE=5000
#   HINT_SECONDS=20 PORTS="8093 8094 8095" NODE_HEAP=512m
# Output: target/heal/{fill,hints}.txt, node logs in target/heal/data.
set -euo pipefail
cd "$(dirname "$0")/.."

KEYS="${KEYS:-1000000}"
VALUE_SIZE="${VALUE_SIZE:-100}"
FILL_RATE="${FILL_RATE:-12000}"
REPAIR_RATE="${REPAIR_RATE:-1073741824}"
HINT_RATE="${HINT_RATE:-5000}"
HINT_SECONDS="${HINT_SECONDS:-20}"
NODE_HEAP="${NODE_HEAP:-512m}"
OUT=target/heal
read -r -a ports <<< "${PORTS:-8093 8094 8095}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=app/target/dht.jar
DATA="$OUT/data"
urls=()
for p in "${ports[@]}"; do urls+=("http://127.0.0.1:$p"); done
MEMBERS="$(IFS=,; echo "${urls[*]}")"
pids=()

log() { echo "heal-bench: $*" >&2; }
start_node() { # start_node INDEX
  local p=${ports[$1]}
  "$JAVA" -Xms"$NODE_HEAP" -Xmx"$NODE_HEAP" -XX:+UseG1GC --enable-native-access=ALL-UNNAMED -jar "$JAR" \
    --self "http://127.0.0.1:$p" --cluster "$MEMBERS" --data-dir "$DATA/node-$p" \
    --cluster-secret-file "$DATA/secret" --event-loops 1 --storage-threads 2 \
    --repair-interval-s 0 --repair-bytes-per-s "$REPAIR_RATE" >> "$DATA/node-$p.log" 2>&1 &
  pids[$1]=$!
  for _ in $(seq 1 6000); do # a wiped node is Ready once it pulled its keys
    curl -fsS -o /dev/null "http://127.0.0.1:$p/health/ready" 2>/dev/null && return 0
    sleep 0.1
  done
  log "node $p did not start (see $DATA/node-$p.log)"
  exit 1
}
kill_node() { kill -KILL "${pids[$1]}" 2>/dev/null || true; wait "${pids[$1]}" 2>/dev/null || true; }
stop_all() { for i in 0 1 2; do [ -n "${pids[$i]:-}" ] && kill -TERM "${pids[$i]}" 2>/dev/null || true; done; wait || true; }
trap stop_all EXIT
admin() { curl -fsS -H "X-Dht-Cluster-Secret: $(cat "$DATA/secret")" "$@"; }
status() { admin "http://127.0.0.1:${ports[$1]}/v0/admin/repair"; }
pending() { # hints pending on nodes 1 and 2
  for i in 0 1; do curl -fsS "http://127.0.0.1:${ports[$i]}/metrics"; done |
    awk '/^dht_hints_pending\{/ {s += $2} END {printf "%d\n", s}'
}
loadgen() { "$JAVA" -jar "$JAR" loadgen --connections 32 --threads 1 --value-size "$VALUE_SIZE" \
  --ack 2 --from 3 --timeout 2s "$@"; }

[ -f "$JAR" ] || { log "missing $JAR: run 'make build' first"; exit 1; }
rm -rf "$OUT"
mkdir -p "$DATA"
head -c 24 /dev/urandom | base64 > "$DATA/secret"
for i in 0 1 2; do start_node "$i"; done
log "filling $KEYS keys of $VALUE_SIZE B at $FILL_RATE/s"
loadgen --url "$MEMBERS" --keyspace "$KEYS" --workload fill --rate "$FILL_RATE" > "$OUT/fill.txt"
grep -E "Requests/sec|Non-2xx|errors" "$OUT/fill.txt" >&2 || true

log "1. a wiped node: node ${ports[2]} restarts on an empty data directory"
kill_node 2
rm -rf "$DATA/node-${ports[2]}"
began=$(date +%s.%N)
start_node 2
# Ready comes while it still asks its peers whether it lacks data: its status says when it serves
until admin "http://127.0.0.1:${ports[2]}/v0/admin/status" |
  python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["bootstrap"]["phase"] != "serving")'; do
  sleep 0.2
done
held=$(admin "http://127.0.0.1:${ports[2]}/v0/admin/status" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["storage"]["estimatedKeys"])')
python3 -c "
import sys
keys, secs = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2])
print('bootstrap: serving after pulling ~%d keys in %.1f s: %.0f keys/s' % (keys, secs, keys / secs))
" "$held" "$began" "$(date +%s.%N)"

log "2. a repair run on node ${ports[2]} with nothing to repair"
runs() { status 2 | python3 -c 'import json, sys; print(json.load(sys.stdin)["runs"])'; }
runs_before=$(runs) # its bootstrap pull was a run too
received_before=$(status 2 | python3 -c 'import json, sys; print(json.load(sys.stdin)["keysReceived"])')
admin -X POST "http://127.0.0.1:${ports[2]}/v0/admin/repair" >&2
echo >&2
until [ "$(runs)" -gt "$runs_before" ]; do sleep 1; done
status 2 | python3 -c '
import json, sys
s, keys, received = json.load(sys.stdin), int(sys.argv[1]), int(sys.argv[2])
secs = s["lastDurationMs"] / 1000
print("repair with nothing to repair: ~%d keys compared with 2 peers in %.1f s: %.0f keys/s;"
      " within a 1 h interval at that pace: ~%.0f M keys (received %d keys, failed runs %d)" % (
    keys, secs, keys / secs, keys / secs * 3600 / 1e6, s["keysReceived"] - received,
    s["failedRuns"]))' "$held" "$received_before"

log "3. hints: node ${ports[2]} is down during ${HINT_SECONDS}s of writes at $HINT_RATE/s"
kill_node 2
loadgen --url "${urls[0]},${urls[1]}" --keyspace "$KEYS" --workload put --rate "$HINT_RATE" \
  --duration "${HINT_SECONDS}s" > "$OUT/hints.txt"
sleep 2
before=$(pending)
start_node 2
began=$(date +%s.%N)
until [ "$(pending)" -eq 0 ]; do sleep 0.2; done
python3 -c "
import sys
hints, secs = int(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2])
print('hints: %d replayed in %.1f s after the restart: %.0f hints/s' % (hints, secs, hints / secs))
" "$before" "$began" "$(date +%s.%N)"
echo "load: $(uptime)"
