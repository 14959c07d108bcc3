"""Unit tests of kubectl-dht's pure parts: python3 -m unittest discover -s plugin (make test)."""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import unittest

_path = os.path.join(os.path.dirname(__file__), "kubectl-dht")
_loader = importlib.machinery.SourceFileLoader("kubectl_dht", _path)
_spec = importlib.util.spec_from_loader("kubectl_dht", _loader)
dht = importlib.util.module_from_spec(_spec)
_loader.exec_module(dht)

NOW = 1_800_000_000


def cluster(**status):
    return {
        "metadata": {"name": "demo", "namespace": "shop"},
        "spec": {"replicas": 3},
        "status": {
            "readyReplicas": 2,
            "membership": {"members": 3, "ack": 2, "from": 3, "epoch": 4, "step": "STABLE", "target": 3},
            "conditions": [{"type": "Ready", "status": "False", "reason": "ReplicasNotReady"}],
            "nodes": [{"name": f"demo-{i}", "ready": i != 2, "epoch": 4, "estimatedKeys": 10} for i in range(3)],
            **status,
        },
    }


def node(name, **fields):
    s = {
        "self": f"http://{name}:8080", "epoch": 4, "inTransition": False,
        "members": [{"url": f"http://{name}:8080", "state": "normal"}],
        "bootstrap": {"phase": "serving"}, "storage": {"estimatedKeys": 1000, "sstBytes": 3 * 1024 * 1024},
        "hints": {"pending": 0}, "tombstones": {"repairedSinceMillis": (NOW - 7200) * 1000},
        "stream": {"state": "idle", "completedEpoch": 3}, "repair": {},
        "clock": {"fenced": False, "offsetMs": -3},
    }
    s.update(fields)
    return s


