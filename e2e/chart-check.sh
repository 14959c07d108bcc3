#!/usr/bin/env bash
# chart-check.sh: offline checks of the Helm chart (charts/dht), no cluster needed (`make chart-test`).
#   1. helm lint --strict with the default values and with every switch flipped
#   2. helm template (CRDs included) for five value sets; duplicate keys rejected; assertions on
#      what the chart promises (RBAC exactly the operator's, ClusterRole only for all namespaces
#      besides the report site's for TokenReviews and SubjectAccessReviews,
#      env, probes, the sample cluster only when asked, the policy lists as the operator reads them)
#   3. built-in kinds validated against Kubernetes 1.34's schemas by kubernetes-validate (PyPI, strict)
#   4. our custom resources (the sample DhtCluster, e2e/manifests/*.yaml) validated by
#      kubeconform -strict against JSON schemas generated from crds/*.yml (never fetched)
#      and the monitoring objects (PodMonitor, ServiceMonitor) against the Prometheus Operator's
#      CRDs (its Go module, v0.85.0, by `go mod download` from the module proxy)
#      and the manifests of built-in kinds in e2e/manifests (seaweedfs.yaml) by kubernetes-validate
#   5. the alerts (the PrometheusRule): `promtool check rules`, and `promtool test rules` with
#      e2e/alerts/alerts-test.yaml (each alert fires on its series and not on the others')
#   6. helm package: the archive carries every CRD of crds/, byte for byte
# Needs helm and kubeconform (k8s-local's /opt/k8s/bin, made by `ensure.sh api`, or PATH) and
# python3; installs kubernetes-validate with pip when missing, and builds promtool (Prometheus
# $PROMETHEUS_VERSION, from the Go module proxy, into `go env GOPATH`/bin) when missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHART="$ROOT/charts/dht"
KUBE_VERSION="${KUBE_VERSION:-1.34.0}"
KV_VERSION="${KUBERNETES_VALIDATE_VERSION:-1.37.0}"
PROMETHEUS_OPERATOR_VERSION="${PROMETHEUS_OPERATOR_VERSION:-v0.85.0}"
PROMETHEUS_VERSION="${PROMETHEUS_VERSION:-v0.316.0}" # the Go module of Prometheus 3.x
export PATH="/opt/k8s/bin:$PATH"
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
T0=$SECONDS; checks=0

say() { printf '[chart-check +%ss] %s\n' "$((SECONDS - T0))" "$*"; }
fail() { echo "chart-check: FAILED: $*" >&2; exit 1; }
ok() { checks=$((checks + 1)); say "ok: $*"; }
# helm warns on stderr that crds/ is a link to ../../crds (on purpose): keep the rest of stderr
helm_() { helm "$@" 2> >(grep -v 'found symbolic link in path' >&2); }

export PATH="$PATH:/usr/local/go/bin"
for tool in helm kubeconform python3 go; do
  command -v "$tool" >/dev/null || fail "$tool not found (helm/kubeconform: ../shared/k8s-local/ensure.sh api builds them into /opt/k8s/bin)"
done
if ! python3 -c 'import kubernetes_validate, yaml' 2>/dev/null; then
  say "installing kubernetes-validate==$KV_VERSION (pip)"
  # (a Debian system python refuses plain pip installs: PEP 668)
  python3 -m pip install --quiet --disable-pip-version-check "kubernetes-validate==$KV_VERSION" ||
    python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "kubernetes-validate==$KV_VERSION" ||
    fail "pip install kubernetes-validate failed"
fi
KV_OK="$(python3 - "$KUBE_VERSION" <<'PY'
import os, sys, kubernetes_validate
d = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
print(os.path.isdir(os.path.join(d, f"v{sys.argv[1]}-local-strict")))
PY
)"
[ "$KV_OK" = True ] || fail "kubernetes-validate has no schemas for Kubernetes $KUBE_VERSION"

