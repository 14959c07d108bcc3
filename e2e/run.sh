#!/usr/bin/env bash
# run.sh (`make e2e`): pick the cluster, make the images available to it, run e2e/suite.sh.
#   - KUBECONFIG (or ~/.kube/config) answers: use that cluster.
#       k8s-local (context k8s-local): load the image tars with e2e/load-k8s-local.sh (by tag and
#       by digest; skipped when `make images` already loaded this tag); a kind cluster (context
#       kind-NAME): `kind load image-archive`, and each node's containerd names them by digest too;
#       any other cluster: the images must be pullable by it (IMAGE_PREFIX=your.registry/ make
#       images, push them) or be there already.
#   - otherwise: create a kind cluster "${KIND_CLUSTER:-dht-e2e}" (needs kind and Docker) and load
#     the tars with `kind load image-archive`; KIND_KEEP=1 keeps it afterwards.
# Images: target/images.env from `make images` (NODE_IMAGE, OPERATOR_IMAGE, *_TAR, *_DIGEST); the
# suite installs the chart with both digests (repository:tag@digest).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"; cd "$ROOT"
SHARED="${SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
export PATH="/opt/k8s/bin:$PATH"
T0=$SECONDS
say() { printf '[e2e +%ss] %s\n' "$((SECONDS - T0))" "$*"; }
die() { echo "e2e: ERROR: $*" >&2; exit 1; }

[ -f target/images.env ] || die "target/images.env missing: run make images first"
# shellcheck disable=SC1091
. target/images.env
# the backup step's S3 store (e2e/manifests/seaweedfs.yaml): its image, built from the Go module
# proxy once (load-k8s-local.sh does the same for k8s-local)
seaweedfs_tar() {
  scripts/seaweedfs.sh >&2 && python3 scripts/seaweedfs-image.py >/dev/null && echo "$ROOT/target/seaweedfs/seaweedfs-image.tar"
}
export NODE_IMAGE OPERATOR_IMAGE NODE_IMAGE_DIGEST OPERATOR_IMAGE_DIGEST
for tool in kubectl helm; do command -v "$tool" >/dev/null || die "$tool not found"; done
# the report page check logs in and renders the page in headless Chromium (e2e/lib/report_browser.py)
# and reads its screenshot with Pillow
# (Debian's python3-pil, for Debian's /usr/bin/python3: PATH may start with another python3)
pil_python() { for p in python3 /usr/bin/python3; do "$p" -c 'import PIL' 2>/dev/null && { command -v "$p"; return; }; done; }
if ! command -v chromium >/dev/null || [ -z "$(pil_python)" ]; then
  say "installing chromium and python3-pil (apt)"
  apt-get update -qq && apt-get install -y -qq chromium python3-pil >/dev/null || die "cannot install chromium/python3-pil"
fi
PIL_PYTHON="$(pil_python)"; export PIL_PYTHON
reachable() { timeout 20 kubectl get --raw /readyz >/dev/null 2>&1; }
# kind_name_by_digest CLUSTER: the loaded images also as repository@digest in each node's containerd
# (an imported image is known by its tag only; the kubelet looks up the pod spec's reference)
kind_name_by_digest() {
  local node image digest
  for node in $(kind get nodes --name "$1"); do
    for image in "$NODE_IMAGE=$NODE_IMAGE_DIGEST" "$OPERATOR_IMAGE=$OPERATOR_IMAGE_DIGEST"; do
      digest="${image#*=}"; image="docker.io/${image%%=*}"
      docker exec "$node" ctr -n k8s.io images tag --force "$image" "${image%:*}@$digest" >/dev/null
    done
  done
}
[ -n "${KUBECONFIG:-}" ] || [ -f "$HOME/.kube/config" ] || export KUBECONFIG=/var/lib/k8s-local/admin.kubeconfig
KIND_CREATED=""
if reachable; then
  ctx="$(kubectl config current-context 2>/dev/null || true)"
  say "using the current cluster (context ${ctx:-?}, $(kubectl get --raw /version | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p'))"
  if [ "$ctx" = k8s-local ]; then
    if [ "${LOADED_K8S_LOCAL:-}" = "$IMAGE_TAG" ]; then
      say "images $IMAGE_TAG already loaded into k8s-local by make images"
    else
      SHARED="$SHARED" "$ROOT/e2e/load-k8s-local.sh" | sed 's/^/[e2e] /'
    fi
    export CLIENT_IMAGE="${CLIENT_IMAGE:-local/debian-tools:1}" PULL_POLICY="${PULL_POLICY:-Never}"
    # the same node image under a second tag: the gated upgrade step's "new" operator default
    ( . "$SHARED/k8s-local/lib/common.sh"
      ctr -a "$CTRD_SOCK" -n k8s.io images tag --force "docker.io/$NODE_IMAGE" "docker.io/$NODE_IMAGE-next" >/dev/null ) &&
      export NODE_IMAGE_NEXT="$NODE_IMAGE-next"
  elif [[ "$ctx" == kind-* ]] && command -v kind >/dev/null; then
    for tar in "$NODE_TAR" "$OPERATOR_TAR" "$(seaweedfs_tar)"; do kind load image-archive "$tar" --name "${ctx#kind-}"; done
    kind_name_by_digest "${ctx#kind-}"
    export PULL_POLICY="${PULL_POLICY:-Never}"
  fi
  # any other cluster pulls curl's image for the in-cluster client pods
  export CLIENT_IMAGE="${CLIENT_IMAGE:-docker.io/curlimages/curl:8.11.1}"
else
  command -v kind >/dev/null || die "no reachable cluster (KUBECONFIG=${KUBECONFIG:-}) and kind is not installed: install kind + Docker, or point KUBECONFIG at a cluster"
  KIND_CLUSTER="${KIND_CLUSTER:-dht-e2e}"
  if ! kind get clusters 2>/dev/null | grep -qx "$KIND_CLUSTER"; then
    say "creating kind cluster $KIND_CLUSTER"
    kind create cluster --name "$KIND_CLUSTER" --wait 180s
    KIND_CREATED=1
  fi
  export KUBECONFIG="${TMPDIR:-/tmp}/kind-$KIND_CLUSTER.kubeconfig"
  kind get kubeconfig --name "$KIND_CLUSTER" > "$KUBECONFIG"
  reachable || die "kind cluster $KIND_CLUSTER does not answer"
  for tar in "$NODE_TAR" "$OPERATOR_TAR" "$(seaweedfs_tar)"; do
    say "kind load image-archive $(basename "$(dirname "$(dirname "$tar")")")"
    kind load image-archive "$tar" --name "$KIND_CLUSTER"
  done
  kind_name_by_digest "$KIND_CLUSTER"
  # kind nodes reach Docker Hub: curl's image for the in-cluster client pods
  export CLIENT_IMAGE="${CLIENT_IMAGE:-docker.io/curlimages/curl:8.11.1}" PULL_POLICY="${PULL_POLICY:-Never}"
fi
if [ -n "$KIND_CREATED" ] && [ -z "${KIND_KEEP:-}" ]; then
  export E2E_KIND_DELETE="$KIND_CLUSTER"   # suite.sh deletes it before its summary line
fi
say "node image $NODE_IMAGE@$NODE_IMAGE_DIGEST, operator image $OPERATOR_IMAGE@$OPERATOR_IMAGE_DIGEST"
# the suite's last line is its "N passed, M failed" summary: print nothing after it
exec "$ROOT/e2e/suite.sh"
