#!/usr/bin/env python3
"""chart_asserts.py CASE RENDERED.yaml BUILTIN_OUT CUSTOM_OUT: checks one `helm template` rendering.

Rejects duplicate mapping keys (kubernetes-validate's YAML loader would silently keep the last),
splits the documents into built-in kinds (BUILTIN_OUT, for kubernetes-validate) and dht.dev
custom resources (CUSTOM_OUT, for kubeconform), and asserts what the chart promises for CASE:
  default     all namespaces: ClusterRole + ClusterRoleBinding with exactly the operator's rules
  namespaced  watchNamespaces=[team-a,team-b], no leader election, sample cluster: Roles only;
              image digests (sha256:a..., sha256:b...): both images are repository:tag@digest
  (both: the report site's ClusterRole, <fullname>-reviews, to create TokenReviews and
  SubjectAccessReviews, cluster-scoped, and nothing else; and <fullname>-nodes, to get a
  Kubernetes node's zone label, and nothing else)
  norbac      rbac.create=false, serviceAccount.create=false: no RBAC, no ServiceAccount
  monitoring  PodMonitor, ServiceMonitor (honouring the operator's labels), dashboard, and the
              PrometheusRule: every alert with a summary, a description and a runbook_url whose
              anchor is a heading of docs/alerts.md
  policy      policy.* set: the operator's DHT_POLICY_* variables list them, space-separated
"""
import json
import re
import sys

import yaml


class StrictLoader(yaml.SafeLoader):
    pass


def no_duplicates(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, no_duplicates)
# YAML 1.2 floats as the apiserver reads them: PyYAML (YAML 1.1) takes 1.6777216E7, an exponent
# without a sign as Fabric8's CRD generator writes it, for a string
StrictLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+)$"),
    list("-+0123456789"))

# server-side applied (a patch, and a create when new), read from informers (no get),
# garbage-collected (no delete)
APPLIED = ["list", "watch", "create", "patch"]
# (apiGroup, resource) -> verbs: the operator's RBAC, no more, no less (operator/README.md). Tied to
# the operator's calls by its ChartRbacTest, which runs the operator's tests with these rules.
EXPECTED = {
    ("dht.dev", "dhtclusters"): ["get", "list", "watch", "patch"],
    ("dht.dev", "dhtloadtests"): ["get", "list", "watch"],
    ("dht.dev", "dhtclusters/status"): ["patch"],
    ("dht.dev", "dhtloadtests/status"): ["patch"],
    ("dht.dev", "dhtusers"): ["get", "list", "watch", "create", "delete"],  # a load test's own user
    ("dht.dev", "dhtusers/status"): ["patch"],
    # get: the DhtBackup a new cluster restores; patch: the finalizer dht.dev/backup; create,
    # delete: a schedule's backups (made at each time, let go by retention)
    ("dht.dev", "dhtbackups"): ["get", "list", "watch", "patch", "create", "delete"],
    ("dht.dev", "dhtbackups/status"): ["patch"],
    ("apps", "statefulsets"): APPLIED,
    ("", "services"): APPLIED,
    ("", "configmaps"): ["get"] + APPLIED + ["update"],  # JOSDK updates ConfigMaps without SSA
    ("", "secrets"): ["get", "list", "watch", "create", "update"],  # update: the TLS Secrets
    ("policy", "poddisruptionbudgets"): APPLIED,
    ("networking.k8s.io", "networkpolicies"): APPLIED + ["delete"],  # delete: networkPolicy.enabled=false
    ("batch", "jobs"): ["get"] + APPLIED,  # get: a Job the informer has not seen yet
    ("", "pods"): ["get", "list", "patch"],  # patch: the dht.dev/config-files annotation
    ("", "pods/eviction"): ["create"],  # the roller's restarts, a replaced node's pod
    ("", "pods/log"): ["get"],
    ("", "persistentvolumeclaims"): ["get", "list", "patch", "delete"],  # detached, replaced
    ("", "events"): ["create", "get", "patch"],
    ("cert-manager.io", "certificates"): ["get", "create", "update"],  # spec.tls.issuerRef
}
# the DhtScheduledBackup controller's rules (their own block in dht.rules), merged into the above
SCHEDULED_BACKUPS = {
    ("dht.dev", "dhtscheduledbackups"): ["list", "watch"],
    ("dht.dev", "dhtscheduledbackups/status"): ["patch"],
}
for key, verbs in SCHEDULED_BACKUPS.items():
    EXPECTED[key] = sorted(set(EXPECTED.get(key, [])) | set(verbs))