# crds/ of the chart must be the repository's crds/ (a link, or an identical copy)
[ -d "$CHART/crds" ] || fail "$CHART/crds is missing (it links to ../../crds)"
for f in "$ROOT"/crds/*.yml; do
  cmp -s "$f" "$CHART/crds/$(basename "$f")" || fail "charts/dht/crds/$(basename "$f") differs from crds/"
done
ok "charts/dht/crds carries crds/: $(cd "$ROOT/crds" && ls *.yml | tr '\n' ' ')"

# 1. lint
DIGEST_A="sha256:$(printf 'a%.0s' {1..64})" DIGEST_B="sha256:$(printf 'b%.0s' {1..64})"
NS_VALUES=(--set 'watchNamespaces={team-a,team-b}' --set leaderElection.enabled=false --set sampleCluster.enabled=true
           --set operator.image.digest="$DIGEST_A" --set node.image.digest="$DIGEST_B")
NORBAC_VALUES=(--set rbac.create=false --set serviceAccount.create=false --set serviceAccount.name=ops)
MONITORING_VALUES=(--set monitoring.podMonitor.enabled=true --set monitoring.serviceMonitor.enabled=true
                   --set monitoring.dashboard.enabled=true --set 'monitoring.podMonitor.labels.release=prometheus'
                   --set monitoring.namespace=monitoring --set monitoring.prometheusRule.enabled=true
                   --set 'monitoring.prometheusRule.labels.release=prometheus')
POLICY_VALUES=(--set 'policy.loadTestTargets={http://*.perf.svc,http://10.0.0.7:8080}'
               --set 'policy.images={registry.example.com/dht/}' --set 'policy.jvmOptions={-Xmx,-XX:+UseZGC}')
helm_ lint --strict --kube-version "$KUBE_VERSION" "$CHART" >"$WORK/lint.log" || { cat "$WORK/lint.log"; fail "helm lint --strict"; }
helm_ lint --strict --kube-version "$KUBE_VERSION" "$CHART" "${NS_VALUES[@]}" >"$WORK/lint.log" || { cat "$WORK/lint.log"; fail "helm lint --strict (namespaced, sample)"; }
helm_ lint --strict --kube-version "$KUBE_VERSION" "$CHART" "${NORBAC_VALUES[@]}" >"$WORK/lint.log" || { cat "$WORK/lint.log"; fail "helm lint --strict (no rbac)"; }
helm_ lint --strict --kube-version "$KUBE_VERSION" "$CHART" "${MONITORING_VALUES[@]}" >"$WORK/lint.log" || { cat "$WORK/lint.log"; fail "helm lint --strict (monitoring)"; }
helm_ lint --strict --kube-version "$KUBE_VERSION" "$CHART" "${POLICY_VALUES[@]}" >"$WORK/lint.log" || { cat "$WORK/lint.log"; fail "helm lint --strict (policy)"; }
if helm_ lint --strict "$CHART" --set operator.logLevel=LOUD >/dev/null 2>&1; then fail "values.schema.json accepted logLevel=LOUD"; fi
if helm_ lint --strict "$CHART" --set monitoring.namespace=Not_A_Namespace >/dev/null 2>&1; then fail "values.schema.json accepted a bad monitoring.namespace"; fi
for bad in 'policy.loadTestTargets={http://allowed.example@evil.example}' 'policy.loadTestTargets={http://a.example/path}' 'policy.jvmOptions={Xmx}' 'node.image.digest=latest'; do
  if helm_ lint --strict "$CHART" --set "$bad" >/dev/null 2>&1; then fail "values.schema.json accepted $bad"; fi
done
ok "helm lint --strict (5 value sets; the values schema rejects a bad log level, namespace, policy entries and digest)"

# 2.-4. render, assert, validate
python3 "$ROOT/e2e/lib/crd2jsonschema.py" "$WORK/schemas" "$ROOT"/crds/*.yml >/dev/null
# the Prometheus Operator's CRDs (PodMonitor, ServiceMonitor), from its Go module: the module
# proxy is reachable where GitHub is not, and the module cache keeps them for the next run
PROM_OP_DIR="$(cd "$WORK" && GOFLAGS=-mod=mod GOTOOLCHAIN=local timeout 300 go mod download -json \
  "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')" ||
  fail "go mod download of prometheus-operator $PROMETHEUS_OPERATOR_VERSION (its CRDs)"
python3 "$ROOT/e2e/lib/crd2jsonschema.py" "$WORK/schemas" \
  "$PROM_OP_DIR"/example/prometheus-operator-crd/monitoring.coreos.com_{podmonitors,servicemonitors,prometheusrules}.yaml >/dev/null
kubeconform_() { kubeconform -strict -summary -schema-location "$WORK/schemas/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json" "$@"; }
render() { # render CASE ARGS...
  local case="$1"; shift
  helm_ template dht "$CHART" --namespace dht-system --include-crds --kube-version "$KUBE_VERSION" "$@" >"$WORK/$case.yaml" ||
    fail "helm template ($case)"
  python3 "$ROOT/e2e/lib/chart_asserts.py" "$case" "$WORK/$case.yaml" "$WORK/$case-builtin.yaml" "$WORK/$case-custom.yaml" ||
    fail "chart assertions ($case)"
  python3 -m kubernetes_validate --strict --quiet -k "$KUBE_VERSION" "$WORK/$case-builtin.yaml" >"$WORK/kv.log" 2>&1 || true
  if [ -s "$WORK/kv.log" ]; then cat "$WORK/kv.log"; fail "kubernetes-validate ($case): built-in kinds invalid or unknown"; fi
  if [ -s "$WORK/$case-custom.yaml" ] && grep -q '^kind:' "$WORK/$case-custom.yaml"; then
    kubeconform_ "$WORK/$case-custom.yaml" || fail "kubeconform ($case): custom resources invalid"
  fi
  ok "$case rendering: asserted, built-in kinds valid for $KUBE_VERSION, custom resources valid"
}
render default
render namespaced "${NS_VALUES[@]}"
render norbac "${NORBAC_VALUES[@]}"
render monitoring "${MONITORING_VALUES[@]}"
render policy "${POLICY_VALUES[@]}"

# our example custom resources, each against its CRD (absent CRD = that example cannot be checked)
examples=(); builtin=()
for f in "$ROOT"/e2e/manifests/*.yaml; do
  kind="$(sed -n 's/^kind: *//p' "$f" | head -n1)"
  if [ -f "$WORK/schemas/$(tr 'A-Z' 'a-z' <<<"$kind")_v1alpha1.json" ]; then examples+=("$f")
  elif ! grep -q '^apiVersion: dht\.dev/' "$f"; then builtin+=("$f")   # e.g. seaweedfs.yaml
  else say "NOTE: no CRD for $kind in crds/ yet: $(basename "$f") not validated"; fi