class StatusScreen(unittest.TestCase):
    def test_a_row_per_node_with_what_it_reports_and_one_for_a_node_that_did_not_answer(self):
        text = dht.render_status(cluster(), {"demo-0": node("demo-0"), "demo-1": node("demo-1", hints={"pending": 7}),
                                             "demo-2": None}, [], NOW)
        lines = text.splitlines()
        self.assertIn("Cluster shop/demo: 2/3 ready, 3 members, ack/from 2/3, epoch 4", lines[0])
        row = {line.split()[0]: line.split() for line in lines if line.startswith("demo-")}
        self.assertEqual(["demo-0", "yes", "serving", "4", "normal", "1000", "3.0", "MiB", "0", "2h", "ago",
                          "done", "@3", "-3", "ms"], row["demo-0"])
        self.assertEqual("7", row["demo-1"][8])
        self.assertIn("no answer", text.splitlines()[[l.split()[0] if l else "" for l in lines].index("demo-2")])

    def test_zones_as_the_nodes_place_by_them_and_a_refused_expansion(self):
        plain = dht.render_status(cluster(), {"demo-0": node("demo-0")}, [], NOW)
        self.assertIn("  Zones: none: placement is plain rendezvous", plain.splitlines())
        zoned = node("demo-0", members=[{"url": f"http://demo-{i}:8080", "state": "normal", "zone": "abc"[i % 3]}
                                        for i in range(6)])
        c = cluster(conditions=[{"type": "StorageResized", "status": "False", "reason": "ExpansionRefused",
                                 "message": "the apiserver refused"}])
        lines = dht.render_status(c, {"demo-0": zoned}, [], NOW).splitlines()
        self.assertIn("  Zones: a (2), b (2), c (2): each key's first 3 replicas in 3 distinct zones", lines)
        self.assertIn("  Storage: ExpansionRefused: the apiserver refused", lines)
        self.assertIn("  Zones: unknown (no node answered)", dht.render_status(cluster(), {}, [], NOW).splitlines())
        one = node("demo-0", members=[{"url": f"http://demo-{i}:8080", "state": "normal", "zone": "a"}
                                      for i in range(3)])
        self.assertIn("  Zones: a (3): one zone, placement is plain rendezvous in it",
                      dht.render_status(cluster(), {"demo-0": one}, [], NOW).splitlines())
        moving = cluster(zones={"spanned": False, "message": "the replicas move to the members' zones"})
        self.assertIn("  Zones: a (3): one zone, placement is plain rendezvous in it;"
                      " the replicas move to the members' zones",
                      dht.render_status(moving, {"demo-0": one}, [], NOW).splitlines())

    def test_a_change_under_way_a_fenced_clock_and_a_repair_error_are_shown(self):
        c = cluster(conditions=[{"type": "Progressing", "status": "True", "reason": "Scaling", "message": "streaming"}],
                    membership={"members": 3, "target": 5, "step": "STREAMING", "ack": 2, "from": 3, "epoch": 5})
        fenced = node("demo-0", clock={"fenced": True}, inTransition=True,
                      stream={"state": "running", "progress": 0.5, "completedEpoch": 3},
                      repair={"lastError": "demo-1: connection refused"})
        text = dht.render_status(c, {"demo-0": fenced}, [], NOW)
        self.assertIn("Progressing: Scaling: streaming", text)
        self.assertIn("Change: STREAMING to 5 members", text)
        self.assertIn("FENCED", text)
        self.assertIn("normal (changing)", text)
        self.assertIn("running 50%", text)
        self.assertIn("demo-0: last repair error: demo-1: connection refused", text)

    def test_the_last_completed_backup(self):
        backups = [
            {"metadata": {"name": "b1"}, "status": {"phase": "Completed", "stoppedAt": "2026-11-26T10:00:00Z", "bytes": 2048}},
            {"metadata": {"name": "b2"}, "status": {"phase": "Completed", "stoppedAt": "2026-11-27T10:00:00Z", "bytes": 4096}},
            {"metadata": {"name": "b3"}, "status": {"phase": "Failed", "stoppedAt": "2026-11-27T11:00:00Z"}},
        ]
        text = dht.render_status(cluster(), {}, backups, NOW)
        self.assertIn("Backups: last completed b2 at 2026-11-27T10:00:00Z, 4.0 KiB (3 in all)", text)
        self.assertIn("Backups: none completed (1 in all)", dht.render_status(cluster(), {}, backups[2:], NOW))


class Parts(unittest.TestCase):
    def test_ages_sizes_and_pod_order(self):
        self.assertEqual(["42s", "7m", "3h", "2d", "-"], [dht.age(s) for s in (42, 420, 3 * 3600 + 5, 2 * 86400, None)])
        self.assertEqual(["512 B", "1.5 KiB", "-"], [dht.size(n) for n in (512, 1536, None)])
        self.assertEqual(["demo-2", "demo-10"], sorted(["demo-10", "demo-2"], key=dht.ordinal))

    def test_the_entity_path_of_a_key_with_and_without_ack_and_from(self):
        args = dht.parser().parse_args(["get", "demo", "a key/&", "--ack", "2", "--from", "3"])
        self.assertEqual("/v0/entity?id=a+key%2F%26&ack=2&from=3", dht.entity(args.key, args))
        args = dht.parser().parse_args(["get", "demo", "k"])
        self.assertEqual("/v0/entity?id=k", dht.entity(args.key, args))


def backup(phase="Completed", **status):
    return {
        "metadata": {"name": "orders-20261126", "namespace": "shop"},
        "spec": {"cluster": "orders"},
        "status": {"phase": phase, "backupId": "orders-20261126", "bytes": 73400320, "cutTime": "2026-11-26T02:00:00Z",
                   "objectStore": {"endpoint": "http://seaweedfs:8333", "bucket": "dht-backups", "path": "shop/orders",
                                   "credentialsSecret": "backup-store-keys"}, **status},
    }


