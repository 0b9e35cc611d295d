# shellcheck shell=bash
# Sourced by dev/services: the Redis Sentinel set and the Redis Cluster, for the tests of those modes.
# shellcheck disable=SC2154 # HOST, DEV, LOGS and the *_PORT variables are dev/services's

# Sentinel: a master on REDIS_SENTINEL_MASTER_PORT, its replica on REDIS_SENTINEL_REPLICA_PORT and three
# sentinels from REDIS_SENTINEL_PORT up (quorum 2), watching the master under the name seeder-master.
# Cluster: three masters (no replicas) from REDIS_CLUSTER_PORT up. All from Debian's redis-server, each a plain
# daemon with its folder, config, AOF and pid file under .dev/redis-sentinel/<port> or .dev/redis-cluster/<port>.
# Each config file is written once: Redis and the sentinels rewrite their own (who is master after a
# failover, the cluster's node table), so a restart resumes the topology as it was left.

REDIS_SENTINEL_MASTER_NAME=seeder-master

sentinel_data_ports() { printf '%s\n' "$REDIS_SENTINEL_MASTER_PORT" "$REDIS_SENTINEL_REPLICA_PORT"; }
sentinel_ports() { seq "$REDIS_SENTINEL_PORT" $((REDIS_SENTINEL_PORT + 2)); }
cluster_ports() { seq "$REDIS_CLUSTER_PORT" $((REDIS_CLUSTER_PORT + 2)); }
topology_ports() { sentinel_data_ports; sentinel_ports; cluster_ports; }

# The folder of the topology node on port $1.
topology_dir() {
  if cluster_ports | grep -qx "$1"; then printf '%s\n' "$DEV/redis-cluster/$1"; else printf '%s\n' "$DEV/redis-sentinel/$1"; fi
}

topology_pid() { live_pid "$(topology_dir "$1")/redis.pid" redis-server; }

# Writes the config of the node on port $1 unless it exists; $2: data, replica, sentinel or cluster.
topology_config() {
  local port=$1 role=$2 dir conf
  dir=$(topology_dir "$port")
  conf="$dir/redis.conf"
  mkdir -p "$dir"
  [ -f "$conf" ] && return 0
  {
    say "# Written once by dev/services; Redis rewrites it (CONFIG REWRITE, sentinel state). Delete the folder to reset."
    say "bind $HOST"
    say "port $port"
    say "dir $dir"
    say "pidfile $dir/redis.pid"
    say "logfile $LOGS/redis-$port.log"
    say "daemonize yes"
    case "$role" in
      sentinel)
        say "sentinel monitor $REDIS_SENTINEL_MASTER_NAME $HOST $REDIS_SENTINEL_MASTER_PORT 2"
        # Fail over a second after the master stops answering, as tests want; operators keep the defaults.
        say "sentinel down-after-milliseconds $REDIS_SENTINEL_MASTER_NAME 1000"
        say "sentinel failover-timeout $REDIS_SENTINEL_MASTER_NAME 10000"
        ;;
      *)
        say "save \"\""
        say "appendonly yes"
        say "appendfsync everysec"
        if [ "$role" = replica ]; then say "replicaof $HOST $REDIS_SENTINEL_MASTER_PORT"; fi
        if [ "$role" = cluster ]; then
          say "cluster-enabled yes"
          say "cluster-config-file nodes.conf"
          say "cluster-node-timeout 2000"
        fi
        ;;
    esac
  } >"$conf"
}

# Starts the node on port $1 (role $2) unless it runs; prints its pid.
topology_start() {
  local port=$1 role=$2 dir pid start=$SECONDS
  dir=$(topology_dir "$port")
  if pid=$(topology_pid "$port"); then printf '%s\n' "$pid"; return 0; fi
  port_open "$port" && die "port $port is in use by a process dev/services did not start (the Redis topologies need it; set REDIS_SENTINEL_MASTER_PORT, REDIS_SENTINEL_REPLICA_PORT, REDIS_SENTINEL_PORT or REDIS_CLUSTER_PORT)"
  topology_config "$port" "$role"
  local -a sentinel=()
  if [ "$role" = sentinel ]; then sentinel=(--sentinel); fi
  redis-server "$dir/redis.conf" "${sentinel[@]}" >"$LOGS/redis-$port.out" 2>&1 </dev/null 9>&- \
    || { log_tail "$LOGS/redis-$port.out"; die "redis-server on port $port did not start (see $LOGS/redis-$port.log)"; }
  until pid=$(topology_pid "$port"); do
    [ $((SECONDS - start)) -lt 10 ] || { log_tail "$LOGS/redis-$port.log"; die "redis-server on port $port did not start (see $LOGS/redis-$port.log)"; }
    sleep 0.1
  done
  printf '%s\n' "$pid"
}

# True when the node on port $1 reports cluster_state:ok.
cluster_ok() { redis-cli -h "$HOST" -p "$1" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; }

