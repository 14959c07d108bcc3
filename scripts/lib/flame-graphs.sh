# Sourced by the benchmarks.
# flame_graphs DIR RUN NODES EVENTS SECRET_FILE [CURL ARGS...]: each local node's flame graphs of its
# last profile (waiting while it still runs or converts) -> DIR/RUN-LABEL-EVENT.html. NODES are
# LABEL=ADMIN_URL pairs (the label names the node in file names: its client port); CURL ARGS reach
# the admin port (--cacert for a TLS cluster).
flame_graphs() {
  local dir=$1 run=$2 nodes=$3 events=$4 node label base e state i
  local secret=(-H "X-Dht-Cluster-Secret: $(cat "$5")")
  shift 5
  for node in $nodes; do
    label=${node%%=*} base=${node#*=}
    for i in $(seq 1 60); do # the node converts its recording when the window closes
      state="$(curl -s --max-time 5 "$@" "${secret[@]}" "$base/v0/admin/profile" || true)"
      [[ "$state" == *'"state":"running"'* ]] || break
      sleep 0.5
    done
    for e in ${events//,/ }; do
      curl -s --max-time 10 -f "$@" "${secret[@]}" -o "$dir/$run-$label-$e.html" "$base/v0/admin/profile/$e.html" ||
        echo "$run: no $e flame graph from node $label ($state)" >&2
    done
  done
}

# plain_admin_nodes PORTS: LABEL=ADMIN_URL pairs of plain local nodes (the admin API on each port)
plain_admin_nodes() { local p; for p in $1; do printf '%s=http://127.0.0.1:%s ' "$p" "$p"; done; }
