# shellcheck shell=bash
# Sourced by dev/k8s: what the cluster runs on, installed and built once (cached): Debian's packages (etcd,
# containerd, runc, the CNI plugins, ...), Kubernetes built from its Go module, and the project's small Go
# programs.
# shellcheck disable=SC2154 # ROOT, STATE, D, CACHE, IMAGES, KUBE_BIN and the cluster's settings are dev/k8s's

install_packages() {
  local missing=() p policy=/usr/sbin/policy-rc.d
  for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  # Keep the packages' own services (a host-wide etcd and containerd) from starting: the cluster runs its own.
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt_install "${missing[@]}"
  [ "$(trap -p EXIT)" = "" ] || { rm -f "$policy"; trap - EXIT; }
}

go_env() {
  GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 nice -n 10 "$@"
}

# The six Kubernetes programs, from the k8s.io/kubernetes module: its go.mod points the k8s.io/* staging
# modules at ./staging, which the module's zip leaves out, so those replaces are pointed at the published
# modules of the same release (v0.34.x for v1.34.x).
build_kubernetes() {
  local go src dir stage module ld programs=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy
    kubectl)
  [ -f "$KUBE_BIN/.complete" ] && return 0
  go=$(go_bin)
  step "building Kubernetes $K8S_VERSION from its Go module (once: about 4 minutes on 2 cores)"
  src="$CACHE/src/kubernetes-$K8S_VERSION"
  if [ ! -f "$src/.prepared" ]; then
    dir=$(cd "$CACHE" && go_env "$go" mod download -json "k8s.io/kubernetes@$K8S_VERSION" \
            | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
    [ -d "$dir" ] || die "could not download k8s.io/kubernetes@$K8S_VERSION"
    rm -rf "$src"
    mkdir -p "$(dirname "$src")"
    cp -r "$dir" "$src"
    chmod -R u+w "$src"
    rm -rf "$src/vendor" "$src/go.work" "$src/go.work.sum"
    stage="v0.${K8S_VERSION#v1.}"
    # shellcheck disable=SC2013 # module paths, one word each
    for module in $(sed -n 's#^\s*\(k8s.io/[^ ]*\) => ./staging/.*#\1#p' "$src/go.mod"); do
      (cd "$src" && "$go" mod edit "-replace=$module=$module@$stage")
    done
    touch "$src/.prepared"
  fi
  ld="-s -w"
  for module in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $module.gitVersion=$K8S_VERSION -X $module.gitTreeState=clean"
    ld+=" -X $module.gitMajor=1 -X $module.gitMinor=$(cut -d. -f2 <<<"$K8S_VERSION")"
  done
  mkdir -p "$KUBE_BIN" "$TOOLS_LOGS"
  if ! (cd "$src" && go_env "$go" build -trimpath -ldflags "$ld" -o "$KUBE_BIN/" \
          "${programs[@]/#/./cmd/}") >"$TOOLS_LOGS/kubernetes-build.log" 2>&1; then
    tail -n 30 "$TOOLS_LOGS/kubernetes-build.log" >&2
    die "building Kubernetes failed (see $TOOLS_LOGS/kubernetes-build.log)"
  fi
  touch "$KUBE_BIN/.complete"
}

# build_module NAME DIR: prints the program built from the Go module in DIR (main package PKG, default .),
# built into a folder keyed by a hash of the module's files, so an edit builds it anew.
build_module() {
  local name=$1 dir=$2 package=${3:-.} key out go
  key=$(cd "$dir" && cat go.mod go.sum ./*/*.go ./*.go 2>/dev/null | sha256sum | cut -c1-12)
  out="$CACHE/$name-$key/$name"
  if [ ! -x "$out" ]; then
    go=$(go_bin)
    step "building $name (once)" >&2
    mkdir -p "$(dirname "$out")" "$TOOLS_LOGS"
    if ! (cd "$dir" && go_env "$go" build -trimpath -ldflags "-s -w" -o "$out" "$package") \
          >"$TOOLS_LOGS/$name-build.log" 2>&1; then
      tail -n 20 "$TOOLS_LOGS/$name-build.log" >&2
      die "building $name failed (see $TOOLS_LOGS/$name-build.log)"
    fi
  fi
  printf '%s\n' "$out"
}