# True when the sentinel on port $1 knows the master and at least one replica and one other sentinel.
sentinel_ok() {
  local info
  info=$(redis-cli -h "$HOST" -p "$1" info sentinel 2>/dev/null) || return 1
  [[ $info == *"name=$REDIS_SENTINEL_MASTER_NAME,status=ok,"*"slaves=1,sentinels=3"* ]]
}

topologies_up() {
  local port pid limit start
  limit=$(timeout_for 60)
  for port in $(sentinel_data_ports); do
    if [ "$port" = "$REDIS_SENTINEL_MASTER_PORT" ]; then pid=$(topology_start "$port" data); else pid=$(topology_start "$port" replica); fi
    wait_ready "Redis $port" "$pid" "$limit" "$LOGS/redis-$port.log" redis_answers "$port"
  done
  for port in $(sentinel_ports); do
    pid=$(topology_start "$port" sentinel)
    wait_ready "Sentinel $port" "$pid" "$limit" "$LOGS/redis-$port.log" redis_answers "$port"
  done
  for port in $(cluster_ports); do
    pid=$(topology_start "$port" cluster)
    wait_ready "Redis Cluster node $port" "$pid" "$limit" "$LOGS/redis-$port.log" redis_answers "$port"
  done
  # A node that knows no other one has never joined: form the cluster (once; nodes.conf remembers it).
  if redis-cli -h "$HOST" -p "$REDIS_CLUSTER_PORT" cluster info | grep -q '^cluster_known_nodes:1'; then
    say "creating the Redis Cluster on ports $(cluster_ports | paste -sd, -) ..."
    # shellcheck disable=SC2046 # one argument per node
    redis-cli --cluster create $(cluster_ports | sed "s/^/$HOST:/") --cluster-replicas 0 --cluster-yes \
      >"$LOGS/redis-cluster-create.log" 2>&1 \
      || { log_tail "$LOGS/redis-cluster-create.log"; die "redis-cli --cluster create failed (see $LOGS/redis-cluster-create.log)"; }
  fi
  for port in $(cluster_ports); do
    wait_ready "Redis Cluster node $port" "$(topology_pid "$port")" "$limit" "$LOGS/redis-$port.log" cluster_ok "$port"
  done
  for port in $(sentinel_ports); do
    wait_ready "Sentinel $port" "$(topology_pid "$port")" "$limit" "$LOGS/redis-$port.log" sentinel_ok "$port"
  done
}

topologies_down() {
  local port pid
  for port in $(topology_ports); do
    if pid=$(topology_pid "$port"); then say "stopping Redis $port (pid $pid)"; stop_pid "Redis $port" "$pid" 15; fi
  done
}

# Prints a line per node; returns 3 if one is stopped.
topologies_status() {
  local port pid all=0
  for port in $(topology_ports); do
    if pid=$(topology_pid "$port"); then
      say "redis  running  pid $pid  $HOST:$port  (log $LOGS/redis-$port.log)"
    else
      say "redis  stopped  $HOST:$port"; all=3
    fi
  done
  return "$all"
}

topologies_running() {
  local port
  for port in $(topology_ports); do topology_pid "$port" >/dev/null || return 1; done
}

topologies_any() {
  local port
  for port in $(topology_ports); do topology_pid "$port" >/dev/null && return 0; done
  return 1
}

topologies_install() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  apt_install redis-server redis-tools
  command -v redis-cli >/dev/null || die "redis-cli is still missing after apt-get install"
}

# The topologies' round trips, when they run (optional: nothing when they do not); returns 1 when one fails.
topologies_check() {
  local port ok=0
  topologies_any || return 0
  say "== Redis Sentinel and Cluster"
  for port in $(cluster_ports); do cluster_ok "$port" || { say "cluster node $port: cluster_state is not ok"; ok=1; }; done
  for port in $(sentinel_ports); do sentinel_ok "$port" || { say "sentinel $port does not see $REDIS_SENTINEL_MASTER_NAME with its replica and 3 sentinels"; ok=1; }; done
  if [ "$ok" = 0 ]; then say "sentinels agree on $REDIS_SENTINEL_MASTER_NAME, cluster_state:ok"; fi
  return "$ok"
}

topologies_summary() {
  topologies_running || return 0
  say "Redis Sentinel master $REDIS_SENTINEL_MASTER_NAME, sentinels $(sentinel_ports | sed "s/^/$HOST:/" | paste -sd' ' -)"
  say "Redis Cluster  $(cluster_ports | sed "s/^/$HOST:/" | paste -sd' ' -)"
}

# Their lines of .dev/services.env, while all of their nodes run.
topologies_env() {
  topologies_running || return 0
  say "export SEEDER_REDIS_CLUSTER_NODES=$(cluster_ports | sed "s|^|redis://$HOST:|" | paste -sd, -)"
  say "export SEEDER_REDIS_SENTINEL_NODES=$(sentinel_ports | sed "s|^|redis://$HOST:|" | paste -sd, -)"
  say "export SEEDER_REDIS_SENTINEL_MASTER=$REDIS_SENTINEL_MASTER_NAME"
}