done
if [ ${#builtin[@]} -gt 0 ]; then
  python3 -m kubernetes_validate --strict --quiet -k "$KUBE_VERSION" "${builtin[@]}" >"$WORK/kv.log" 2>&1 || true
  if [ -s "$WORK/kv.log" ]; then cat "$WORK/kv.log"; fail "kubernetes-validate: e2e/manifests"; fi
  ok "e2e/manifests of built-in kinds valid for $KUBE_VERSION (${#builtin[@]})"
fi
kubeconform_ "${examples[@]}" || fail "kubeconform: e2e/manifests"
if printf 'apiVersion: dht.dev/v1alpha1\nkind: DhtCluster\nmetadata: {name: x}\nspec: {replicas: 3, typo: 1}\n' >"$WORK/bad.yaml" &&
   kubeconform_ "$WORK/bad.yaml" >/dev/null 2>&1; then
  fail "kubeconform accepted an unknown field: the generated schemas are not strict"
fi
ok "example custom resources valid (${#examples[@]}), an unknown field is rejected"

# 5. the alerts, as rendered with the monitoring values (default thresholds)
PROMTOOL="${PROMTOOL:-$(go env GOPATH)/bin/promtool}"
if [ ! -x "$PROMTOOL" ]; then
  say "building promtool (github.com/prometheus/prometheus $PROMETHEUS_VERSION, once)"
  GOFLAGS=-mod=mod GOTOOLCHAIN=local GOBIN="$(dirname "$PROMTOOL")" timeout 1200 go install \
    "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION" >"$WORK/promtool.log" 2>&1 ||
    { tail -20 "$WORK/promtool.log"; fail "go install promtool"; }
fi
mkdir "$WORK/alerts" && cp "$ROOT/e2e/alerts/alerts-test.yaml" "$WORK/alerts/"
python3 - "$WORK/monitoring-custom.yaml" "$WORK/alerts" <<'PY'
import sys, yaml
rule = next(d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "PrometheusRule")
yaml.safe_dump(rule["spec"], open(sys.argv[2] + "/rules-annotated.yaml", "w"), sort_keys=False)
for group in rule["spec"]["groups"]:
    for r in group["rules"]:
        r.pop("annotations")  # texts: their templates are checked by `promtool check rules`
yaml.safe_dump(rule["spec"], open(sys.argv[2] + "/rules.yaml", "w"), sort_keys=False)
PY
"$PROMTOOL" check rules "$WORK/alerts/rules-annotated.yaml" >"$WORK/promtool.log" 2>&1 ||
  { cat "$WORK/promtool.log"; fail "promtool check rules"; }
"$PROMTOOL" test rules "$WORK/alerts/alerts-test.yaml" >"$WORK/promtool.log" 2>&1 ||
  { cat "$WORK/promtool.log"; fail "promtool test rules (e2e/alerts/alerts-test.yaml)"; }
ok "alerts: promtool check rules ($(grep -c -- '- alert:' "$WORK/alerts/rules.yaml") alerts), promtool test rules (each fires, and not on other series)"

# 6. package
helm_ package "$CHART" --destination "$WORK/pkg" >/dev/null || fail "helm package"
tgz="$(ls "$WORK"/pkg/dht-*.tgz)"
mkdir "$WORK/unpacked" && tar -m -xzf "$tgz" -C "$WORK/unpacked"
for f in "$ROOT"/crds/*.yml; do
  cmp -s "$f" "$WORK/unpacked/dht/crds/$(basename "$f")" || fail "packaged chart lacks crds/$(basename "$f")"
done
ok "helm package $(basename "$tgz") carries every CRD"

say "chart-check: all $checks checks passed in $((SECONDS - T0))s"