EXPECTED = {k: sorted(v) for k, v in EXPECTED.items()}
LEASE = {("coordination.k8s.io", "leases"): ["create", "get", "patch", "update"]}
# the report site: who a bearer token is, and whether they may get dhtloadtests (operator/README.md)
REVIEWS = {("authentication.k8s.io", "tokenreviews"): ["create"],
           ("authorization.k8s.io", "subjectaccessreviews"): ["create"]}
# zone-aware placement: the zone label of the Kubernetes node a pod runs on, one node by name
NODES = {("", "nodes"): ["get"]}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def flatten(rules):
    out = {}
    for r in rules:
        for g in r.get("apiGroups", []):
            for res in r.get("resources", []):
                out.setdefault((g, res), set()).update(r.get("verbs", []))
    return {k: sorted(v) for k, v in out.items()}


def main(case, rendered, builtin_out, custom_out):
    with open(rendered, encoding="utf-8") as f:
        docs = [d for d in yaml.load_all(f, Loader=StrictLoader) if d]
    def is_custom(d):  # ours, or the Prometheus Operator's (validated against their CRDs)
        return d["apiVersion"].startswith(("dht.dev/", "monitoring.coreos.com/"))
    builtin = [d for d in docs if not is_custom(d)]
    custom = [d for d in docs if is_custom(d)]
    for path, part in ((builtin_out, builtin), (custom_out, custom)):
        with open(path, "w", encoding="utf-8") as f:
            yaml.safe_dump_all(part, f, sort_keys=False)

    kinds = {}
    for d in docs:
        kinds.setdefault(d["kind"], []).append(d)
    crds = {d["metadata"]["name"] for d in kinds.get("CustomResourceDefinition", [])}
    check("dhtclusters.dht.dev" in crds, "the CRD dhtclusters.dht.dev is rendered (--include-crds)")

    deploy = kinds.get("Deployment", [])
    check(len(deploy) == 1, "exactly one Deployment")
    if deploy:
        c = deploy[0]["spec"]["template"]["spec"]["containers"][0]
        env = {e["name"]: e for e in c.get("env", [])}
        image = c.get("image", "")
        for name in ("DHT_NODE_IMAGE", "WATCH_NAMESPACES", "LEADER_ELECTION", "POD_NAMESPACE", "LOG_LEVEL"):
            check(name in env, f"operator env {name}")
        check(env.get("POD_NAMESPACE", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
              == "metadata.namespace", "POD_NAMESPACE from the downward API")
        # the nodes' NetworkPolicies admit the pods these labels select to the admin port
        selector = env.get("DHT_OPERATOR_POD_SELECTOR", {}).get("value", "")
        wanted = dict(term.split("=", 1) for term in selector.split(",") if term)
        pod_labels = deploy[0]["spec"]["template"]["metadata"]["labels"]
        check(wanted and all(pod_labels.get(k) == v for k, v in wanted.items()),
              f"DHT_OPERATOR_POD_SELECTOR ({selector!r}) selects the operator's pods")
        check(wanted == deploy[0]["spec"]["selector"]["matchLabels"],
              "DHT_OPERATOR_POD_SELECTOR is the Deployment's selector (labels users cannot drop)")
        check("DHT_MONITORING_NAMESPACE" in env, "operator env DHT_MONITORING_NAMESPACE")
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", "/healthz")):
            get = c.get(probe, {}).get("httpGet", {})
            check(get.get("path") == path and get.get("port") in (8081, "health"), f"{probe} on {path} port 8081")
        check(any(p["containerPort"] == 8081 for p in c.get("ports", [])), "container port 8081")
        check(c.get("securityContext", {}).get("readOnlyRootFilesystem") is True, "read-only root filesystem")
        check(c.get("image", "").startswith("local/dht-operator:"), "default operator image")
        check(env.get("DHT_NODE_IMAGE", {}).get("value", "").startswith("local/dht-node:"), "default node image")

    roles = kinds.get("Role", [])
    def suffixed(objects, suffix):
        return [o for o in objects if o["metadata"]["name"].endswith(suffix)]
    own = {}  # the cluster-scoped ClusterRoles of their own: (roles, bindings, rules, what)
    for suffix, rules, what in (("-reviews", REVIEWS, "the report site's ClusterRole creates reviews"),
                                ("-nodes", NODES, "the zones' ClusterRole gets nodes")):
        own[suffix] = (suffixed(kinds.get("ClusterRole", []), suffix),
                       suffixed(kinds.get("ClusterRoleBinding", []), suffix), rules, what)
    croles = [r for r in kinds.get("ClusterRole", []) if all(r not in o[0] for o in own.values())]
    cbindings = [b for b in kinds.get("ClusterRoleBinding", []) if all(b not in o[1] for o in own.values())]
    if case != "norbac":
        for suffix, (own_roles, own_bindings, rules, what) in own.items():
            check(len(own_roles) == 1 and len(own_bindings) == 1,
                  f"the ClusterRole {suffix} and its binding, whatever the namespaces")
            if own_roles:
                got = flatten(own_roles[0]["rules"])
                check(got == rules, f"{what} only: got {got}")
            if own_roles and own_bindings and deploy:
                account = deploy[0]["spec"]["template"]["spec"].get("serviceAccountName")
                binding = own_bindings[0]
                check(binding["roleRef"]["name"] == own_roles[0]["metadata"]["name"]
                      and [s["name"] for s in binding["subjects"]] == [account],
                      f"the ClusterRole {suffix} is bound to the operator's ServiceAccount {account}")
    lease_roles = [r for r in roles if r["metadata"]["name"].endswith("-leader-election")]
    ns_roles = [r for r in roles if r not in lease_roles]
    if case == "default":
        check(len(croles) == 1 and len(cbindings) == 1,
              "ClusterRole + ClusterRoleBinding when watching all namespaces")
        check(not ns_roles, "no namespaced Role besides leader election when watching all namespaces")
        if croles:
            got = flatten(croles[0]["rules"])
            check(got == EXPECTED, f"ClusterRole rules are exactly the operator's: got {got}")
        check(len(lease_roles) == 1 and flatten(lease_roles[0]["rules"]) == LEASE,
              "leader election Role: leases only")
        check(env["WATCH_NAMESPACES"]["value"] == "", "WATCH_NAMESPACES empty = all")
        check("@" not in image and "@" not in env["DHT_NODE_IMAGE"]["value"], "images by tag without a digest")
        check(not kinds.get("DhtCluster"), "no sample DhtCluster by default")
        check(not kinds.get("PodMonitor") and not kinds.get("ServiceMonitor") and not kinds.get("PrometheusRule"),
              "no monitoring by default")
        check(env["DHT_MONITORING_NAMESPACE"]["value"] == "", "no monitoring namespace by default")
        check(len(kinds.get("ServiceAccount", [])) == 1, "a ServiceAccount")
        for name in ("DHT_POLICY_LOAD_TEST_TARGETS", "DHT_POLICY_IMAGES", "DHT_POLICY_JVM_OPTIONS"):
            check(env.get(name, {}).get("value") == "", f"{name} empty by default (no targetUrl; any image, option)")
    elif case == "namespaced":
        check(not croles and not cbindings, "no ClusterRole but the report site's and the zones' when watching namespaces")
        check(sorted(r["metadata"]["namespace"] for r in ns_roles) == ["team-a", "team-b"],
              "a Role in each watched namespace")
        for r in ns_roles:
            check(flatten(r["rules"]) == EXPECTED, f"Role rules in {r['metadata']['namespace']}")
        check(sorted(b["metadata"]["namespace"] for b in kinds.get("RoleBinding", [])) == ["team-a", "team-b"],
              "a RoleBinding in each watched namespace (and none for leases without leader election)")
        check(env["WATCH_NAMESPACES"]["value"] == "team-a,team-b", "WATCH_NAMESPACES lists them")
        check(env["LEADER_ELECTION"]["value"] == "false", "LEADER_ELECTION=false")
        check(deploy[0]["spec"]["strategy"]["type"] == "Recreate", "Recreate without leader election")
        check(re.fullmatch(r"local/dht-operator:[^@:/]+@sha256:a{64}", image),
              f"operator image pinned by operator.image.digest: {image}")
        check(re.fullmatch(r"local/dht-node:[^@:/]+@sha256:b{64}", env["DHT_NODE_IMAGE"]["value"]),
              f"DHT_NODE_IMAGE pinned by node.image.digest: {env['DHT_NODE_IMAGE']['value']}")
        check(len(kinds.get("DhtCluster", [])) == 1, "the sample DhtCluster")
    elif case == "monitoring":
        check(env["DHT_MONITORING_NAMESPACE"]["value"] == "monitoring",
              "DHT_MONITORING_NAMESPACE from monitoring.namespace")
        pm = kinds.get("PodMonitor", [])
        check(len(pm) == 1, "a PodMonitor")
        if pm:
            spec = pm[0]["spec"]
            check(spec["selector"]["matchLabels"] == {"app.kubernetes.io/name": "dht",
                                                      "app.kubernetes.io/managed-by": "dht-operator"},
                  "the PodMonitor selects the node pods")
            check(spec["namespaceSelector"] == {"any": True}, "the PodMonitor looks in every namespace")
            check(spec["podMetricsEndpoints"][0]["port"] == "http", "the nodes' port http")
        sm = kinds.get("ServiceMonitor", [])
        check(len(sm) == 1, "a ServiceMonitor")
        svc = [d for d in kinds.get("Service", []) if d["metadata"]["name"].endswith("-metrics")]
        check(len(svc) == 1, "a metrics Service for the operator")
        if sm and svc:
            check(all(svc[0]["metadata"]["labels"].get(k) == v
                      for k, v in sm[0]["spec"]["selector"]["matchLabels"].items()),
                  "the ServiceMonitor selects the metrics Service")
            check(svc[0]["spec"]["ports"][0]["name"] == sm[0]["spec"]["endpoints"][0]["port"],
                  "the ServiceMonitor scrapes the Service's port")
            check(sm[0]["spec"]["endpoints"][0].get("honorLabels") is True,
                  "the operator's namespace and cluster labels (backups) are kept")
            check(all(deploy[0]["spec"]["template"]["metadata"]["labels"].get(k) == v
                      for k, v in svc[0]["spec"]["selector"].items()), "the Service selects the operator pod")
        dash = [d for d in kinds.get("ConfigMap", []) if d["metadata"]["name"].endswith("-dashboard")]
        check(len(dash) == 1 and dash[0]["metadata"]["labels"].get("grafana_dashboard") == "1",
              "the dashboard ConfigMap, labelled for Grafana's sidecar")
        if dash:
            board = json.loads(dash[0]["data"]["dht.json"])
            check(len(board["panels"]) >= 10 and all(p["targets"] for p in board["panels"]),
                  "the dashboard has its panels, each with a query")
        rules = kinds.get("PrometheusRule", [])
        check(len(rules) == 1 and rules[0]["metadata"]["labels"].get("release") == "prometheus",
              "a PrometheusRule, with monitoring.prometheusRule.labels")
        if rules:
            docs_dir = __file__.rsplit("/e2e/", 1)[0] + "/docs"
            with open(docs_dir + "/alerts.md", encoding="utf-8") as f:
                anchors = {re.sub(r"[^a-z0-9 -]", "", line[3:].strip().lower()).replace(" ", "-")
                           for line in f if line.startswith("## ")}
            alerts = [r for g in rules[0]["spec"]["groups"] for r in g["rules"]]
            check(len(alerts) >= 9, f"the alerts ({len(alerts)})")
            for r in alerts:
                a = r.get("annotations", {})
                check(a.get("summary") and a.get("description"), f"{r['alert']}: a summary and a description")
                check(r.get("labels", {}).get("severity") in ("warning", "critical"), f"{r['alert']}: a severity")
                anchor = a.get("runbook_url", "").rsplit("#", 1)[-1]
                check(anchor == r["alert"].lower() and anchor in anchors,
                      f"{r['alert']}: its runbook_url names a section of docs/alerts.md ({anchor})")
    elif case == "policy":
        check(env["DHT_POLICY_LOAD_TEST_TARGETS"]["value"] == "http://*.perf.svc http://10.0.0.7:8080",
              "DHT_POLICY_LOAD_TEST_TARGETS lists policy.loadTestTargets, space-separated")
        check(env["DHT_POLICY_IMAGES"]["value"] == "registry.example.com/dht/", "DHT_POLICY_IMAGES from policy.images")
        check(env["DHT_POLICY_JVM_OPTIONS"]["value"] == "-Xmx -XX:+UseZGC", "DHT_POLICY_JVM_OPTIONS from policy.jvmOptions")
    elif case == "norbac":
        for k in ("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "ServiceAccount"):
            check(not kinds.get(k), f"no {k} with rbac.create=false and serviceAccount.create=false")
    else:
        sys.exit(f"unknown case {case}")

    if failures:
        for f in failures:
            print(f"  FAILED: {f}", file=sys.stderr)
        sys.exit(1)
    print(f"  {case}: {len(docs)} objects ({len(builtin)} built-in, {len(custom)} custom), assertions ok")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
