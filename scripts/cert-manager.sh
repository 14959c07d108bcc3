#!/usr/bin/env bash
# cert-manager.sh: a real cert-manager for the tests of spec.tls.issuerRef, in target/cert-manager/:
#   crds.yaml    its CRDs (cert-manager.io, acme.cert-manager.io)
#   controller   its controller, built from source through the Go module proxy
# The operator's tests run the controller as a process against the local apiserver (k8s-local's
# `api` mode is enough: cert-manager runs no pods). ~2.5 min the first time, then nothing.
#
# v1.11.5 is the newest release whose controller is in the main Go module (later releases keep
# cmd/controller in a module of its own, which the proxy does not serve). The operator only uses
# the stable cert-manager.io/v1 Certificate API, which every release since 1.0 serves.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=v1.11.5
OUT="$ROOT/target/cert-manager"
if [ -x "$OUT/controller" ] && [ -f "$OUT/crds.yaml" ] && [ "$(cat "$OUT/version" 2>/dev/null)" = "$VERSION" ]; then
  exit 0
fi
command -v go >/dev/null || PATH="/usr/local/go/bin:$PATH"
mkdir -p "$OUT"
echo "cert-manager $VERSION: downloading and building its controller into $OUT (~2.5 min, once)" >&2
dir="$(cd "$OUT" && GOFLAGS=-mod=mod go mod download -json "github.com/cert-manager/cert-manager@$VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
[ -d "$dir/cmd/controller" ] || { echo "cert-manager.sh: no module source for $VERSION ($dir)" >&2; exit 1; }
# the module cache is read-only, and its go.mod has a replace directive: build it as the main module
src="$(mktemp -d)"; trap 'chmod -R u+w "$src"; rm -rf "$src"' EXIT
cp -r "$dir/." "$src/" && chmod -R u+w "$src"
(cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$OUT/controller.new" ./cmd/controller)
# the CRDs are Helm templates in this release only by their labels: drop the labels block
for f in "$dir"/deploy/crds/crd-*.yaml; do
  echo "---"
  awk '/^  labels:/ { skip = 1; next } skip && /^    / { next } { skip = 0; print }' "$f"
done > "$OUT/crds.yaml.new"
mv "$OUT/controller.new" "$OUT/controller" && mv "$OUT/crds.yaml.new" "$OUT/crds.yaml"
echo "$VERSION" > "$OUT/version"