def like(**spec):
    return {
        "apiVersion": "dht.dev/v1alpha1", "kind": "DhtCluster",
        "metadata": {"name": "orders", "namespace": "shop", "uid": "1234", "resourceVersion": "99", "generation": 4,
                     "annotations": {"dht.dev/replace": "orders-1", "kubectl.kubernetes.io/last-applied-configuration": "{}"}},
        "spec": {"replicas": 3, "replication": {"defaultFrom": 3, "defaultAck": 2}, "storage": {"size": "256Mi"},
                 "tls": {"enabled": False}, "authentication": "none",
                 "backup": {"objectStore": {"endpoint": "http://seaweedfs:8333", "bucket": "dht-backups",
                                            "credentialsSecret": "backup-store-keys"}},
                 **spec},
        "status": {"readyReplicas": 3},
    }


class RestoreManifest(unittest.TestCase):
    def test_without_like_the_defaults_and_the_bootstrap_only(self):
        manifest, notes = dht.restore_manifest("orders-restored", "shop", "orders-20261126")
        self.assertEqual({"apiVersion": "dht.dev/v1alpha1", "kind": "DhtCluster",
                          "metadata": {"name": "orders-restored", "namespace": "shop"},
                          "spec": {"bootstrap": {"backup": {"name": "orders-20261126"}}}}, manifest)
        self.assertEqual([], notes)
        manifest, _ = dht.restore_manifest("orders-restored", "shop", "orders-20261126", replicas=5)
        self.assertEqual({"replicas": 5, "bootstrap": {"backup": {"name": "orders-20261126"}}}, manifest["spec"])

    def test_like_copies_the_spec_not_its_metadata_status_or_bootstrap(self):
        source = like(bootstrap={"backup": {"name": "older"}})
        manifest, notes = dht.restore_manifest("orders-restored", "shop", "orders-20261126", source, replicas=5)
        self.assertEqual({"name": "orders-restored", "namespace": "shop"}, manifest["metadata"])
        self.assertNotIn("status", manifest)
        spec = manifest["spec"]
        self.assertEqual(5, spec["replicas"])
        self.assertEqual({"backup": {"name": "orders-20261126"}}, spec["bootstrap"])
        self.assertEqual(("256Mi", "none", False), (spec["storage"]["size"], spec["authentication"], spec["tls"]["enabled"]))
        self.assertEqual(like()["spec"]["backup"], spec["backup"])
        self.assertEqual([], notes)
        self.assertEqual({"name": "older"}, source["spec"]["bootstrap"]["backup"], "the copied object is not changed")

    def test_like_with_an_explicit_backup_path_leaves_it_out(self):
        source = like(backup={"objectStore": {"bucket": "dht-backups", "path": "prod/orders"}})
        manifest, notes = dht.restore_manifest("orders-restored", "shop", "orders-20261126", source)
        self.assertEqual({"objectStore": {"bucket": "dht-backups"}}, manifest["spec"]["backup"])
        self.assertEqual(["spec.backup.objectStore.path prod/orders of orders left out: orders-restored backs up"
                          " under its own default path, shop/orders-restored"], notes)
        self.assertEqual("prod/orders", source["spec"]["backup"]["objectStore"]["path"])

    def test_fewer_replicas_than_the_copied_default_from_or_ack_are_refused(self):
        with self.assertRaisesRegex(dht.Failure, "replication.defaultFrom 3 of orders is more than 2 replicas: give --replicas 3"):
            dht.restore_manifest("r", "shop", "b", like(), replicas=2)
        with self.assertRaisesRegex(dht.Failure, "replication.defaultAck 2 of orders is more than the default from, 1"):
            dht.restore_manifest("r", "shop", "b", like(replication={"defaultAck": 2}), replicas=1)
        dht.restore_manifest("r", "shop", "b", like(replication={}), replicas=1)

    def test_only_a_completed_backup_that_names_its_store_can_be_restored(self):
        self.assertIsNone(dht.backup_refusal(backup()))
        self.assertEqual("DhtBackup orders-20261126 is Running: only a completed backup can be restored",
                         dht.backup_refusal(backup("Running")))
        self.assertEqual("DhtBackup orders-20261126 is Failed (NodeFailed: demo-1: the store refused): only a"
                         " completed backup can be restored",
                         dht.backup_refusal(backup("Failed", reason="NodeFailed", message="demo-1: the store refused")))
        self.assertEqual("DhtBackup b is new: only a completed backup can be restored",
                         dht.backup_refusal({"metadata": {"name": "b"}}))
        self.assertIn("names no store", dht.backup_refusal(backup(objectStore=None)))
        deleted = backup()
        deleted["metadata"]["deletionTimestamp"] = "2026-11-27T10:00:00Z"
        self.assertEqual("DhtBackup orders-20261126 is being deleted", dht.backup_refusal(deleted))

    def test_the_claims_an_earlier_cluster_of_the_name_left(self):
        claims = ["data-orders-10", "data-orders-2", "data-orders-restored-0", "data-orders-x", "other-orders-1"]
        self.assertEqual(["data-orders-2", "data-orders-10"], dht.kept_claims(claims, "orders"))
        self.assertEqual(["data-orders-restored-0"], dht.kept_claims(claims, "orders-restored"))
        self.assertEqual([], dht.kept_claims(claims, "a.b"))

    def test_the_status_screen_shows_a_restore_under_way_or_why_it_waits(self):
        restoring = cluster(restore={"backup": "second", "phase": "Restoring", "restored": [0, 2], "nodes": 5,
                                     "keysKept": 1200, "bytesDownloaded": 2 * 1024 * 1024, "reason": "demo-1: store unreachable"})
        self.assertIn("  Restore: backup second: 2 of 5 nodes loaded their share, 1200 keys kept, 2.0 MiB downloaded;"
                      " last failure (tried again): demo-1: store unreachable", dht.render_status(restoring, {}, [], NOW))
        waiting = cluster(conditions=[{"type": "Restored", "status": "False", "reason": "ClaimsExist", "message": "delete them"}])
        self.assertIn("  Restore: waits: ClaimsExist: delete them", dht.render_status(waiting, {}, [], NOW))
        done = cluster(restore={"backup": "second", "phase": "Completed"},
                       conditions=[{"type": "Restored", "status": "True", "reason": "Restored"}])
        self.assertNotIn("Restore", dht.render_status(done, {}, [], NOW))


