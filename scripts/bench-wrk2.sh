#!/usr/bin/env bash
# make bench-wrk2: wrk2 itself against (1) a bare Vert.x server (the node jar's `bare-server`: same
# jars, one process, a fixed 100-byte answer, no storage) and (2) the local 3-node cluster, filled,
# at ack/from 2/3, in one run; prints both tables and the ratio of their peaks.
#
# A peak is the highest swept rate that a server holds: achieved >= 99% of the target, p99 <= the
# SLO (10 ms), no socket errors and no non-2xx answers.
#
# Settings (environment or make variables, e.g. `make bench-wrk2 RATES="5000 10000"`):
#   RATES="5000 10000 15000 20000 25000"   rates (req/s) swept for PUT and GET on the cluster
#   BARE_RATES="10000 20000 30000 40000 50000"  rates swept on the bare server
#   DURATION=30 WARMUP=20  seconds per measured run; a warm-up run per server first (not in a table)
#   RUNS=1                  measured runs per cluster rate, in a row (e.g. RUNS=3: is a rate held every time?)
#   THREADS=4 CONNECTIONS=64 KEYSPACE=100000 VALUE_SIZE=100 ACK=2 FROM=3 SLO_MS=10 PAUSE=2
#   PROFILE=cpu,alloc,lock  profile every node during each cluster run (flame graphs in $OUT)
#   WRK2=/opt/wrk2/wrk      wrk2 binary; built by ../shared/tools/build-wrk2.sh when missing
#   OPS="put get"           the cluster workloads
#   TLS=1                   the cluster over TLS (scripts/local-cluster.sh TLS=1; wrk2 speaks it)
#   AUTH=1                  clients need a token (scripts/local-cluster.sh AUTH=1): wrk2 and the
#                           fill send it
#   STATUSES=1              wrk2 counts its non-2xx answers by status (in its output file)
#   NODE_CPUS=0 CLIENT_CPUS=1  pin the nodes and wrk2 to separate cores (taskset), so that the
#                           client's own cost (e.g. its TLS) does not take the nodes' CPU
# Output: target/bench-wrk2/<server>-<workload>-<rate>.txt (wrk2's own output), results.json,
# and the tables on stdout. A table's "cores" is the CPU the server's processes (all three nodes)
# used during the run, and "cpu us" that per achieved request: the cost, apart from the p99's noise.
set -euo pipefail
cd "$(dirname "$0")/.."

RATES="${RATES:-5000 10000 15000 20000 25000}"
BARE_RATES="${BARE_RATES-10000 20000 30000 40000 50000}"
DURATION="${DURATION:-30}"
WARMUP="${WARMUP:-20}"
THREADS="${THREADS:-4}"
CONNECTIONS="${CONNECTIONS:-64}"
KEYSPACE="${KEYSPACE:-100000}"
VALUE_SIZE="${VALUE_SIZE:-100}"
ACK="${ACK:-2}"
FROM="${FROM:-3}"
SLO_MS="${SLO_MS:-10}"
PAUSE="${PAUSE:-2}"
PROFILE="${PROFILE:-}"
RUNS="${RUNS:-1}"
BARE_PORT="${BARE_PORT:-8090}"
PORTS="${PORTS:-8080 8081 8082}"
OUT=target/bench-wrk2
SHARED="${SHARED:-$(cd .. && pwd)/shared}"
WRK2="${WRK2:-/opt/wrk2/wrk}"
export KEYSPACE VALUE_SIZE ACK FROM PORTS DATA_DIR="$OUT/data" NODE_CPUS="${NODE_CPUS:-}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAR="${JAR:-app/target/dht.jar}"
log() { echo "bench-wrk2: $*" >&2; }

if [ ! -x "$WRK2" ]; then
  log "building wrk2 with $SHARED/tools/build-wrk2.sh"
  WRK2="$("$SHARED/tools/build-wrk2.sh" | tail -1)"
