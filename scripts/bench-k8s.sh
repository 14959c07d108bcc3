#!/usr/bin/env bash
# make bench-k8s: the same load, in the local Kubernetes and over loopback, in one run.
#
#   1. k8s-local (../shared/k8s-local/ensure.sh full), the images (e2e/images.sh), the operator
#      (helm install charts/dht into namespace $NS) and a DhtCluster with the CRD's defaults
#      (spec: {replicas: 3});
#   2. as soon as its pods are Ready: a first DhtLoadTest at FIRST_RATE PUT/s (cold pods), then one
#      PUT and one GET DhtLoadTest per rate of RATES; the namespace is deleted afterwards;
#   3. a local 3-node cluster (scripts/local-cluster.sh) just started, and the load generator on the
#      host with the same arguments as the DhtLoadTests' Jobs: the same first run and sweep;
#   2b. with the cluster still up, the load generator on the host at the last rate: to the pod IPs
#      and to the client Service's ClusterIP (rows host-pods-*, host-svc-*: no loopback column);
#   4. one table: per row the cluster's and loopback's achieved rate, p99, p99.9 and how busy the
#      machine's CPUs were during the run, and the ratio of the p99s; and the node pods' start-up
#      (container start to Ready).
# Every run uses the keys bench-0 .. bench-<KEYSPACE-1>: the GETs read what the PUTs wrote, on
# both sides (a DhtLoadTest's own default prefix is unique to it, and its GETs would all miss).
# A benchmark, not a test: nothing fails on its numbers. Quiet machine please (it says its load).
#
# Settings (environment or make variables):
#   RATES="2000 4000" FIRST_RATE=1000   rates (req/s); 0 skips the first run
#   OPS="put get"                       operations per rate
#   HOST_RUNS=1                         also the generator on the host, at the last rate, against
#                                       the pod IPs and against the Service (0: not)
#   DURATION=30 WARMUP=10               seconds measured / warm-up, per run
#   CONNECTIONS=64 THREADS=2 KEYSPACE=100000 VALUE_SIZE=100 ACK=2 FROM=3
#   SIDES="k8s loopback"                which sides to run
#   IMAGES=build|reuse                  reuse: the images of the last `make images` (target/images.env)
#   NS=dht-bench                        the namespace (deleted at the end unless KEEP=1)
#   CLUSTER_SPEC='{replicas: 3}'        the DhtCluster's spec (YAML flow), e.g. to try resources
#   TEST_SPEC=''                        extra DhtLoadTest spec fields (YAML flow, no braces)
# Output: target/bench-k8s/{k8s,loopback}-<name>.{json,txt} (results, generator log), startup.txt,
# and the table on stdout.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"; cd "$ROOT"
SHARED="${SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
RATES="${RATES:-2000 4000}"
OPS="${OPS:-put get}"
HOST_RUNS="${HOST_RUNS:-1}"
FIRST_RATE="${FIRST_RATE:-1000}"
DURATION="${DURATION:-30}"
WARMUP="${WARMUP:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
KEYSPACE="${KEYSPACE:-100000}"
VALUE_SIZE="${VALUE_SIZE:-100}"
KEY_PREFIX=bench- # both sides, see above
ACK="${ACK:-2}"
FROM="${FROM:-3}"
SIDES="${SIDES:-k8s loopback}"
IMAGES="${IMAGES:-build}"
NS="${NS:-dht-bench}"
CLUSTER_SPEC="${CLUSTER_SPEC:-{replicas: 3\}}"
TEST_SPEC="${TEST_SPEC:-}"
OUT=target/bench-k8s
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
log() { printf '[bench-k8s %s] %s\n' "$(date -u +%T)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# the machine's CPU time so far (all cores, jiffies): busy idle; the busy share of a run is
# (busy1-busy0)/(busy1-busy0+idle1-idle0), written into its JSON as machineCpuBusyPercent
cpu_now() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat; }
record_cpu() { # record_cpu JSON "BUSY0 IDLE0"
  [ -f "$1" ] || return 0
  python3 - "$1" $2 $(cpu_now) <<'PY'
import json, sys
path, b0, i0, b1, i1 = sys.argv[1], *map(int, sys.argv[2:])
j = json.load(open(path)); j["machineCpuBusyPercent"] = round(100 * (b1 - b0) / max(b1 - b0 + i1 - i0, 1), 1)
json.dump(j, open(path, "w"))
PY
}

