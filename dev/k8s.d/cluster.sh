# shellcheck shell=bash
# Sourced by dev/k8s: the cluster on its node: the node's namespaces, the certificates, the daemons (etcd, the
# control plane, containerd, kubelet, kube-proxy), the add-ons and dependencies (cluster.yaml, deps.yaml), and
# stopping it all.
# shellcheck disable=SC2154 # ROOT, STATE, D, CACHE, IMAGES, KUBE_BIN and the cluster's settings are dev/k8s's

# The certificates and kubeconfigs of a kubeadm-like cluster: one CA for the cluster, one for the front proxy
# (the API aggregation metrics-server needs), a key pair for service-account tokens, a client certificate per
# component.
write_pki() {
  local p="$STATE/pki" name
  mkdir -p "$p"
  (
    cd "$p"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 -subj /CN=seeder-k8s-ca
    openssl req -x509 -newkey rsa:2048 -nodes -keyout front-proxy-ca.key -out front-proxy-ca.crt -days 3650 \
      -subj /CN=seeder-k8s-front-proxy-ca
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
    # cert NAME CN O EXTENSIONS [CA]
    cert() {
      printf '%s\n' "$4" >"$1.ext"
      openssl req -new -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "/O=$3/CN=$2"
      openssl x509 -req -in "$1.csr" -CA "${5:-ca}.crt" -CAkey "${5:-ca}.key" -CAcreateserial -out "$1.crt" \
        -days 3650 -extfile "$1.ext"
    }
    client='basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'
    cert apiserver kube-apiserver kubernetes "basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:127.0.0.1,IP:$API_SERVICE_IP,IP:$NODE_IP"
    cert admin seeder-admin system:masters "$client"
    cert apiserver-kubelet kube-apiserver-kubelet-client system:masters "$client"
    cert front-proxy-client front-proxy-client "" "$client" front-proxy-ca
    cert controller-manager system:kube-controller-manager system:kube-controller-manager "$client"
    cert scheduler system:kube-scheduler system:kube-scheduler "$client"
    cert kube-proxy system:kube-proxy system:node-proxier "$client"
    cert kubelet "system:node:$NODE" system:nodes "$client"
  ) >"$STATE/logs/pki.log" 2>&1 || die "making the certificates failed (see $STATE/logs/pki.log)"
  # Inside the node the components reach the API server on 127.0.0.1:6443; from the host, its forward.
  for name in admin controller-manager scheduler kube-proxy kubelet; do
    kubeconfig "$name" https://127.0.0.1:6443 >"$STATE/$name-inner.kubeconfig"
  done
  kubeconfig admin "https://127.0.0.1:$API_PORT" >"$STATE/admin.kubeconfig"
}

kubeconfig() {
  cat <<YAML
apiVersion: v1
kind: Config
clusters: [{name: seeder, cluster: {server: "$2", certificate-authority: $STATE/pki/ca.crt}}]
users: [{name: $1, user: {client-certificate: $STATE/pki/$1.crt, client-key: $STATE/pki/$1.key}}]
contexts: [{name: seeder, context: {cluster: seeder, user: $1, namespace: default}}]
current-context: seeder
YAML
}

# start NAME COMMAND...: a daemon inside the node's namespaces, in a session of its own, logging to logs/NAME.log.
start() {
  local name=$1
  shift
  setsid nsenter -t "$(holder_pid)" -n -m nice -n 5 "$@" </dev/null >"$STATE/logs/$name.log" 2>&1 &
  printf '%s\n' "$!" >"$STATE/pids/$name.pid"
}

# True once process $1 runs in a network namespace other than this script's.
own_namespace() { [ "$(readlink "/proc/$1/ns/net")" != "$(readlink /proc/self/ns/net)" ]; }

# The node's namespaces: a network namespace with loopback and a veth pair (both ends inside: the kernel here
# has no dummy device) carrying the node's address and default route, and a mount namespace with private /run,
# /var/log and the global sysctls the kubelet writes.
make_node() {
  local pid f copy
  setsid unshare --net --mount --propagation slave sh -c 'mount --make-rshared / && exec sleep infinity' \
    </dev/null >/dev/null 2>&1 &
  pid=$!
  printf '%s\n' "$pid" >"$STATE/pids/holder.pid"
  waitfor "the node's namespace" own_namespace "$pid"
  in_node ip link set lo up
  in_node ip link add seeder0 type veth peer name seeder0p
  in_node ip link set seeder0 up
  in_node ip link set seeder0p up
  in_node ip addr add "$NODE_IP/32" dev seeder0
  in_node ip route add default dev seeder0
  in_node sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 net.ipv4.conf.all.route_localnet=1
  in_node sysctl -qw net.ipv4.conf.seeder0p.forwarding=0
  for f in vm/overcommit_memory vm/panic_on_oom kernel/panic kernel/panic_on_oops kernel/keys/root_maxkeys \
           kernel/keys/root_maxbytes; do
    copy="$STATE/sysctl/${f//\//.}"
    mkdir -p "$STATE/sysctl"
    cat "/proc/sys/$f" >"$copy"
    in_node mount --bind "$copy" "/proc/sys/$f"
  done
  mkdir -p "$STATE/var-log"
  in_node mount --bind "$STATE/var-log" /var/log
  in_node mount -t tmpfs -o mode=755 tmpfs /run
  printf 'search cluster.local\n' >"$STATE/resolv.conf"
}