fi
[ -f "$JAR" ] || { log "missing $JAR: run 'make build' first"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
: > "$OUT/runs"

# shellcheck source=lib/flame-graphs.sh
. scripts/lib/flame-graphs.sh
bare_pid=
cleanup() {
  [ -z "$bare_pid" ] || { kill "$bare_pid" 2>/dev/null; wait "$bare_pid" 2>/dev/null || true; }
  scripts/local-cluster.sh stop || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wrk2_run NAME URL OP RATE SECONDS: one wrk2 run, its output in $OUT/NAME.txt
wrk2_run() {
  log "$1: wrk2 -t$THREADS -c$CONNECTIONS -d${5}s -R$4 -L ($3) $2"
  OP="$3" ${CLIENT_CPUS:+taskset -c "$CLIENT_CPUS"} "$WRK2" -t"$THREADS" -c"$CONNECTIONS" -d"${5}s" -R"$4" -L --timeout 2s \
    ${AUTH:+-H "Authorization: Bearer $(cat "$DATA_DIR/token")"} \
    -s scripts/wrk2/entity.lua "$2" > "$OUT/$1.txt" 2>&1 || log "$1: wrk2 failed (see $OUT/$1.txt)"
}
# cpu_ticks PIDS: the CPU time the processes used so far (clock ticks, user + system)
cpu_ticks() {
  local p t=0 s
  for p in $1; do read -r -a s < "/proc/$p/stat" && t=$((t + s[13] + s[14])); done
  echo "$t"
}
measure() { # SERVER URL OP RATE PIDS [-runN]: also the CPU (cores) the server's processes used meanwhile
  local ticks0 t0
  ticks0=$(cpu_ticks "$5") t0=$(date +%s%N)
  wrk2_run "$1-$3-$4${6:-}" "$2" "$3" "$4" "$DURATION"
  echo "$(($(cpu_ticks "$5") - ticks0)) $(getconf CLK_TCK) $(($(date +%s%N) - t0))" |
    awk '{ printf "%.3f\n", $1 / $2 / ($3 / 1e9) }' > "$OUT/$1-$3-$4${6:-}.cores"
  echo "$1 $3 $4 ${6:-}" >> "$OUT/runs"
}

# 1. the bare Vert.x server (BARE_RATES="": skipped)
if [ -n "$BARE_RATES" ]; then
"$JAVA" -jar "$JAR" bare-server --port "$BARE_PORT" --body-size "$VALUE_SIZE" > "$OUT/bare-server.log" 2>&1 &
bare_pid=$!
for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$BARE_PORT/" 2>/dev/null && break; sleep 0.1; done
wrk2_run bare-warmup "http://127.0.0.1:$BARE_PORT" get "${BARE_RATES%% *}" "$WARMUP"
for rate in $BARE_RATES; do sleep "$PAUSE"; measure bare "http://127.0.0.1:$BARE_PORT" get "$rate" "$bare_pid"; done
kill "$bare_pid"; wait "$bare_pid" 2>/dev/null || true; bare_pid=
fi

# 2. the 3-node cluster: filled with the load generator, warmed, then swept
scripts/local-cluster.sh start >&2
urls="$(scripts/local-cluster.sh urls)"
url="${urls%%,*}"
# the nodes' admin API (profiles): on each client port, or on a TLS node's admin port 9090
if [ -n "${TLS:-}" ]; then
  ADMIN_CURL=(--cacert "$DATA_DIR/tls/ca.crt") ADMIN_NODES="" i=1
  for p in $PORTS; do ADMIN_NODES+="$p=https://127.0.0.$i:9090 "; i=$((i + 1)); done
else
  ADMIN_CURL=() ADMIN_NODES="$(plain_admin_nodes "$PORTS")"
fi
"$JAVA" -jar "$JAR" loadgen --url "$urls" ${TLS:+--ca-file "$DATA_DIR/tls/ca.crt"} \
  ${AUTH:+--token-file "$DATA_DIR/token"} \
  --workload fill --rate 10000 --duration 300s --keyspace "$KEYSPACE" \
  --value-size "$VALUE_SIZE" --ack "$ACK" --from "$FROM" --connections 64 > "$OUT/fill.txt" 2>&1 ||
  log "the fill failed (see $OUT/fill.txt)"
wrk2_run cluster-warmup "$url" put "${RATES%% *}" "$WARMUP"
for op in ${OPS:-put get}; do
  for rate in $RATES; do
  for run in $(seq 1 "$RUNS"); do
    run_name=""; [ "$run" = 1 ] || run_name="-run$run"
    sleep "$PAUSE"
    if [ -n "$PROFILE" ]; then
      for node in $ADMIN_NODES; do
        curl -fsS "${ADMIN_CURL[@]}" -X POST -H "X-Dht-Cluster-Secret: $(cat "$DATA_DIR/secret")" -o /dev/null \
          "${node#*=}/v0/admin/profile?events=$PROFILE&seconds=$DURATION" ||
          log "node ${node%%=*} did not start profiling"
      done
    fi
    measure cluster "$url" "$op" "$rate" "$(cat "$DATA_DIR/pids")" "$run_name"
    [ -z "$PROFILE" ] ||
      flame_graphs "$OUT" "cluster-$op-$rate$run_name" "$ADMIN_NODES" "$PROFILE" "$DATA_DIR/secret" "${ADMIN_CURL[@]}"
  done
  done
done

python3 - "$OUT" "$SLO_MS" > "$OUT/tables.txt" <<'PY'
import json, os, re, sys
out, slo = sys.argv[1], float(sys.argv[2])
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}
def ms(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else float("nan")
def parse(path):
    t = open(path).read()
    pct = {p: ms(v) for p, v in re.findall(r"^\s*(\d+\.\d+)%\s+(\S+)\s*$", t, re.M)}
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", t, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", t)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", t)
    return {"achieved": float(rate.group(1)) if rate else 0.0,
            "p50": pct.get("50.000"), "p99": pct.get("99.000"), "p999": pct.get("99.900"),
            "max": pct.get("100.000"), "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socketErrors": sum(map(int, sock.groups())) if sock else 0}
runs = []
for line in open(os.path.join(out, "runs")):
    server, op, rate, *run = line.split()
    name = "%s-%s-%s%s" % (server, op, rate, run[0] if run else "")
    r = parse(os.path.join(out, name + ".txt"))
    r["cores"] = float(open(os.path.join(out, name + ".cores")).read())
    r["cpuUsPerRequest"] = r["cores"] * 1e6 / r["achieved"] if r["achieved"] else None
    r.update(server=server, op=op, target=int(rate))
    r["holds"] = (r["achieved"] >= 0.99 * r["target"] and r["p99"] is not None and r["p99"] <= slo
                  and r["non2xx"] == 0 and r["socketErrors"] == 0)
    runs.append(r)
def f(x): return "-" if x is None else "%.2f" % x
peaks = {}
for key in (("bare", "get"), ("cluster", "put"), ("cluster", "get")):
    rows = [r for r in runs if (r["server"], r["op"]) == key]
    if not rows: continue
    peaks[key] = max([r["target"] for r in rows if r["holds"]], default=0)
    print("%s %s (wrk2 -t%s -c%s, p99 SLO %g ms)" % (key[0], key[1].upper(), os.environ.get("THREADS", "4"),
                                                      os.environ.get("CONNECTIONS", "64"), slo))
    print("%9s %11s %9s %9s %9s %9s %7s %7s %6s %7s  %s" % ("target/s", "achieved/s", "p50 ms", "p99 ms",
          "p99.9 ms", "max ms", "non2xx", "sockerr", "cores", "cpu us", "holds"))
    for r in rows:
        print("%9d %11.0f %9s %9s %9s %9s %7d %7d %6.2f %7s  %s" % (r["target"], r["achieved"], f(r["p50"]),
              f(r["p99"]), f(r["p999"]), f(r["max"]), r["non2xx"], r["socketErrors"], r["cores"],
              "%.0f" % r["cpuUsPerRequest"] if r["cpuUsPerRequest"] else "-", "yes" if r["holds"] else "no"))
    print()
bare = peaks.get(("bare", "get"), 0)
for op in ("put", "get"):
    p = peaks.get(("cluster", op))
    if p is not None:
        print("peak %s: cluster %d/s vs bare Vert.x %d/s = %s" % (op.upper(), p, bare,
              "%.2f" % (p / bare) if bare else "n/a"))
json.dump({"runs": runs, "peaks": {"%s-%s" % k: v for k, v in peaks.items()}},
          open(os.path.join(out, "results.json"), "w"), indent=1)
PY
cat "$OUT/tables.txt"
echo "load: $(uptime)"
echo "details: $OUT/<server>-<op>-<rate>.txt (wrk2 output)${PROFILE:+, flame graphs $OUT/cluster-<op>-<rate>-<port>-<event>.html}"
