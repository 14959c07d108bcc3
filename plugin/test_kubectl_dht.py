"""Unit tests of kubectl-dht's pure parts: python3 -m unittest discover -s plugin (make test)."""
import importlib.machinery
import importlib.util
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


if __name__ == "__main__":
    unittest.main()
