#!/usr/bin/env bash
# make bench: start a local 3-node cluster, fill the keyspace, sweep PUT and GET rates at
# ack/from = 2/3 with the wrk2-style load generator, and print one table built from the runs' JSON.
#
#   scripts/bench.sh          the whole benchmark
#   scripts/bench.sh table    only print the table of the last benchmark (target/bench/*.json)
#
# Settings (environment or make variables, e.g. `make bench RATES="1000 2000" DURATION=10`):
#   RATES="2000 5000 10000 15000 20000"  target rates (req/s) swept for PUT, then for GET
#   DURATION=20 WARMUP=15                seconds per run; the warm-up is excluded from the results
#   NODE_WARMUP=30 NODE_WARMUP_RATE=5000 after the fill, a mixed run that warms the nodes' JIT
#                                        (0: none); not part of the table
#   CONNECTIONS=64 THREADS=1             load generator connections and event loops
#   KEYSPACE=100000 VALUE_SIZE=100       keys filled before the sweep, value size in bytes
#   ACK=2 FROM=3 FILL_RATE=10000 TIMEOUT=2s PAUSE=2 (seconds between runs)
#   PORTS="8080 8081 8082"               node ports (passed to scripts/local-cluster.sh)
#   CLUSTER=none                         use nodes that are already running on PORTS
#   LOADGEN="cmd ..."                    how to run the load generator (default: the node jar)
#   PROFILE=cpu,alloc,lock               profile every node during each measured window (events:
#                                        cpu or wall, alloc, lock); flame graphs in target/bench/
#   BASELINE=target/bench-baseline       the previous benchmark's JSON, kept when a new one starts;
#                                        the table and index.html compare with it (none: off)
# Output: target/bench/<workload>-<rate>.{json,txt,html}, fill.*, <run>-<port>-<event>.html
# flame graphs, index.html, and the table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

RATES="${RATES:-2000 5000 10000 15000 20000}"
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-15}"
NODE_WARMUP="${NODE_WARMUP:-30}"
NODE_WARMUP_RATE="${NODE_WARMUP_RATE:-5000}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-1}"
KEYSPACE="${KEYSPACE:-100000}"
VALUE_SIZE="${VALUE_SIZE:-100}"
ACK="${ACK:-2}"
FROM="${FROM:-3}"
FILL_RATE="${FILL_RATE:-10000}"
TIMEOUT="${TIMEOUT:-2s}"
PAUSE="${PAUSE:-2}"
PORTS="${PORTS:-8080 8081 8082}"
CLUSTER="${CLUSTER:-scripts/local-cluster.sh}"
OUT=target/bench
PROFILE="${PROFILE:-}"
BASELINE="${BASELINE:-target/bench-baseline}"
export PORTS DATA_DIR="${BENCH_DATA_DIR:-$OUT/data}"

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
[ -n "${JAVA_HOME:-}" ] || [ ! -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] ||
  JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java

log() { echo "bench: $*" >&2; }

# The table: one row per run, in run order, from the JSON summaries listed in $OUT/runs.
# With a baseline (the previous benchmark's JSON of the same run), p99 and p99.9 get its change
# ("-12%", "2.1x better"); index.html holds the same table with links to each run's page and
# flame graphs.
print_table() {
  python3 - "$OUT" "$BASELINE" <<'PY'
import html, json, os, sys
out, base = sys.argv[1], sys.argv[2]
names = open(os.path.join(out, "runs")).read().split() if os.path.exists(os.path.join(out, "runs")) else []
def load(d, name):
    p = os.path.join(d, name + ".json")
    return json.load(open(p)) if os.path.exists(p) else None
def change(now, before):
    if before is None or not before:
        return ""
    f = now / before
    if abs(f - 1) < 0.01: return "same"
    if f < 1 / 1.5: return "%.1fx better" % (1 / f)
    if f > 1.5: return "%.1fx worse" % f
    return "%+.0f%%" % ((f - 1) * 100)
head = ("workload", "target/s", "achieved/s", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors (+non2xx)",
        "p99 vs base", "p99.9 vs base")
rows = []
for name in names:
    j = load(out, name)
    if j is None:
        rows.append((name, "-", "failed") + ("-",) * 7)
        continue
    l = j["latencyMs"]
    b = load(base, name) if base != "none" else None
    bl = b["latencyMs"] if b else {}
    rows.append((j["workload"], "%.0f" % j["targetRate"], "%.0f" % j["achievedRate"],
                 "%.2f" % l["p50"], "%.2f" % l["p99"], "%.2f" % l["p999"], "%.2f" % l["max"],
                 "%d (+%d)" % (j["errors"], j["non2xx"]),
                 change(l["p99"], bl.get("p99")), change(l["p999"], bl.get("p999"))))
widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
fmt = "  ".join("%%-%ds" % w if i == 0 else "%%%ds" % w for i, w in enumerate(widths))
print(fmt % head)
print("  ".join("-" * w for w in widths))
for r in rows:
    print(fmt % tuple(r))
flames = sorted(f for f in os.listdir(out) if f.count("-") >= 3 and f.endswith(".html")
                and f.rsplit("-", 1)[1][:-5] in ("cpu", "wall", "alloc", "lock"))
with open(os.path.join(out, "index.html"), "w") as f:
    f.write("<!DOCTYPE html><html><head><meta charset='utf-8'><title>dht bench</title>"
            "<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px}"
            "table{border-collapse:collapse}</style></head><body><h1>dht bench</h1><table><tr>")
    f.write("".join("<th>%s</th>" % html.escape(h) for h in head) + "<th>flame graphs</th></tr>")
    for name, r in zip(names, rows):
        links = " ".join("<a href='%s'>%s</a>" % (html.escape(x), html.escape(x[len(name) + 1:-5]))
                         for x in flames if x.startswith(name + "-"))
        f.write("<tr><td><a href='%s.html'>%s</a></td>" % (html.escape(name), html.escape(r[0])))
        f.write("".join("<td>%s</td>" % html.escape(str(c)) for c in r[1:]) + "<td>%s</td></tr>" % links)
    f.write("</table><p>baseline: %s</p></body></html>\n" % html.escape(base))
PY
}

