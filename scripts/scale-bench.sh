#!/usr/bin/env bash
# make scale-bench: how long growing 3 -> 5 nodes and shrinking back take, and how fast streaming
# moves keys. Five local node processes (from=3); three are members and get KEYS keys of VALUE_SIZE
# bytes, two start unlisted (waiting); then each change is driven as the operator drives it: every
# epoch is observed by every node before the next (joining/leaving, stream, read-from next, final
# membership, cleanup). Prints each phase's duration, streamed keys and MB/s. Stops by itself.
# Settings (environment or make variables): KEYS=100000 VALUE_SIZE=100 FILL_RATE=12000
#   STREAM_RATE=1073741824 (bytes/s a stream may receive) PORTS="8096 8097 8098 8099 8100"
#   NODE_HEAP=512m
# Output: target/scale/fill.txt, node logs in target/scale/data.
set -euo pipefail
cd "$(dirname "$0")/.."

KEYS="${KEYS:-100000}"
VALUE_SIZE="${VALUE_SIZE:-100}"
FILL_RATE="${FILL_RATE:-12000}"
STREAM_RATE="${STREAM_RATE:-1073741824}"
NODE_HEAP="${NODE_HEAP:-512m}"
OUT=target/scale
DATA="$OUT/data"
read -r -a ports <<< "${PORTS:-8096 8097 8098 8099 8100}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR=app/target/dht.jar
urls=()
for p in "${ports[@]}"; do urls+=("http://127.0.0.1:$p"); done
pids=()

