#!/usr/bin/env bash
# make backup-bench: backup and restore throughput on this machine. A local SeaweedFS (weed mini,
# scripts/seaweedfs.sh), a 3-node cluster (scripts/local-cluster.sh, plain) filled with KEYS keys
# of 100 B at 2/3, a full backup, CHANGED keys overwritten and an incremental backup (the sizes
# uploaded), a verification of the second backup on one node, a mixed load at LOAD_RATE/s at 2/3
# for LOAD_SECONDS without and during backups (p50/p99/p99.9), then a new 3-node cluster restored
# from the second backup (the time until every node is Ready). Ports 8280-8282, 8380-8382,
# 18080-33646 on 127.0.0.1. Output: the lines below.
# Env: KEYS=1000000 CHANGED=10000 LOAD_RATE=2000 LOAD_SECONDS=40.
set -u
cd "$(dirname "$0")/.."
KEYS="${KEYS:-1000000}" CHANGED="${CHANGED:-10000}" LOAD_RATE="${LOAD_RATE:-2000}" LOAD_SECONDS="${LOAD_SECONDS:-40}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
scripts/seaweedfs.sh
B="$PWD/target/backup-bench"; rm -rf "$B"; mkdir -p $B/weed $B/creds $B/b
echo -n bench > $B/creds/access-key-id; echo -n benchsecret123 > $B/creds/secret-access-key
cat > $B/s3.json <<J
{"identities":[{"name":"dht","credentials":[{"accessKey":"bench","secretKey":"benchsecret123"}],"actions":["Admin","Read","List","Tagging","Write"]}]}
J
target/seaweedfs/weed -logtostderr mini -dir=$B/weed -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.port=19333 -master.port.grpc=29333 \
  -master.volumeSizeLimitMB=256 -master.telemetry=false -volume.port=18080 -volume.port.grpc=28080 -volume.max=32 \
  -filer.port=18888 -filer.port.grpc=28888 -s3.port=18333 -s3.port.grpc=28333 -s3.port.iceberg=0 -s3.port.lance=0 \
  -s3.iam=false -s3.autoCreateBucket=false -s3.config=$B/s3.json -webdav=false -admin.ui=false -admin.port=23646 \
  -admin.port.grpc=33646 -admin.port.legacy=0 -bucket=dht-backups > $B/weed.log 2>&1 &
WEED=$!
trap 'kill $WEED 2>/dev/null; DATA_DIR=$B/a PORTS="8280 8281 8282" scripts/local-cluster.sh stop >/dev/null 2>&1; kill $(cat $B/b/pids 2>/dev/null) 2>/dev/null' EXIT
echo '{"endpoint":"http://127.0.0.1:18333","bucket":"dht-backups","prefix":"bench","pathStyle":true,"credentialsDir":"'$B/creds'"}' > $B/store.json
for _ in $(seq 1 60); do curl -s -o /dev/null http://127.0.0.1:18333/ && break; sleep 0.5; done; sleep 3
JAVA_HOME="${JAVA_HOME:-}" DATA_DIR=$B/a PORTS="8280 8281 8282" NODE_ARGS="--backup-store-file $B/store.json" scripts/local-cluster.sh start >/dev/null || exit 1
S=$(cat $B/a/secret); H="X-Dht-Cluster-Secret: $S"
t=$SECONDS
"$JAVA" -jar app/target/dht.jar loadgen --url http://127.0.0.1:8280,http://127.0.0.1:8281,http://127.0.0.1:8282 --workload fill \
  --rate 15000 --keyspace "$KEYS" --value-size 100 --ack 2 --from 3 --connections 64 --duration 600s > $B/fill.txt 2>&1
echo "fill: $KEYS keys in $((SECONDS - t)) s; $(grep 'requests in' $B/fill.txt)"
backup() { # ID
  local t0=$(date +%s.%N)
  for p in 8280 8281 8282; do curl -s -o /dev/null -w "%{http_code} " -X POST -H "$H" "http://127.0.0.1:$p/v0/admin/backup?id=$1"; done; echo
  for p in 8280 8281 8282; do
    until curl -s -H "$H" http://127.0.0.1:$p/v0/admin/backup | grep -q '"phase":"\(completed\|failed\)"'; do sleep 0.5; done
  done
  local sealed; sealed=$(curl -s -X POST -H "$H" "http://127.0.0.1:8280/v0/admin/backup/seal?id=$1")
  echo "backup $1: $(echo "$(date +%s.%N) - $t0" | bc) s; $sealed"
}
backup full
"$JAVA" -jar app/target/dht.jar loadgen --url http://127.0.0.1:8280 --workload fill --rate 5000 --keyspace "$CHANGED" \
  --value-size 100 --ack 2 --from 3 --connections 16 --duration 60s > $B/fill2.txt 2>&1