start_control_plane() {
  local p="$STATE/pki"
  start etcd etcd --name "$NODE" --data-dir "$STATE/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 \
    --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster "$NODE=http://127.0.0.1:2380"
  waitfor etcd in_node curl -fsS http://127.0.0.1:2379/health
  start kube-apiserver "$KUBE_BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 --bind-address=0.0.0.0 \
    --secure-port=6443 --advertise-address="$NODE_IP" --service-cluster-ip-range="$SERVICE_CIDR" \
    --client-ca-file="$p/ca.crt" --tls-cert-file="$p/apiserver.crt" --tls-private-key-file="$p/apiserver.key" \
    --kubelet-client-certificate="$p/apiserver-kubelet.crt" --kubelet-client-key="$p/apiserver-kubelet.key" \
    --kubelet-preferred-address-types=InternalIP --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$p/sa.pub" --service-account-signing-key-file="$p/sa.key" \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction --profiling=false \
    --requestheader-client-ca-file="$p/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- --proxy-client-cert-file="$p/front-proxy-client.crt" \
    --proxy-client-key-file="$p/front-proxy-client.key" --enable-aggregator-routing=true
  # The host's way in: a unix socket inside the node's network, forwarded to 127.0.0.1:$API_PORT on the host.
  start api-forward-node socat "UNIX-LISTEN:$STATE/apiserver.sock,fork,unlink-early" TCP:127.0.0.1:6443
  setsid socat "TCP-LISTEN:$API_PORT,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$STATE/apiserver.sock" \
    </dev/null >"$STATE/logs/api-forward-host.log" 2>&1 &
  printf '%s\n' "$!" >"$STATE/pids/api-forward-host.pid"
  waitfor kube-apiserver inner_kubectl get --raw /readyz
  start kube-controller-manager "$KUBE_BIN/kube-controller-manager" \
    --kubeconfig="$STATE/controller-manager-inner.kubeconfig" \
    --authentication-kubeconfig="$STATE/controller-manager-inner.kubeconfig" \
    --authorization-kubeconfig="$STATE/controller-manager-inner.kubeconfig" \
    --service-account-private-key-file="$p/sa.key" --root-ca-file="$p/ca.crt" --use-service-account-credentials=true \
    --cluster-signing-cert-file="$p/ca.crt" --cluster-signing-key-file="$p/ca.key" --leader-elect=false \
    --bind-address=127.0.0.1 --profiling=false --horizontal-pod-autoscaler-sync-period=10s
  start kube-scheduler "$KUBE_BIN/kube-scheduler" --kubeconfig="$STATE/scheduler-inner.kubeconfig" \
    --authentication-kubeconfig="$STATE/scheduler-inner.kubeconfig" \
    --authorization-kubeconfig="$STATE/scheduler-inner.kubeconfig" --leader-elect=false --bind-address=127.0.0.1 \
    --profiling=false
}

