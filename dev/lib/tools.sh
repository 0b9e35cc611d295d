# shellcheck shell=bash
# Sourced by the project's scripts: installs the tools they need, from Debian's packages (apt-get) or built
# with `go install` into the project's cache, which every clone on the machine shares:
#   ${TILE_SEEDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tile-seeder}
# The caller sets TOOLS_LOGS (a folder for the logs). say and die are dev/lib/common.sh's, sourced here unless
# the caller has them already.
# Environment: APT_LOCK_TIMEOUT (300): seconds apt_install waits for the package system's locks, which another
# apt-get or dpkg holds while it runs (on a freshly booted Debian or Ubuntu machine, often the unattended upgrades).

if ! declare -F say >/dev/null || ! declare -F die >/dev/null; then
  # shellcheck source-path=SCRIPTDIR source=common.sh
  source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fi

TOOLS_CACHE="${TILE_SEEDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tile-seeder}"
APT_LOCK_TIMEOUT=${APT_LOCK_TIMEOUT:-300}

# Runs apt-get install; refreshes the package lists once and retries when they are missing or stale
# (a fresh Debian image has none). Output goes to a log: it is long and only matters when it fails.
apt_install() {
  local log="$TOOLS_LOGS/apt.log"
  mkdir -p "$TOOLS_LOGS"
  [[ $APT_LOCK_TIMEOUT =~ ^[0-9]+$ ]] || die "APT_LOCK_TIMEOUT must be a number of seconds (not '$APT_LOCK_TIMEOUT')"
  command -v apt-get >/dev/null || die "installing $* needs apt-get (Debian or Ubuntu); install it by hand and re-run"
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "installing $* needs root (or sudo); install it by hand and re-run"
  fi
  say "installing $* (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  if ! apt_get "$log" install -y --no-install-recommends "$@"; then
    apt_get "$log" update || { tail -n 20 "$log" >&2; die "apt-get update failed (see $log)"; }
    apt_get "$log" install -y --no-install-recommends "$@" \
      || { tail -n 20 "$log" >&2; die "apt-get install $* failed (see $log)"; }
  fi
}

# apt_get LOG ARGS...: runs apt-get ARGS (through sudo unless root), its output appended to LOG; returns its
# status. Waits up to APT_LOCK_TIMEOUT seconds in all for the package system's locks: apt-get itself waits for
# dpkg's (-o DPkg::Lock::Timeout, apt 1.9.11 and later), and is run again every 2 s while a lock it does not
# wait for is held (apt-get update gives up at once on /var/lib/apt/lists/lock). Says so once when it waits,
# and dies naming the lock and the process holding it when the time is up.
apt_get() {
  local log=$1 start=$SECONDS out pid rc left told=0
  shift
  local -a apt=(apt-get)
  [ "$(id -u)" = 0 ] || apt=(sudo apt-get)
  out=$(mktemp)
  while :; do
    left=$((APT_LOCK_TIMEOUT - (SECONDS - start)))
    [ "$left" -gt 0 ] || left=0
    "${apt[@]}" -o "DPkg::Lock::Timeout=$left" "$@" >"$out" 2>&1 </dev/null &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      if [ "$told" = 0 ] && grep -q '^Waiting for cache lock' "$out"; then
        say "waiting up to $left s for $(apt_lock_name "$out"), held by $(apt_lock_holder "$out") ..."
        told=1
      fi
      sleep 1
    done
    rc=0
    wait "$pid" || rc=$?
    cat "$out" >>"$log"
    if [ "$rc" = 0 ] || ! grep -qE '^E: (Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock)' "$out"; then
      rm -f "$out"
      return "$rc"
    fi
    if [ $((SECONDS - start)) -ge "$APT_LOCK_TIMEOUT" ]; then
      local what holder
      what=$(apt_lock_name "$out")
      holder=$(apt_lock_holder "$out")
      rm -f "$out"
      die "apt-get $1: $what is held by another process, $holder; gave up after waiting $((SECONDS - start)) s." \
        "Let it finish (after a boot, often the unattended upgrades) and re-run, or set APT_LOCK_TIMEOUT (now $APT_LOCK_TIMEOUT) to wait longer"
    fi
    if [ "$told" = 0 ]; then
      say "waiting up to $left s for $(apt_lock_name "$out"), held by $(apt_lock_holder "$out") ..."
      told=1
    fi
    left=$((APT_LOCK_TIMEOUT - (SECONDS - start)))
    sleep $((left < 2 ? left : 2))
  done
}

