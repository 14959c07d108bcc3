#!/usr/bin/env python3
"""An image that holds SeaweedFS's static `weed` binary and nothing else, for e2e (no Docker, no registry).

usage: seaweedfs-image.py [--weed target/seaweedfs/weed] [--out target/seaweedfs/seaweedfs-image.tar]
                          [--name local/dht-seaweedfs:<version>]

scripts/seaweedfs.sh builds the binary (static: CGO off), target/seaweedfs/version names its module
version, which is the default tag. The image has one layer:
  * /usr/bin/weed, the binary (root's, 0755);
  * /etc/passwd and /etc/group with root, nobody and `seaweed` (10001:10001, the image's user,
    so that `runAsNonRoot: true` works);
  * /data (the working directory, the user's) and /tmp (1777): e2e/manifests/seaweedfs.yaml mounts
    an emptyDir on each, so the root file system can be read-only.
No shell, no libraries, no CA certificates: weed needs none to serve S3 on a pod network.

The output is an OCI layout and a docker-archive in one tar, like scripts/shellless-base.py's:
`ctr images import` (k8s-local's load-image.sh) reads it. The same binary gives the same bytes
(fixed times, gzip without a time stamp). It is rebuilt only when its inputs change: OUT.tar.key
holds their digest.
"""
import argparse
import gzip
import hashlib
import io
import os
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib")
sys.path.insert(0, LIB)
from image_writer import HashingWriter, write_archive  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UID = GID = 10001
MTIME = 946684800   # 2000-01-01: a fixed time, so that the same binary gives the same image
S3_PORT = 8333


def die(msg):
    sys.exit("seaweedfs-image: " + msg)


def entries(weed_path):
    """[(TarInfo, bytes or None)] of the layer, parents first."""
    def directory(name, mode=0o755, uid=0):
        ti = tarfile.TarInfo(name)
        ti.type, ti.mode, ti.uid, ti.gid, ti.mtime = tarfile.DIRTYPE, mode, uid, uid, MTIME
        return ti, None

    def file(name, data, mode=0o644):
        ti = tarfile.TarInfo(name)
        ti.size, ti.mode, ti.mtime = len(data), mode, MTIME
        return ti, data

    passwd = (f"root:x:0:0:root:/root:/usr/sbin/nologin\n"
              f"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
              f"seaweed:x:{UID}:{GID}:seaweed:/data:/usr/sbin/nologin\n").encode()
    group = f"root:x:0:\nnogroup:x:65534:\nseaweed:x:{GID}:\n".encode()
    with open(weed_path, "rb") as f:
        weed = f.read()
    return [directory("data", 0o755, UID), directory("etc"), file("etc/group", group),
            file("etc/passwd", passwd), directory("tmp", 0o1777), directory("usr"),
            directory("usr/bin"), file("usr/bin/weed", weed, 0o755)]


def config(version):
    return {
        "architecture": "amd64", "os": "linux", "created": "2000-01-01T00:00:00Z",
        "config": {
            "User": f"{UID}:{GID}",
            "Entrypoint": ["/usr/bin/weed"],
            # the manifest gives the real arguments; alone, the image is one S3 store on /data
            "Cmd": ["-logtostderr", "mini", "-dir=/data", "-master.telemetry=false"],
            "Env": ["PATH=/usr/bin", "HOME=/data"],
            "WorkingDir": "/data",
            "ExposedPorts": {f"{S3_PORT}/tcp": {}},
            "Labels": {"org.opencontainers.image.title": "SeaweedFS weed (dht tests)",
                       "org.opencontainers.image.licenses": "Apache-2.0",
                       "org.opencontainers.image.version": version,
                       "org.opencontainers.image.source": "https://github.com/seaweedfs/seaweedfs"},
        },
        "history": [{"created": "2000-01-01T00:00:00Z",
                     "created_by": f"scripts/seaweedfs-image.py: weed {version}, static"}],
    }


def write_layer(items, layer_path):
    """The entries as a gzip'd tar: (diff_id, digest, size)."""
    with open(layer_path, "wb") as f:
        gz_out = HashingWriter(f)
        with gzip.GzipFile(fileobj=gz_out, mode="wb", compresslevel=6, mtime=0) as gz:
            tar_out = HashingWriter(gz)
            with tarfile.open(fileobj=tar_out, mode="w|", format=tarfile.PAX_FORMAT) as t:
                for ti, data in items:
                    t.addfile(ti, io.BytesIO(data) if data is not None else None)
    return "sha256:" + tar_out.hash.hexdigest(), "sha256:" + gz_out.hash.hexdigest(), gz_out.size


def is_static_elf(data):
    """True for an ELF executable without an interpreter (PT_INTERP): it needs no libraries."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return False
    phoff = int.from_bytes(data[32:40], "little")
    phentsize, phnum = int.from_bytes(data[54:56], "little"), int.from_bytes(data[56:58], "little")
    return all(int.from_bytes(data[phoff + i * phentsize:phoff + i * phentsize + 4], "little") != 3
               for i in range(phnum))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weed", default=os.path.join(ROOT, "target/seaweedfs/weed"))
    ap.add_argument("--out", default=os.path.join(ROOT, "target/seaweedfs/seaweedfs-image.tar"))
    ap.add_argument("--name", help="the image reference (default local/dht-seaweedfs:<version>)")
    a = ap.parse_args()
    if not os.path.isfile(a.weed):
        die(f"{a.weed} is missing: run scripts/seaweedfs.sh first")
    version_file = os.path.join(os.path.dirname(a.weed), "version")
    version = open(version_file).read().strip() if os.path.isfile(version_file) else "unknown"
    name = a.name or f"local/dht-seaweedfs:{version}"

    key = hashlib.sha256(name.encode())
    for source in (__file__, os.path.join(LIB, "image_writer.py"), os.path.join(LIB, "image_archive.py"), a.weed):
        with open(source, "rb") as f:
            key.update(hashlib.sha256(f.read()).digest())
    if os.path.exists(a.out) and os.path.exists(a.out + ".key") and open(a.out + ".key").read().strip() == key.hexdigest():
        print(f"{a.out}: {name}, up to date")
        return

    items = entries(a.weed)
    weed = items[-1][1]
    if not is_static_elf(weed):
        die(f"{a.weed} is not a static ELF executable: the image has no libraries for it")
    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as td:
        layer_path = os.path.join(td, "layer.tar.gz")
        diff_id, layer_digest, layer_size = write_layer(items, layer_path)
        cfg = config(version)
        cfg["rootfs"] = {"type": "layers", "diff_ids": [diff_id]}
        write_archive(a.out, name, cfg, layer_path, layer_digest, layer_size)
    with open(a.out + ".key", "w") as f:
        f.write(key.hexdigest() + "\n")
    print(f"{a.out}: {name}, weed {len(weed) >> 20} MB, image {os.path.getsize(a.out) >> 20} MB")


if __name__ == "__main__":
    main()
