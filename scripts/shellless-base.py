#!/usr/bin/env python3
"""Derive a base image without a shell from a JRE base image archive (e2e/images.sh runs it).

usage: shellless-base.py BASE.tar OUT.tar [--name local/jre25-noshell:1] [--native-jar JAR ...]

BASE.tar is an image archive: an OCI layout, a docker-archive, or both in one (k8s-local's
jre25-base.tar). OUT.tar gets the same image configuration (user, environment, working directory)
and one layer that holds only what the JVM and the native code of our jars need:
  * /opt/java (the runtime, its CDS archive), whole;
  * the shared libraries that its ELF files and the x86-64 glibc libraries found in the --native-jar
    jars (RocksDB, netty-tcnative, Netty's epoll, async-profiler) link, found through their
    DT_NEEDED entries, recursively, with the dynamic loader and every symlink on the way
    (/lib64 -> usr/lib64, ...); the loader's own files (/etc/ld.so.*);
  * /etc/passwd and /etc/group with root, nobody and the image's user only; /etc/nsswitch.conf,
    /etc/localtime, /etc/os-release, the CA certificates (/etc/ssl/certs, /usr/share/ca-certificates);
  * the image user's home and working directory (empty), /tmp (1777);
  * /var/lib/dpkg/status.d/<package>: the dpkg record of each Debian package a kept file comes
    from, so that image scanners see the OS packages (as in Google's distroless images).
No shell, no coreutils, no busybox, no package manager: nothing else of the base is copied.
A library a native jar needs that the base does not have is an error; a library of the runtime
that the base lacks as well (e.g. libX11 for AWT) is listed and left as it was.

The output is an OCI layout and a docker-archive in one tar: Jib reads it as `tar://` base image,
`ctr images import` (k8s-local's load-image.sh) as an image. The same input gives the same bytes
(entries in the base's order with the base's times, gzip without a time stamp). It is rebuilt only
when its inputs change: OUT.tar.key holds their digests.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import posixpath
import re
import struct
import sys
import tarfile
import tempfile
import zipfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from image_archive import ArchiveError, Tree, layer_stream, norm, read_image  # noqa: E402
from image_writer import HashingWriter, write_archive  # noqa: E402

LIB_DIRS = ["lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib64", "usr/lib64", "lib", "usr/lib"]
KEEP_TREES = ["opt/java", "etc/ssl/certs", "usr/share/ca-certificates"]
KEEP_FILES = ["etc/nsswitch.conf", "etc/localtime", "etc/os-release", "etc/ld.so.cache",
              "etc/ld.so.conf", "etc/ld.so.conf.d"]
EM_X86_64 = 62
COMPRESS_LEVEL = 1   # gzip -1: 3x faster than -6, 10 % larger


def die(msg):
    sys.exit("shellless-base: " + msg)


# ------------------------------------------------------------------------------------------ ELF
def elf_info(data):
    """(NEEDED names, interpreter or None) of a 64-bit little-endian x86-64 ELF object, else None."""
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != EM_X86_64:
        return None
    e_phoff, = struct.unpack_from("<Q", data, 32)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 54)
    loads, dynamic, interp = [], None, None
    for i in range(e_phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", data, e_phoff + i * e_phentsize)
        if p_type == 1:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == 2:
            dynamic = (p_offset, p_filesz)
        elif p_type == 3:
            interp = data[p_offset:p_offset + p_filesz].split(b"\0")[0].decode()
    if dynamic is None:
        return [], interp
    needed, strtab = [], None
    for off in range(dynamic[0], dynamic[0] + dynamic[1], 16):
        tag, val = struct.unpack_from("<qQ", data, off)
        if tag == 0:
            break
        if tag == 1:
            needed.append(val)
        elif tag == 5:
            strtab = val
    if strtab is None:
        return [], interp
    base = next((o + strtab - v for v, o, n in loads if v <= strtab < v + n), None)
    if base is None:
        die("an ELF file's string table lies outside its segments")
    names = [data[base + n:data.index(b"\0", base + n)].decode() for n in needed]
    return names, interp


def read_content(path, f):
    """What the selection reads of the base: (NEEDED, interpreter) of the ELF objects of the runtime
    and the library directories, the bytes of a few small text files."""
    if path in ("etc/passwd", "etc/group", "var/lib/dpkg/status") or (
            path.startswith("var/lib/dpkg/info/") and path.endswith(".list")) or (
            path.startswith("etc/ld.so.conf.d/") and path.endswith(".conf")):
        return f.read()
    if path.startswith(("opt/java/", "usr/lib/", "lib/")):
        head = f.read(4)
        if head == b"\x7fELF":
            return elf_info(head + f.read())
    return None


# ------------------------------------------------------------------------------------ selection
class Selection:
    """What of the base the new image keeps: paths relative to the root."""

    def __init__(self, tree, config):
        self.tree, self.keep = tree, set()
        self.elf = {p: v for p, v in tree.data.items() if isinstance(v, tuple)}     # (NEEDED, interpreter)
        self.text = {p: v for p, v in tree.data.items() if isinstance(v, bytes)}
        self.missing_runtime = {}
        self.runtime_names = {posixpath.basename(p) for p in self.elf if p.startswith("opt/java/")}
        self.search = LIB_DIRS + self.ld_so_conf_dirs()
        user = (config.get("config", {}).get("User") or "0:0").split(":")
        self.uid, self.gid = user[0], user[1] if len(user) > 1 else user[0]
        self.workdir = norm(config.get("config", {}).get("WorkingDir") or "/")

    def ld_so_conf_dirs(self):
        dirs = []
        for p, content in sorted(self.text.items()):
            if p.startswith("etc/ld.so.conf.d/"):
                dirs += [norm(line) for line in content.decode().split() if line.startswith("/")]
        return dirs

    def add(self, path):
        """Keep PATH, the symlinks on its way and what it points at; returns the real path or None."""
        used = set()
        real = self.tree.resolve(path, used)
        for p in used | ({real} if real else set()):
            if p in self.keep:
                continue
            self.keep.add(p)
            if self.tree.members[p][0].islnk():     # a hard link: its target too
                self.add(norm(self.tree.members[p][0].linkname))
        return real

    def add_tree(self, top):
        for p in sorted(self.tree.members):
            if p == top or p.startswith(top + "/"):
                self.add(p)

    def library(self, name, needed_by, strict):
        for d in self.search:
            real = self.tree.resolve(posixpath.join(d, name))
            if real and self.tree.members[real][0].isreg():
                self.add(posixpath.join(d, name))
                return real
        if name in self.runtime_names:      # the runtime's own (libjvm.so, libjava.so): kept
            return None
        if strict:
            die(f"{needed_by} needs {name}, which the base image does not have")
        self.missing_runtime.setdefault(name, set()).add(needed_by)
        return None

    def closure(self, roots):
        """ROOTS: (description, NEEDED names, interpreter, strict). Keeps what they load, recursively."""
        todo, seen = list(roots), set()
        while todo:
            what, needed, interp, strict = todo.pop()
            if interp:
                if not self.add(norm(interp)):
                    die(f"{what}: no interpreter {interp} in the base image")
            for name in needed:
                real = self.library(name, what, strict)
                if real and real not in seen:
                    seen.add(real)
                    if real in self.elf:
                        libs, _ = self.elf[real]
                        todo.append(("/" + real, libs, None, strict))

    def users(self, path, ids):
        """/etc/passwd or /etc/group with the lines of IDS only, none with a login shell."""
        lines = []
        for line in self.text.get(path, b"").decode().splitlines():
            fields = line.split(":")
            if len(fields) >= 3 and fields[2] in ids:
                if path == "etc/passwd":
                    fields[6:] = ["/usr/sbin/nologin"]
                lines.append(":".join(fields))
        return ("\n".join(lines) + "\n").encode()

    def home(self):
        for line in self.text.get("etc/passwd", b"").decode().splitlines():
            fields = line.split(":")
            if len(fields) >= 6 and fields[2] == self.uid:
                return norm(fields[5])
        return None

    def dpkg_records(self):
        """{status.d/<package>: its record in /var/lib/dpkg/status} for packages with a kept file."""
        kept_files = {p for p in self.keep if self.tree.members[p][0].isreg()}
        packages = set()
        for p, content in self.text.items():
            if p.startswith("var/lib/dpkg/info/") and p.endswith(".list"):
                for line in content.decode().splitlines():
                    # the directories through their symlinks (/lib -> usr/lib), the file itself not
                    parent = self.tree.resolve(posixpath.dirname(norm(line)))
                    if parent is not None and posixpath.join(parent, posixpath.basename(line)) in kept_files:
                        packages.add(posixpath.basename(p)[:-len(".list")].split(":")[0])
                        break
        records = {}
        for record in self.text.get("var/lib/dpkg/status", b"").decode().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in record.splitlines() if ": " in line and not line.startswith(" "))
            if fields.get("Package") in packages and "installed" in fields.get("Status", ""):
                records["var/lib/dpkg/status.d/" + fields["Package"]] = (record.strip() + "\n").encode()
        return records


# --------------------------------------------------------------------------------------- output
def cache_key(a):
    """The digest of everything the output depends on: this script, the name, the base, the jars."""
    key = hashlib.sha256(a.name.encode())
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib")
    for source in (__file__, os.path.join(lib, "image_archive.py"), os.path.join(lib, "image_writer.py")):
        key.update(open(source, "rb").read())
    with open(a.base, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            key.update(chunk)
    for jar in sorted(a.native_jar):
        key.update(os.path.basename(jar).encode() + hashlib.sha256(open(jar, "rb").read()).digest())
    return key.hexdigest()


def native_roots(jars):
    """(name, NEEDED, interpreter, strict) of the x86-64 glibc libraries in JARS."""
    roots = []
    for jar in jars:
        with zipfile.ZipFile(jar) as z:
            for entry in sorted(n for n in z.namelist() if n.endswith(".so")):
                info = elf_info(z.read(entry))
                if info is None or any("musl" in n for n in info[0]):
                    continue   # another architecture, or the build for musl libc
                roots.append((f"{os.path.basename(jar)}!{entry}", info[0], info[1], True))
    return roots


def select(tree, config, natives):
    """What of the base the new image keeps."""
    sel = Selection(tree, config)
    for top in KEEP_TREES + [p for p in KEEP_FILES if p in tree.members]:
        sel.add_tree(top)
    for path in ("etc/passwd", "etc/group", "tmp", sel.workdir, sel.home()):
        if path and path in tree.members:
            sel.add(path)   # a directory alone: the home and working directories stay empty
    runtime = [("/" + p, needed, interp, False) for p, (needed, interp) in sorted(sel.elf.items())
               if p.startswith("opt/java/")]
    sel.closure(runtime + natives)
    for p in list(sel.keep):   # the directories the kept entries live in
        parent = posixpath.dirname(p)
        while parent and parent not in sel.keep:
            sel.keep.add(parent)
            parent = posixpath.dirname(parent)
    banned = [p for p in sel.keep if posixpath.basename(p) in ("sh", "bash", "dash", "busybox", "apt", "apt-get", "dpkg")]
    if banned:
        die("a shell or package manager would be kept: " + ", ".join(sorted(banned)))
    return sel


def new_entries(tree, sel, records):
    """[(TarInfo, bytes or None)]: the dpkg records (and their directories), /tmp if the base has none."""
    added = []
    status = tree.members.get("var/lib/dpkg/status", (None,))[0]
    if records and status is not None:
        for d in ("var", "var/lib", "var/lib/dpkg", "var/lib/dpkg/status.d"):
            if d not in sel.keep:
                ti = tarfile.TarInfo(d)
                ti.type, ti.mode, ti.mtime = tarfile.DIRTYPE, 0o755, tree.members.get(d, (status,))[0].mtime
                added.append((ti, None))
        for path, data in sorted(records.items()):
            ti = tarfile.TarInfo(path)
            ti.size, ti.mode, ti.mtime = len(data), 0o644, status.mtime
            added.append((ti, data))
    if "tmp" not in tree.members:
        ti = tarfile.TarInfo("tmp")
        ti.type, ti.mode = tarfile.DIRTYPE, 0o1777
        added.append((ti, None))
    return added


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("out")
    ap.add_argument("--name", default="local/jre25-noshell:1")
    ap.add_argument("--native-jar", action="append", default=[], metavar="JAR",
                    help="a jar whose x86-64 glibc .so files must find their libraries (repeatable)")
    a = ap.parse_args()
    key = cache_key(a)
    if os.path.exists(a.out) and os.path.exists(a.out + ".key") and open(a.out + ".key").read().strip() == key:
        print(f"{a.out}: up to date")
        return

    outer = tarfile.open(a.base)
    try:
        config, layers, base_desc = read_image(outer)
    except ArchiveError as e:
        die(f"{a.base}: {e}")
    if config.get("architecture", "amd64") != "amd64":
        die(f"the base is {config.get('architecture')}, this script knows x86-64 only")
    tree = Tree.of(outer, layers, read_content)
    natives = native_roots(a.native_jar)
    sel = select(tree, config, natives)
    contents = {"etc/passwd": sel.users("etc/passwd", {"0", "65534", sel.uid}),
                "etc/group": sel.users("etc/group", {"0", "65534", sel.gid})}
    records = sel.dpkg_records()

    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_dir) as td:
        layer_path = os.path.join(td, "layer.tar.gz")
        diff_id, layer_digest, layer_size = write_layer(
            outer, tree, layers, sel.keep, contents, new_entries(tree, sel, records), layer_path)
        cfg = json.loads(json.dumps(config))
        cfg["rootfs"] = {"type": "layers", "diff_ids": [diff_id]}
        cfg["history"] = [{"created": config.get("created", "1970-01-01T00:00:00Z"),
                           "created_by": f"scripts/shellless-base.py: {base_desc} without a shell"}]
        write_archive(a.out, a.name, cfg, layer_path, layer_digest, layer_size)
    with open(a.out + ".key", "w") as f:
        f.write(key + "\n")

    files = [p for p in sel.keep if tree.members[p][0].isreg()]
    libs = sorted(posixpath.basename(p) for p in files
                  if not p.startswith("opt/java/") and re.search(r"\.so(\.[0-9]+)*$", p))
    print(f"{a.out}: {a.name} from {base_desc}: {len(files)} files, dpkg records of "
          f"{' '.join(sorted(posixpath.basename(r) for r in records))}; libraries: {' '.join(libs)}")
    print(f"  native code checked: {', '.join(n[0] for n in natives) or 'none'}")
    if sel.missing_runtime:
        print("  not in the base either (left as they were): " + ", ".join(
            f"{n} ({len(by)} runtime libraries)" for n, by in sorted(sel.missing_runtime.items())))


def write_layer(outer, tree, layers, keep, contents, added, layer_path):
    """The kept entries, in the base's order, as a gzip'd tar: (diff_id, digest, size)."""
    with open(layer_path, "wb") as f:
        gz_out = HashingWriter(f)
        with gzip.GzipFile(fileobj=gz_out, mode="wb", compresslevel=COMPRESS_LEVEL, mtime=0) as gz:
            tar_out = HashingWriter(gz)
            with tarfile.open(fileobj=tar_out, mode="w|", format=tarfile.PAX_FORMAT) as t:
                for index, layer in enumerate(layers):
                    stream = layer_stream(outer, layer)
                    for m in stream:
                        path = norm(m.name)
                        if path not in keep or tree.members.get(path, (None, -1))[1] != index:
                            continue
                        m.name = path
                        if m.islnk():
                            m.linkname = norm(m.linkname)
                        if path == "tmp":
                            m.mode = 0o1777
                        if m.isreg() and path in contents:
                            m.size = len(contents[path])
                            t.addfile(m, io.BytesIO(contents[path]))
                        elif m.isreg():
                            t.addfile(m, stream.extractfile(m))
                        else:
                            t.addfile(m)
                for ti, data in added:
                    t.addfile(ti, io.BytesIO(data) if data is not None else None)
    return "sha256:" + tar_out.hash.hexdigest(), "sha256:" + gz_out.hash.hexdigest(), gz_out.size


if __name__ == "__main__":
    main()
