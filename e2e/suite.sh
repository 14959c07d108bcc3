#!/usr/bin/env bash
# suite.sh: the end-to-end suite against whatever cluster KUBECONFIG points at (e2e/run.sh picks it
# and loads the images). Sixteen steps in a fresh namespace, each timed and bounded; a failing step
# prints the operator's log and `kubectl describe` of the objects involved, later steps are skipped,
# and the last line is always "N passed, M failed[, K skipped]".
#
#   1 install    helm install charts/dht with the built images (watching the test namespace) and
#                monitoring.prometheusRule on (the Prometheus Operator's CRD installed first): the
#                PrometheusRule exists with every alert
#   2 cluster    a 3-replica DhtCluster becomes Ready, 3/3, printer columns
#   3 api        PUT/GET/DELETE through the client Service with and without ack/from; a range read
#                from one node through the headless peers Service (from a pod in the cluster)
#   4 storage    spec.storage.size grown (256Mi to 512Mi): every claim is asked it; on a StorageClass
#                without expansion (k8s-local's local-path) the apiserver refuses, condition
#                StorageResized False ExpansionRefused and each claim Refused in status.storage,
#                nothing restarted or recreated; set back: AtSize (on an expandable class: every
#                claim at the size, the same StatefulSet, no pod restarted)
#   5 tls        a DhtCluster with defaults is TLS-only: curl --cacert with a DhtUser token works;
#                plain HTTP, foreign certificates, bad tokens (401), keys outside the ACL (403) and a
#                revoked user are refused; a load test with its own DhtUser
#   6 loadtest   a ~30 s DhtLoadTest at 300 req/s: Succeeded, results, verdict, report ConfigMap;
#                again for 15 s with the nodes profiled (cpu, alloc) and the first as baseline:
#                a flame graph per node and event stored, the comparison in the status; the report
#                site through kubectl port-forward: 401 without a token, 403 with a ServiceAccount's
#                that may not get dhtloadtests, 200 with one that may; its page rendered by headless
#                Chromium after a login through the form (CSP header, no violation)
#   7 parallel   a DhtLoadTest with parallelism 2 (indexed Job): both generators' measured windows
#                overlap by >= 90%, achievedRate is their sum, one merged spectrum, both in the report;
#                then one with an unmeetable p99 and abortOnFail: Failed (Aborted) long before 120 s
#   8 failover   a node pod deleted during a 40 s write loop at ack=2/from=3: writes keep going, the
#                pod returns, every acknowledged key reads back at ack=2/from=3
#   9 replace    dht.dev/replace=demo-1 under a writer and a reader at 2/3 (300 keys written before):
#                the operator evicts the pod, deletes its claim and removes the annotation once the
#                pod is Ready on a new claim; it bootstrapped from its peers, no bad read, it holds
#                all 300 keys, every acknowledged write on all 3 replicas; the time and the events
#  10 roll       spec.threads and spec.maintenance changed while demo-0 is down: the roller waits for
#                it (status says so), then restarts one Ready, caught-up pod at a time (sampled every
#                second: never two down); a writer at 2/3: at most 3 failures, every acknowledged
#                write on all 3 replicas; each node's admin status shows the new repair interval;
#                spec.replication.defaultAck takes the membership plan's steps (the
#                members file's replication line) and restarts nothing
#  11 paused     with the pause annotation, a spec change does not advance observedGeneration
#  12 secret     the Secret deleted with a writer running, then a pod: no new Secret, Degraded
#                SecretMissing + Event, no 403 in any node log; restored from a backup, it heals
#  13 upgrade    helm upgrade with a new default node image: no node pod restarts for 120 s,
#                RestartRequired says why; dht.dev/allow-restart=once rolls it under the same guard
#  14 scale      5000 keys at 2/3; with a writer and a reader running at 2/3, kubectl scale to 5 and
#                back to 3: no read fails, at most 3 writes fail, every acknowledged key reads back
#                at 3/3 and has exactly 3 copies over the nodes; each change's steps and durations
#  15 backup     10,000 keys at 2/3 (1,000 overwritten, 1,000 deleted); a DhtBackup taken under a
#                writer of >= 20 PUT/s at 2/3, then 1,000 more keys and a second one that uploads no
#                more than the files the first's manifests do not list (read from the store), and is
#                verified (spec.verify: Passed); the DhtCluster and its claims deleted, the second
#                backup restored into a 5-node cluster: every key acknowledged before it reads back at 2/3
#                with its last value, deleted ones 404, 3 copies of each; a DhtScheduledBackup every
#                minute with keep 1: two complete, the older is deleted, and the store's files no
#                backup lists (the deleted first backup's) are collected (SeaweedFS as a pod)
#  16 uninstall  helm uninstall removes the operator; deleting the cluster (no operator needed)
#                removes everything but the PersistentVolumeClaims
#
# Environment: NODE_IMAGE, OPERATOR_IMAGE (required; `make e2e` reads target/images.env),
#   NODE_IMAGE_DIGEST, OPERATOR_IMAGE_DIGEST (target/images.env too; set: the chart is installed
#   with node.image.digest and operator.image.digest, and pods run repository:tag@digest),
#   NODE_IMAGE_NEXT (the node image under another tag, for the upgrade step; e2e/run.sh makes it),
#   PIL_PYTHON (a python3 with Pillow, for the report page check; e2e/run.sh finds or installs one),
#   PULL_POLICY (IfNotPresent), CLIENT_IMAGE (local/debian-tools:1: any image with sh + curl),
#   E2E_NAMESPACE (dht-e2e-<time>), E2E_WATCH_ALL=1 (operator watches all namespaces: ClusterRole),
#   E2E_KEEP=1 (keep the namespace), E2E_ONLY="1 2 3" (run only these steps; later ones need the
#   earlier ones), E2E_MAX_FAILED_WRITES (3), E2E_SUMMARY_FILE (target/e2e-summary.txt).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/k8s/bin:$PATH:/usr/local/go/bin" # go: the PrometheusRule CRD's module (install)
: "${NODE_IMAGE:?NODE_IMAGE not set (make images writes target/images.env)}"
: "${OPERATOR_IMAGE:?OPERATOR_IMAGE not set (make images writes target/images.env)}"
# the references the chart makes of them: repository:tag, or repository:tag@digest with a digest
NODE_REF="$NODE_IMAGE${NODE_IMAGE_DIGEST:+@$NODE_IMAGE_DIGEST}"
OPERATOR_REF="$OPERATOR_IMAGE${OPERATOR_IMAGE_DIGEST:+@$OPERATOR_IMAGE_DIGEST}"
PULL_POLICY="${PULL_POLICY:-IfNotPresent}"
CLIENT_IMAGE="${CLIENT_IMAGE:-local/debian-tools:1}"
NS="${E2E_NAMESPACE:-dht-e2e-$(date -u +%H%M%S)-$((RANDOM % 1000))}"
RELEASE=dht
OPERATOR="dht-operator"           # the chart's fullname for release "dht"
CLUSTER=demo
ZONE_KEY=topology.kubernetes.io/zone
ZONE=e2e-zone-a                   # given to the Kubernetes nodes when none has a zone label
MAX_FAILED_WRITES="${E2E_MAX_FAILED_WRITES:-3}"
SUMMARY_FILE="${E2E_SUMMARY_FILE:-$ROOT/target/e2e-summary.txt}"
WORK="$(mktemp -d)"
T_START=$SECONDS