if [ "${1:-}" = table ]; then
  print_table
  exit 0
fi

# The load generator: the node jar's subcommand, else the module's classes (before the jar has it).
if [ -n "${LOADGEN:-}" ]; then
  read -r -a LG <<< "$LOADGEN"
elif [ -f app/target/dht.jar ] &&
    [[ "$(timeout 30 "$JAVA" -jar app/target/dht.jar loadgen --help 2>&1 || true)" == *--read-ratio* ]]; then
  LG=("$JAVA" -jar app/target/dht.jar loadgen)
elif [ -d loadgen/target/classes ]; then
  cp_file=loadgen/target/runtime-classpath.txt
  [ -s "$cp_file" ] || mvn -B -ntp -q -pl loadgen dependency:build-classpath \
    -DincludeScope=runtime -Dmdep.outputFile="$PWD/$cp_file" >&2
  LG=("$JAVA" -cp "loadgen/target/classes:$(cat "$cp_file")" dev.dht.loadgen.cli.LoadGenMain)
else
  log "no load generator: run 'make build' first"
  exit 1
fi

urls=()
for p in $PORTS; do urls+=("http://127.0.0.1:$p"); done
URLS="$(IFS=,; echo "${urls[*]}")"

# the previous benchmark's results become the baseline of this one
if [ "$BASELINE" != none ] && [ -s "$OUT/runs" ]; then
  rm -rf "$BASELINE" && mkdir -p "$BASELINE"
  cp "$OUT"/runs "$OUT"/*.json "$BASELINE"/ 2>/dev/null || true
  log "baseline: the previous benchmark ($BASELINE)"
fi
rm -rf "$OUT"
mkdir -p "$OUT"
: > "$OUT/runs"

if [ "$CLUSTER" != none ]; then
  trap '"$CLUSTER" stop || true' EXIT
  trap 'exit 130' INT TERM
  log "starting the local cluster ($URLS)"
  "$CLUSTER" start >&2
fi

failed=0
profile_args=()
[ -z "$PROFILE" ] ||
  profile_args=(--profile-nodes "$URLS" --profile-events "$PROFILE" --profile-secret-file "$DATA_DIR/secret")
# shellcheck source=lib/flame-graphs.sh
. scripts/lib/flame-graphs.sh
# run NAME ARGS...: one load generator run writing $OUT/NAME.{json,txt,html}.
run() {
  local name=$1
  shift
  log "$name: $*"
  echo "$name" >> "$OUT/runs"
  if ! "${LG[@]}" --url "$URLS" --connections "$CONNECTIONS" --threads "$THREADS" \
      --keyspace "$KEYSPACE" --value-size "$VALUE_SIZE" --ack "$ACK" --from "$FROM" \
      --timeout "$TIMEOUT" --json "$OUT/$name.json" --html "$OUT/$name.html" "$@" > "$OUT/$name.txt"; then
    log "$name failed (see $OUT/$name.txt)"
    rm -f "$OUT/$name.json"
    failed=1
  fi
}

run fill --workload fill --rate "$FILL_RATE"
if [ -f "$OUT/fill.json" ]; then
  python3 - "$OUT/fill.json" "$KEYSPACE" <<'PY' >&2
import json, sys
j = json.load(open(sys.argv[1]))
if j["ok"] < int(sys.argv[2]):
    print("bench: warning: the fill stored %d of %s keys (errors %d, non2xx %d): GETs will see 404s"
          % (j["ok"], sys.argv[2], j["errors"], j["non2xx"]))
PY
fi
if [ "$NODE_WARMUP" -gt 0 ]; then
  log "warming the nodes: mixed at $NODE_WARMUP_RATE req/s for ${NODE_WARMUP}s (not in the table)"
  "${LG[@]}" --url "$URLS" --connections "$CONNECTIONS" --threads "$THREADS" \
    --keyspace "$KEYSPACE" --value-size "$VALUE_SIZE" --ack "$ACK" --from "$FROM" --timeout "$TIMEOUT" \
    --workload mixed --read-ratio 0.5 --rate "$NODE_WARMUP_RATE" --duration "${NODE_WARMUP}s" \
    > "$OUT/node-warmup.txt" 2>&1 || log "the node warm-up failed (see $OUT/node-warmup.txt)"
fi
for workload in put get; do
  for rate in $RATES; do
    sleep "$PAUSE"
    run "$workload-$rate" --workload "$workload" --rate "$rate" --duration "${DURATION}s" --warmup "${WARMUP}s" \
      "${profile_args[@]}"
    [ -z "$PROFILE" ] || flame_graphs "$OUT" "$workload-$rate" "$(plain_admin_nodes "$PORTS")" "$PROFILE" "$DATA_DIR/secret"
  done
done

echo
echo "dht bench: ${CONNECTIONS} connections, ${THREADS} threads, ${DURATION}s runs after ${WARMUP}s warm-up," \
  "${KEYSPACE} keys of ${VALUE_SIZE} B, ack=${ACK} from=${FROM}, nodes ${URLS}"
print_table
echo
echo "load: $(uptime)"
echo "details: $OUT/<run>.txt (wrk2 format), .json, .html; $OUT/index.html${PROFILE:+ (with the flame graphs)}"
exit "$failed"
