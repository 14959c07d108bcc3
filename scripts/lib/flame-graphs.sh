# Sourced by the benchmarks. flame_graphs DIR RUN PORTS EVENTS SECRET_FILE: each local node's flame
# graphs of its last profile (waiting while it still runs or converts) -> DIR/RUN-PORT-EVENT.html
flame_graphs() {
  local dir=$1 run=$2 ports=$3 events=$4 p e state i
  local secret=(-H "X-Dht-Cluster-Secret: $(cat "$5")")
  for p in $ports; do
    for i in $(seq 1 60); do # the node converts its recording when the window closes
      state="$(curl -s --max-time 5 "${secret[@]}" "http://127.0.0.1:$p/v0/admin/profile" || true)"
      [[ "$state" == *'"state":"running"'* ]] || break
      sleep 0.5
    done
    for e in ${events//,/ }; do
      curl -s --max-time 10 -f "${secret[@]}" -o "$dir/$run-$p-$e.html" "http://127.0.0.1:$p/v0/admin/profile/$e.html" ||
        echo "$run: no $e flame graph from node $p ($state)" >&2
    done
  done
}