backup incremental
du -sh $B/a/node-* | tr '\n' ' '; echo
# a verification of the second backup on one node (unpaced: the store settings set no rate)
t0=$(date +%s.%N)
curl -s -o /dev/null -X POST -H "$H" "http://127.0.0.1:8281/v0/admin/backup/verify?id=incremental"
until curl -s -H "$H" http://127.0.0.1:8281/v0/admin/backup/verify | grep -q '"phase":"\(passed\|failed\|error\)"'; do sleep 0.5; done
echo "verify incremental on one node: $(echo "$(date +%s.%N) - $t0" | bc) s; $(curl -s -H "$H" http://127.0.0.1:8281/v0/admin/backup/verify)"
# the cost to clients: a mixed load at LOAD_RATE/s at 2/3, without a backup, then while backups run
# one after the other at the default throttle (20 MiB/s per node), each a full one (a new prefix)
load() { # NAME
  "$JAVA" -jar app/target/dht.jar loadgen --url http://127.0.0.1:8280,http://127.0.0.1:8281,http://127.0.0.1:8282 \
    --workload mixed --rate "$LOAD_RATE" --keyspace "$KEYS" --ack 2 --from 3 --connections 16 --warmup 5s \
    --duration "${LOAD_SECONDS}s" > $B/load-$1.txt 2>&1
  echo "load $LOAD_RATE/s mixed at 2/3, $1: $(grep -E '^ +(50\.000|99\.000|99\.900)%' $B/load-$1.txt | awk '{printf "p%s %s  ", $1, $2}')$(grep -E 'Requests/sec' $B/load-$1.txt | tr -s ' ')"
}
sleep 30 # the compactions the fill and the overwrites started settle first
load without-backup
cp $B/store.json $B/store.saved; : > $B/backups.log
( n=0; while [ ! -f $B/stop ]; do n=$((n + 1))
    sed -e 's/"prefix":"bench"/"prefix":"bench-load-'$n'"/' -e 's/}$/,"uploadBytesPerSecond":20971520}/' $B/store.saved > $B/store.json
    backup load-$n >> $B/backups.log; done ) &
LOADER=$!
sleep 2; load during-backups
touch $B/stop; wait $LOADER; cp $B/store.saved $B/store.json
echo "backups during the load: $(grep -c '^backup load-' $B/backups.log) ($(grep -o '^backup load-[0-9]*: [0-9.]* s' $B/backups.log | awk '{print $3}' | paste -sd, ) s)"
DATA_DIR=$B/a PORTS="8280 8281 8282" scripts/local-cluster.sh stop >/dev/null
echo '{"store":'$(cat $B/store.json)',"backup":"incremental"}' > $B/restore.json
t0=$(date +%s.%N); : > $B/b/pids
members="http://127.0.0.1:8380,http://127.0.0.1:8381,http://127.0.0.1:8382"
for p in 8380 8381 8382; do
  "$JAVA" --enable-native-access=ALL-UNNAMED -jar app/target/dht.jar --self http://127.0.0.1:$p --cluster $members --data-dir $B/b/node-$p \
    --cluster-secret-file $B/a/secret --event-loops 1 --restore-file $B/restore.json > $B/b/node-$p.log 2>&1 &
  echo $! >> $B/b/pids
done
for p in 8380 8381 8382; do
  until [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$p/health/ready)" = 200 ]; do sleep 0.5; done
done
echo "restore into 3 new nodes: $(echo "$(date +%s.%N) - $t0" | bc) s"
for p in 8380 8381 8382; do curl -s -H "$H" http://127.0.0.1:$p/v0/admin/restore; echo; done
for k in 0 1 $((KEYS / 2)) $((KEYS - 1)); do curl -s -o /dev/null -w "k$k %{http_code} " "http://127.0.0.1:8381/v0/entity?id=k$k&ack=2&from=3"; done; echo
echo "load: $(uptime)"
