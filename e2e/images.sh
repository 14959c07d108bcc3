#!/usr/bin/env bash
# images.sh (`make images`): the node image (also the load generator) and the operator image,
# built with Jib `jib:buildTar` (no Docker daemon, no registry) into OCI image tars
#   app/target/jib-image.tar       local/dht-node:<tag> (the app module: node and load generator)
#   operator/target/jib-image.tar  local/dht-operator:<tag>
# with a tag that changes on every build (<version>-<git sha>-<UTC time>) so that pods pick up new
# builds. Each image carries its SBOM, /app/sbom.cdx.json (CycloneDX, the module's runtime
# dependencies: cyclonedx-maven-plugin in the same Maven run as Jib), and scripts/image-check.py
# fails the build if the SBOM is missing, misses a known dependency or a jar of the image, or if
# an image built on the shell-less base holds a shell. The names, tag and digests (Jib's
# target/jib-image.digest) go to target/images.env for `make e2e` and helm. When the current
# KUBECONFIG is a running k8s-local cluster (../shared/k8s-local), the tars are loaded into it
# (e2e/load-k8s-local.sh: by tag and by digest).
#
# Base: k8s-local's Java 25 image (/opt/k8s/images/jre25-base.tar) without its shell, package
# manager and everything else the JVM and our native libraries do not need: scripts/shellless-base.py
# derives target/base/jre25-noshell.tar from it (seconds; again only when an input changed).
#
# Environment:
#   JIB_FROM_IMAGE  base image instead: e.g. tar:///opt/k8s/images/jre25-base.tar (k8s-local's, with
#                   a shell: for debugging with kubectl exec), eclipse-temurin:25-jre (the default
#                   without k8s-local; Jib pulls it from Docker Hub itself)
#   IMAGE_TAG       use this tag instead of the generated one
#   IMAGE_PREFIX    repository prefix instead of "local/" (e.g. registry.example.com/dht/)
#   LOAD_IMAGES     auto (default) | k8s-local | none
#   MVN             the Maven command (the Makefile passes its own)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"; cd "$ROOT"
SHARED="${SHARED:-$(cd "$ROOT/.." && pwd)/shared}"
MVN="${MVN:-mvn -B -ntp}"
LOCAL_BASE=/opt/k8s/images/jre25-base.tar
SHELLLESS_BASE="$ROOT/target/base/jre25-noshell.tar"
T0=$SECONDS
say() { printf '[images +%ss] %s\n' "$((SECONDS - T0))" "$*"; }

NO_SHELL=()
if [ -z "${JIB_FROM_IMAGE:-}" ]; then
  if [ -f "$LOCAL_BASE" ]; then
    compgen -G "app/target/lib/*.jar" >/dev/null || { echo "images: app/target/lib is empty: run make build first" >&2; exit 1; }
    t=$SECONDS
    natives=(); for jar in app/target/lib/*.jar; do natives+=(--native-jar "$jar"); done
    python3 scripts/shellless-base.py "$LOCAL_BASE" "$SHELLLESS_BASE" "${natives[@]}" | sed 's/^/[images] /'
    say "base without a shell: $SHELLLESS_BASE ($((SECONDS - t))s)"
    JIB_FROM_IMAGE="tar://$SHELLLESS_BASE"; NO_SHELL=(--no-shell)
  else
    JIB_FROM_IMAGE="eclipse-temurin:25-jre"
  fi
fi
version="$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' pom.xml)"
sha="$(git rev-parse --short=8 HEAD 2>/dev/null || echo nogit)"
TAG="${IMAGE_TAG:-$version-$sha-$(date -u +%Y%m%d%H%M%S)}"
PREFIX="${IMAGE_PREFIX:-local/}"
NODE_IMAGE="${PREFIX}dht-node:$TAG"
OPERATOR_IMAGE="${PREFIX}dht-operator:$TAG"

say "base $JIB_FROM_IMAGE, tag $TAG"
# jib MODULE IMAGE: the SBOM and jib:buildTar alone (the jars come from `make build`); the
# CycloneDX goal needs Maven's online mode (no download once the plugin is in ~/.m2)
jib() {
  local module=$1 image=$2
  rm -f "$module/target/jib-image.digest"
  $MVN -q -pl "$module" cyclonedx:makeBom jib:buildTar -Djib.from.image="$JIB_FROM_IMAGE" \
    -Djib.to.image="$image" -Djib.console=plain -Dstyle.color=never
}
# dependencies each image's SBOM must list (besides every jar of the image)
KNOWN_app="org.rocksdb:rocksdbjni io.netty:netty-tcnative-boringssl-static io.vertx:vertx-core"
KNOWN_operator="io.javaoperatorsdk:operator-framework-core io.fabric8:kubernetes-client"
for module in app operator; do
  image="$NODE_IMAGE"; [ "$module" = app ] || image="$OPERATOR_IMAGE"
  t=$SECONDS
  jib "$module" "$image"
  known="KNOWN_$module"; components=()
  for c in ${!known}; do components+=(--component "$c"); done
  python3 scripts/image-check.py "$module/target/jib-image.tar" "${components[@]}" "${NO_SHELL[@]}" | sed 's/^/[images] /'
  say "$image -> $module/target/jib-image.tar ($(du -m "$module/target/jib-image.tar" | cut -f1) MB, $(cat "$module/target/jib-image.digest"), $((SECONDS - t))s)"
done

mkdir -p target
cat > target/images.env <<ENV
# written by e2e/images.sh at $(date -u +%FT%TZ)
IMAGE_TAG=$TAG
NODE_IMAGE=$NODE_IMAGE
OPERATOR_IMAGE=$OPERATOR_IMAGE
NODE_IMAGE_DIGEST=$(cat app/target/jib-image.digest)
OPERATOR_IMAGE_DIGEST=$(cat operator/target/jib-image.digest)
BASE_IMAGE=$JIB_FROM_IMAGE
NODE_TAR=$ROOT/app/target/jib-image.tar
OPERATOR_TAR=$ROOT/operator/target/jib-image.tar
ENV

is_k8s_local() { # the current kubeconfig is k8s-local's and its containerd runs
  [ -x "$SHARED/k8s-local/load-image.sh" ] || return 1
  [ "$(kubectl config current-context 2>/dev/null)" = k8s-local ] || return 1
  kubectl get --raw /readyz >/dev/null 2>&1
}
case "${LOAD_IMAGES:-auto}" in
  none) ;;
  auto|k8s-local)
    export PATH="/opt/k8s/bin:$PATH" KUBECONFIG="${KUBECONFIG:-/var/lib/k8s-local/admin.kubeconfig}"
    if is_k8s_local; then
      t=$SECONDS
      SHARED="$SHARED" e2e/load-k8s-local.sh | sed 's/^/[images] /'
      echo "LOADED_K8S_LOCAL=$TAG" >> target/images.env
      say "loaded into k8s-local ($((SECONDS - t))s)"
    elif [ "${LOAD_IMAGES:-auto}" = k8s-local ]; then
      echo "images: LOAD_IMAGES=k8s-local but KUBECONFIG is not a running k8s-local cluster" >&2; exit 1
    else
      say "not loaded: the current cluster is not k8s-local (make e2e loads them into kind)"
    fi ;;
  *) echo "images: LOAD_IMAGES must be auto, k8s-local or none" >&2; exit 2 ;;
esac
say "done: target/images.env"