# host_loadgen FILE URL OPERATION RATE: the load generator on this machine, with the DhtLoadTests'
# arguments; $OUT/FILE.json (with the machine's CPU during the run) and .txt (its output)
host_loadgen() {
  local cpu0; cpu0="$(cpu_now)"
  "$JAVA" -jar app/target/dht.jar loadgen --url "$2" --workload "$3" --rate "$4" \
    --duration "${DURATION}s" --warmup "${WARMUP}s" --self-warm-up 20s --connections "$CONNECTIONS" --threads "$THREADS" \
    --keyspace "$KEYSPACE" --key-prefix "$KEY_PREFIX" --value-size "$VALUE_SIZE" --ack "$ACK" --from "$FROM" \
    --json "$OUT/$1.json" > "$OUT/$1.txt" 2>&1 || log "$1 failed"
  record_cpu "$OUT/$1.json" "$cpu0"
}

# the runs, in order: NAME OPERATION RATE
runs() {
  [ "$FIRST_RATE" = 0 ] || echo "first-put-$FIRST_RATE put $FIRST_RATE"
  for rate in $RATES; do for op in $OPS; do echo "$op-$rate $op $rate"; done; done
}

# the same generator on the host against the cluster at the last rate: straight to the pod IPs,
# and through the client Service's ClusterIP (kube-proxy)
host_runs() {
  [ "$HOST_RUNS" = 1 ] || return 0
  local rate="${RATES##* }" op
  for op in $OPS; do echo "host-pods-$op-$rate $op $rate"; echo "host-svc-$op-$rate $op $rate"; done
}

print_table() {
  python3 - "$OUT" "$( (runs; host_runs) | cut -d' ' -f1 | tr '\n' ' ')" <<'PY'
import json, os, sys
out, names = sys.argv[1], sys.argv[2].split()
def load(side, name):
    p = os.path.join(out, f"{side}-{name}.json")
    return json.load(open(p)) if os.path.exists(p) else None
def cell(j):
    if not j: return ("-", "-", "-", "-", "")
    l = j["latencyMs"]
    bad = j.get("errors", 0) + j.get("non2xx", 0)
    return ("%.0f" % j["achievedRate"], "%.2f" % l["p99"], "%.2f" % l["p999"],
            "%.0f%%" % j["machineCpuBusyPercent"] if "machineCpuBusyPercent" in j else "-",
            ("not warmed up" if j.get("warmedUp") is False else "") + (f" {bad} failed" if bad else ""))
head = ("run", "k8s achieved/s", "k8s p99 ms", "k8s p99.9 ms", "k8s CPU", "loopback achieved/s",
        "loopback p99 ms", "loopback p99.9 ms", "loopback CPU", "p99 k8s/loopback", "notes")
rows = []
for n in names:
    k, lo = load("k8s", n), load("loopback", n)
    ck, cl = cell(k), cell(lo)
    ratio = "%.1fx" % (k["latencyMs"]["p99"] / lo["latencyMs"]["p99"]) if k and lo else "-"
    notes = "; ".join(x for x in (("k8s:" + ck[4]) if ck[4] else "", ("loopback:" + cl[4]) if cl[4] else "") if x)
    rows.append((n,) + ck[:4] + cl[:4] + (ratio, notes))
w = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
fmt = "  ".join("%%-%ds" % x if i in (0, 10) else "%%%ds" % x for i, x in enumerate(w))
print(fmt % head)
print("  ".join("-" * x for x in w))
for r in rows: print(fmt % r)
PY
}
if [ "${1:-}" = table ]; then print_table; exit 0; fi

