# shellcheck shell=bash
# Sourced by the project's scripts: installs the tools they need, from Debian's packages (apt-get) or built
# with `go install` into the project's cache, which every clone on the machine shares:
#   ${TILE_SEEDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tile-seeder}
# The caller sets TOOLS_LOGS (a folder for the logs). say and die are dev/lib/common.sh's, sourced here unless
# the caller has them already.

if ! declare -F say >/dev/null || ! declare -F die >/dev/null; then
  # shellcheck source-path=SCRIPTDIR source=common.sh
  source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fi

TOOLS_CACHE="${TILE_SEEDER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tile-seeder}"

# Runs apt-get install; refreshes the package lists once and retries when they are missing or stale
# (a fresh Debian image has none). Output goes to a log: it is long and only matters when it fails.
apt_install() {
  local apt=(apt-get) log="$TOOLS_LOGS/apt.log"
  mkdir -p "$TOOLS_LOGS"
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "installing $* needs root (or sudo); install it by hand and re-run"
    apt=(sudo apt-get)
  fi
  say "installing $* (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  if ! "${apt[@]}" install -y --no-install-recommends "$@" >>"$log" 2>&1; then
    "${apt[@]}" update >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "apt-get update failed (see $log)"; }
    "${apt[@]}" install -y --no-install-recommends "$@" >>"$log" 2>&1 \
      || { tail -n 20 "$log" >&2; die "apt-get install $* failed (see $log)"; }
  fi
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