log() { printf '  %s\n' "$*"; }
die() { printf "  FAILED: %s\n" "$*"; exit 1; }
k() { timeout 60 kubectl -n "$NS" --request-timeout=45s "$@"; }
jp() { k get "$1" -o "jsonpath=$2" 2>/dev/null; } # jp OBJECT JSONPATH
# until_ok SECONDS DESCRIPTION CMD...: poll CMD every 2 s; fail the step after SECONDS
until_ok() {
  local limit="$1" what="$2" t=$SECONDS; shift 2
  until "$@"; do
    [ $((SECONDS - t)) -lt "$limit" ] || die "timed out after ${limit}s waiting for: $what"
    sleep 2
  done
  log "$what ($((SECONDS - t))s)"
}
# in_pod POD SECONDS: run the POSIX sh script on stdin inside POD
in_pod() { timeout "$2" kubectl -n "$NS" exec -i "$1" -- sh -s; }
# the cluster's node pods (name=uid, sorted) and their restart counts
pod_uids() { jp pods '{range .items[*]}{.metadata.name}={.metadata.uid}{"\n"}{end}' | grep -E "^$CLUSTER-[0-9]+=" | sort; }
pod_restarts() { jp pods '{range .items[*]}{.metadata.name}={.status.containerStatuses[0].restartCount}{"\n"}{end}' | grep -E "^$CLUSTER-[0-9]+=" | sort; }
crd_present() { timeout 30 kubectl get crd "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------------------------------- steps
step_install() {
  k get ns "$NS" >/dev/null 2>&1 && die "namespace $NS exists already"
  timeout 60 kubectl create namespace "$NS" >/dev/null || die "cannot create namespace $NS"
  timeout 30 kubectl label namespace "$NS" dht.dev/e2e=true >/dev/null
  log "namespace $NS"
  # Helm installs crds/ only when absent; an existing (older) CRD is brought up to date first,
  # the documented upgrade path (README)
  for f in "$ROOT"/charts/dht/crds/*.yml; do
    name="$(sed -n 's/^  name: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$f" | head -n1)"
    if crd_present "$name"; then
      timeout 60 kubectl apply --server-side --force-conflicts --field-manager=dht-e2e -f "$f" >/dev/null ||
        die "cannot update CRD $name"
      log "CRD $name present: updated from $(basename "$f")"
    fi
  done
  # the Prometheus Operator's PrometheusRule CRD (from its Go module, as e2e/chart-check.sh), so
  # that the chart's alerts can be installed; it stays in the cluster
  if ! crd_present prometheusrules.monitoring.coreos.com; then
    local dir
    dir="$(cd "$WORK" && GOFLAGS=-mod=mod GOTOOLCHAIN=local timeout 300 go mod download -json \
      "github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION:-v0.85.0}" |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')" || die "go mod download of prometheus-operator"
    timeout 60 kubectl apply --server-side --field-manager=dht-e2e \
      -f "$dir/example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml" >/dev/null ||
      die "cannot install the PrometheusRule CRD"
    timeout 60 kubectl wait --for=condition=Established crd/prometheusrules.monitoring.coreos.com --timeout=50s >/dev/null ||
      die "the PrometheusRule CRD is not established"
    log "CRD prometheusrules.monitoring.coreos.com installed (prometheus-operator ${PROMETHEUS_OPERATOR_VERSION:-v0.85.0})"
  fi
  local watch=(--set "watchNamespaces={$NS}")
  [ -z "${E2E_WATCH_ALL:-}" ] || watch=()
  local t=$SECONDS
  timeout 300 helm install "$RELEASE" "$ROOT/charts/dht" --namespace "$NS" \
    --set operator.image.repository="${OPERATOR_IMAGE%:*}" --set operator.image.tag="${OPERATOR_IMAGE##*:}" \
    --set operator.image.digest="${OPERATOR_IMAGE_DIGEST:-}" --set operator.image.pullPolicy="$PULL_POLICY" \
    --set node.image.repository="${NODE_IMAGE%:*}" --set node.image.tag="${NODE_IMAGE##*:}" \
    --set node.image.digest="${NODE_IMAGE_DIGEST:-}" --set node.image.pullPolicy="$PULL_POLICY" \
    --set monitoring.prometheusRule.enabled=true \
    "${watch[@]}" --wait --timeout 240s 2> >(grep -v 'found symbolic link' >&2) >"$WORK/helm-install.log" ||
    { cat "$WORK/helm-install.log"; die "helm install failed"; }
  log "helm install --wait: operator ready ($((SECONDS - t))s)"
  local alerts
  alerts="$(jp "prometheusrule/$OPERATOR-alerts" '{range .spec.groups[*].rules[*]}{.alert} {end}' | wc -w)"
  [ "$alerts" = "$(grep -c '^## Dht' "$ROOT/docs/alerts.md")" ] ||
    die "PrometheusRule $OPERATOR-alerts has $alerts alerts, docs/alerts.md has $(grep -c '^## Dht' "$ROOT/docs/alerts.md") runbooks"
  log "monitoring.prometheusRule on: PrometheusRule $OPERATOR-alerts with $alerts alerts, each with a runbook"
  for crd in $(cd "$ROOT/charts/dht/crds" && sed -n 's/^  name: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' *.yml); do
    timeout 60 kubectl wait --for=condition=Established "crd/$crd" --timeout=50s >/dev/null || die "CRD $crd not established"
  done
  [ "$(jp "deploy/$OPERATOR" '{.spec.template.spec.containers[0].image}')" = "$OPERATOR_REF" ] ||
    die "operator runs another image than $OPERATOR_REF"
  [ -z "${OPERATOR_IMAGE_DIGEST:-}" ] || log "operator runs $OPERATOR_REF (pinned by digest)"
  until_ok 120 "operator log says it started" \
    sh -c "timeout 20 kubectl -n '$NS' logs deploy/$OPERATOR 2>/dev/null | grep -q 'dht operator started'"
  until_ok 120 "leader election: Lease dht-operator held" \
    sh -c "[ -n \"\$(timeout 20 kubectl -n '$NS' get lease dht-operator -o jsonpath='{.spec.holderIdentity}' 2>/dev/null)\" ]"
  log "$(k logs "deploy/$OPERATOR" | grep 'dht operator started' | tail -n1)"
  # least privilege, asked of the apiserver for the operator's ServiceAccount
  local sa="system:serviceaccount:$NS:$OPERATOR" other="default" yes no check verb res
  [ -z "${E2E_WATCH_ALL:-}" ] || other=""
  yes=("get dhtclusters" "patch dhtclusters" "watch dhtloadtests" "patch dhtclusters --subresource=status" "patch dhtloadtests --subresource=status"
       "create statefulsets.apps" "patch services" "update configmaps" "create secrets" "update secrets"
       "create poddisruptionbudgets.policy" "create jobs.batch" "list pods" "create pods --subresource=eviction" "get pods/log"
       "delete persistentvolumeclaims" "patch persistentvolumeclaims" "patch networkpolicies.networking.k8s.io" "delete networkpolicies.networking.k8s.io"
       "create events" "patch events"
       "create tokenreviews.authentication.k8s.io" "create subjectaccessreviews.authorization.k8s.io" "get nodes")
  no=("create pods" "watch pods" "delete pods" "patch secrets" "delete secrets" "delete services" "update services"
      "get statefulsets.apps" "update statefulsets.apps" "delete statefulsets.apps" "delete jobs.batch" "patch dhtloadtests"
      "create deployments.apps" "delete dhtclusters" "create dhtclusters" "update pods/status"
      "create serviceaccounts" "create roles.rbac.authorization.k8s.io" "update networkpolicies.networking.k8s.io")
  for check in "${yes[@]}"; do
    timeout 20 kubectl auth can-i $check -n "$NS" --as "$sa" >/dev/null 2>&1 || die "the operator may not: $check"
  done
  for check in "${no[@]}"; do
    timeout 20 kubectl auth can-i $check -n "$NS" --as "$sa" >/dev/null 2>&1 && die "the operator may, but should not: $check"
  done
  if [ -n "$other" ]; then
    timeout 20 kubectl auth can-i get secrets -n "$other" --as "$sa" >/dev/null 2>&1 &&
      die "the operator may read secrets outside the namespaces it watches"
  fi
  timeout 20 kubectl auth can-i update leases.coordination.k8s.io/dht-operator -n "$NS" --as "$sa" >/dev/null 2>&1 ||
    die "the operator may not update its Lease"
  timeout 20 kubectl auth can-i update leases.coordination.k8s.io/other -n "$NS" --as "$sa" >/dev/null 2>&1 &&
    die "the operator may update other Leases"
  timeout 20 kubectl auth can-i list nodes --as "$sa" >/dev/null 2>&1 && die "the operator may list nodes"
  timeout 20 kubectl auth can-i patch nodes --as "$sa" >/dev/null 2>&1 && die "the operator may patch nodes"
  log "RBAC (kubectl auth can-i as $OPERATOR): ${#yes[@]} needed permissions granted, ${#no[@]} others refused${other:+, nothing outside $NS}; only its own Lease"
}

step_cluster() {
  # the object store of the cluster's spec.backup (the backup step uses it)
  k apply -f "$ROOT/e2e/manifests/seaweedfs.yaml" >/dev/null || die "kubectl apply of SeaweedFS failed"
  # zones: Kubernetes nodes without zones (the local cluster's one node) are labelled (the label
  # removed at the end); the members take their nodes' zones
  local all unlabelled
  all="$(timeout 20 kubectl get nodes -o name)" || die "cannot list the nodes"
  unlabelled="$(timeout 20 kubectl get nodes -l "!$ZONE_KEY" -o name)" || die "cannot list the nodes"
  if [ -n "$unlabelled" ] && [ "$unlabelled" = "$all" ]; then
    timeout 30 kubectl label $unlabelled "$ZONE_KEY=$ZONE" >/dev/null || die "cannot label the nodes with $ZONE_KEY=$ZONE"
    printf '%s\n' $unlabelled > "$WORK/zone-labelled"
  fi
  k apply -f "$ROOT/e2e/manifests/dhtcluster.yaml" >/dev/null || die "kubectl apply of the DhtCluster failed"
  local t=$SECONDS
  timeout 560 kubectl -n "$NS" wait "dhtcluster/$CLUSTER" --for=condition=Ready --timeout=550s >/dev/null ||
    die "DhtCluster $CLUSTER not Ready within 550s"
  log "Ready condition True ($((SECONDS - t))s)"
  # a new cluster's nodes start without zones and take them in a change of membership: its end
  # first, then the settings every node runs
  until_ok 240 "status.zones: the members took their nodes' zones" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.zones.spanned}/{.status.membership.step}')\" = true/STABLE ]"
  timeout 130 kubectl -n "$NS" wait "dhtcluster/$CLUSTER" --for=condition=ConfigApplied --timeout=120s >/dev/null ||
    die "ConfigApplied not True: $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="ConfigApplied")].message}')"
  log "ConfigApplied: $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="ConfigApplied")].message}')"
  local ready replicas
  ready="$(jp "dht/$CLUSTER" '{.status.readyReplicas}')"; replicas="$(jp "dht/$CLUSTER" '{.status.replicas}')"
  [ "$ready/$replicas" = 3/3 ] || die "status says $ready/$replicas ready, want 3/3"
  [ "$(jp "sts/$CLUSTER" '{.status.readyReplicas}')" = 3 ] || die "StatefulSet has not 3 ready replicas"
  log "status: $ready/$replicas ready; conditions: $(jp "dht/$CLUSTER" '{range .status.conditions[*]}{.type}={.status} {end}')"
  k get dht | tee "$WORK/get-dht.txt" | sed 's/^/    /'
  # the printer columns, by header name
  python3 - "$WORK/get-dht.txt" <<'PY' || die "printer columns of kubectl get dht"
import re, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
head = lines[0]
starts = [m.start() for m in re.finditer(r"\S+", head)]
names = head.split()
def cells(line):
    return {n: line[s:(starts[i + 1] if i + 1 < len(starts) else None)].strip() for i, (n, s) in enumerate(zip(names, starts))}
row = cells(lines[1])
want = {"NAME": "demo", "REPLICAS": "3", "READY": "3", "MEMBERS": "3", "ACK": "2", "FROM": "3",
        "APPLIED": "True"}
bad = {k: row.get(k) for k, v in want.items() if row.get(k) != v}
if "STATUS" not in row or not row["STATUS"] or "AGE" not in row:
    bad["STATUS/AGE"] = row
if bad:
    sys.exit(f"unexpected columns: {bad}")
PY
  log "printer columns (what the nodes run): Replicas 3, Ready 3, Members 3, Ack 2, From 3, Applied True, Status $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="Ready")].reason}'), Age"
  for o in "sts/$CLUSTER" "svc/$CLUSTER" "svc/$CLUSTER-peers" "cm/$CLUSTER-config" "secret/$CLUSTER-secret" "pdb/$CLUSTER"; do
    k get "$o" >/dev/null 2>&1 || die "owned object $o missing"
  done
  [ "$(jp "sts/$CLUSTER" '{.spec.template.spec.containers[0].image}')" = "$NODE_REF" ] ||
    die "nodes do not run $NODE_REF (the operator's DHT_NODE_IMAGE)"
  log "owned: StatefulSet, Services $CLUSTER and $CLUSTER-peers, ConfigMap, Secret, PDB; nodes run $NODE_REF"
  [ "$(jp "pod/$CLUSTER-0" '{.spec.containers[0].args}' | grep -o 'event-loops=[0-9]*')" = event-loops=1 ] ||
    die "a node of 100m CPU (threads unset) should run one event loop: $(jp "pod/$CLUSTER-0" '{.spec.containers[0].args}')"
  log "threads from the pod's CPU (100m): one event loop, two storage workers"
  local zones="" i
  for i in 0 1 2; do zones="$zones${zones:+,}\"$(pod_zone "$i")\""; done
  [ "$(jp "dht/$CLUSTER" '{.status.membership.zones}')" = "[$zones]" ] ||
    die "status.membership.zones: $(jp "dht/$CLUSTER" '{.status.membership.zones}'), their pods' nodes: [$zones]"
  grep -qx "http://$CLUSTER-0\.$CLUSTER-peers\..*:8080 zone=$(pod_zone 0)" \
    <<<"$(jp "cm/$CLUSTER-config" '{.data.members}')" || die "the members file gives $CLUSTER-0 no zone=$(pod_zone 0): $(jp "cm/$CLUSTER-config" '{.data.members}')"
  log "zones: [$zones]: $(jp "dht/$CLUSTER" '{.status.zones.message}'), membership epoch $(jp "dht/$CLUSTER" '{.status.membership.epoch}'), zone= in the members file"
}

# pod_zone I: the zone label of the Kubernetes node pod $CLUSTER-I runs on
pod_zone() {
  timeout 20 kubectl get node "$(jp "pod/$CLUSTER-$1" '{.spec.nodeName}')" -o "jsonpath={.metadata.labels.${ZONE_KEY//./\\.}}"
}

client_pod() { # client_pod NAME [sh script]: a pod with sh + curl; sleeps unless given a script
  local name="$1" script="${2:-sleep 3600}"
  k apply -f - >/dev/null <<YAML || die "cannot create pod $name"
apiVersion: v1
kind: Pod
metadata: {name: $name, labels: {app.kubernetes.io/part-of: dht-e2e}}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  enableServiceLinks: false
  automountServiceAccountToken: false
  containers:
  - name: main
    image: $CLIENT_IMAGE
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", $(printf '%s' "$script" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')]
    resources: {requests: {cpu: 10m, memory: 16Mi}}
YAML
}

step_api() {
  client_pod client
  timeout 130 kubectl -n "$NS" wait pod/client --for=condition=Ready --timeout=120s >/dev/null || die "client pod not Ready"
  in_pod client 150 >"$WORK/api.log" 2>&1 <<SH
B=http://$CLUSTER:8080
P0=http://$CLUSTER-0.$CLUSTER-peers.$NS.svc:8080
SH_FAIL=0
code() { curl -s -o /tmp/body -w '%{http_code}' --max-time 5 "\$@"; }
check() { # check DESCRIPTION WANT_CODE GOT_CODE [WANT_BODY]
  if [ "\$3" != "\$2" ]; then echo "FAIL \$1 -> \$3 (want \$2)"; SH_FAIL=1; return; fi
  if [ \$# -ge 4 ] && [ "\$(cat /tmp/body)" != "\$4" ]; then echo "FAIL \$1 -> body '\$(cat /tmp/body)' (want '\$4')"; SH_FAIL=1; return; fi
  echo "ok   \$1 -> \$3"
}
for i in 0 1 2; do check "GET /v0/status on $CLUSTER-\$i" 200 "\$(code http://$CLUSTER-\$i.$CLUSTER-peers.$NS.svc:8080/v0/status)"; done
check "PUT e2e-a (defaults)"              201 "\$(code -X PUT --data-binary hello "\$B/v0/entity?id=e2e-a")"
check "GET e2e-a (defaults)"              200 "\$(code "\$B/v0/entity?id=e2e-a")" hello
check "GET e2e-a ack=3&from=3"            200 "\$(code "\$B/v0/entity?id=e2e-a&ack=3&from=3")" hello
check "PUT e2e-b ack=3&from=3"            201 "\$(code -X PUT --data-binary world "\$B/v0/entity?id=e2e-b&ack=3&from=3")"
check "GET e2e-b ack=1&from=1"            200 "\$(code "\$B/v0/entity?id=e2e-b&ack=1&from=1")" world
check "GET e2e-b ack=2&from=3"            200 "\$(code "\$B/v0/entity?id=e2e-b&ack=2&from=3")" world
check "PUT e2e-c ack=1&from=2"            201 "\$(code -X PUT --data-binary one "\$B/v0/entity?id=e2e-c&ack=1&from=2")"
check "GET e2e-c from=2"                  200 "\$(code "\$B/v0/entity?id=e2e-c&from=2")" one
check "PUT e2e-a again (overwrite)"       201 "\$(code -X PUT --data-binary hello2 "\$B/v0/entity?id=e2e-a&ack=2&from=3")"
check "GET e2e-a ack=2&from=3"            200 "\$(code "\$B/v0/entity?id=e2e-a&ack=2&from=3")" hello2
check "PUT e2e-empty (empty value)"       201 "\$(code -X PUT --data-binary '' "\$B/v0/entity?id=e2e-empty")"
check "GET e2e-empty"                     200 "\$(code "\$B/v0/entity?id=e2e-empty")" ''
check "DELETE e2e-a ack=2&from=3"         202 "\$(code -X DELETE "\$B/v0/entity?id=e2e-a&ack=2&from=3")"
check "GET e2e-a after delete"            404 "\$(code "\$B/v0/entity?id=e2e-a")"
check "GET e2e-a ack=3&from=3 after delete" 404 "\$(code "\$B/v0/entity?id=e2e-a&ack=3&from=3")"
check "DELETE e2e-b (defaults)"           202 "\$(code -X DELETE "\$B/v0/entity?id=e2e-b")"
check "GET e2e-b after delete"            404 "\$(code "\$B/v0/entity?id=e2e-b")"
check "DELETE never-written key"          202 "\$(code -X DELETE "\$B/v0/entity?id=e2e-never")"
check "GET never-written key"             404 "\$(code "\$B/v0/entity?id=e2e-never")"
check "GET ack=4&from=3 (invalid)"        400 "\$(code "\$B/v0/entity?id=e2e-c&ack=4&from=3")"
check "GET from=4 (more than nodes)"      400 "\$(code "\$B/v0/entity?id=e2e-c&from=4")"
check "GET ack=0 (invalid)"               400 "\$(code "\$B/v0/entity?id=e2e-c&ack=0&from=3")"
check "GET without id"                    400 "\$(code "\$B/v0/entity")"
# range: 10 keys on every node (from=3 of 3), read from one node by its pod DNS name
for i in 0 1 2 3 4 5 6 7 8 9; do
  c=\$(code -X PUT --data-binary "val-\$i" "\$B/v0/entity?id=range-\$i&ack=3&from=3")
  [ "\$c" = 201 ] || { echo "FAIL PUT range-\$i -> \$c"; SH_FAIL=1; }
done
: > /tmp/want; for i in 0 1 2 3 4 5 6 7 8 9; do printf 'range-%s\nval-%s' "\$i" "\$i" >> /tmp/want; done
c=\$(curl -s -D /tmp/headers -o /tmp/range -w '%{http_code}' --max-time 10 "\$P0/v0/entities?start=range-&end=range-~")
check "GET $CLUSTER-0 /v0/entities?start=range-&end=range-~" 200 "\$c"
if cmp -s /tmp/want /tmp/range; then echo "ok   range: 10 entries in key order"; else echo "FAIL range body: \$(od -c /tmp/range | head -5)"; SH_FAIL=1; fi
if grep -qi '^transfer-encoding: *chunked' /tmp/headers; then echo "ok   range: chunked"; else echo "FAIL range not chunked"; SH_FAIL=1; fi
c=\$(curl -s -o /tmp/range2 -w '%{http_code}' --max-time 10 "\$P0/v0/entities?start=range-5&end=range-7")
if [ "\$c" = 200 ] && [ "\$(cat /tmp/range2)" = "\$(printf 'range-5\nval-5range-6\nval-6')" ]; then echo "ok   sub-range [range-5, range-7) -> 2 entries"; else echo "FAIL sub-range -> \$c"; SH_FAIL=1; fi
check "GET /v0/entities without start"    400 "\$(code "\$P0/v0/entities")"
exit \$SH_FAIL
SH
  local rc=$?
  sed 's/^/    /' "$WORK/api.log"
  [ $rc = 0 ] || die "$(grep -c '^FAIL' "$WORK/api.log") API check(s) failed (exit $rc)"
  log "$(grep -c '^ok' "$WORK/api.log") API checks passed"
  # kubectl dht (plugin/kubectl-dht): the status screen, and a key put and read back through it
  local plugin="$ROOT/plugin/kubectl-dht"
  timeout 120 "$plugin" -n "$NS" status "$CLUSTER" >"$WORK/plugin-status.txt" 2>&1 ||
    { cat "$WORK/plugin-status.txt"; die "kubectl dht status failed"; }
  sed 's/^/    /' "$WORK/plugin-status.txt"
  grep -q "^Cluster $NS/$CLUSTER: 3/3 ready, 3 members" "$WORK/plugin-status.txt" || die "kubectl dht status: no cluster line"
  [ "$(grep -cE "^$CLUSTER-[0-9] +yes +serving " "$WORK/plugin-status.txt")" = 3 ] ||
    die "kubectl dht status: not 3 nodes Ready and serving"
  grep -q "^  Zones: $(pod_zone 0) (" "$WORK/plugin-status.txt" ||
    die "kubectl dht status: no line for the members' zones"
  timeout 60 "$plugin" -n "$NS" put "$CLUSTER" e2e-plugin "from kubectl dht" >/dev/null || die "kubectl dht put failed"
  [ "$(timeout 60 "$plugin" -n "$NS" get "$CLUSTER" e2e-plugin --ack 3 --from 3)" = "from kubectl dht" ] ||
    die "kubectl dht get did not read back what kubectl dht put wrote"
  log "kubectl dht: status shows 3 nodes serving and their zones; put and get (3/3) round-trip a key"
  # an early backup of the cluster, for the backup step's collection of unneeded files (they must
  # be over 10 minutes old then)
  timeout 200 kubectl -n "$NS" wait deploy/seaweedfs --for=condition=Available --timeout=190s >/dev/null ||
    die "SeaweedFS (e2e/manifests/seaweedfs.yaml, applied with the cluster) not available"
  take_backup early
}

step_storage() {
  # a larger spec.storage.size: the operator asks every claim for it, where the claims' StorageClass
  # allows expansion; k8s-local's local-path does not, so there the apiserver refuses and the
  # cluster says so, and nothing is restarted or recreated
  local class expandable sts before claims
  class="$(jp "pvc/data-$CLUSTER-0" '{.spec.storageClassName}')"
  expandable="$(timeout 20 kubectl get storageclass "$class" -o jsonpath='{.allowVolumeExpansion}')"
  sts="$(jp "sts/$CLUSTER" '{.metadata.uid}')"; before="$(pod_uids)"
  claims() { jp pvc "{range .items[*]}{.metadata.name}={.spec.resources.requests.storage} {end}" | tr ' ' '\n' | grep "^data-$CLUSTER-" | sort | tr '\n' ' '; }
  storage_condition() { jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="StorageResized")].status}/{.status.conditions[?(@.type=="StorageResized")].reason}'; }
  k patch "dht/$CLUSTER" --type merge -p '{"spec":{"storage":{"size":"512Mi"}}}' >/dev/null || die "patch of spec.storage.size failed"
  if [ "$expandable" = true ]; then
    until_ok 240 "every claim at 512Mi: StorageResized True" sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht '$CLUSTER' -o jsonpath='{.status.conditions[?(@.type==\"StorageResized\")].status}')\" = True ]"
    [ "$(jp "sts/$CLUSTER" '{.metadata.uid}')" = "$sts" ] || die "the StatefulSet was recreated"
    [ "$(pod_uids)" = "$before" ] || die "pods were replaced by the expansion"
    log "StorageClass $class expands: every claim holds 512Mi, same StatefulSet, no pod restarted"
    return
  fi
  until_ok 120 "StorageResized False ExpansionRefused (StorageClass $class has no allowVolumeExpansion)" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht '$CLUSTER' -o jsonpath='{.status.conditions[?(@.type==\"StorageResized\")].reason}')\" = ExpansionRefused ]"
  log "StorageResized: $(storage_condition): $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="StorageResized")].message}')"
  log "status.storage: $(jp "dht/$CLUSTER" '{.status.storage}')"
  [ "$(jp "dht/$CLUSTER" '{.status.storage.claims[*].phase}')" = "Refused Refused Refused" ] || die "status.storage does not show the 3 claims Refused"
  claims="$(claims)"
  [ "$claims" = "data-$CLUSTER-0=256Mi data-$CLUSTER-1=256Mi data-$CLUSTER-2=256Mi " ] || die "the claims changed: $claims"
  [ "$(jp "sts/$CLUSTER" '{.metadata.uid}')" = "$sts" ] || die "the StatefulSet was recreated"
  [ "$(pod_uids)" = "$before" ] || die "pods were replaced"
  k patch "dht/$CLUSTER" --type merge -p '{"spec":{"storage":{"size":"256Mi"}}}' >/dev/null || die "setting spec.storage.size back failed"
  until_ok 60 "set back: StorageResized True AtSize" sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht '$CLUSTER' -o jsonpath='{.status.conditions[?(@.type==\"StorageResized\")].reason}')\" = AtSize ]"
  log "set back to 256Mi: $(storage_condition); same StatefulSet, same pods"
}

# A second cluster with the defaults: TLS only, peers with certificates of its own CA
step_tls() {
  local c=secure
  k apply -f - >/dev/null <<YAML || die "kubectl apply of DhtCluster $c failed"
apiVersion: dht.dev/v1alpha1
kind: DhtCluster
metadata: {name: $c}
spec:
  replicas: 3
  storage: {size: 64Mi}
  resources: {requests: {cpu: 50m, memory: 256Mi}, limits: {memory: 512Mi}}
  jvmOptions: ["-Xmx160m", "-XX:TieredStopAtLevel=1"]
---
apiVersion: dht.dev/v1alpha1
kind: DhtUser
metadata: {name: app}
spec:
  cluster: $c
  clientCertificate: true
  acls: [{prefix: "tls-", operations: [read, write, delete]}]
YAML
  local t=$SECONDS
  timeout 500 kubectl -n "$NS" wait "dhtcluster/$c" --for=condition=Ready --timeout=490s >/dev/null ||
    die "DhtCluster $c not Ready within 490s: $(jp "dht/$c" '{range .status.conditions[*]}{.type}={.status} {.message}; {end}')"
  log "DhtCluster $c (defaults) Ready in $((SECONDS - t))s, transport $(jp "dht/$c" '{.status.transport}')"
  [ "$(jp "dht/$c" '{.status.transport}')" = Tls ] || die "a cluster with defaults should run TLS"
  for o in "secret/$c-ca" "secret/$c-ca-cert" "secret/$c-node-tls"; do
    k get "$o" >/dev/null 2>&1 || die "TLS object $o missing"
  done
  k get secret "$c-ca-cert" -o jsonpath='{.data.ca\.crt}' | base64 -d > "$WORK/$c-ca.crt"
  grep -q 'BEGIN CERTIFICATE' "$WORK/$c-ca.crt" || die "no CA certificate in $c-ca-cert"
  # a certificate of another CA, with the names of the cluster's nodes
  command -v openssl >/dev/null || { apt-get update -qq && apt-get install -y -qq openssl >/dev/null; }
  (cd "$WORK" &&
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=other CA" \
      -keyout other-ca.key -out other-ca.crt 2>/dev/null &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=intruder" \
      -keyout intruder.key -out intruder.csr 2>/dev/null &&
    openssl x509 -req -in intruder.csr -CA other-ca.crt -CAkey other-ca.key -CAcreateserial -days 1 \
      -out intruder.crt -extfile <(printf '%s\n' "subjectAltName=DNS:*.$c-peers.$NS.svc" \
        "extendedKeyUsage=serverAuth,clientAuth") 2>/dev/null) || die "openssl could not make a foreign certificate"
  timeout 40 kubectl -n "$NS" wait dhtuser/app --for=condition=Ready --timeout=35s >/dev/null ||
    die "DhtUser app not Ready: $(jp dhtuser/app '{range .status.conditions[*]}{.reason}: {.message}; {end}')"
  k get secret app-token -o jsonpath='{.data.token}' | base64 -d > "$WORK/token"
  [ -s "$WORK/token" ] || die "no token in Secret app-token"
  until_ok 30 "the user's client certificate in Secret app-tls" \
    sh -c "timeout 20 kubectl -n '$NS' get secret app-tls -o jsonpath='{.data.tls\\.key}' | grep -q ."
  k get secret app-tls -o jsonpath='{.data.tls\.crt}' | base64 -d > "$WORK/app.crt"
  k get secret app-tls -o jsonpath='{.data.tls\.key}' | base64 -d > "$WORK/app.key"
  for f in "$c-ca.crt" intruder.crt intruder.key token app.crt app.key; do
    timeout 20 kubectl -n "$NS" exec -i client -- sh -c "cat > /tmp/$f" < "$WORK/$f" || die "cannot copy $f"
  done
  in_pod client 120 >"$WORK/tls.log" 2>&1 <<SH
S=https://$c:8080
P0=$c-0.$c-peers.$NS.svc
SH_FAIL=0
code() { curl -s -o /tmp/body -w '%{http_code}' --max-time 5 --cacert /tmp/$c-ca.crt "\$@"; }
A="Authorization: Bearer \$(cat /tmp/token)"
check() { # check DESCRIPTION WANT_CODE GOT_CODE [WANT_BODY]
  if [ "\$3" != "\$2" ]; then echo "FAIL \$1 -> \$3 (want \$2)"; SH_FAIL=1; return; fi
  if [ \$# -ge 4 ] && [ "\$(cat /tmp/body)" != "\$4" ]; then echo "FAIL \$1 -> body '\$(cat /tmp/body)' (want '\$4')"; SH_FAIL=1; return; fi
  echo "ok   \$1 -> \$3"
}
check "plain HTTP to the client port is refused"   000 "\$(code http://$c:8080/v0/status)"
check "PUT tls-a without a token"                 401 "\$(code -X PUT --data-binary sealed "\$S/v0/entity?id=tls-a")"
check "GET tls-a with a wrong token"              401 "\$(code -H 'Authorization: Bearer not-a-token' "\$S/v0/entity?id=tls-a")"
check "PUT tls-a ack=3&from=3 (curl --cacert, token)" 201 "\$(code -H "\$A" -X PUT --data-binary sealed "\$S/v0/entity?id=tls-a&ack=3&from=3")"
check "GET tls-a ack=3&from=3 from $c-2"          200 "\$(code -H "\$A" "https://$c-2.$c-peers.$NS.svc:8080/v0/entity?id=tls-a&ack=3&from=3")" sealed
check "PUT outside the user's ACL"                403 "\$(code -H "\$A" -X PUT --data-binary x "\$S/v0/entity?id=other-a")"
check "range outside the user's ACL"              403 "\$(code -H "\$A" "\$S/v0/entities?start=tls-&end=tls.")"
check "the CA is checked: no --cacert"             000 "\$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "\$S/v0/status")"
check "peer port without a certificate"            000 "\$(code "https://\$P0:7070/internal/v0/clock")"
check "peer port with another CA's certificate"    000 "\$(code --cert /tmp/intruder.crt --key /tmp/intruder.key "https://\$P0:7070/internal/v0/clock")"
check "GET tls-a with the user's client certificate" 200 "\$(code --cert /tmp/app.crt --key /tmp/app.key "\$S/v0/entity?id=tls-a")" sealed
check "client certificate outside the user's ACL"  403 "\$(code --cert /tmp/app.crt --key /tmp/app.key "\$S/v0/entity?id=other-a")"
check "the user's certificate on the peer port"    403 "\$(code --cert /tmp/app.crt --key /tmp/app.key "https://\$P0:7070/internal/v0/clock")"
check "admin port without credentials"             401 "\$(code "https://\$P0:9090/v0/admin/status")"
check "entity API on the admin port"               404 "\$(code "https://\$P0:9090/v0/entity?id=tls-a")"
exit \$SH_FAIL
SH
  local rc=$?
  sed 's/^/    /' "$WORK/tls.log"
  [ $rc = 0 ] || die "$(grep -c '^FAIL' "$WORK/tls.log") TLS check(s) failed (exit $rc)"
  # revocation: the user deleted, its token refused within 10 s (the operator pushes to the nodes)
  k delete dhtuser app --wait=false >/dev/null || die "cannot delete DhtUser app"
  t=$SECONDS
  in_pod client 30 >"$WORK/revoke.log" 2>&1 <<SH
for i in \$(seq 1 40); do
  c=\$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert /tmp/$c-ca.crt \
    -H "Authorization: Bearer \$(cat /tmp/token)" "https://$c:8080/v0/entity?id=tls-a")
  [ "\$c" = 401 ] && { echo "refused after \$i tries"; exit 0; }
  sleep 0.25
done
echo "still \$c after 10 s"; exit 1
SH
  local revoked=$?
  sed 's/^/    /' "$WORK/revoke.log"
  [ $revoked = 0 ] || die "a revoked user's token was still accepted 10 s after kubectl delete dhtuser"
  log "revoked user refused $((SECONDS - t))s after kubectl delete dhtuser (bound: 10 s + kubectl)"
  # a load test on it: a DhtUser of its own on the test's key prefix, TLS and token on every request
  k apply -f - >/dev/null <<YAML || die "kubectl apply of DhtLoadTest secure-put failed"
apiVersion: dht.dev/v1alpha1
kind: DhtLoadTest
metadata: {name: secure-put}
spec:
  clusterRef: {name: $c}
  workload: {operation: put, keyspace: 1000, valueSize: 100}
  rate: 100
  duration: 10s
  warmup: 2s
  connections: 4
  threads: 1
  thresholds: {maxErrorRatio: 0}
  resources: {requests: {cpu: 100m, memory: 256Mi}, limits: {memory: 512Mi}}
YAML
  local phase=""
  t=$SECONDS
  while :; do
    phase="$(jp dhtloadtest/secure-put '{.status.phase}')"
    case "$phase" in Succeeded|Failed) break ;; esac
    [ $((SECONDS - t)) -lt 240 ] || die "DhtLoadTest secure-put not finished after 240s (phase ${phase:-none}: $(jp dhtloadtest/secure-put '{range .status.conditions[*]}{.type}={.reason}: {.message}; {end}'))"
    sleep 3
  done
  local counts
  counts="$(jp dhtloadtest/secure-put '{.status.results.requests} requests, {.status.results.errors} errors, {.status.results.non2xx} non-2xx, p99 {.status.results.latencyMs.p99} ms, verdict {.status.verdict}')"
  [ "$phase" = Succeeded ] && [ "$(jp dhtloadtest/secure-put '{.status.verdict}')" = Passed ] ||
    die "DhtLoadTest secure-put on the TLS cluster with tokens: $phase, $counts"
  log "DhtLoadTest secure-put (TLS + its own DhtUser) in $((SECONDS - t))s: $counts"
  for i in $(seq 1 20); do k get dhtuser secure-put-loadgen >/dev/null 2>&1 || break; sleep 1; done
  k get dhtuser secure-put-loadgen >/dev/null 2>&1 && die "the load test's DhtUser outlived the test"
  k delete dhtloadtest secure-put --wait=false >/dev/null 2>&1 || true
  k get networkpolicy "$c" >/dev/null 2>&1 && log "NetworkPolicy $c: $(jp "networkpolicy/$c" '{range .spec.ingress[*]}{.ports[0].port} {end}')"
  k delete dhtcluster "$c" --wait=true --timeout=120s >/dev/null || die "cannot delete DhtCluster $c"
  k delete pvc -l "app.kubernetes.io/instance=$c" --wait=false >/dev/null 2>&1 || true
  log "$(grep -c '^ok' "$WORK/tls.log") TLS checks passed; $c deleted"
}

step_loadtest() {
  crd_present dhtloadtests.dht.dev ||
    die "CRD dhtloadtests.dht.dev is not installed: crds/dhtloadtests.dht.dev-v1.yml has not landed (DhtLoadTest work in operator/)"
  k apply -f "$ROOT/e2e/manifests/dhtloadtest.yaml" >/dev/null || die "kubectl apply of the DhtLoadTest failed"
  local name=put-300 t=$SECONDS phase="" last=""
  while :; do
    phase="$(jp "dhtloadtest/$name" '{.status.phase}')"
    [ "$phase" = "$last" ] || { log "phase ${phase:-<none>} (+$((SECONDS - t))s)"; last="$phase"; }
    case "$phase" in Succeeded|Failed) break ;; esac
    [ $((SECONDS - t)) -lt 360 ] || die "DhtLoadTest $name not finished after 360s (phase ${phase:-none})"
    sleep 3
  done
  k get dhtlt "$name" | sed 's/^/    /'
  k get dhtlt "$name" -o json > "$WORK/lt.json"
  [ "$phase" = Succeeded ] || die "DhtLoadTest $name phase $phase: $(jp "dhtloadtest/$name" '{.status.conditions}')"
  local generator
  generator="$(jp "job/$(jp "dhtloadtest/$name" '{.status.jobName}')" '{.spec.template.spec.containers[0].image}')"
  [ "$generator" = "$NODE_REF" ] || die "the load generator ran ${generator:-no image}, not the node image $NODE_REF"
  log "the load generator ran the node image $NODE_REF"
  python3 - "$WORK/lt.json" <<'PY' || die "DhtLoadTest status incomplete or unexpected"
import json, sys
lt = json.load(open(sys.argv[1])); st = lt.get("status", {}); spec = lt["spec"]
r = st.get("results") or {}
lat = r.get("latencyMs") or {}
print(f"    results: requests={r.get('requests')} achievedRate={r.get('achievedRate')} errors={r.get('errors')} "
      f"non2xx={r.get('non2xx')} latencyMs={lat}")
print(f"    verdict={st.get('verdict')} report={st.get('report')} job={st.get('jobName')}")
problems = []
if not r.get("requests"): problems.append("no requests in results")
if float(r.get("achievedRate") or 0) < 0.8 * spec["rate"]: problems.append(f"achievedRate {r.get('achievedRate')} < 80% of {spec['rate']}")
for p in ("p50", "p99", "max"):
    if p not in lat: problems.append(f"latencyMs.{p} missing")
if not isinstance(r.get("warmedUp"), bool) or len(r.get("p99ByThirdMs") or []) != 3:
    problems.append(f"warmedUp/p99ByThirdMs missing: {r.get('warmedUp')} {r.get('p99ByThirdMs')}")
else:
    print(f"    warmed up: {r['warmedUp']} (p99 by third of the window: {r['p99ByThirdMs']} ms)")
# the verdict must follow from the results and the thresholds (the machine's speed is not under test)
th = spec.get("thresholds") or {}
reqs = r.get("requests") or 0
ok = reqs > 0
if "p99Ms" in th: ok = ok and lat.get("p99", 1e18) <= th["p99Ms"]
if "p999Ms" in th: ok = ok and lat.get("p999", 1e18) <= th["p999Ms"]
if "maxErrorRatio" in th and reqs: ok = ok and ((r.get("errors") or 0) + (r.get("non2xx") or 0)) / reqs <= th["maxErrorRatio"]
want = "Passed" if ok else "Failed"
if st.get("verdict") != want: problems.append(f"verdict {st.get('verdict')}, but the results against the thresholds say {want}")
passed = [c for c in st.get("conditions", []) if c.get("type") == "Passed"]
if not passed or passed[0].get("status") != ("True" if ok else "False"): problems.append(f"condition Passed: {passed}")
else: print(f"    verdict {want} agrees with the thresholds: {passed[0].get('message')}")
if not st.get("report"): problems.append("status.report (ConfigMap name) missing")
if problems: sys.exit("; ".join(problems))
PY
  local report job
  report="$(jp "dhtloadtest/$name" '{.status.report}')"; job="$(jp "dhtloadtest/$name" '{.status.jobName}')"
  k get configmap "$report" -o json > "$WORK/report.json" 2>/dev/null || die "report ConfigMap $report missing"
  python3 - "$WORK/report.json" <<'PY' || die "report ConfigMap $report is empty"
import json, sys
cm = json.load(open(sys.argv[1])); data = dict(cm.get("data") or {}); data.update(cm.get("binaryData") or {})
if not data: sys.exit("no data")
print("    report ConfigMap keys: " + ", ".join(f"{k} ({len(v)} chars)" for k, v in sorted(data.items())))
PY
  if [ -n "$job" ]; then
    log "Job $job log (tail):"
    k logs "job/$job" --tail=12 2>/dev/null | sed 's/^/    | /' || true
  fi

  # the same again, profiled (cpu, alloc) during its measured window, compared with put-300
  k apply -f "$ROOT/e2e/manifests/dhtloadtest-profiled.yaml" >/dev/null || die "kubectl apply of the profiled DhtLoadTest failed"
  name=put-300-profiled; t=$SECONDS
  until_ok 240 "$name finished" sh -c "timeout 20 kubectl -n '$NS' get dhtlt $name -o jsonpath='{.status.phase}' | grep -qE '^(Succeeded|Failed)$'"
  k get dhtlt "$name" -o json > "$WORK/lt2.json"
  python3 - "$WORK/lt2.json" <<'PY' || die "profiled DhtLoadTest: $(jp "dhtloadtest/$name" '{.status.conditions}')"
import json, sys
st = json.load(open(sys.argv[1])).get("status", {})
problems = []
if st.get("phase") != "Succeeded": problems.append(f"phase {st.get('phase')}")
want = {f"flame-demo-{i}-{e}.html" for i in range(3) for e in ("cpu", "alloc")}
got = set(st.get("artifacts") or [])
if got != want: problems.append(f"artifacts {sorted(got)}, want {sorted(want)}")
cmp = st.get("comparison") or {}
if cmp.get("baseline") != "put-300" or len(cmp.get("rows") or []) != 5: problems.append(f"comparison {cmp}")
print(f"    artifacts: {sorted(got)}")
print("    against put-300: " + ", ".join(f"{r['metric']} {r.get('summary', 'n/a')}" for r in cmp.get("rows", [])))
print(f"    verdict {st.get('verdict')}")
if problems: sys.exit("; ".join(problems))
PY
  local flame
  flame="$(k get configmap -l dht.dev/artifact=flame-demo-0-cpu-html -o jsonpath='{.items[0].binaryData.part\.gz}' |
    base64 -d | gunzip)" || die "the stored cpu flame graph of demo-0 does not decompress"
  # the operator asks the nodes at its first look after the window opened: 12 to 15 s of the 15 s
  local seconds
  seconds="$(jp "dhtloadtest/$name" '{.status.profile.seconds}')"
  [[ "$seconds" =~ ^1[2-5]$ ]] || die "status.profile.seconds is '$seconds', want 12 to 15 (what was left of the 15 s window)"
  grep -q "cpu, $seconds s" <<<"$flame" || die "the stored cpu flame graph of demo-0 does not read back (cpu, $seconds s)"
  log "the stored flame graph of demo-0 (cpu, $seconds s) reads back ($((SECONDS - t))s); status.profile:"
  jp "dhtloadtest/$name" '{.status.profile}' | sed 's/^/    | /'; echo

  # the report site, as a user reaches it: kubectl port-forward to the operator, a ServiceAccount's
  # token (kubectl create token) that may get the namespace's dhtloadtests; the page rendered by
  # headless Chromium after a login through the form (e2e/lib/report_browser.py), its DOM and
  # screenshot checked by e2e/lib/report_page.py
  k create serviceaccount report-reader >/dev/null && k create serviceaccount report-nobody >/dev/null &&
    k create role read-load-tests --verb=get --resource=dhtloadtests.dht.dev >/dev/null &&
    k create rolebinding read-load-tests --role=read-load-tests --serviceaccount="$NS:report-reader" >/dev/null ||
    die "cannot create the report readers (ServiceAccounts, Role, RoleBinding)"
  local reader nobody
  reader="$(k create token report-reader --duration=10m)" && nobody="$(k create token report-nobody --duration=10m)" ||
    die "kubectl create token failed"
  until_ok 30 "report-reader may get dhtloadtests (RBAC in effect)" \
    sh -c "timeout 20 kubectl auth can-i get dhtloadtests.dht.dev -n '$NS' --as 'system:serviceaccount:$NS:report-reader' >/dev/null 2>&1"
  local port pf url code
  timeout 150 kubectl -n "$NS" port-forward "deploy/$OPERATOR" :8081 > "$WORK/port-forward.log" 2>&1 &
  pf=$!  # a free local port, which kubectl names in its first line
  until_ok 30 "kubectl port-forward to the operator's port 8081" \
    sh -c "grep -q '^Forwarding from 127.0.0.1:' '$WORK/port-forward.log'"
  port="$(sed -n 's/^Forwarding from 127.0.0.1:\([0-9]*\) .*/\1/p' "$WORK/port-forward.log" | head -n1)"
  url="http://127.0.0.1:$port/reports/$NS/$name/"
  # site PATH [TOKEN]: the status of a GET, the body in $WORK/site.out, the headers in $WORK/site.headers
  site() {
    curl -s -o "$WORK/site.out" -D "$WORK/site.headers" -w '%{http_code}' --max-time 10 \
      ${2:+-H "Authorization: Bearer $2"} "http://127.0.0.1:$port$1"
  }
  code="$(site "/reports/$NS/$name/")"
  [ "$code" = 401 ] || { kill $pf; die "the report page without a token answered $code, not 401"; }
  grep -qi '^www-authenticate: Bearer realm="dht-reports"' "$WORK/site.headers" ||
    { kill $pf; die "a 401 without the Bearer challenge: $(cat "$WORK/site.headers")"; }
  code="$(site "/reports/$NS/$name/" "$nobody")"
  [ "$code" = 403 ] || { kill $pf; die "the report page with a token that may not get dhtloadtests answered $code, not 403"; }
  code="$(site "/reports/$NS/$name/" "$reader")"
  [ "$code" = 200 ] || { kill $pf; die "the report page with the reader's token answered $code: $(head -c 300 "$WORK/site.out")"; }
  grep -qi "^content-security-policy: default-src 'none'" "$WORK/site.headers" ||
    { kill $pf; die "the report page has no Content-Security-Policy: $(cat "$WORK/site.headers")"; }
  code="$(site /reports/ "$reader")"
  [ "$code" = 200 ] || { kill $pf; die "the report index answered $code"; }
  grep -q "put-300-profiled" "$WORK/site.out" || { kill $pf; die "the report index does not list put-300-profiled"; }
  code="$(site /reports/kube-system/ "$reader")"
  [ "$code" = 404 ] || { kill $pf; die "a namespace the operator does not watch answered $code, not 404"; }
  log "report site: 401 without a token, 403 for report-nobody, 200 for report-reader, 404 outside $NS"
  printf '%s' "$reader" > "$WORK/reader.token"
  timeout 120 python3 "$ROOT/e2e/lib/report_browser.py" --token-file "$WORK/reader.token" --out "$WORK/browser" \
    "$url" > "$WORK/browser.json" 2> "$WORK/chromium.log"
  local rc=$?
  kill $pf 2>/dev/null
  rm -f "$WORK/reader.token"
  k delete serviceaccount report-reader report-nobody --ignore-not-found >/dev/null 2>&1
  k delete role,rolebinding read-load-tests --ignore-not-found >/dev/null 2>&1 # (the uninstall step looks for leftovers)
  [ $rc = 0 ] || { tail -5 "$WORK/chromium.log"; die "headless Chromium failed on $url (exit $rc)"; }
  python3 - "$WORK/browser.json" "$url" <<'PY' || die "the report page in Chromium ($url)"
import json, sys
page = json.loads(open(sys.argv[1]).readline())
problems = []
if page["finalUrl"] != sys.argv[2] or page["status"] != 200:
    problems.append(f"the login led to {page['finalUrl']} ({page['status']}), not the page")
if not (page["csp"] or "").startswith("default-src 'none'"):
    problems.append(f"Content-Security-Policy {page['csp']!r}")
violations = [e["text"] for e in page["console"] if "Content Security Policy" in (e["text"] or "")]
if violations:
    problems.append(f"CSP violations: {violations}")
if problems: sys.exit("; ".join(problems))
print(f"    logged in through the form; {page['title']!r}: 200, CSP present, no violation")
PY
  cp "$WORK/browser/page-0.png" "$ROOT/target/e2e-report-page.png" 2>/dev/null # to look at afterwards
  "${PIL_PYTHON:-python3}" "$ROOT/e2e/lib/report_page.py" "$WORK/browser/page-0.html" "$WORK/browser/page-0.png" \
    flame-demo-{0,1,2}-{cpu,alloc}.html || die "the report page as Chromium rendered it ($url)"
  log "report page through kubectl port-forward, rendered by headless Chromium ($((SECONDS - t))s)"
}

step_failover() {
  local victim="$CLUSTER-1" old_uid
  old_uid="$(jp "pod/$victim" '{.metadata.uid}')"
  k delete pod writer --ignore-not-found --wait=true --timeout=30s >/dev/null 2>&1
  # 40 s of sequential PUTs at ack=2/from=3; one line per write: epoch status key
  client_pod writer "end=\$((\$(date +%s) + 40)); i=0
while [ \$(date +%s) -lt \$end ]; do
  i=\$((i + 1))
  c=\$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X PUT --data-binary v-\$i \"http://$CLUSTER:8080/v0/entity?id=fo-\$i&ack=2&from=3\")
  echo \"\$(date +%s) \$c fo-\$i\"
  sleep 0.1
done
echo DONE \$i"
  until_ok 120 "writer pod writing" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' logs writer 2>/dev/null | grep -c ' 201 ')\" -ge 20 ]"
  local t_delete; t_delete="$(date +%s)"
  k delete pod "$victim" --wait=false >/dev/null || die "cannot delete pod $victim"
  log "deleted pod $victim during the write loop"
  timeout 130 kubectl -n "$NS" wait pod/writer --for=jsonpath='{.status.phase}'=Succeeded --timeout=120s >/dev/null ||
    die "writer pod did not finish"
  k logs writer > "$WORK/writer.log" || die "no writer log"
  grep -q '^DONE' "$WORK/writer.log" || die "writer log incomplete"
  until_ok 300 "pod $victim back with a new uid and Ready" \
    sh -c "u=\$(timeout 20 kubectl -n '$NS' get pod $victim -o jsonpath='{.metadata.uid}' 2>/dev/null); [ -n \"\$u\" ] && [ \"\$u\" != '$old_uid' ] &&
           [ \"\$(timeout 20 kubectl -n '$NS' get pod $victim -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}')\" = True ]"
  timeout 310 kubectl -n "$NS" wait "dhtcluster/$CLUSTER" --for=condition=Ready --timeout=300s >/dev/null ||
    die "DhtCluster not Ready again after the pod came back"
  local total ok failed during ready_at
  ready_at="$(date -d "$(jp "pod/$victim" '{.status.conditions[?(@.type=="Ready")].lastTransitionTime}')" +%s)" ||
    die "no Ready time of the new $victim"
  total="$(grep -c ' fo-' "$WORK/writer.log")"
  ok="$(grep -c ' 201 fo-' "$WORK/writer.log")"
  failed=$((total - ok))
  # acknowledged while the node was away: from 1 s after the delete until the new pod was Ready
  during="$(awk -v a="$t_delete" -v b="$ready_at" '$1 > a && $1 < b && $2 == 201' "$WORK/writer.log" | wc -l)"
  log "writes: $total, acknowledged (201): $ok, failed: $failed; $victim away for $((ready_at - t_delete))s, $during writes acknowledged meanwhile"
  grep -v ' 201 fo-' "$WORK/writer.log" | grep ' fo-' | sed 's/^/    not acknowledged: /' | head -n 20
  [ "$during" -gt 0 ] || die "no write was acknowledged while $victim was away"
  [ "$failed" -le "$MAX_FAILED_WRITES" ] || die "$failed writes failed (at most $MAX_FAILED_WRITES in flight allowed)"
  # every acknowledged key reads back at ack=2/from=3
  { echo "n=0; bad=0"
    awk '$2 == 201 {k=$3; sub("fo-", "", k); print "c=$(curl -s -o /tmp/b -w %{http_code} --max-time 5 \"http://'"$CLUSTER"':8080/v0/entity?id=fo-" k "&ack=2&from=3\"); n=$((n+1)); if [ \"$c\" != 200 ] || [ \"$(cat /tmp/b)\" != v-" k " ]; then bad=$((bad+1)); echo \"MISSING fo-" k " -> $c\"; fi"}' "$WORK/writer.log"
    echo 'echo "read back $n keys, $bad wrong"; [ $bad = 0 ]'
  } > "$WORK/readback.sh"
  in_pod client 240 < "$WORK/readback.sh" > "$WORK/readback.log" 2>&1
  local rc=$?
  head -n 20 "$WORK/readback.log" | sed 's/^/    /'
  [ $rc = 0 ] || die "acknowledged writes missing at ack=2/from=3 (exit $rc)"
}

step_replace() {
  # a node whose volume is lost, replaced through the operator (dht.dev/replace=<pod>) under a
  # writer and a reader at 2/3: the operator evicts the pod and deletes its claim, re-evicts a pod
  # recreated on the old claim, and removes the annotation once the pod is Ready on a new claim. The
  # new pod starts empty and bootstraps (pulls from its peers) before it is Ready or answers reads
  local victim="$CLUSTER-1" old_claim t
  k delete pod writer reader --ignore-not-found --wait=true --timeout=30s >/dev/null 2>&1
  in_pod client 180 > "$WORK/rp-prefill.log" 2>&1 <<SH
i=1; while [ \$i -le 300 ]; do
  curl -s -o /dev/null -w "%{http_code} rp-\$i\n" --max-time 5 -X PUT --data-binary v-\$i "http://$CLUSTER:8080/v0/entity?id=rp-\$i&ack=2&from=3"
  i=\$((i + 1)); done
SH
  [ "$(grep -c '^201 rp-' "$WORK/rp-prefill.log")" = 300 ] || die "prefill: $(grep -vc '^201 ' "$WORK/rp-prefill.log") of 300 PUTs not acknowledged"
  writer_start writer rw
  client_pod reader "n=0; i=0; while [ ! -f /tmp/stop ]; do i=\$((i % 300 + 1)); n=\$((n + 1))
  c=\$(curl -s -o /tmp/b -w '%{http_code}' --max-time 3 \"http://$CLUSTER:8080/v0/entity?id=rp-\$i&ack=2&from=3\")
  if [ \"\$c\" != 200 ] || [ \"\$(cat /tmp/b)\" != v-\$i ]; then echo \"\$(date +%s) BAD \$c rp-\$i\"; fi; done; echo DONE \$n"
  until_ok 60 "reader running" sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get pod reader -o jsonpath='{.status.phase}')\" = Running ]"
  old_claim="$(jp "pvc/data-$victim" '{.metadata.uid}')"
  t=$SECONDS
  k annotate "dht/$CLUSTER" "dht.dev/replace=$victim" >/dev/null || die "cannot annotate $CLUSTER"
  log "annotated dht/$CLUSTER dht.dev/replace=$victim"
  replaced() {
    local claim; claim="$(jp "pvc/data-$victim" '{.metadata.uid}')"
    [ -z "$(jp "dht/$CLUSTER" '{.metadata.annotations.dht\.dev/replace}')" ] || return 1
    # recorded as the last replacement once the operator saw the annotation gone
    [ "$(jp "dht/$CLUSTER" '{.status.lastReplacement.pod}')" = "$victim" ] || return 1
    [ -n "$claim" ] && [ "$claim" != "$old_claim" ] || return 1
    [ "$(jp "pod/$victim" '{.status.conditions[?(@.type=="Ready")].status}')" = True ]
  }
  until_ok 600 "dht.dev/replace taken away, status.lastReplacement, $victim Ready on a new claim" replaced
  log "$victim replaced and Ready on a new claim in $((SECONDS - t))s"
  log "status.lastReplacement: $(jp "dht/$CLUSTER" '{.status.lastReplacement.message}')"
  k get events --field-selector reason=Replacing --sort-by=.lastTimestamp \
    -o jsonpath='{range .items[*]}{.lastTimestamp} {.message}{"\n"}{end}' | sed 's/^/    /'
  local replaced_said
  replaced_said="$(k get events --field-selector reason=Replaced,type=Normal -o jsonpath='{range .items[*]}{.message}{"\n"}{end}')"
  log "event Replaced: $replaced_said"
  grep -q "^replaced $victim on a new volume in " <<<"$replaced_said" || die "no Replaced event names $victim"
  k logs "$victim" | grep -E "peer holds data|pulled from every peer" | sed 's/^/    /'
  # grep reads the whole log: grep -q would exit at the match, and kubectl still writing get
  # SIGPIPE, which pipefail reports as a failure
  k logs "$victim" | grep "pulled from every peer: serving reads" >/dev/null || die "$victim did not bootstrap"
  sleep 5
  # the reader ends as soon as it sees the file, which may kill this exec first (137): the wait
  # below says whether it stopped
  k exec reader -- touch /tmp/stop || log "kubectl exec ended with the reader (exit $?)"
  timeout 60 kubectl -n "$NS" wait pod/reader --for=jsonpath='{.status.phase}'=Succeeded --timeout=50s >/dev/null || die "reader did not finish"
  k logs reader > "$WORK/reader.log" || die "no reader log"
  k delete pod reader --wait=false >/dev/null 2>&1
  local reads bad
  reads="$(sed -n 's/^DONE //p' "$WORK/reader.log")"; bad="$(grep -c ' BAD ' "$WORK/reader.log")"
  log "reader: $reads reads at 2/3 of the 300 keys, $bad not 200 with the value"
  grep ' BAD ' "$WORK/reader.log" | head -n 10 | sed 's/^/    /'
  [ "$bad" = 0 ] || die "$bad reads of acknowledged keys were not 200 with their value"
  writer_stop writer
  on_every_replica writer rw
  local held
  held="$(in_pod client 60 <<<"curl -s --max-time 50 'http://$victim.$CLUSTER-peers:8080/v0/entities?start=rp-&end=rp.'" | grep -ao 'rp-[0-9]*' | sort -u | wc -l)"
  log "$victim holds $held of the 300 keys written before its volume was lost"
  [ "$held" = 300 ] || die "$victim holds $held of 300 keys"
}

# sample_not_ready FILE: every second until FILE.stop exists (at most 15 min), append how many of the
# 3 node pods are not Ready (missing ones count); prints the sampler's PID
sample_not_ready() {
  ( end=$((SECONDS + 900))
    while [ ! -f "$1.stop" ] && [ $SECONDS -lt $end ]; do
      ready="$(timeout 10 kubectl -n "$NS" get pods -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' 2>/dev/null |
               grep -cE "^$CLUSTER-[0-2] True$")"
      echo "$(date +%s) $((3 - ready))" >> "$1"; sleep 1
    done ) >/dev/null 2>&1 &
  echo $!
}
# writer_start NAME PREFIX: a pod PUTting new keys PREFIX-i at 2/3 (~15/s) until /tmp/stop
writer_start() {
  k delete pod "$1" --ignore-not-found --wait=true --timeout=30s >/dev/null 2>&1
  client_pod "$1" "i=0; while [ ! -f /tmp/stop ]; do i=\$((i + 1))
  c=\$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X PUT --data-binary val-\$i \"http://$CLUSTER:8080/v0/entity?id=$2-\$i&ack=2&from=3\")
  echo \"\$(date +%s) \$c $2-\$i\"; sleep 0.05; done; echo DONE \$i"
  until_ok 120 "writer $1 writing" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' logs $1 2>/dev/null | grep -c ' 201 ')\" -ge 10 ]"
}
# writer_stop NAME: stops it, its log in $WORK/NAME.log; fails if more than MAX_FAILED_WRITES failed
writer_stop() {
  k exec "$1" -- touch /tmp/stop || log "kubectl exec ended with $1 (exit $?)" # see step_replace
  timeout 60 kubectl -n "$NS" wait "pod/$1" --for=jsonpath='{.status.phase}'=Succeeded --timeout=50s >/dev/null || die "$1 did not finish"
  k logs "$1" > "$WORK/$1.log" || die "no $1 log"
  k delete pod "$1" --wait=false >/dev/null 2>&1
  local writes acked
  writes="$(grep -c " [0-9]* [a-z]*-[0-9]*$" "$WORK/$1.log")"; acked="$(grep -c ' 201 ' "$WORK/$1.log")"
  log "$1: $writes PUTs at 2/3, $acked acknowledged, $((writes - acked)) failed"
  grep -v ' 201 ' "$WORK/$1.log" | grep -v DONE | head -n 10 | sed 's/^/    not acknowledged: /'
  [ $((writes - acked)) -le "$MAX_FAILED_WRITES" ] || die "$((writes - acked)) writes failed (at most $MAX_FAILED_WRITES)"
}
# on_every_replica LOG PREFIX: once no node holds hints, every key LOG acknowledged is in each
# node's own replica (/v0/entities of demo-0..2), with its value
on_every_replica() {
  local secret
  secret="$(kubectl -n "$NS" get secret "$CLUSTER-secret" -o jsonpath='{.data.secret}' | base64 -d)"
  until_ok 120 "no node holds hints" sh -c "
    for i in 0 1 2; do timeout 20 kubectl -n '$NS' exec client -- curl -s --max-time 5 -H 'X-Dht-Cluster-Secret: $secret' http://$CLUSTER-\$i.$CLUSTER-peers:8080/v0/admin/status |
      grep -q '\"hints\":{\"pending\":0,' || exit 1; done"
  awk '$2 == 201 {print $3}' "$WORK/$1.log" | sort > "$WORK/$1.acked"
  local i n missing
  n="$(grep -c . "$WORK/$1.acked")"
  for i in 0 1 2; do
    in_pod client 120 <<<"curl -s --max-time 100 'http://$CLUSTER-$i.$CLUSTER-peers:8080/v0/entities?start=$2-&end=$2.'" |
      grep -ao "$2-[0-9]*" | sort > "$WORK/$1.on-$i" || die "range read of $CLUSTER-$i failed"
    missing="$(comm -23 "$WORK/$1.acked" "$WORK/$1.on-$i" | wc -l)"
    [ "$missing" = 0 ] || die "$missing of $n acknowledged writes are not on $CLUSTER-$i: $(comm -23 "$WORK/$1.acked" "$WORK/$1.on-$i" | head -n 5 | tr '\n' ' ')"
  done
  log "all $n acknowledged writes are on each of the 3 replicas"
}
most_not_ready() { awk '$2 > m {m = $2} END {print m + 0}' "$1"; }

step_roll() {
  # (a) a settings change (threads, maintenance) while demo-0 is down: the roller waits for it, then restarts
  #     one Ready, caught-up pod at a time; never two down; writes at 2/3 keep being acknowledged
  local before revision_before sampler t
  before="$(pod_uids)"; revision_before="$(jp "dht/$CLUSTER" '{.status.revision}')"
  [ -n "$revision_before" ] || die "status.revision is empty before the roll"
  writer_start writer ro
  sampler="$(sample_not_ready "$WORK/roll-ready")"
  t=$SECONDS
  k delete pod "$CLUSTER-0" --wait=false >/dev/null || die "cannot delete $CLUSTER-0"
  k patch "dht/$CLUSTER" --type merge -p '{"spec":{"threads":{"eventLoops":2},"maintenance":{"repairIntervalSeconds":600}}}' >/dev/null ||
    die "patch of spec.threads and spec.maintenance failed"
  log "deleted $CLUSTER-0 and changed spec.threads and spec.maintenance.repairIntervalSeconds"
  until_ok 120 "the status says the roll waits for $CLUSTER-0" \
    sh -c "timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.roll.message}' | grep -q 'waiting for $CLUSTER-0'"
  log "status.roll: $(jp "dht/$CLUSTER" '{.status.roll}')"
  rolled() {
    local now; now="$(pod_uids)"
    [ "$(grep -c . <<<"$now")" = 3 ] || return 1
    [ -z "$(comm -12 <(echo "$before") <(echo "$now"))" ] || return 1
    [ -z "$(jp "dht/$CLUSTER" '{.status.roll}')" ] || return 1
    [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="ConfigApplied")].status}')" = True ] || return 1
    [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="Ready")].status}')" = True ]
  }
  until_ok 900 "rolled: 3 new pods, ConfigApplied, Ready" rolled
  touch "$WORK/roll-ready.stop"; wait "$sampler" 2>/dev/null
  log "roll took $((SECONDS - t))s; most node pods not Ready at once (sampled every second): $(most_not_ready "$WORK/roll-ready")"
  k get events --field-selector reason=RollingRestart --sort-by=.lastTimestamp \
    -o jsonpath='{range .items[*]}{.lastTimestamp} {.message}{"\n"}{end}' | sed 's/^/    /'
  [ "$(most_not_ready "$WORK/roll-ready")" -le 1 ] || die "more than one node pod was not Ready at once"
  local restarts_said
  restarts_said="$(k get events --field-selector reason=RollingRestart -o jsonpath='{range .items[*]}{.message}{"\n"}{end}')"
  for p in 1 2; do   # (grep on a variable: grep -q in a pipe under pipefail may kill its writer)
    grep -q "^restarting pod $CLUSTER-$p: created with other settings: .*node flags" <<<"$restarts_said" ||
      die "no RollingRestart event names $CLUSTER-$p and its changed node flags"
  done
  [ "$(jp "sts/$CLUSTER" '{.spec.updateStrategy.type}')" = OnDelete ] || die "the StatefulSet's update strategy is not OnDelete"
  k get sts "$CLUSTER" -o jsonpath='{.spec.template.spec.containers[0].args}' | grep -q -- '--event-loops=2' ||
    die "the StatefulSet does not pass --event-loops=2"
  [ "$(jp "dht/$CLUSTER" '{.status.revision}')" != "$revision_before" ] || die "status.revision is still the old one"
  # spec.maintenance reached the nodes: each one's admin status shows the repair interval it runs
  local secret i interval
  secret="$(kubectl -n "$NS" get secret "$CLUSTER-secret" -o jsonpath='{.data.secret}' | base64 -d)"
  for i in 0 1 2; do
    interval="$(in_pod client 30 <<<"curl -s --max-time 5 -H 'X-Dht-Cluster-Secret: $secret' http://$CLUSTER-$i.$CLUSTER-peers:8080/v0/admin/status" |
      grep -o '"repairIntervalMs":[0-9]*')"
    [ "$interval" = '"repairIntervalMs":600000' ] || die "$CLUSTER-$i's admin status says ${interval:-nothing}, not a repair every 600 s"
  done
  log "each node's admin status: settings.repairIntervalMs 600000 (spec.maintenance.repairIntervalSeconds: 600)"
  writer_stop writer
  on_every_replica writer ro

  # (b) default ack: the membership plan's steps, no restart; the status shows it once the nodes
  # serve it
  local after restarts gen_before
  before="$(pod_uids)"; restarts="$(pod_restarts)"
  revision_before="$(jp "sts/$CLUSTER" '{.spec.template.metadata.annotations.dht\.dev/revision}')"
  gen_before="$(jp "sts/$CLUSTER" '{.metadata.generation}')"
  k patch "dht/$CLUSTER" --type merge -p '{"spec":{"replication":{"defaultAck":1}}}' >/dev/null || die "patch of defaultAck failed"
  until_ok 180 "the members file of ConfigMap $CLUSTER-config says replication 1/3 (the final step)" \
    sh -c "timeout 20 kubectl -n '$NS' get cm $CLUSTER-config -o jsonpath='{.data.members}' | grep -q '^replication 1/3\$'"
  until_ok 180 "the nodes serve ack 1: status.defaultAck = 1 (column Ack), ConfigApplied" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.defaultAck}/{.status.conditions[?(@.type==\"ConfigApplied\")].status}')\" = 1/True ]"
  after="$(pod_uids)"
  [ "$after" = "$before" ] || die "pods were replaced after a defaultAck change: before [$before] after [$after]"
  [ "$(pod_restarts)" = "$restarts" ] || die "containers restarted: before [$restarts] after [$(pod_restarts)]"
  [ "$(jp "sts/$CLUSTER" '{.spec.template.metadata.annotations.dht\.dev/revision}')" = "$revision_before" ] || die "the pod template's revision changed"
  [ "$(jp "sts/$CLUSTER" '{.metadata.generation}')" = "$gen_before" ] || die "the StatefulSet spec changed"
  log "same 3 pods (uids), same restart counts, same StatefulSet generation $gen_before"
}

step_paused() {
  # a spec change while paused is not applied, so its generation is not observed
  local gen0 observed gen
  gen0="$(jp "dht/$CLUSTER" '{.metadata.generation}')"
  k annotate "dht/$CLUSTER" dht.dev/pause-reconciliation=true --overwrite >/dev/null || die "cannot pause"
  until_ok 60 "condition Paused True" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.conditions[?(@.type==\"Paused\")].status}')\" = True ]"
  k patch "dht/$CLUSTER" --type merge -p '{"spec":{"replication":{"defaultAck":2}}}' >/dev/null || die "patch while paused failed"
  gen="$(jp "dht/$CLUSTER" '{.metadata.generation}')"
  until_ok 60 "a reconcile saw generation $gen (the Paused condition's observedGeneration)" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.conditions[?(@.type==\"Paused\")].observedGeneration}')\" = $gen ]"
  observed="$(jp "dht/$CLUSTER" '{.status.observedGeneration}')"
  [ "$observed" = "$gen0" ] || die "observedGeneration $observed while paused; the applied generation was $gen0"
  jp "cm/$CLUSTER-config" '{.data.members}' | grep -q '^replication 1/3$' || die "the ConfigMap changed while paused"
  timeout 30 kubectl -n "$NS" wait "dht/$CLUSTER" --for=jsonpath='{.status.observedGeneration}'="$gen" --timeout=3s >/dev/null 2>&1 &&
    die "kubectl wait for observedGeneration $gen returned while paused"
  log "paused: generation $gen, observedGeneration stays $observed, ConfigMap unchanged"
  k annotate "dht/$CLUSTER" dht.dev/pause-reconciliation- >/dev/null || die "cannot resume"
  timeout 70 kubectl -n "$NS" wait "dht/$CLUSTER" --for=jsonpath='{.status.observedGeneration}'="$gen" --timeout=60s >/dev/null ||
    die "observedGeneration did not reach $gen after resuming"
  until_ok 180 "resumed: the nodes serve ack 2, ConfigApplied" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.defaultAck}/{.status.conditions[?(@.type==\"ConfigApplied\")].status}')\" = 2/True ]"
}

step_secret() {
  # the Secret deleted with a writer running, then a pod deleted: no new secret is made (a node
  # restarted with one would be refused by its peers); Degraded says why; restoring it heals
  writer_start writer2 se
  k get secret "$CLUSTER-secret" -o json | python3 -c '
import json, sys
s = json.load(sys.stdin)
for k in ("resourceVersion", "uid", "creationTimestamp", "managedFields"):
    s["metadata"].pop(k, None)
print(json.dumps(s))' > "$WORK/secret.json" || die "cannot back up the Secret"
  k delete secret "$CLUSTER-secret" >/dev/null || die "cannot delete the Secret"
  until_ok 90 "Degraded SecretMissing" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.conditions[?(@.type==\"Degraded\")].reason}')\" = SecretMissing ]"
  log "Degraded: $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="Degraded")].message}')"
  until_ok 60 "a Warning event SecretMissing" \
    sh -c "timeout 20 kubectl -n '$NS' get events --field-selector reason=SecretMissing,type=Warning -o name | grep -q ."
  k delete pod "$CLUSTER-2" --wait=false >/dev/null || die "cannot delete $CLUSTER-2"
  sleep 30
  k get "secret/$CLUSTER-secret" >/dev/null 2>&1 && die "the operator made a new Secret"
  log "30 s later: no new Secret; $CLUSTER-2: $(jp "pod/$CLUSTER-2" '{.status.phase}') (its secret volume cannot be mounted)"
  k create -f "$WORK/secret.json" >/dev/null || die "cannot restore the Secret"
  log "restored the Secret from its backup"
  until_ok 300 "$CLUSTER-2 Ready again, Degraded False" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.readyReplicas}/{.status.conditions[?(@.type==\"Degraded\")].status}')\" = 3/False ]"
  writer_stop writer2
  local i refused=0
  for i in 0 1 2; do
    refused=$((refused + $(k logs "$CLUSTER-$i" | grep -c 'refused internal request')))
  done
  [ "$refused" = 0 ] || die "$refused internal requests refused (403) in the node logs"
  log "no node log says it refused an internal request (403)"
}

step_upgrade() {
  # a helm upgrade that changes the operator's default node image restarts nothing by itself
  [ -n "${NODE_IMAGE_NEXT:-}" ] || die "NODE_IMAGE_NEXT not set (e2e/run.sh tags the node image again on k8s-local)"
  local before restarts t sampler
  # the same digest under the new tag (--reuse-values keeps node.image.digest): a new reference
  local next_ref="$NODE_IMAGE_NEXT${NODE_IMAGE_DIGEST:+@$NODE_IMAGE_DIGEST}"
  before="$(pod_uids)"; restarts="$(pod_restarts)"
  t=$SECONDS
  timeout 300 helm upgrade "$RELEASE" "$ROOT/charts/dht" --namespace "$NS" --reuse-values \
    --set node.image.tag="${NODE_IMAGE_NEXT##*:}" --wait --timeout 240s >/dev/null 2> >(grep -v 'found symbolic link' >&2) ||
    die "helm upgrade failed"
  log "helm upgrade: the operator's default node image is now $next_ref ($((SECONDS - t))s)"
  until_ok 120 "condition RestartRequired True, OperatorDefaultsChanged" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get dht $CLUSTER -o jsonpath='{.status.conditions[?(@.type==\"RestartRequired\")].reason}')\" = OperatorDefaultsChanged ]"
  log "RestartRequired: $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="RestartRequired")].message}')"
  while [ $((SECONDS - t)) -lt 120 ]; do sleep 5; done
  [ "$(pod_uids)" = "$before" ] || die "pods were replaced after the helm upgrade"
  [ "$(pod_restarts)" = "$restarts" ] || die "containers restarted after the helm upgrade"
  [ "$(jp "sts/$CLUSTER" '{.spec.template.spec.containers[0].image}')" = "$NODE_REF" ] || die "the StatefulSet's image changed"
  log "120 s after the upgrade: same pods, same restart counts, the StatefulSet still runs $NODE_REF"
  sampler="$(sample_not_ready "$WORK/upgrade-ready")"
  k annotate "dht/$CLUSTER" dht.dev/allow-restart=once >/dev/null || die "cannot allow the restart"
  t=$SECONDS
  upgraded() {
    [ "$(jp pods '{range .items[*]}{.metadata.name} {.spec.containers[0].image}{"\n"}{end}' | grep -cxF -e "$CLUSTER-0 $next_ref" -e "$CLUSTER-1 $next_ref" -e "$CLUSTER-2 $next_ref")" = 3 ] || return 1
    [ -z "$(jp "dht/$CLUSTER" '{.status.roll}')" ] || return 1
    [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="ConfigApplied")].status}/{.status.conditions[?(@.type=="RestartRequired")].status}')" = True/False ] || return 1
    [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="Ready")].status}')" = True ]
  }
  until_ok 900 "allowed: rolled to $next_ref, ConfigApplied, RestartRequired False, Ready" upgraded
  touch "$WORK/upgrade-ready.stop"; wait "$sampler" 2>/dev/null
  log "roll took $((SECONDS - t))s; most node pods not Ready at once: $(most_not_ready "$WORK/upgrade-ready")"
  [ "$(most_not_ready "$WORK/upgrade-ready")" -le 1 ] || die "more than one node pod was not Ready at once"
  [ -z "$(jp "dht/$CLUSTER" '{.metadata.annotations.dht\.dev/allow-restart}')" ] || die "the allow-restart annotation was not taken"
}

step_scale() {
  k delete pod writer reader --ignore-not-found --wait=true --timeout=30s >/dev/null 2>&1
  # 5000 keys at 2/3, 8 at a time
  in_pod client 300 > "$WORK/prefill.log" 2>&1 <<SH
i=1
while [ \$i -le 5000 ]; do
  for j in 0 1 2 3 4 5 6 7; do
    n=\$((i + j))
    [ \$n -le 5000 ] && curl -s -o /dev/null -w "%{http_code} sc-\$n\n" --max-time 5 -X PUT --data-binary v-\$n "http://$CLUSTER:8080/v0/entity?id=sc-\$n&ack=2&from=3" &
  done
  wait
  i=\$((i + 8))
done
SH
  [ "$(grep -c '^201 sc-' "$WORK/prefill.log")" = 5000 ] || die "prefill: $(grep -vc '^201 ' "$WORK/prefill.log") of 5000 PUTs not acknowledged"
  log "5000 keys written at 2/3"
  # a writer (~15 PUT/s of new keys) and a reader (GETs over the 5000 keys) at 2/3 until told to stop
  client_pod writer "i=0; while [ ! -f /tmp/stop ]; do i=\$((i + 1))
  c=\$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X PUT --data-binary w-\$i \"http://$CLUSTER:8080/v0/entity?id=wr-\$i&ack=2&from=3\")
  echo \"\$(date +%s) \$c wr-\$i\"; sleep 0.05; done; echo DONE \$i"
  client_pod reader "n=0; i=0; while [ ! -f /tmp/stop ]; do i=\$((i % 5000 + 1)); n=\$((n + 1))
  c=\$(curl -s -o /tmp/b -w '%{http_code}' --max-time 3 \"http://$CLUSTER:8080/v0/entity?id=sc-\$i&ack=2&from=3\")
  if [ \"\$c\" != 200 ] || [ \"\$(cat /tmp/b)\" != v-\$i ]; then echo \"\$(date +%s) BAD \$c sc-\$i\"; fi; done; echo DONE \$n"
  until_ok 120 "writer and reader running" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' logs writer 2>/dev/null | grep -c ' 201 ')\" -ge 20 ] &&
           [ \"\$(timeout 20 kubectl -n '$NS' get pod reader -o jsonpath='{.status.phase}')\" = Running ]"
  settled() { # settled N: the membership is stable with N members and the cluster Ready
    [ "$(jp "dht/$CLUSTER" '{.status.membership.step}/{.status.membership.members}')" = "STABLE/$1" ] &&
      [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="Ready")].status}')" = True ]
  }
  local t
  for n in 5 3; do
    t=$SECONDS
    k scale "dht/$CLUSTER" --replicas=$n >/dev/null || die "kubectl scale --replicas=$n failed"
    until_ok 900 "scaled to $n: membership stable with $n members, Ready" settled $n
    log "scale to $n took $((SECONDS - t))s; its steps:"
    k get events --field-selector reason=Scaling --sort-by=.lastTimestamp \
      -o jsonpath='{range .items[*]}{.lastTimestamp} {.message}{"\n"}{end}' | tail -n 12 | sed 's/^/    /'
  done
  [ "$(jp "sts/$CLUSTER" '{.spec.replicas}')" = 3 ] || die "the StatefulSet was not shrunk to 3"
  until_ok 60 "the claims of demo-3 and demo-4 kept, labelled dht.dev/detached" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' get pvc -l dht.dev/detached=true -o jsonpath='{.items[*].metadata.name}')\" = 'data-$CLUSTER-3 data-$CLUSTER-4' ]"
  for p in writer reader; do k exec "$p" -- touch /tmp/stop || log "kubectl exec ended with $p (exit $?)"; done
  for p in writer reader; do
    timeout 60 kubectl -n "$NS" wait "pod/$p" --for=jsonpath='{.status.phase}'=Succeeded --timeout=50s >/dev/null || die "$p did not finish"
    k logs "$p" > "$WORK/$p.log" || die "no $p log"
  done
  k delete pod writer reader --wait=false >/dev/null 2>&1
  local reads bad writes acked
  reads="$(sed -n 's/^DONE //p' "$WORK/reader.log")"; bad="$(grep -c ' BAD ' "$WORK/reader.log")"
  writes="$(grep -c ' wr-' "$WORK/writer.log")"; acked="$(grep -c ' 201 wr-' "$WORK/writer.log")"
  log "reader: $reads reads of the 5000 keys, $bad not 200 with the value; writer: $writes PUTs, $acked acknowledged"
  grep ' BAD ' "$WORK/reader.log" | head -n 10 | sed 's/^/    /'
  [ "$bad" = 0 ] || die "$bad reads of acknowledged keys were not 200 with their value"
  [ $((writes - acked)) -le "$MAX_FAILED_WRITES" ] || die "$((writes - acked)) writes failed"
  # every acknowledged key reads back at 3/3, and has exactly 3 copies over the 3 nodes
  { echo "bad=0"
    echo 'i=1; while [ $i -le 5000 ]; do [ "$(curl -s --max-time 5 "http://'"$CLUSTER"':8080/v0/entity?id=sc-$i&ack=3&from=3")" = v-$i ] || { bad=$((bad+1)); echo "MISSING sc-$i"; }; i=$((i+1)); done'
    awk '$2 == 201 {k=$3; sub("wr-", "", k); print "[ \"$(curl -s --max-time 5 \"http://'"$CLUSTER"':8080/v0/entity?id=wr-" k "&ack=3&from=3\")\" = w-" k " ] || { bad=$((bad+1)); echo MISSING wr-" k "; }"}' "$WORK/writer.log"
    echo 'echo "read back at 3/3, $bad missing"; [ $bad = 0 ]'
  } > "$WORK/readback.sh"
  in_pod client 600 < "$WORK/readback.sh" > "$WORK/readback.log" 2>&1 || { head -n 20 "$WORK/readback.log" | sed 's/^/    /'; die "acknowledged keys missing at 3/3"; }
  tail -n 1 "$WORK/readback.log" | sed 's/^/  /'
  : > "$WORK/copies"
  for i in 0 1 2; do
    in_pod client 120 <<<"curl -s --max-time 100 'http://$CLUSTER-$i.$CLUSTER-peers:8080/v0/entities?start=sc-'" |
      grep -ao '[sw]r*c*-[0-9]*' >> "$WORK/copies" || die "range read of $CLUSTER-$i failed"
  done
  local expected copies
  expected=$(( 3 * (5000 + acked) ))
  copies="$( { seq 1 5000 | sed 's/^/sc-/'; awk '$2 == 201 {print $3}' "$WORK/writer.log"; } | sort > "$WORK/acked"
             grep -E '^(sc|wr)-[0-9]+$' "$WORK/copies" | sort | join - "$WORK/acked" | wc -l)"
  log "copies of the $((5000 + acked)) acknowledged keys over the 3 nodes: $copies (expected $expected)"
  [ "$copies" = "$expected" ] || die "copies $copies, expected $expected"
}

# fill_keys FROM TO VALUE_PREFIX METHOD: PUT (or DELETE) keys bk-FROM..bk-TO at 2/3, 8 at a time,
# from the client pod; prints "CODE bk-N" lines
fill_keys() {
  in_pod client 600 <<SH
i=$1
while [ \$i -le $2 ]; do
  for j in 0 1 2 3 4 5 6 7; do
    n=\$((i + j))
    [ \$n -le $2 ] && curl -s -o /dev/null -w "%{http_code} bk-\$n\n" --max-time 5 -X $4 --data-binary $3-\$n "http://$CLUSTER:8080/v0/entity?id=bk-\$n&ack=2&from=3" &
  done
  wait
  i=\$((i + 8))
done
SH
}

# backup_done NAME: the DhtBackup completed (fails the step at once if it failed)
backup_done() {
  local phase; phase="$(jp "dhtbackup/$1" '{.status.phase}')"
  [ "$phase" = Failed ] && die "DhtBackup $1 failed: $(jp "dhtbackup/$1" '{.status.reason}: {.status.message}')"
  [ "$phase" = Completed ]
}

take_backup() { # take_backup NAME [VERIFY]
  k apply -f - >/dev/null <<YAML || die "cannot create DhtBackup $1"
apiVersion: dht.dev/v1alpha1
kind: DhtBackup
metadata: {name: $1}
spec: {cluster: $CLUSTER, verify: ${2:-false}}
YAML
  until_ok 600 "DhtBackup $1 Completed" backup_done "$1"
  log "$1: $(jp "dhtbackup/$1" '{.status.files} files, {.status.bytes} bytes; uploaded {.status.filesUploaded} files, {.status.bytesUploaded} bytes; reused {.status.filesReused} files, {.status.bytesReused} bytes; cut {.status.cutTime}; {.status.startedAt} -> {.status.stoppedAt}')"
}

step_backup() {
  k delete pod writer reader --ignore-not-found --wait=true --timeout=30s >/dev/null 2>&1
  timeout 200 kubectl -n "$NS" wait deploy/seaweedfs --for=condition=Available --timeout=190s >/dev/null ||
    die "SeaweedFS (e2e/manifests/seaweedfs.yaml, applied with the cluster) not available"
  [ "$(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="BackupStore")].status}')" = True ] ||
    die "condition BackupStore: $(jp "dht/$CLUSTER" '{.status.conditions[?(@.type=="BackupStore")].message}')"
  # 10,000 keys; 1,000 of them overwritten, 1,000 others deleted
  fill_keys 1 10000 v1 PUT > "$WORK/bk-fill.log" 2>&1
  fill_keys 1 1000 v2 PUT >> "$WORK/bk-fill.log" 2>&1
  fill_keys 9001 10000 gone DELETE >> "$WORK/bk-fill.log" 2>&1
  [ "$(grep -c '^201 bk-' "$WORK/bk-fill.log")" = 11000 ] && [ "$(grep -c '^202 bk-' "$WORK/bk-fill.log")" = 1000 ] ||
    die "fill: $(grep -vc '^20[12] ' "$WORK/bk-fill.log") of 12000 requests not acknowledged"
  log "10000 keys written at 2/3, 1000 overwritten, 1000 deleted"
  # a writer at 2/3 (two loops of new keys) while the first backup runs
  client_pod writer "for w in a b; do ( i=0; while [ ! -f /tmp/stop ]; do i=\$((i + 1))
  c=\$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X PUT --data-binary \$w-\$i \"http://$CLUSTER:8080/v0/entity?id=bw-\$w-\$i&ack=2&from=3\")
  echo \"\$(date +%s) \$c bw-\$w-\$i \$w-\$i\"; done ) & done; wait; echo DONE"
  until_ok 120 "writer running" \
    sh -c "[ \"\$(timeout 20 kubectl -n '$NS' logs writer 2>/dev/null | grep -c ' 201 ')\" -ge 40 ]"
  take_backup first
  k exec writer -- touch /tmp/stop || log "kubectl exec ended with writer (exit $?)"
  timeout 60 kubectl -n "$NS" wait pod/writer --for=jsonpath='{.status.phase}'=Succeeded --timeout=50s >/dev/null || die "writer did not finish"
  k logs writer > "$WORK/bk-writer.log" || die "no writer log"
  k delete pod writer --wait=false >/dev/null 2>&1
  local started stopped during acked writes
  started="$(date -d "$(jp dhtbackup/first '{.status.startedAt}')" +%s)"; stopped="$(date -d "$(jp dhtbackup/first '{.status.stoppedAt}')" +%s)"
  during="$(awk -v a="$started" -v b="$stopped" '$2 == 201 && $1 >= a && $1 <= b' "$WORK/bk-writer.log" | wc -l)"
  writes="$(grep -c ' bw-' "$WORK/bk-writer.log")"; acked="$(grep -c ' 201 bw-' "$WORK/bk-writer.log")"
  log "writer: $writes PUTs, $acked acknowledged; $during during the backup's $((stopped - started + 1)) s ($((during / (stopped - started + 1))) PUT/s)"
  [ "$((during / (stopped - started + 1)))" -ge 20 ] || die "the writer wrote under 20 PUT/s during the backup"
  [ $((writes - acked)) -le "$MAX_FAILED_WRITES" ] || die "$((writes - acked)) writes failed during the backup"
  fill_keys 10001 11000 v1 PUT > "$WORK/bk-more.log" 2>&1
  [ "$(grep -c '^201 bk-' "$WORK/bk-more.log")" = 1000 ] || die "1000 more keys: not all acknowledged"
  log "1000 more keys written"
  take_backup second true
  # verified (spec.verify): one node downloaded every member's part, checked it, read it to its end
  until_ok 300 "DhtBackup second verified" sh -c "
    v=\$(timeout 20 kubectl -n '$NS' get dhtbackup second -o jsonpath='{.status.verification.phase}')
    [ \"\$v\" = Failed ] && { echo \"verification failed: \$(timeout 20 kubectl -n '$NS' get dhtbackup second -o jsonpath='{.status.verification.message}')\" >&2; exit 0; }
    [ \"\$v\" = Passed ]"
  [ "$(jp dhtbackup/second '{.status.verification.phase}')" = Passed ] ||
    die "backup second not verified: $(jp dhtbackup/second '{.status.verification.reason}: {.status.verification.message}')"
  log "second verified: $(jp dhtbackup/second '{.status.verification}')"
  # incremental: each member of the second uploaded at most the bytes of its files that no manifest
  # of the first lists (what was written or compacted since), and the status adds the members' parts
  local filer m
  filer="http://$(k get pods -l app.kubernetes.io/name=seaweedfs -o 'jsonpath={.items[0].status.podIP}'):8888/buckets/dht-backups/$NS/$CLUSTER/backups"
  for m in first/nodes/0 first/nodes/1 first/nodes/2 second/nodes/0 second/nodes/1 second/nodes/2; do
    in_pod client 30 <<<"curl -sf --max-time 20 '$filer/$m.json'" > "$WORK/manifest-${m//\//-}.json" ||
      die "cannot read the manifest $m.json from SeaweedFS's filer"
  done
  python3 - "$WORK" "$(jp dhtbackup/second '{.status.bytesUploaded}')" <<'PY' || die "the second backup uploaded files the first had uploaded"
import json, sys
work, uploaded = sys.argv[1], int(sys.argv[2])
first = [json.load(open(f"{work}/manifest-first-nodes-{i}.json")) for i in range(3)]
second = [json.load(open(f"{work}/manifest-second-nodes-{i}.json")) for i in range(3)]
old = {f["sha256"] for m in first for f in m["files"]}
ok = sum(m["bytesUploaded"] for m in second) == uploaded
for m in second:
    new = sum(f["size"] for f in m["files"] if f["sha256"] not in old)
    total = sum(f["size"] for f in m["files"])
    print(f"  member {m['member']}: {total} bytes in {len(m['files'])} files, {total - new} of them in the first;"
          f" uploaded {m['bytesUploaded']} (at most {new})")
    ok &= m["bytesUploaded"] <= new
print(f"  uploaded by the second: {uploaded} bytes (the status), {sum(m['bytesUploaded'] for m in second)} (its manifests)")
sys.exit(0 if ok else 1)
PY

  # the cluster and its volumes go; a 5-node cluster is made from the second backup
  timeout 200 kubectl -n "$NS" delete dht "$CLUSTER" --wait=true --timeout=180s >/dev/null || die "deleting the DhtCluster failed"
  until_ok 180 "the cluster's pods gone" sh -c "[ -z \"\$(timeout 20 kubectl -n '$NS' get pods -o name 2>/dev/null | grep '/$CLUSTER-')\" ]"
  timeout 130 kubectl -n "$NS" delete pvc $(jp pvc '{range .items[*]}{.metadata.name} {end}' | tr ' ' '\n' | grep "^data-$CLUSTER-") --wait=true --timeout=120s >/dev/null ||
    die "deleting the claims failed"
  log "DhtCluster $CLUSTER and its claims deleted"
  sed -e 's/^  replicas: 3$/  replicas: 5/' "$ROOT/e2e/manifests/dhtcluster.yaml" > "$WORK/restored.yaml"
  printf '  bootstrap:\n    backup:\n      name: second\n' >> "$WORK/restored.yaml"
  k apply -f "$WORK/restored.yaml" >/dev/null || die "cannot create the restored cluster"
  until_ok 900 "5-node cluster restored from backup second: Restored, Ready" sh -c "
    [ \"\$(timeout 20 kubectl -n '$NS' get dht '$CLUSTER' -o jsonpath='{.status.conditions[?(@.type==\"Restored\")].status}/{.status.conditions[?(@.type==\"Ready\")].status}')\" = True/True ]"
  log "status.restore: $(jp "dht/$CLUSTER" '{.status.restore.phase}, nodes {.status.restore.restored}, {.status.restore.keysKept} keys kept, {.status.restore.bytesDownloaded} bytes downloaded')"
  local keys; keys="$(k get "cm/$CLUSTER-config" -o jsonpath='{.data}')" || die "cannot read ConfigMap $CLUSTER-config"
  ! grep -q 'restore\.json' <<<"$keys" || die "restore.json still in the ConfigMap"
  grep -q 'backup-store\.json' <<<"$keys" || die "backup-store.json missing from the ConfigMap"
  # every key acknowledged before the second backup reads back at 2/3 with its last value
  { echo "bad=0; ok=0"
    echo 'chk() { [ "$(curl -s -o /tmp/b -w %{http_code} --max-time 5 "http://'"$CLUSTER"':8080/v0/entity?id=$1&ack=2&from=3")" = "$2" ] && { [ "$2" = 404 ] || [ "$(cat /tmp/b)" = "$3" ]; } && ok=$((ok+1)) || { bad=$((bad+1)); echo "BAD $1"; }; }'
    echo 'i=1; while [ $i -le 11000 ]; do if [ $i -le 1000 ]; then chk bk-$i 200 v2-$i; elif [ $i -le 9000 ] || [ $i -gt 10000 ]; then chk bk-$i 200 v1-$i; else chk bk-$i 404; fi; i=$((i+1)); done'
    awk '$2 == 201 {print "chk " $3 " 200 " $4}' "$WORK/bk-writer.log"
    echo 'echo "read back at 2/3: $ok as before the backup, $bad not"; [ $bad = 0 ]'
  } > "$WORK/bk-readback.sh"
  in_pod client 900 < "$WORK/bk-readback.sh" > "$WORK/bk-readback.log" 2>&1 ||
    { grep BAD "$WORK/bk-readback.log" | head -n 20 | sed 's/^/    /'; tail -n 1 "$WORK/bk-readback.log"; die "keys differ after the restore"; }
  tail -n 1 "$WORK/bk-readback.log" | sed 's/^/  /'
  : > "$WORK/bk-copies"
  for i in 0 1 2 3 4; do
    in_pod client 120 <<<"curl -s --max-time 100 'http://$CLUSTER-$i.$CLUSTER-peers:8080/v0/entities?start=bk-&end=bk.'" |
      grep -ao 'bk-[0-9]*' >> "$WORK/bk-copies" || die "range read of $CLUSTER-$i failed"
  done
  local copies; copies="$(grep -cE '^bk-[0-9]+$' "$WORK/bk-copies")"
  log "copies of the 10000 live bk- keys over the 5 nodes: $copies (expected $((3 * 10000)), from 3)"
  [ "$copies" = 30000 ] || die "copies $copies, expected 30000"

  # the oldest backups deleted (their objects with them, through the finalizer): the api step's
  # (about 20 min before, in the whole suite) and the first; files only they listed are left to
  # the store's collection, which the schedule below asks for
  local oldest=first; k get dhtbackup early >/dev/null 2>&1 && oldest=early
  local first_done; first_done="$(date -d "$(jp "dhtbackup/$oldest" '{.status.stoppedAt}')" +%s)"
  for b in $(printf '%s\n' "$oldest" first | sort -u); do
    timeout 130 kubectl -n "$NS" delete dhtbackup "$b" --wait=true --timeout=120s >/dev/null || die "deleting DhtBackup $b did not finish"
    log "DhtBackup $b deleted: $(k get events --field-selector involvedObject.name=$b,reason=Deleted -o jsonpath='{.items[0].message}')"
  done
  # a schedule every minute, keep 1: two backups complete, the older is deleted, the store collected
  # (files no backup lists, older than 600 s: those of the deleted backups)
  # their files are over 600 s old when the collection comes (after two scheduled backups, >= 1 min)
  local wait_s=$((first_done + 540 - $(date +%s)))
  [ "$wait_s" -le 0 ] || { log "waiting ${wait_s}s: backup $oldest's files must be 600 s old when collected"; sleep "$wait_s"; }
  k apply -f - >/dev/null <<YAML || die "cannot create the DhtScheduledBackup"
apiVersion: dht.dev/v1alpha1
kind: DhtScheduledBackup
metadata: {name: every-minute}
spec: {cluster: $CLUSTER, schedule: "* * * * *", keep: 1, collectGraceSeconds: 600}
YAML
  local one
  until_ok 240 "a first scheduled backup completed" sh -c "[ -n \"\$(timeout 20 kubectl -n '$NS' get dhtscheduledbackup every-minute -o jsonpath='{.status.lastSuccessfulBackup}')\" ]"
  one="$(jp dhtscheduledbackup/every-minute '{.status.lastSuccessfulBackup}')"
  until_ok 240 "a second one completed and $one deleted (keep 1)" sh -c "
    last=\$(timeout 20 kubectl -n '$NS' get dhtscheduledbackup every-minute -o jsonpath='{.status.lastSuccessfulBackup}')
    gone=\$(timeout 20 kubectl -n '$NS' get dhtbackup '$one' --ignore-not-found -o name) &&
    [ -n \"\$last\" ] && [ \"\$last\" != '$one' ] && [ -z \"\$gone\" ]"
  log "scheduled: $(k get dhtbackup -l dht.dev/scheduled-backup=every-minute -o jsonpath='{range .items[*]}{.metadata.name}={.status.phase} {end}')"
  until_ok 240 "the store collected after retention (event StoreCollected)" sh -c "
    timeout 20 kubectl -n '$NS' get events --field-selector reason=StoreCollected -o name 2>/dev/null | grep -q ."
  local collected; collected="$(k get events --field-selector reason=StoreCollected -o jsonpath='{.items[0].message}')"
  log "collected: $collected"
  [ "$(sed -n 's/.*"deleted":\([0-9]*\).*/\1/p' <<<"$collected")" -gt 0 ] 2>/dev/null ||
    die "the collection deleted no file: backup $oldest's own files should have gone"
  # the backups go with their objects in the store (finalizers, while the operator runs), then the store
  k delete dhtscheduledbackup every-minute --wait=true --timeout=60s >/dev/null || die "deleting the DhtScheduledBackup failed"
  timeout 200 kubectl -n "$NS" delete dhtbackup --all --wait=true --timeout=180s >/dev/null || die "deleting the DhtBackups did not finish"
  timeout 130 kubectl -n "$NS" delete -f "$ROOT/e2e/manifests/seaweedfs.yaml" --wait=true --timeout=120s >/dev/null || die "deleting SeaweedFS failed"
  log "DhtBackups deleted (their objects with them), SeaweedFS removed"
}

step_uninstall() {
  k delete pod client writer reader --ignore-not-found --wait=true --timeout=60s >/dev/null 2>&1
  local pvcs_before; pvcs_before="$(jp pvc '{range .items[*]}{.metadata.name} {end}')"
  timeout 200 helm uninstall "$RELEASE" --namespace "$NS" --wait --timeout 180s >/dev/null || die "helm uninstall failed"
  [ -z "$(timeout 30 helm list -n "$NS" -q)" ] || die "release still listed"
  local left
  left="$(k get deploy,sa,role,rolebinding,cm,prometheusrule -o name 2>/dev/null | grep -v -e '^serviceaccount/default$' -e '^configmap/kube-root-ca.crt$' -e "^configmap/$CLUSTER-config$" -e '^configmap/.*-report$' -e '^configmap/.*-generators$' -e '^configmap/.*-artifact-.*')"
  [ -z "$left" ] || die "left behind by helm uninstall: $left"
  if [ -n "${E2E_WATCH_ALL:-}" ]; then
    timeout 30 kubectl get clusterrole "$OPERATOR" >/dev/null 2>&1 && die "ClusterRole $OPERATOR left behind"
  fi
  local own
  for own in reviews nodes; do
    timeout 30 kubectl get clusterrole "$OPERATOR-$own" >/dev/null 2>&1 && die "ClusterRole $OPERATOR-$own left behind"
  done
  log "helm uninstall: operator Deployment, ServiceAccount, Roles, RoleBindings, ConfigMap gone"
  # the clusters need no operator to go: owner references, no finalizers
  local kinds="dhtcluster"; crd_present dhtloadtests.dht.dev && kinds="dhtcluster,dhtloadtest"
  timeout 200 kubectl -n "$NS" delete "$kinds" --all --wait=true --timeout=180s >/dev/null ||
    die "deleting the custom resources without the operator did not finish (a finalizer?)"
  until_ok 180 "no pods left" sh -c "[ -z \"\$(timeout 20 kubectl -n '$NS' get pods -o name 2>/dev/null)\" ]"
  left="$(k get deploy,sts,svc,pdb,job,secret,role,rolebinding -o name 2>/dev/null;
          k get cm,sa -o name 2>/dev/null | grep -v -e '^serviceaccount/default$' -e '^configmap/kube-root-ca.crt$')"
  [ -z "$left" ] || die "left behind: $(echo $left)"
  log "no Deployment, StatefulSet, Service, PDB, Job, Secret, ConfigMap, Role or pod left"
  local pvcs; pvcs="$(jp pvc '{range .items[*]}{.metadata.name}={.status.phase} {end}')"
  for i in 0 1 2; do
    grep -q "data-$CLUSTER-$i=Bound" <<<"$pvcs" || die "PVC data-$CLUSTER-$i not kept (PVCs: $pvcs; before: $pvcs_before)"
  done
  log "PVCs kept: $pvcs"
  crd_present dhtclusters.dht.dev || die "CRD dhtclusters.dht.dev was removed (Helm keeps CRDs)"
  log "CRDs kept (Helm never deletes them)"
}

# ---------------------------------------------------------------------------------- diagnostics
diagnose() {
  echo "  ---------------- diagnostics (namespace $NS) ----------------"
  timeout 60 kubectl -n "$NS" get all,dht,dhtlt,pvc,cm,lease -o wide 2>&1 | sed 's/^/  | /'
  echo "  ---- operator log (last 200 lines)"
  timeout 30 kubectl -n "$NS" logs "deploy/$OPERATOR" --tail=200 --all-containers 2>&1 | sed 's/^/  | /'
  timeout 30 kubectl -n "$NS" logs "deploy/$OPERATOR" --previous --tail=50 >/dev/null 2>&1 &&
    { echo "  ---- operator log before its last restart"; timeout 30 kubectl -n "$NS" logs "deploy/$OPERATOR" --previous --tail=50 2>&1 | sed 's/^/  | /'; }
  local kind
  for kind in dhtcluster dhtloadtest dhtbackup dhtscheduledbackup statefulset deployment job pod pvc; do
    [ -n "$(timeout 30 kubectl -n "$NS" get "$kind" -o name 2>/dev/null)" ] || continue
    echo "  ---- kubectl describe $kind"
    timeout 60 kubectl -n "$NS" describe "$kind" 2>&1 | sed 's/^/  | /'
  done
  for p in $(timeout 30 kubectl -n "$NS" get pods -o name 2>/dev/null | grep -v -e client -e writer); do
    echo "  ---- log of $p (last 40 lines)"
    timeout 30 kubectl -n "$NS" logs "$p" --tail=40 --all-containers 2>&1 | sed 's/^/  | /'
  done
  echo "  ---- events"
  timeout 30 kubectl -n "$NS" get events --sort-by=.lastTimestamp 2>&1 | tail -n 60 | sed 's/^/  | /'
}

step_parallel() {
  k apply -f "$ROOT/e2e/manifests/dhtloadtest-parallel.yaml" >/dev/null || die "kubectl apply of the parallel DhtLoadTest failed"
  local name=put-parallel t=$SECONDS phase="" seen=""
  # what kubectl get -w shows: the PROGRESS column (status.progress.summary) moves while it runs
  while :; do
    phase="$(jp "dhtloadtest/$name" '{.status.phase}')"
    case "$phase" in Succeeded|Failed) break ;; esac
    [ $((SECONDS - t)) -lt 300 ] || die "$name not finished after 300s (phase ${phase:-none})"
    seen+="$(jp "dhtloadtest/$name" '{.status.progress.summary}')"$'\n'
    sleep 2
  done
  grep '^measuring ' <<<"$seen" | sort -u > "$WORK/progress.txt" || true
  log "$name finished ($((SECONDS - t))s); progress seen while measuring:"
  sed 's/^/    | /' "$WORK/progress.txt"
  [ "$(wc -l < "$WORK/progress.txt")" -ge 2 ] || die "status.progress did not move while $name was measuring: $(sort -u <<<"$seen" | tr '\n' ';')"
  k get dhtlt "$name" | sed 's/^/    /'
  k get dhtlt "$name" -o json > "$WORK/ltp.json"
  local report
  report="$(jp "dhtloadtest/$name" '{.status.report}')"
  [ -n "$report" ] || die "$name has no report: $(jp "dhtloadtest/$name" '{.status.conditions}')"
  k get configmap "$report" -o json > "$WORK/reportp.json" || die "report ConfigMap $report missing"
  python3 - "$WORK/ltp.json" "$WORK/reportp.json" <<'PY' || die "parallel DhtLoadTest: $(jp "dhtloadtest/$name" '{.status.conditions}')"
import json, sys
from datetime import datetime
st = json.load(open(sys.argv[1])).get("status", {}); report = json.load(open(sys.argv[2]))["data"]
r = st.get("results") or {}; gens = st.get("generators") or []
problems = []
if st.get("phase") != "Succeeded": problems.append(f"phase {st.get('phase')}")
if len(gens) != 2: problems.append(f"{len(gens)} generators in the status")
ts = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
starts = [ts(g["windowStart"]) for g in gens]; ends = [ts(g["windowEnd"]) for g in gens]
overlap = max(0.0, min(ends) - max(starts)) / (max(ends) - min(starts)) if gens else 0
for g in gens:
    print(f"    generator {g['index']} ({g['pod']}): {g['achievedRate']} of {g['targetRate']} req/s, "
          f"p99 {g['p99Ms']} ms, measured {g['windowStart']} .. {g['windowEnd']}")
print(f"    merged: {r.get('requests')} requests at {r.get('achievedRate')} req/s, p99 {r.get('latencyMs', {}).get('p99')} ms; "
      f"windows overlap {overlap:.3f} (status {r.get('windowOverlap')}); started at {st.get('startAt')}")
if overlap < 0.9: problems.append(f"measured windows overlap {overlap:.3f} < 0.9")
total = sum(g["achievedRate"] for g in gens)
if abs(total - (r.get("achievedRate") or 0)) > 0.05: problems.append(f"achievedRate {r.get('achievedRate')} != sum {total}")
if sum(g["requests"] for g in gens) != r.get("requests"): problems.append("requests != sum of the generators'")
html = report.get("report.html", "")
for g in gens:
    if g["pod"] not in html: problems.append(f"report.html does not list {g['pod']}")
if "Merged latency of 2 generators" not in report.get("spectrum.txt", ""): problems.append("no merged spectrum")
if problems: sys.exit("; ".join(problems))
PY
  log "parallel test checked ($((SECONDS - t))s)"

  # an unmeetable p99 with abortOnFail: stopped early, Failed with reason Aborted
  k apply -f "$ROOT/e2e/manifests/dhtloadtest-abort.yaml" >/dev/null || die "kubectl apply of the aborting DhtLoadTest failed"
  name=put-abort; t=$SECONDS
  until_ok 100 "$name finished (it measures 120 s unless aborted)" sh -c "timeout 20 kubectl -n '$NS' get dhtlt $name -o jsonpath='{.status.phase}' | grep -qE '^(Succeeded|Failed)$'"
  k get dhtlt "$name" | sed 's/^/    /'
  k get dhtlt "$name" -o json > "$WORK/lta.json"
  python3 - "$WORK/lta.json" <<'PY' || die "aborting DhtLoadTest: $(jp "dhtloadtest/$name" '{.status.conditions}')"
import json, sys
st = json.load(open(sys.argv[1])).get("status", {})
cond = {c["type"]: c for c in st.get("conditions", [])}
s = cond.get("Succeeded", {})
print(f"    phase {st.get('phase')}, Succeeded {s.get('reason')}: {s.get('message')}")
problems = []
if st.get("phase") != "Failed": problems.append(f"phase {st.get('phase')}")
if s.get("reason") != "Aborted": problems.append(f"reason {s.get('reason')}")
if "p99 can no longer be 0.001 ms or less" not in (s.get("message") or ""): problems.append("the message does not say why")
if problems: sys.exit("; ".join(problems))
PY
  log "aborted test checked: finished $((SECONDS - t))s after it was created (120 s measured otherwise)"
}

# ---------------------------------------------------------------------------------------- runner
STEPS=(
  "install|helm install the operator (charts/dht) with the built images|step_install|360"
  "cluster|3-replica DhtCluster: Ready, 3/3, printer columns|step_cluster|660"
  "api|PUT/GET/DELETE via the client Service, ack/from, range read from one node; kubectl dht status, put, get|step_api|300"
  "storage|spec.storage.size grown: claims expanded, or the refusal of a class without expansion shown; nothing restarted|step_storage|300"
  "tls|a DhtCluster with defaults is TLS-only: curl --cacert with a DhtUser token works, plain HTTP, foreign certificates, bad tokens (401), keys outside the ACL (403) and a revoked user refused, a load test with its own DhtUser|step_tls|900"
  "loadtest|DhtLoadTest ~30 s at 300 req/s: Succeeded, results, verdict, report; profiled, with a baseline|step_loadtest|600"
  "parallel|DhtLoadTest with parallelism 2: windows overlap, one merged result, both generators in the report; abortOnFail|step_parallel|480"
  "failover|delete a node pod during a write loop at ack=2/from=3|step_failover|720"
  "replace|dht.dev/replace=demo-1 under a writer and a reader at 2/3: a new volume, it bootstraps; no bad read|step_replace|900"
  "roll|threads and maintenance with demo-0 down -> the roller waits, then one pod at a time, the nodes run the new repair interval; defaultAck -> no restart|step_roll|1200"
  "paused|a spec change while paused does not advance observedGeneration|step_paused|360"
  "secret|Secret deleted, then a pod: no new secret, Degraded says why, no 403; restored|step_secret|600"
  "upgrade|helm upgrade with a new node image: no restart for 120 s; allow-restart=once rolls|step_upgrade|1200"
  "scale|3 -> 5 -> 3 under a writer and a reader at 2/3: nothing lost, exactly 3 copies|step_scale|1800"
  "backup|10000 keys; a DhtBackup under a writer, a second that uploads only new files, verified; the cluster and its claims deleted, restored into 5 nodes: every key as before, 3 copies; a schedule keeps 1|step_backup|2400"
  "uninstall|helm uninstall: everything gone but the PVCs|step_uninstall|480"
)
passed=0 failed=0 skipped=0 results=()

cleanup() {
  if [ -n "${E2E_KEEP:-}" ]; then
    echo "namespace $NS kept (E2E_KEEP): kubectl delete namespace $NS; helm uninstall $RELEASE -n $NS"
    [ ! -s "$WORK/zone-labelled" ] || echo "zone label kept: kubectl label $(tr '\n' ' ' < "$WORK/zone-labelled")$ZONE_KEY-"
  else
    # DhtBackups first (their schedules before them), while the operator runs their finalizer;
    # else the namespace waits for it
    timeout 30 kubectl -n "$NS" delete dhtscheduledbackups --all --wait=true --timeout=20s >/dev/null 2>&1
    timeout 90 kubectl -n "$NS" delete dhtbackups --all --wait=true --timeout=80s >/dev/null 2>&1 ||
      for b in $(timeout 20 kubectl -n "$NS" get dhtbackups -o name 2>/dev/null); do
        timeout 20 kubectl -n "$NS" patch "$b" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1
      done
    timeout 30 helm uninstall "$RELEASE" --namespace "$NS" >/dev/null 2>&1 || true
    timeout 200 kubectl delete namespace "$NS" --ignore-not-found --wait=true --timeout=180s >/dev/null 2>&1 ||
      echo "namespace $NS: deletion still in progress"
    if [ -s "$WORK/zone-labelled" ]; then
      timeout 30 kubectl label $(cat "$WORK/zone-labelled") "$ZONE_KEY-" >/dev/null 2>&1
    fi
  fi
  if [ -n "${E2E_KIND_DELETE:-}" ]; then kind delete cluster --name "$E2E_KIND_DELETE" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}

run_step() { # run_step N SPEC
  local n="$1" id title fn limit
  IFS='|' read -r id title fn limit <<<"$2"
  if [ "$failed" -gt 0 ] || { [ -n "${E2E_ONLY:-}" ] && ! grep -qw "$n" <<<"$E2E_ONLY"; }; then
    skipped=$((skipped + 1)); results+=("SKIP  $n $id"); echo; echo "=== [$n/${#STEPS[@]}] $id: skipped"; return
  fi
  echo; echo "=== [$n/${#STEPS[@]}] $id: $title"
  local t=$SECONDS rc
  ( "$fn" ) &
  local pid=$!
  # a bound on the whole step, whatever hangs inside it
  ( trap 'kill "$sp" 2>/dev/null; exit 0' TERM
    sleep "$limit" >/dev/null 2>&1 & sp=$!; wait "$sp"
    echo "  FAILED: step $id exceeded its ${limit}s bound"
    kill -TERM $(pgrep -P "$pid") "$pid" 2>/dev/null ) &
  local wd=$!
  wait "$pid"; rc=$?
  kill -TERM "$wd" 2>/dev/null; wait "$wd" 2>/dev/null
  local dur=$((SECONDS - t))
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1)); results+=("PASS  $n $id (${dur}s)"); echo "--- PASS $id (${dur}s)"
  else
    failed=$((failed + 1)); results+=("FAIL  $n $id (${dur}s)"); echo "--- FAIL $id (${dur}s, exit $rc)"
    diagnose
  fi
}

echo "e2e: namespace $NS, operator $OPERATOR_REF, node $NODE_REF, client $CLIENT_IMAGE, pull $PULL_POLICY"
echo "e2e: cluster $(timeout 20 kubectl config current-context 2>/dev/null || echo '?'), server $(timeout 20 kubectl version -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])' 2>/dev/null || echo '?')"
trap 'echo "e2e: interrupted"; cleanup; exit 130' INT TERM
i=0
for spec in "${STEPS[@]}"; do i=$((i + 1)); run_step "$i" "$spec"; done
cleanup
echo
echo "e2e summary (total $((SECONDS - T_START))s):"
printf '  %s\n' "${results[@]}"
line="$passed passed, $failed failed"; [ "$skipped" = 0 ] || line="$line, $skipped skipped"
mkdir -p "$(dirname "$SUMMARY_FILE")" && echo "$line" > "$SUMMARY_FILE"
echo "$line"
[ "$failed" = 0 ]
