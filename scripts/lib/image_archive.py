"""Reading image archives (an OCI layout, a docker-archive, or both in one tar) with the standard
library: the image's configuration and layers, and the root filesystem the layers leave.
Used by scripts/shellless-base.py, scripts/image-check.py and image_writer.py."""
import hashlib
import json
import posixpath
import tarfile


class ArchiveError(Exception):
    pass


def norm(name):
    """An archive member's name as a path relative to the root, without ./ or slashes at the ends."""
    return posixpath.normpath("/" + name).lstrip("/")


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_image(outer):
    """(config dict, [layer member names], description) of the (amd64) image in the archive."""
    names = set(outer.getnames())

    def blob(digest):
        return outer.extractfile("blobs/" + digest.replace(":", "/")).read()

    if "index.json" in names:
        desc = json.loads(outer.extractfile("index.json").read())["manifests"][0]
        manifest = json.loads(blob(desc["digest"]))
        while "manifests" in manifest:   # an index in the index: the amd64 image
            desc = next(m for m in manifest["manifests"]
                        if m.get("platform", {}).get("architecture", "amd64") == "amd64")
            manifest = json.loads(blob(desc["digest"]))
        config = json.loads(blob(manifest["config"]["digest"]))
        layers = ["blobs/" + layer["digest"].replace(":", "/") for layer in manifest["layers"]]
        annotations = desc.get("annotations", {})
        name = annotations.get("io.containerd.image.name") or annotations.get("org.opencontainers.image.ref.name", "")
        return config, layers, f"{name}@{desc['digest']}".lstrip("@")
    if "manifest.json" in names:
        entry = json.loads(outer.extractfile("manifest.json").read())[0]
        config_bytes = outer.extractfile(entry["Config"]).read()
        return (json.loads(config_bytes), entry["Layers"],
                f"{(entry.get('RepoTags') or [''])[0]} (config {sha256(config_bytes)})")
    raise ArchiveError("neither an OCI layout (index.json) nor a docker-archive (manifest.json)")


def layer_stream(outer, name):
    """The layer's tar, read in one pass (gzip'd or not)."""
    return tarfile.open(fileobj=outer.extractfile(name), mode="r|*")


class Tree:
    """The root filesystem the layers leave: members maps a path to (TarInfo, layer index); data
    maps a path to what READER(path, file object) returned for it when that was not None."""

    def __init__(self, reader=None):
        self.members, self.data, self.reader = {}, {}, reader

    @classmethod
    def of(cls, outer, layers, reader=None):
        tree = cls(reader)
        for index, layer in enumerate(layers):
            tree.add_layer(layer_stream(outer, layer), index)
        return tree

    def add_layer(self, stream, index):
        for m in stream:
            path = norm(m.name)
            parent, base = posixpath.split(path)
            if base == ".wh..wh..opq":         # an opaque directory: what earlier layers had in it goes
                self.drop_under(parent, keep_self=True)
                continue
            if base.startswith(".wh."):         # a whiteout: the path goes
                self.drop_under(posixpath.join(parent, base[4:]))
                continue
            if not path:
                continue
            earlier = self.members.get(path)
            if earlier and not (m.isdir() and earlier[0].isdir()):
                self.drop_under(path)           # an entry of an earlier layer replaced
            self.members[path] = (m, index)
            if m.isreg() and self.reader:
                value = self.reader(path, stream.extractfile(m))
                if value is not None:
                    self.data[path] = value

    def drop_under(self, path, keep_self=False):
        prefix = path + "/" if path else ""
        for p in [p for p in self.members if p.startswith(prefix) or (p == path and not keep_self)]:
            del self.members[p]
            self.data.pop(p, None)

    def resolve(self, path, used=None):
        """The real path that PATH names, following symlinks (each added to USED), or None."""
        todo = [c for c in path.split("/") if c not in ("", ".")]
        real, hops = [], 0
        while todo:
            c = todo.pop(0)
            if c == "..":
                if real:
                    real.pop()
                continue
            candidate = "/".join(real + [c])
            entry = self.members.get(candidate)
            if entry is None:
                return None
            m = entry[0]
            if m.issym():
                hops += 1
                if hops > 40:
                    return None
                if used is not None:
                    used.add(candidate)
                if m.linkname.startswith("/"):
                    real = []
                todo = [x for x in m.linkname.split("/") if x not in ("", ".")] + todo
            else:
                real.append(c)
        return "/".join(real)
