"""Writing image archives with the standard library: one OCI layout and docker-archive in one tar,
which `ctr images import` (k8s-local's load-image.sh) and Jib (`tar://` base image) both read.
Used by scripts/shellless-base.py and scripts/seaweedfs-image.py."""
import hashlib
import io
import json
import os
import tarfile

from image_archive import sha256


class HashingWriter:
    """Passes bytes on to SINK, counting them and their SHA-256."""

    def __init__(self, sink):
        self.sink, self.hash, self.size = sink, hashlib.sha256(), 0

    def write(self, b):
        self.hash.update(b)
        self.size += len(b)
        return self.sink.write(b)


def write_archive(out, ref, cfg, layer_path, layer_digest, layer_size):
    """OCI layout + docker-archive in one tar (ctr import reads index.json, Jib manifest.json)."""
    first = ref.split("/")[0]
    full = ref if "/" in ref and ("." in first or ":" in first or first == "localhost") else \
        "docker.io/" + (ref if "/" in ref else "library/" + ref)
    cfg_bytes = json.dumps(cfg, separators=(",", ":"), sort_keys=True).encode()
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                           "digest": sha256(cfg_bytes), "size": len(cfg_bytes)},
                "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                            "digest": layer_digest, "size": layer_size}]}
    man_bytes = json.dumps(manifest, separators=(",", ":")).encode()
    index = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
             "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
                            "digest": sha256(man_bytes), "size": len(man_bytes),
                            "platform": {"architecture": "amd64", "os": "linux"},
                            "annotations": {"io.containerd.image.name": full,
                                            "org.opencontainers.image.ref.name": full.rsplit(":", 1)[-1]}}]}

    def blob(digest):
        return "blobs/sha256/" + digest.split(":")[1]

    docker = [{"Config": blob(sha256(cfg_bytes)), "RepoTags": [ref], "Layers": [blob(layer_digest)]}]
    tmp = out + ".tmp"
    with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as t:
        def add(name, data):
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode = len(data), 0o644
            t.addfile(ti, io.BytesIO(data))
        add("oci-layout", b'{"imageLayoutVersion":"1.0.0"}')
        add("index.json", json.dumps(index, separators=(",", ":")).encode())
        add("manifest.json", json.dumps(docker, separators=(",", ":")).encode())
        add(blob(sha256(man_bytes)), man_bytes)
        add(blob(sha256(cfg_bytes)), cfg_bytes)
        ti = tarfile.TarInfo(blob(layer_digest))
        ti.size, ti.mode = layer_size, 0o644
        with open(layer_path, "rb") as f:
            t.addfile(ti, f)
    os.replace(tmp, out)
