# shellcheck shell=bash
# Sourced by dev/services: the standalone Redis on $HOST:$REDIS_PORT, Debian's redis-server as a plain daemon
# (not the Debian service) with its folder, AOF and pid file in .dev/redis. A Redis that dev/services did not
# start but that answers on the port is reused and never stopped.
# shellcheck disable=SC2154 # HOST, DEV, LOGS and the *_PORT variables are dev/services's

REDIS_STATE='' REDIS_PID='' # set by redis_up

# True when a Redis answers PING on 127.0.0.1:$1 (speaks the protocol itself, so it works before
# redis-tools is installed, and tells a Redis from anything else holding the port).
redis_answers() {
  timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1 && printf 'PING\r\n' >&3 && IFS= read -r line <&3 && [[ \$line == +PONG* ]]" \
    2>/dev/null
}

redis_pid() { live_pid "$DEV/redis/redis.pid" redis-server; }

# Prints "ours PID", "foreign" (a Redis answering that dev/services did not start: reused) or nothing.
redis_state() {
  local pid
  if pid=$(redis_pid); then say "ours $pid"; elif redis_answers "$REDIS_PORT"; then say foreign; fi
}

redis_install() {
  [ -n "$(redis_state)" ] && return 0 # one is running already: nothing to install
  redis_install_server
}

# Installs redis-server unless it is there (dev/k8s's images need it even while a Redis runs).
redis_install_server() {
  command -v redis-server >/dev/null || apt_install redis-server
  command -v redis-server >/dev/null || die "redis-server is still missing after apt-get install"
}

redis_start() {
  local dir="$DEV/redis"
  mkdir -p "$dir"
  port_open "$REDIS_PORT" && die "port $REDIS_PORT is in use by something that is not a Redis answering PING (set REDIS_PORT)"
  # A plain process, not the Debian service: its own folder, log and pid file under .dev/. Persistent as
  # operators must run it (see the README's "Redis"): an append-only file synced every second, no snapshots.
  redis-server --bind "$HOST" --port "$REDIS_PORT" --daemonize yes --dir "$dir" \
    --logfile "$LOGS/redis.log" --pidfile "$dir/redis.pid" --save '' --appendonly yes --appendfsync everysec \
    >"$LOGS/redis.out" 2>&1 </dev/null 9>&- || { log_tail "$LOGS/redis.out"; die "redis-server did not start (see $LOGS/redis.out)"; }
}

# Starts Redis unless one answers on its port (ours, or another one: reused). REDIS_STATE: what redis_state said
# before (ours PID, foreign or nothing); REDIS_PID: the pid of ours once known (empty for a foreign one).
redis_up() {
  REDIS_STATE=$(redis_state)
  case "$REDIS_STATE" in
    ours*) REDIS_PID=${REDIS_STATE#ours }; say "Redis is already running (pid $REDIS_PID)" ;;
    foreign) REDIS_PID=; say "Redis: reusing the Redis already answering on $HOST:$REDIS_PORT (not started by dev/services; 'down' leaves it alone)" ;;
    *) redis_start; REDIS_PID= ;;
  esac
}

# Waits until ours answers PING (a foreign one answers already).
redis_wait() {
  [ "$REDIS_STATE" != foreign ] || return 0
  # redis-server --daemonize writes its pid file once it runs; the PING is what tells it is ready.
  local start=$SECONDS
  until REDIS_PID=$(redis_pid); do
    [ $((SECONDS - start)) -lt 10 ] || { log_tail "$LOGS/redis.log"; die "Redis did not start (see $LOGS/redis.log)"; }
    sleep 0.1
  done
  wait_ready Redis "$REDIS_PID" "$(timeout_for 60)" "$LOGS/redis.log" redis_answers "$REDIS_PORT"
}

redis_summary() { say "Redis          redis://$HOST:$REDIS_PORT${REDIS_PID:+, pid $REDIS_PID}"; }

redis_down() {
  local pid
  if pid=$(redis_pid); then
    say "stopping Redis (pid $pid)"; stop_pid Redis "$pid" 15
  elif redis_answers "$REDIS_PORT"; then
    say "Redis on $HOST:$REDIS_PORT was not started by dev/services: leaving it running"
  else
    say "Redis is not running"
  fi
  rm -f "$DEV/redis/redis.pid"
}

# One line; returns 3 when no Redis answers.
redis_status() {
  local pid
  if pid=$(redis_pid); then
    say "redis  running  pid $pid  redis://$HOST:$REDIS_PORT  (log $LOGS/redis.log)"
  elif redis_answers "$REDIS_PORT"; then
    say "redis  running  (not started by dev/services)  redis://$HOST:$REDIS_PORT"
  else say "redis  stopped"; return 3; fi
}

redis_check() {
  say "== Redis ($HOST:$REDIS_PORT)"
  if redis_answers "$REDIS_PORT"; then say "PING -> PONG"; else say "Redis does not answer PING"; return 1; fi
}

redis_env() { say "export SEEDER_REDIS_URL=redis://$HOST:$REDIS_PORT"; }
