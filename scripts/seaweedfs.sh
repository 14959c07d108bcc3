#!/usr/bin/env bash
# seaweedfs.sh: a real S3-compatible object store for the backup tests, in target/seaweedfs/:
#   weed     SeaweedFS's server (Apache-2.0), one static binary built from source through the
#            Go module proxy (CGO off, -trimpath, stripped)
#   version  the module version it was built from
# The node's tests run it as a process on loopback (node/src/test/.../backup/SeaweedS3.java); e2e
# runs it as a pod from an image that holds only this binary (scripts/seaweedfs-image.py).
# ~4 min the first time (downloads ~190 modules), then nothing.
#
# The pin is the one in ../shared/VERSIONS.md (a commit, as a pseudo-version). MinIO's server is
# AGPL: do not swap it in.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=v0.0.0-20261109003541-7506e5f91cd6
OUT="$ROOT/target/seaweedfs"
if [ -x "$OUT/weed" ] && [ "$(cat "$OUT/version" 2>/dev/null)" = "$VERSION" ]; then
  exit 0
fi
command -v go >/dev/null || PATH="/usr/local/go/bin:$PATH"
mkdir -p "$OUT"
echo "seaweedfs $VERSION: downloading and building weed into $OUT (~4 min, once)" >&2
dir="$(cd "$OUT" && GOFLAGS=-mod=mod go mod download -json "github.com/seaweedfs/seaweedfs@$VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -f "$dir/weed/weed.go" ] || { echo "seaweedfs.sh: no module source for $VERSION ($dir)" >&2; exit 1; }
# the module cache is read-only, and its go.mod has replace directives: build it as the main module
src="$(mktemp -d)"; trap 'chmod -R u+w "$src"; rm -rf "$src"' EXIT
cp -r "$dir/." "$src/" && chmod -R u+w "$src"
commit="${VERSION##*-}"
(cd "$src" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/seaweedfs/seaweedfs/weed/util/version.COMMIT=${commit:0:8}" \
  -o "$OUT/weed.new" ./weed)
mv "$OUT/weed.new" "$OUT/weed"
echo "$VERSION" > "$OUT/version"