rm -rf "$OUT"; mkdir -p "$OUT"

# --- in the cluster ------------------------------------------------------------------------------
k8s_side() {
  env="$("$SHARED/k8s-local/ensure.sh" full)" || die "k8s-local did not start"
  eval "$env"
  export PATH="/opt/k8s/bin:$PATH"
  if [ "$IMAGES" = reuse ] && [ -f target/images.env ]; then
    log "images: reusing target/images.env"
  else
    MVN="mvn -B -ntp" SHARED="$SHARED" e2e/images.sh >&2
  fi
  # shellcheck disable=SC1091
  . target/images.env
  [ "${LOADED_K8S_LOCAL:-}" = "$IMAGE_TAG" ] || "$SHARED/k8s-local/load-image.sh" "$NODE_TAR" "$OPERATOR_TAR" >&2
  k() { timeout 60 kubectl -n "$NS" --request-timeout=45s "$@"; }
  if timeout 20 kubectl get ns "$NS" >/dev/null 2>&1; then
    log "deleting the namespace $NS left by an earlier run"
    timeout 30 helm uninstall dht-bench -n "$NS" >/dev/null 2>&1 || true
    timeout 300 kubectl delete ns "$NS" --wait=true >/dev/null
  fi
  [ -n "${KEEP:-}" ] || trap 'timeout 30 helm uninstall dht-bench -n "$NS" >/dev/null 2>&1; timeout 300 kubectl delete ns "$NS" --wait=true >/dev/null 2>&1 || true' EXIT
  timeout 30 kubectl create ns "$NS" >/dev/null
  for f in charts/dht/crds/*.yml; do timeout 60 kubectl apply --server-side --force-conflicts -f "$f" >/dev/null; done
  timeout 300 helm install dht-bench charts/dht -n "$NS" --set "watchNamespaces={$NS}" \
    --set operator.image.repository="${OPERATOR_IMAGE%:*}" --set operator.image.tag="${OPERATOR_IMAGE##*:}" \
    --set operator.image.pullPolicy=Never \
    --set node.image.repository="${NODE_IMAGE%:*}" --set node.image.tag="${NODE_IMAGE##*:}" \
    --set node.image.pullPolicy=Never --wait --timeout 240s >/dev/null 2>&1 || die "helm install failed"
  log "operator installed; DhtCluster bench: spec $CLUSTER_SPEC"
  printf 'apiVersion: dht.dev/v1alpha1\nkind: DhtCluster\nmetadata: {name: bench}\nspec: %s\n' "$CLUSTER_SPEC" |
    k apply -f - >/dev/null
  local t=$SECONDS
  until [ "$(k get dhtcluster bench -o jsonpath='{.status.readyReplicas}' 2>/dev/null)" = 3 ]; do
    [ $((SECONDS - t)) -lt 400 ] || die "DhtCluster bench not ready after 400 s"
    sleep 1
  done
  log "DhtCluster bench ready ($((SECONDS - t)) s after it was applied)"
  # start-up: container start to the Ready condition, per pod
  k get pods -l app.kubernetes.io/instance=bench -o json | python3 -c '
import json, sys
from datetime import datetime
ts = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")
for p in json.load(sys.stdin)["items"]:
    started = ts(p["status"]["containerStatuses"][0]["state"]["running"]["startedAt"])
    ready = [c for c in p["status"]["conditions"] if c["type"] == "Ready"][0]
    print("%s: container start to Ready %ds" % (p["metadata"]["name"], (ts(ready["lastTransitionTime"]) - started).seconds))
' | tee "$OUT/startup.txt" >&2
  while read -r name op rate; do
    log "k8s $name: DhtLoadTest $op at $rate/s"
    printf 'apiVersion: dht.dev/v1alpha1\nkind: DhtLoadTest\nmetadata: {name: %s}\nspec: {clusterRef: {name: bench}, workload: {operation: %s, keyspace: %s, valueSize: %s, keyPrefix: %s}, ack: %s, from: %s, rate: %s, duration: %ss, warmup: %ss, connections: %s, threads: %s%s}\n' \
      "$name" "$op" "$KEYSPACE" "$VALUE_SIZE" "$KEY_PREFIX" "$ACK" "$FROM" "$rate" "$DURATION" "$WARMUP" "$CONNECTIONS" "$THREADS" \
      "${TEST_SPEC:+, $TEST_SPEC}" | k apply -f - >/dev/null
    t=$SECONDS
    until [ "$(k get dhtlt "$name" -o jsonpath='{.status.phase}' 2>/dev/null)" = Running ]; do
      [ $((SECONDS - t)) -lt 120 ] || break
      sleep 1
    done
    cpu0="$(cpu_now)"
    until k get dhtlt "$name" -o jsonpath='{.status.phase}' 2>/dev/null | grep -qE '^(Succeeded|Failed)$'; do
      [ $((SECONDS - t)) -lt $((DURATION + WARMUP + 300)) ] || { log "$name did not finish"; break; }
      sleep 2
    done
    k get dhtlt "$name" -o json | python3 -c '
import json, sys
st = json.load(sys.stdin).get("status", {})
r = st.get("results")
if r: json.dump(r, open(sys.argv[1], "w"))
else: print("no results: %s" % st.get("conditions"), file=sys.stderr)
' "$OUT/k8s-$name.json"
    record_cpu "$OUT/k8s-$name.json" "$cpu0"
    k logs --timestamps "job/$name-loadgen" > "$OUT/k8s-$name.txt" 2>&1 || true
    k delete dhtlt "$name" --wait=true >/dev/null
  done < <(runs)
  local pods svc
  pods="$(k get pods -l app.kubernetes.io/instance=bench -o jsonpath='{range .items[*]}http://{.status.podIP}:8080,{end}')"
  svc="$(k get svc bench -o jsonpath='http://{.spec.clusterIP}:8080')"
  while read -r name op rate; do
    local url="${pods%,}"; [[ "$name" != host-svc-* ]] || url="$svc"
    log "k8s $name: the load generator on the host, $op at $rate/s to $url"
    host_loadgen "k8s-$name" "$url" "$op" "$rate"
  done < <(host_runs)
}

# --- over loopback ---------------------------------------------------------------------------------
loopback_side() {
  [ -f app/target/dht.jar ] || die "app/target/dht.jar missing: make build"
  local ports=() p
  for p in $(shuf -i 20000-29999 -n 3); do ports+=("$p"); done
  export PORTS="${ports[*]}" DATA_DIR="$OUT/loopback-data"
  scripts/local-cluster.sh start >&2
  trap 'scripts/local-cluster.sh stop' EXIT
  local urls; urls="$(printf 'http://127.0.0.1:%s,' "${ports[@]}")"; urls="${urls%,}"
  while read -r name op rate; do
    log "loopback $name: the load generator, $op at $rate/s"
    host_loadgen "loopback-$name" "$urls" "$op" "$rate"
  done < <(runs)
  scripts/local-cluster.sh stop
  trap - EXIT
}

for side in $SIDES; do
  case "$side" in
    k8s) ( k8s_side ) ;;
    loopback) ( loopback_side ) ;;
    *) die "SIDES: k8s or loopback, not $side" ;;
  esac
done
echo
echo "dht bench-k8s: ${CONNECTIONS} connections, ${THREADS} threads, ${DURATION}s after ${WARMUP}s warm-up," \
  "${KEYSPACE} keys of ${VALUE_SIZE} B, ack=${ACK} from=${FROM}; k8s: DhtCluster spec ${CLUSTER_SPEC}"
print_table
[ ! -s "$OUT/startup.txt" ] || { echo "node pods:"; sed 's/^/  /' "$OUT/startup.txt"; }
echo "load: $(uptime)"