start_node() {
  local sock="$STATE/containerd/containerd.sock" image
  mkdir -p "$STATE/containerd" "$STATE/cni/net.d" "$STATE/cni/ipam" "$STATE/kubelet"
  cat >"$STATE/containerd/config.toml" <<TOML
version = 2
root = "$STATE/containerd/root"
state = "$STATE/containerd/state"
[grpc]
  address = "$sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  # Where CAP_SYS_RESOURCE is missing from the capability bounding set (a sandboxed VM), runc cannot lower
  # oom_score_adj and fails every pod ("failed to update /proc/self/oom_score_adj"): keep it at ours or above.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
TOML
  cat >"$STATE/cni/net.d/10-pods.conflist" <<JSON
{"cniVersion": "0.4.0", "name": "pods", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
   "ipam": {"type": "host-local", "dataDir": "$STATE/cni/ipam", "ranges": [[{"subnet": "$POD_CIDR"}]],
            "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
JSON
  start containerd containerd --config "$STATE/containerd/config.toml"
  waitfor containerd in_node ctr --address "$sock" version
  for image in "$IMAGES"/*.tar; do load "$image"; done
  cat >"$STATE/kubelet/config.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $STATE/pki/ca.crt}
authorization: {mode: Webhook}
# cgroupfs, and cgroup v1 allowed: the hosts this runs on may have a v1 (hybrid) hierarchy and no systemd.
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://$sock
clusterDomain: cluster.local
clusterDNS: [$DNS_IP]
resolvConf: $STATE/resolv.conf
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
systemReserved: {cpu: $RESERVED_CPU, memory: 1Gi}
enforceNodeAllocatable: [pods]
# The project's disk is shared with builds and caches: evict only when it is really full.
evictionHard: {memory.available: 200Mi, nodefs.available: "2%", imagefs.available: "2%", nodefs.inodesFree: "2%"}
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
YAML
  start kubelet "$KUBE_BIN/kubelet" --config="$STATE/kubelet/config.yaml" \
    --kubeconfig="$STATE/kubelet-inner.kubeconfig" --root-dir="$STATE/kubelet/root" --hostname-override="$NODE" \
    --node-ip="$NODE_IP" --cert-dir="$STATE/kubelet/pki"
  cat >"$STATE/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $STATE/kube-proxy-inner.kubeconfig}
mode: iptables
clusterCIDR: 10.244.0.0/16
hostnameOverride: $NODE
metricsBindAddress: 127.0.0.1:10249
healthzBindAddress: 127.0.0.1:10256
# Leave the conntrack sysctls alone: they are the host's, not the namespace's.
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
YAML
  start kube-proxy "$KUBE_BIN/kube-proxy" --config="$STATE/kube-proxy.yaml"
  waitfor "the node" sh -c "'$KUBE_BIN/kubectl' --kubeconfig '$STATE/admin.kubeconfig' get node $NODE \
    -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
}

# load IMAGE.tar: imports an image tarball into the node's containerd.
load() {
  in_node ctr --address "$STATE/containerd/containerd.sock" -n k8s.io images import --no-unpack=false "$1" \
    >>"$STATE/logs/images.log" 2>&1 || die "importing $1 failed (see $STATE/logs/images.log)"
}

# The cluster's add-ons (CoreDNS, metrics-server) and the product's dependencies, from dev/k8s.d/*.yaml with
# __STATE__ (hostPath volumes) and __DNS_IP__ filled in.
apply_manifests() {
  local file
  mkdir -p "$STATE/volumes/kafka" "$STATE/volumes/redis" "$STATE/volumes/minio"
  chown 1000:1000 "$STATE/volumes/kafka" "$STATE/volumes/redis" "$STATE/volumes/minio"
  for file in "$D/cluster.yaml" "$D/deps.yaml"; do
    sed -e "s#__STATE__#$STATE#g" -e "s#__DNS_IP__#$DNS_IP#g" "$file" | kctl apply -f - >>"$STATE/logs/apply.log" 2>&1 \
      || { tail -n 20 "$STATE/logs/apply.log" >&2; die "kubectl apply -f $file failed"; }
  done
}

kctl() { "$KUBE_BIN/kubectl" --kubeconfig "$STATE/admin.kubeconfig" "$@"; }

wait_rollouts() {
  local what
  for what in kube-system/deployment/coredns kube-system/deployment/metrics-server seeder-deps/deployment/kafka \
              seeder-deps/statefulset/redis seeder-deps/deployment/minio seeder-deps/deployment/wms; do
    waitfor "$what" kctl -n "${what%%/*}" rollout status "${what#*/}" --timeout=5s
  done
  waitfor "the metrics API" kctl top node
}

# Stops everything in the node's namespaces (daemons, container shims, pods), the host-side forward, and
# removes the pod cgroups and the state.
stop_cluster() {
  local holder mnt pid victims round c
  holder=$(holder_pid || true)
  for pid in kubelet kube-proxy; do
    if [ -f "$STATE/pids/$pid.pid" ]; then kill "$(cat "$STATE/pids/$pid.pid")" 2>/dev/null || true; fi
  done
  if [ -n "$holder" ] && [ -e "/proc/$holder/ns/mnt" ]; then
    mnt=$(readlink "/proc/$holder/ns/mnt")
    for round in 1 2 3 4 5 6; do
      victims=()
      for pid in /proc/[0-9]*; do
        pid=${pid#/proc/}
        [ "$pid" = "$holder" ] && continue
        [ "$(readlink "/proc/$pid/ns/mnt" 2>/dev/null)" = "$mnt" ] && victims+=("$pid")
      done
      [ ${#victims[@]} -eq 0 ] && break
      if [ "$round" -le 2 ]; then kill "${victims[@]}" 2>/dev/null || true; else kill -9 "${victims[@]}" 2>/dev/null || true; fi
      sleep 1
    done
    kill "$holder" 2>/dev/null || true
  fi
  # Containers run in mount namespaces of their own: find them by their cgroup.
  for round in 1 2 3; do
    victims=()
    mapfile -t victims < <(cat /sys/fs/cgroup/*/kubepods/cgroup.procs /sys/fs/cgroup/*/kubepods/*/cgroup.procs \
      /sys/fs/cgroup/*/kubepods/*/*/cgroup.procs /sys/fs/cgroup/*/kubepods/*/*/*/cgroup.procs 2>/dev/null | sort -u)
    [ ${#victims[@]} -eq 0 ] && break
    kill -9 "${victims[@]}" 2>/dev/null || true
    sleep 1
  done
  if [ -f "$STATE/pids/api-forward-host.pid" ]; then
    kill "$(cat "$STATE/pids/api-forward-host.pid")" 2>/dev/null || true
  fi
  for c in /sys/fs/cgroup/*/kubepods; do
    if [ -d "$c" ]; then find "$c" -depth -type d -exec rmdir {} + 2>/dev/null || true; fi
  done
  rm -rf "$STATE"
}
