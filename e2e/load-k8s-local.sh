#!/usr/bin/env bash
# load-k8s-local.sh: load the images of target/images.env (make images) into k8s-local's containerd
# so that pods find them by tag and by digest. e2e/images.sh and e2e/run.sh call it.
#   1. ../shared/k8s-local/load-image.sh imports NODE_TAR and OPERATOR_TAR (docker.io/<name>:<tag>)
#   2. the digest containerd holds must be the one Jib wrote (NODE_IMAGE_DIGEST, ...): Jib's OCI
#      tar keeps its manifest through `ctr import`
#   3. each image is also named <repository>@<digest>: the kubelet looks an image up by the name
#      in the pod spec, and containerd knows an imported image by its tag only (a pull by digest
#      would have made that name). A reference repository:tag@digest is looked up by the digest.
#   4. the SeaweedFS image of e2e/manifests/seaweedfs.yaml (the backup e2e's S3 store): built by
#      scripts/seaweedfs.sh and scripts/seaweedfs-image.py (nothing to do when up to date), by tag
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"; cd "$ROOT"
SHARED="${SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
die() { echo "load-k8s-local: ERROR: $*" >&2; exit 1; }

[ -f target/images.env ] || die "target/images.env missing: run make images first"
# shellcheck disable=SC1091
. target/images.env
"$SHARED/k8s-local/load-image.sh" "$NODE_TAR" "$OPERATOR_TAR" | sed 's/^/loaded /'
# shellcheck disable=SC1091
. "$SHARED/k8s-local/lib/common.sh"
name_by_digest() { # IMAGE DIGEST: check containerd's digest of IMAGE, name it repository@DIGEST
  local ref="docker.io/$1" digest="$2" held
  [ -n "$digest" ] || die "no digest for $1 in target/images.env"
  held="$(ctr_ images ls "name==$ref" | awk 'NR == 2 {print $3}')"
  [ "$held" = "$digest" ] || die "containerd holds $ref as ${held:-nothing}, Jib built $digest"
  ctr_ images tag --force "$ref" "${ref%:*}@$digest" >/dev/null
  echo "named ${ref%:*}@$digest"
}
name_by_digest "$NODE_IMAGE" "${NODE_IMAGE_DIGEST:-}"
name_by_digest "$OPERATOR_IMAGE" "${OPERATOR_IMAGE_DIGEST:-}"
scripts/seaweedfs.sh
python3 scripts/seaweedfs-image.py >/dev/null
"$SHARED/k8s-local/load-image.sh" target/seaweedfs/seaweedfs-image.tar | sed 's/^/loaded /'