class FakeKube:
    """What cmd_restore and cmd_report ask kubectl, answered from OBJECTS ((kind, name) -> object)."""

    def __init__(self, objects, claims=()):
        self.objects, self.claims, self.applied = objects, list(claims), []

    def find(self, kind, name):
        return self.objects.get((kind, name))

    def exists(self, kind, name):
        return (kind, name) in self.objects

    def json(self, *args):
        assert args == ("get", "pvc"), args
        return {"items": [{"metadata": {"name": c}} for c in self.claims]}

    def run(self, *args, stdin=None):
        assert args == ("create", "-f", "-"), args
        self.applied.append(dht.json.loads(stdin))
        return b""


def run_command(kube, argv):
    out, err = io.StringIO(), io.StringIO()
    args = dht.parser().parse_args(argv)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args.fn(kube, args)
            failure = None
        except dht.Failure as e:
            failure = str(e)
    return failure, out.getvalue(), err.getvalue()


class RestoreCommand(unittest.TestCase):
    def test_refuses_a_missing_or_unfinished_backup_an_existing_target_and_kept_claims(self):
        argv = ["restore", "orders-restored", "--from-backup", "orders-20261126"]
        failure, _, _ = run_command(FakeKube({}), argv)
        self.assertRegex(failure, "^no DhtBackup orders-20261126 in this namespace")
        failure, _, _ = run_command(FakeKube({("dhtbackup", "orders-20261126"): backup("Running")}), argv)
        self.assertEqual("DhtBackup orders-20261126 is Running: only a completed backup can be restored", failure)
        kube = FakeKube({("dhtbackup", "orders-20261126"): backup(), ("dhtcluster", "orders-restored"): like()})
        failure, _, _ = run_command(kube, argv)
        self.assertRegex(failure, "^DhtCluster orders-restored exists already")
        kube = FakeKube({("dhtbackup", "orders-20261126"): backup()}, claims=["data-orders-restored-0"])
        failure, _, _ = run_command(kube, argv)
        self.assertRegex(failure, r"^the volumes of an earlier cluster named orders-restored are still here \(data-orders-restored-0\)")
        failure, _, _ = run_command(FakeKube({("dhtbackup", "orders-20261126"): backup()}), argv + ["--like", "nope"])
        self.assertEqual("no DhtCluster nope to copy (--like)", failure)
        self.assertEqual([], kube.applied)

    def test_dry_run_prints_the_manifest_and_applies_nothing(self):
        kube = FakeKube({("dhtbackup", "orders-20261126"): backup(), ("dhtcluster", "orders"): like(),
                         ("secret", "backup-store-keys"): {}})
        failure, out, err = run_command(kube, ["restore", "orders-restored", "--from-backup", "orders-20261126",
                                               "--replicas", "5", "--dry-run"])
        self.assertIsNone(failure)
        self.assertEqual({"apiVersion": "dht.dev/v1alpha1", "kind": "DhtCluster",
                          "metadata": {"name": "orders-restored", "namespace": "shop"},
                          "spec": {"replicas": 5, "bootstrap": {"backup": {"name": "orders-20261126"}}}},
                         dht.json.loads(out))
        self.assertIn("note: orders-restored gets the defaults", err)
        self.assertIn("--like orders copies the settings", err)
        self.assertEqual([], kube.applied)

    def test_applies_it_and_says_how_to_follow_it(self):
        kube = FakeKube({("dhtbackup", "orders-20261126"): backup(), ("dhtcluster", "orders"): like()})
        failure, out, err = run_command(kube, ["restore", "orders-restored", "--from-backup", "orders-20261126",
                                               "--like", "orders"])
        self.assertIsNone(failure)
        self.assertEqual(1, len(kube.applied))
        self.assertEqual({"backup": {"name": "orders-20261126"}}, kube.applied[0]["spec"]["bootstrap"])
        self.assertEqual("256Mi", kube.applied[0]["spec"]["storage"]["size"])
        self.assertIn("dhtcluster/orders-restored created from DhtBackup orders-20261126 (70.0 MiB, cut"
                      " 2026-11-26T02:00:00Z)", out)
        self.assertIn("`kubectl dht status orders-restored`", out)
        self.assertIn("Secret backup-store-keys (its credentials), which is not here", err)

    def test_restore_arguments(self):
        args = dht.parser().parse_args(["restore", "r", "--from-backup", "b"])
        self.assertEqual(("r", "b", None, None, False), (args.cluster, args.from_backup, args.replicas, args.like, args.dry_run))
        with contextlib.redirect_stderr(io.StringIO()):
            for argv in (["restore", "r"], ["restore", "r", "--from-backup", "b", "--replicas", "0"]):
                with self.assertRaises(SystemExit):
                    dht.parser().parse_args(argv)


