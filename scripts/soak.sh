#!/usr/bin/env bash
# make soak: a bounded soak of a hung peer. Three local nodes (256 MB heaps); constant load at 2/3
# from the load generator to nodes 1 and 2; node 3 is paused (SIGSTOP: it accepts connections in
# the kernel and never answers) for HANG seconds, then resumed. Every 10 s it prints heap, RSS, in-
# flight requests and shed peer ops per node; at the end the requests' outcomes. Stops by itself.
#
# The first WARMUP seconds warm the JVMs (late requests are skipped, not queued; not in the outcomes).
# Settings (environment or make variables): RATE=3000 VALUE_SIZE=1024 READ_RATIO=0.5
#   WARMUP=60 BEFORE=10 HANG=180 AFTER=20 (seconds) PORTS="8090 8091 8092" NODE_HEAP=256m
# Output: target/soak/{load.json,load.txt,soak.log}, node logs in target/soak/data.
set -euo pipefail
cd "$(dirname "$0")/.."

RATE="${RATE:-3000}"
VALUE_SIZE="${VALUE_SIZE:-1024}"
READ_RATIO="${READ_RATIO:-0.5}"
WARMUP="${WARMUP:-60}"
BEFORE="${BEFORE:-10}"
HANG="${HANG:-180}"
AFTER="${AFTER:-20}"
NODE_HEAP="${NODE_HEAP:-256m}"
OUT=target/soak
export PORTS="${PORTS:-8090 8091 8092}" DATA_DIR="$OUT/data"
export NODE_JVM_OPTS="-Xms$NODE_HEAP -Xmx$NODE_HEAP -XX:+UseG1GC"
read -r -a ports <<< "$PORTS"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
MEASURED=$((BEFORE + HANG + AFTER))
DURATION=$((WARMUP + MEASURED))
STOP_AT=$((WARMUP + BEFORE))
RESUME_AT=$((STOP_AT + HANG))

rm -rf "$OUT" && mkdir -p "$OUT"
scripts/local-cluster.sh start
mapfile -t pids < "$DATA_DIR/pids"
hung=${pids[2]}
load_pid=
cleanup() {
  kill -CONT "$hung" 2>/dev/null || true
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null || true
  scripts/local-cluster.sh stop
}
trap cleanup EXIT

metric() { # metric TEXT NAME [LABEL]: the sum of a metric's samples (with LABEL in their labels)
  awk -v n="$2" -v l="${3:-}" 'index($0, n) == 1 && substr($0, length(n) + 1, 1) ~ /[{ ]/ && index($0, l) { s += $NF; f = 1 }
    END { if (f) printf "%.0f", s; else printf "-" }' <<< "$1"
}

report() {
  local t=$1 line="t=${t}s"
  for i in 0 1 2; do
    local pid=${pids[$i]} state=up text heap rss
    [ "$pid" = "$hung" ] && [ "$t" -ge "$STOP_AT" ] && [ "$t" -lt "$RESUME_AT" ] && state=STOPPED
    rss=$(awk '/VmRSS/ {printf "%d", $2/1024}' "/proc/$pid/status" 2>/dev/null || echo "?")
    if [ "$state" = up ] && text=$(curl -s --max-time 2 "http://127.0.0.1:${ports[$i]}/metrics"); then
      heap=$(( $(metric "$text" jvm_memory_used_bytes 'area="heap"') / 1048576 ))
      line+=" | node$((i + 1)) heap ${heap}MB rss ${rss}MB inflight $(metric "$text" dht_inflight_requests) shed $(metric "$text" dht_peer_ops_shed_total)"
    else
      line+=" | node$((i + 1)) $state rss ${rss}MB"
    fi
  done
  echo "$line" | tee -a "$OUT/soak.log"
}

echo "soak: ${RATE} req/s mixed (${READ_RATIO} reads, ${VALUE_SIZE} B) at ack=2 from=3 to nodes 1-2 for ${WARMUP}s warm-up + ${MEASURED}s; node 3 stopped from ${STOP_AT}s to ${RESUME_AT}s" | tee "$OUT/soak.log"
"$JAVA" -jar app/target/dht.jar loadgen -u "http://127.0.0.1:${ports[0]},http://127.0.0.1:${ports[1]}" \
  -w mixed --read-ratio "$READ_RATIO" --value-size "$VALUE_SIZE" -R "$RATE" --warmup "${WARMUP}s" -d "${MEASURED}s" \
  -c 32 -t 1 --ack 2 --from 3 --json "$OUT/load.json" > "$OUT/load.txt" 2>&1 &
load_pid=$!
start=$SECONDS
for ((t = 0; t <= DURATION; t += 10)); do
  while [ $((SECONDS - start)) -lt "$t" ]; do sleep 0.2; done
  [ "$t" -eq "$STOP_AT" ] && kill -STOP "$hung" && echo "t=${t}s: node 3 stopped (SIGSTOP)" | tee -a "$OUT/soak.log"
  [ "$t" -eq "$RESUME_AT" ] && kill -CONT "$hung" && echo "t=${t}s: node 3 resumed (SIGCONT)" | tee -a "$OUT/soak.log"
  report "$t"
done
wait "$load_pid" || true
load_pid=
python3 - "$OUT/load.json" <<'PY' | tee -a "$OUT/soak.log"
import json, sys
r = json.load(open(sys.argv[1]))
print(f"outcomes after the warm-up: {r['requests']} requests, achieved {r['achievedRate']:.0f}/s, statuses {r['statusCounts']}, "
      f"errors {r['errors']} (timeouts {r['timeouts']}, connect {r['connectErrors']}, io {r['ioErrors']}); "
      f"latency ms p50 {r['latencyMs']['p50']} p99 {r['latencyMs']['p99']} p99.9 {r['latencyMs']['p999']} max {r['latencyMs']['max']}")
PY
