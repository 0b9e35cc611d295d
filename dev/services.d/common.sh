# shellcheck shell=bash
# Sourced by dev/services: what its services share. Starting, probing and stopping the servers' processes, and
# the tools `up` and `check` need (curl, a JDK). Reads HOST, DEV, LOGS, ROOT (set by dev/services).
# shellcheck disable=SC2154 # HOST and ROOT are dev/services's

# True when something accepts TCP connections on 127.0.0.1:$1 (bash's /dev/tcp: needs no extra tool).
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

# True while process $1 exists and is not a zombie. A server that exits while this script still runs is
# our child and stays a zombie until reaped, and in some containers PID 1 never reaps orphans: kill -0
# alone would call such a process alive forever.
alive() {
  local stat
  kill -0 "$1" 2>/dev/null || return 1
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat:0:1}" != Z ]
}

# Prints the pid recorded in pid file $1 if that process is alive AND its command line contains $2, so a
# stale pid file whose pid was reused by an unrelated process is never mistaken for (or killed as) ours.
live_pid() {
  local file=$1 pattern=$2 pid
  [ -f "$file" ] || return 1
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] && alive "$pid" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$pattern" || return 1
  printf '%s\n' "$pid"
}

# Seconds to wait for a server: SERVICES_TIMEOUT when set, else the server's default ($1).
timeout_for() { printf '%s\n' "${SERVICES_TIMEOUT:-$1}"; }

# Shows the end of a log (and of its .out companion, the process's own stdout/stderr, where a JVM that
# cannot start writes why), for error messages.
log_tail() {
  local file
  for file in "$1" "${1%.log}.out"; do
    if [ -s "$file" ]; then { printf -- '--- last lines of %s ---\n' "$file"; tail -n "${2:-20}" "$file"; } >&2; fi
  done
}

need_tools() {
  # curl probes MinIO and does the S3 check; a minimal Debian image may lack it.
  command -v curl >/dev/null || apt_install curl ca-certificates
}

jdk() {
  # Exports JAVA_HOME / PATH for a JDK 21+ (shared with the project's other scripts).
  # shellcheck source-path=SCRIPTDIR source=../lib/java.sh
  source "$ROOT/dev/lib/java.sh"
  find_jdk
}

# Stops pid $2 (service $1): TERM, wait up to $3 s, then KILL; waits until it is really gone.
stop_pid() {
  local name=$1 pid=$2 limit=$3 waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while alive "$pid"; do
    if [ "$waited" -ge $((limit * 10)) ]; then
      say "$name (pid $pid) did not stop within ${limit}s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
      while alive "$pid"; do sleep 0.1; done
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

# Waits until "$@" succeeds. Fails (pointing at the log) when the server's process dies or time runs out.
# $1 name, $2 pid, $3 timeout in seconds, $4 log file, then the probe command.
wait_ready() {
  local name=$1 pid=$2 limit=$3 log=$4 start=$SECONDS
  shift 4
  until "$@"; do
    if ! alive "$pid"; then
      log_tail "$log"
      die "$name exited while starting (see $log and ${log%.log}.out)"
    fi
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      log_tail "$log"
      die "$name did not get ready within ${limit}s (see $log); it is still running: 'dev/services down' stops it"
    fi
    sleep 0.3
  done
}