def load_test(phase, **status):
    return {"metadata": {"name": "put-300", "namespace": "demo"}, "status": {"phase": phase, **status}}


def operator(name, namespace="dht-system", ready=True, watch="", port=8081):
    return {
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"containers": [{"name": "operator", "env": [{"name": "WATCH_NAMESPACES", "value": watch}],
                                 "ports": [{"name": "health", "containerPort": port}]}]},
        "status": {"conditions": [{"type": "Ready", "status": "True" if ready else "False"}]},
    }


class Report(unittest.TestCase):
    def test_a_test_without_a_report_is_refused_with_its_phase(self):
        self.assertIsNone(dht.report_refusal(load_test("Succeeded", report="put-300-report")))
        self.assertIsNone(dht.report_refusal(load_test("Failed", report="put-300-report")))
        self.assertEqual("put-300 has no report yet: it is Running (measuring 12/30 s, 3998 req/s, p99 3.2 ms);"
                         " `kubectl get dhtlt put-300 -w` follows it",
                         dht.report_refusal(load_test("Running", progress={"summary": "measuring 12/30 s, 3998 req/s, p99 3.2 ms"})))
        pending = load_test("Pending", conditions=[{"type": "TargetReady", "status": "False", "reason": "ClusterNotReady",
                                                    "message": "demo: 2/3 ready"}])
        self.assertEqual("put-300 has no report yet: it is Pending (ClusterNotReady: demo: 2/3 ready);"
                         " `kubectl get dhtlt put-300 -w` follows it", dht.report_refusal(pending))
        self.assertIn("it is Pending;", dht.report_refusal({"metadata": {"name": "put-300"}}))
        failed = load_test("Failed", conditions=[{"type": "Succeeded", "status": "False", "reason": "PendingTooLong",
                                                  "message": "not ready after 10m"}])
        self.assertEqual("put-300 has no report: it ended Failed (PendingTooLong: not ready after 10m) without one",
                         dht.report_refusal(failed))

    def test_the_operator_pod_whose_site_serves_the_namespace(self):
        self.assertEqual(("dht-system", "dht-operator-b", 8081),
                         dht.operator_pod([operator("dht-operator-c"), operator("dht-operator-a", ready=False),
                                           operator("dht-operator-b")], "demo"))
        self.assertEqual(("team-b", "op-b", 9000),
                         dht.operator_pod([operator("op-a", "team-a", watch="team-a"),
                                           operator("op-b", "team-b", watch="x, demo", port=9000)], "demo"))
        self.assertIsNone(dht.operator_pod([operator("op-a", watch="team-a")], "demo"))
        self.assertIsNone(dht.operator_pod([], "demo"))
        bare = {"metadata": {"name": "op", "namespace": "ops"}, "spec": {"containers": [{}]},
                "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
        self.assertEqual(("ops", "op", 8081), dht.operator_pod([bare], "demo"))

    def test_the_report_address_and_when_a_browser_opens(self):
        self.assertEqual("http://127.0.0.1:41234/reports/demo/put-300/", dht.report_url(41234, "demo", "put-300"))
        self.assertTrue(dht.can_open_browser("darwin", {}))
        self.assertTrue(dht.can_open_browser("linux", {"DISPLAY": ":0"}))
        self.assertTrue(dht.can_open_browser("linux", {"WAYLAND_DISPLAY": "wayland-0"}))
        self.assertFalse(dht.can_open_browser("linux", {}))
        self.assertFalse(dht.can_open_browser("linux", {"DISPLAY": ""}))

    def test_refuses_a_test_without_a_report_before_any_port_forward(self):
        failure, _, _ = run_command(FakeKube({("dhtloadtest", "put-300"): load_test("Running")}), ["report", "put-300"])
        self.assertEqual("put-300 has no report yet: it is Running (the generators run);"
                         " `kubectl get dhtlt put-300 -w` follows it", failure)
        failure, _, _ = run_command(FakeKube({}), ["report", "put-300"])
        self.assertEqual("no DhtLoadTest put-300 in this namespace", failure)

    def test_report_arguments(self):
        args = dht.parser().parse_args(["report", "put-300", "--port", "8081", "--no-open"])
        self.assertEqual(("put-300", 8081, True, None), (args.test, args.port, args.no_open, args.operator_namespace))
        args = dht.parser().parse_args(["report", "put-300"])
        self.assertEqual((0, False), (args.port, args.no_open))


if __name__ == "__main__":
    unittest.main()