log() { echo "scale-bench: $*" >&2; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$(now)"; }
start_node() { # start_node INDEX
  local p=${ports[$1]}
  "$JAVA" -Xms"$NODE_HEAP" -Xmx"$NODE_HEAP" -XX:+UseG1GC --enable-native-access=ALL-UNNAMED -jar "$JAR" \
    --self "${urls[$1]}" --cluster-file "$DATA/members" --data-dir "$DATA/node-$p" \
    --cluster-secret-file "$DATA/secret" --event-loops 1 --storage-threads 2 --default-from 3 \
    --repair-interval-s 0 --repair-bytes-per-s "$STREAM_RATE" >> "$DATA/node-$p.log" 2>&1 &
  pids[$1]=$!
  for _ in $(seq 1 300); do
    curl -fsS -o /dev/null "http://127.0.0.1:$p/health/ready" 2>/dev/null && return 0
    sleep 0.1
  done
  log "node $p did not start (see $DATA/node-$p.log)"
  exit 1
}
stop_all() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done; wait || true; }
trap stop_all EXIT
# publish EPOCH READ_FROM STATE... (one per node; "-" = not a member)
publish() {
  local epoch=$1 read_from=$2 i=0
  shift 2
  { echo "epoch $epoch"; [ "$read_from" = next ] && echo "read-from next"
    for state in "$@"; do
      case $state in -) ;; normal) echo "${urls[$i]}" ;; *) echo "${urls[$i]} $state" ;; esac
      i=$((i + 1))
    done; } > "$DATA/members.next"
  mv "$DATA/members.next" "$DATA/members"
}
field() { # field INDEX PYTHON_EXPR_ON_s
  curl -fsS -H "X-Dht-Cluster-Secret: $(cat "$DATA/secret")" "${urls[$1]}/v0/admin/status" | python3 -c "import json,sys; s=json.load(sys.stdin); print($2)"
}
await_all() { # await_all EXPR VALUE INDEX...: polls the nodes' status every 50 ms, in one process
  local expr=$1 value=$2 i targets=()
  shift 2
  for i in "$@"; do targets+=("${urls[$i]}"); done
  python3 - "$expr" "$value" "$(cat "$DATA/secret")" "${targets[@]}" <<'PY'
import json, sys, time, urllib.request
expr, value, secret, waiting = sys.argv[1], sys.argv[2], sys.argv[3], list(sys.argv[4:])
while waiting:
    request = urllib.request.Request(waiting[0] + "/v0/admin/status", headers={"X-Dht-Cluster-Secret": secret})
    try:
        s = json.load(urllib.request.urlopen(request, timeout=10))
    except OSError:  # a node restarting: ask again
        s = None
    if s is not None and str(eval(expr)) == value:
        waiting.pop(0)
    else:
        time.sleep(0.05)
PY
}
admin() { # admin ACTION INDEX...
  local action=$1
  shift
  for i in "$@"; do
    curl -fsS -o /dev/null -X POST -H "X-Dht-Cluster-Secret: $(cat "$DATA/secret")" "${urls[$i]}/v0/admin/$action"
  done
}
streamed() { # streamed INDEX...: keys and bytes the streams of these nodes received
  local keys=0 bytes=0
  for i in "$@"; do
    keys=$((keys + $(field "$i" 's["stream"]["keysReceived"]')))
    bytes=$((bytes + $(field "$i" 's["stream"]["bytesReceived"]')))
  done
  echo "$keys $bytes"
}
transition() { # transition NAME FIRST_EPOCH "STATES..." "FINAL STATES..." STREAMERS... -- MEMBERS_AFTER...
  local name=$1 epoch=$2 states=$3 final=$4
  shift 4
  local streamers=() after=() all=(0 1 2 3 4) t0 t1 t2
  while [ "$1" != -- ]; do streamers+=("$1"); shift; done
  shift
  after=("$@")
  t0=$(now)
  # shellcheck disable=SC2086
  publish "$epoch" current $states
  await_all 's["epoch"]' "$epoch" "${all[@]}"
  local observed; observed=$(since "$t0")
  t1=$(now)
  admin stream "${streamers[@]}"
  await_all 's["stream"]["completedEpoch"]' "$epoch" "${streamers[@]}"
  local streaming; streaming=$(since "$t1")
  read -r keys bytes <<< "$(streamed "${streamers[@]}")"
  t2=$(now)
  # shellcheck disable=SC2086
  publish $((epoch + 1)) next $states
  await_all 's["epoch"]' $((epoch + 1)) "${all[@]}"
  # shellcheck disable=SC2086
  publish $((epoch + 2)) current $final
  await_all 's["epoch"]' $((epoch + 2)) "${after[@]}"
  admin cleanup "${after[@]}"
  await_all 's["cleanup"]["completedEpoch"]' $((epoch + 2)) "${after[@]}"
  local switching; switching=$(since "$t2")
  python3 -c "
import sys
name, observed, streaming, switching, keys, mb = sys.argv[1], *map(float, sys.argv[2:])
print('%s: %.1f s in all (epoch observed %.1f s, streaming %.1f s, read switch + final + cleanup %.1f s);'
      ' streamed %d keys, %.1f MB: %.0f keys/s, %.1f MB/s' % (name, observed + streaming + switching,
      observed, streaming, switching, keys, mb / 1e6, keys / streaming, mb / 1e6 / streaming))
" "$name" "$observed" "$streaming" "$switching" "$keys" "$bytes"
}

[ -f "$JAR" ] || { log "missing $JAR: run 'make build' first"; exit 1; }
rm -rf "$OUT"
mkdir -p "$DATA"
head -c 24 /dev/urandom | base64 > "$DATA/secret"
publish 1 current normal normal normal - -
for i in 0 1 2; do start_node "$i"; done
log "filling $KEYS keys of $VALUE_SIZE B at $FILL_RATE/s"
"$JAVA" -jar "$JAR" loadgen --url "${urls[0]},${urls[1]},${urls[2]}" --connections 32 --threads 1 \
  --keyspace "$KEYS" --value-size "$VALUE_SIZE" --ack 2 --from 3 --timeout 2s --workload fill \
  --rate "$FILL_RATE" > "$OUT/fill.txt"
start_node 3 # unlisted: they wait
start_node 4
transition "3 -> 5" 2 "normal normal normal joining joining" "normal normal normal normal normal" \
  0 1 2 3 4 -- 0 1 2 3 4
transition "5 -> 3" 5 "normal normal normal leaving leaving" "normal normal normal - -" \
  0 1 2 -- 0 1 2
echo "load: $(uptime)"
