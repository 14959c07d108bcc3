#!/usr/bin/env python3
"""Check an image archive that e2e/images.sh built (Jib's jib-image.tar), as a user of it would see it.

usage: image-check.py IMAGE.tar --component GROUP:NAME [...] [--sbom /app/sbom.cdx.json] [--no-shell]
       image-check.py IMAGE.tar --print-sbom      (writes the image's SBOM to stdout)

Fails (exit 1, one line per problem) unless
  * the image holds the CycloneDX SBOM at --sbom, a JSON document of format CycloneDX that names
    the image's application (metadata.component);
  * the SBOM lists every --component (a dependency the image is known to carry) and every jar in
    the image's /app/libs (Jib's dependency directory), by name and version: a stale SBOM fails;
  * with --no-shell: no shell (sh, bash, dash, ash, busybox, ...) and no package manager (apt,
    dpkg, ...) anywhere in the image's file system.
"""
import argparse
import json
import os
import posixpath
import re
import sys
import tarfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from image_archive import ArchiveError, Tree, norm, read_image  # noqa: E402

SHELLS = {"sh", "bash", "dash", "ash", "ksh", "zsh", "busybox", "toybox"}
PACKAGE_MANAGERS = {"apt", "apt-get", "aptitude", "dpkg", "apk", "yum", "dnf", "microdnf", "rpm"}


def sbom_problems(bom, components, libs):
    problems = []
    if bom.get("bomFormat") != "CycloneDX":
        return ["not a CycloneDX document (bomFormat)"]
    if not bom.get("metadata", {}).get("component", {}).get("name"):
        problems.append("no metadata.component: the SBOM does not name what it describes")
    listed = {(c.get("group", ""), c.get("name", "")): c.get("version", "") for c in bom.get("components", [])}
    for wanted in components:
        group, _, name = wanted.partition(":")
        if (group, name) not in listed:
            problems.append(f"{wanted} is not listed")
    stems = {f"{name}-{version}" for (_, name), version in listed.items()}
    for jar in libs:
        stem = jar[:-len(".jar")]
        # Jib names a dependency <artifact>-<version>[-<classifier>].jar
        if not any(stem == s or stem.startswith(s + "-") for s in stems):
            problems.append(f"/app/libs/{jar} is not listed")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("image")
    ap.add_argument("--sbom", default="/app/sbom.cdx.json")
    ap.add_argument("--component", action="append", default=[], metavar="GROUP:NAME")
    ap.add_argument("--no-shell", action="store_true")
    ap.add_argument("--print-sbom", action="store_true")
    a = ap.parse_args()

    sbom_path = norm(a.sbom)
    try:
        with tarfile.open(a.image) as outer:
            _, layers, desc = read_image(outer)
            tree = Tree.of(outer, layers, lambda path, f: f.read() if path == sbom_path else None)
    except (ArchiveError, OSError, tarfile.TarError, KeyError) as e:
        sys.exit(f"image-check: {a.image}: cannot read the image: {e}")

    if a.print_sbom:
        if sbom_path not in tree.data:
            sys.exit(f"image-check: {a.image}: no SBOM at {a.sbom}")
        sys.stdout.buffer.write(tree.data[sbom_path])
        return
    problems, bom = [], None
    if sbom_path not in tree.data:
        problems.append(f"no SBOM at {a.sbom}")
    else:
        try:
            bom = json.loads(tree.data[sbom_path])
        except ValueError as e:
            problems.append(f"{a.sbom} is not JSON: {e}")
    libs = sorted(posixpath.basename(p) for p in tree.members if re.fullmatch(r"app/libs/[^/]+\.jar", p))
    if bom is not None:
        problems += [f"{a.sbom}: {p}" for p in sbom_problems(bom, a.component, libs)]
    if a.no_shell:
        # programs, not their configuration or documentation (/etc/cron.daily/dpkg, /usr/share/menu/bash)
        found = sorted("/" + p for p, (m, _) in tree.members.items() if not m.isdir()
                       and not p.startswith(("etc/", "usr/share/")) and posixpath.basename(p) in SHELLS | PACKAGE_MANAGERS)
        problems += [f"{p}: a shell or package manager in an image that must have none" for p in found]

    if problems:
        for p in problems:
            print(f"image-check: {a.image} ({desc}): {p}", file=sys.stderr)
        sys.exit(1)
    print(f"{a.image}: {desc}: {a.sbom} lists {len(bom.get('components', []))} components, "
          f"{', '.join(a.component)} and all {len(libs)} jars of /app/libs among them"
          + ("; no shell, no package manager" if a.no_shell else ""))


if __name__ == "__main__":
    main()
