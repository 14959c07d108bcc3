#!/usr/bin/env bash
# aot-cache.sh IMAGE_TAR OUT_FILE [SECONDS]: the node image's ahead-of-time cache (JDK 25: classes
# loaded and linked, plus method profiles), from a training run of the image itself.
#
# The image's layers are unpacked into a scratch root; its entrypoint runs there, chrooted in a
# private mount and PID namespace, with -XX:AOTCacheOutput and the `train` subcommand (three nodes
# and the load generator in one JVM, SECONDS of load, default 30). Run this way, the cache was made
# by exactly the image's runtime, class path and jar files, which the JVM checks when it maps it.
# e2e/images.sh then builds the image again with the cache at /app/dht.aot and -XX:AOTCache.
# Needs root (unshare, chroot).
set -euo pipefail
IMAGE_TAR=$(realpath "$1") OUT=$2 SECONDS_OF_LOAD=${3:-30}
work="$(mktemp -d "${TMPDIR:-/tmp}/dht-aot.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/image" "$work/root"
tar -xf "$IMAGE_TAR" -C "$work/image"
# the layers in order, then the entrypoint and the environment, one per line (NUL-free JSON)
python3 - "$work/image" > "$work/plan" <<'PY'
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))[0]
c = json.load(open(os.path.join(d, m["Config"])))["config"]
for layer in m["Layers"]: print("layer", layer)
for e in c.get("Env", []): print("env", e)
print("entrypoint", json.dumps(c["Entrypoint"]))
PY
env_args=()
while read -r kind value; do
  case "$kind" in
    layer) tar --warning=no-unknown-keyword -xzf "$work/image/$value" -C "$work/root" ;;
    env) env_args+=("$value") ;;
  esac
done < "$work/plan"
# java [flags] -cp ... MainClass  ->  java [flags] -XX:AOTCacheOutput=... -cp ... MainClass train ...
mapfile -t cmd < <(sed -n 's/^entrypoint //p' "$work/plan" | python3 -c '
import json, sys
e = json.load(sys.stdin)
print("\n".join([e[0], "-XX:AOTCacheOutput=/tmp/dht.aot", "-Xlog:aot=warning"] + e[1:]
                + ["train", "--data-dir", "/tmp/train", "--seconds", sys.argv[1]]))' "$SECONDS_OF_LOAD")
mkdir -p "$work/root/tmp" "$work/root/proc" "$work/root/dev"
env -i "${env_args[@]}" unshare --mount --pid --fork sh -c '
  mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' \
  "$work/root" "${cmd[@]}" > "$work/train.log" 2>&1 ||
  { tail -n 30 "$work/train.log" >&2; echo "aot-cache: the training run failed" >&2; exit 1; }
[ -s "$work/root/tmp/dht.aot" ] || { tail -n 30 "$work/train.log" >&2; echo "aot-cache: no cache written" >&2; exit 1; }
cp "$work/root/tmp/dht.aot" "$OUT"
grep -E '^\s+[0-9]+ requests in|Requests/sec' "$work/train.log" | tr -s ' ' | paste -sd ' ' >&2 || true