# apt_lock_file OUTPUT: the lock apt-get could not get, from its output (file OUTPUT).
apt_lock_file() {
  sed -n -e 's|.*Could not get lock \(/[^ ]*\)\.\( .*\)\{0,1\}$|\1|p' \
    -e 's|.*Unable to acquire the dpkg frontend lock (\([^)]*\)).*|\1|p' \
    -e 's|.*Unable to lock the administration directory (\([^)]*\)/).*|\1/lock|p' \
    -e 's|.*Unable to lock directory \(/.*\)/$|\1/lock|p' "$1" | head -n 1
}

# apt_lock_name OUTPUT: which lock that is, for messages: "the dpkg lock (/var/lib/dpkg/lock-frontend)".
apt_lock_name() {
  local file
  file=$(apt_lock_file "$1")
  case "$file" in
    /var/lib/dpkg/*) printf 'the dpkg lock (%s)\n' "$file" ;;
    '') printf 'a lock of the package system\n' ;;
    *) printf "apt's lock %s\n" "$file" ;;
  esac
}

# apt_lock_holder OUTPUT: the process holding that lock: as apt-get names it ("It is held by process 812
# (unattended-upgr)"), else as fuser or lsof find it, else unknown.
apt_lock_holder() {
  local file holder pids='' pid names=''
  holder=$(sed -n 's/.*It is held by process \([0-9]*\) (\([^)]*\)).*/pid \1 (\2)/p' "$1" | tail -n 1)
  if [ -n "$holder" ]; then printf '%s\n' "$holder"; return 0; fi
  file=$(apt_lock_file "$1")
  if [ -n "$file" ]; then
    if command -v fuser >/dev/null; then
      pids=$(fuser "$file" 2>/dev/null || true)
    elif command -v lsof >/dev/null; then
      pids=$(lsof -t "$file" 2>/dev/null || true)
    fi
  fi
  for pid in $pids; do
    names+="${names:+, }pid $pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo '?'))"
  done
  printf '%s\n' "${names:-which one is unknown (neither fuser nor lsof names it)}"
}

# Prints the Go toolchain's path; fails with a clear message when there is none.
go_bin() {
  local go
  go=$(command -v go || true)
  [ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
  [ -n "$go" ] || die "no Go toolchain: install Go (1.24+) to build the tools the project needs"
  printf '%s\n' "$go"
}

# go_tool NAME PACKAGE VERSION: prints the path of the binary NAME built from PACKAGE@VERSION, building it
# into $TOOLS_CACHE/go/VERSION-keyed folder on first use (so a new pinned version is built beside the old).
go_tool() {
  local name=$1 package=$2 version=$3 dir go log
  dir="$TOOLS_CACHE/go/$name-$version"
  if [ ! -x "$dir/$name" ]; then
    go=$(go_bin)
    log="$TOOLS_LOGS/$name-build.log"
    mkdir -p "$dir" "$TOOLS_LOGS"
    say "building $name $version with $("$go" version | cut -d' ' -f3) into $dir (once per version) ..." >&2
    # GOTOOLCHAIN=local: build with the Go that is installed rather than downloading another toolchain.
    if ! GOBIN="$dir" GOTOOLCHAIN=local GOFLAGS=-mod=mod "$go" install "$package@$version" >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      die "building $name ($package@$version) failed (see $log)"
    fi
  fi
  printf '%s\n' "$dir/$name"
}

# Helm, pinned here for every script that uses it (dev/chart-check, dev/k8s, dev/k8s-test).
HELM_VERSION=v3.22.0
helm_bin() { go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"; }
