# shellcheck shell=bash
# Sourced by dev/k8s: the images the cluster runs, made here as tarballs (no registry is reachable): pause,
# CoreDNS, metrics-server, Kafka, Redis, MinIO, the WMS, curl, Prometheus, podtargets, and the JRE base of the
# product's images.
# shellcheck disable=SC2154 # ROOT, STATE, D, CACHE, IMAGES, KUBE_BIN and the cluster's settings are dev/k8s's

mkimage() { "$(build_module mkimage "$D/tools" ./mkimage)" "$@" >/dev/null; }

# libraries [SKIP]: reads programs' paths, prints PATH=SOURCE for each shared library they load (the host's
# copy, links resolved), leaving out those under SKIP (a folder the image carries anyway).
libraries() {
  local skip=${1:-/nonexistent} program lib
  while read -r program; do
    ldd "$program" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^\s*\(\/[^ ]*\) (.*/\1/p'
  done | sort -u | while read -r lib; do
    case "$lib" in "$skip"/*) ;; *) printf '%s=%s\n' "${lib#/}" "$(readlink -f "$lib")" ;; esac
  done
}

# A minimal /etc for images: root, nobody and the uid 185 the chart runs the product as.
image_etc() {
  local etc="$CACHE/etc"
  mkdir -p "$etc"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nseeder:x:185:185:Tile Seeder:/tmp:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' \
    >"$etc/passwd"
  printf 'root:x:0:\nseeder:x:185:\nnogroup:x:65534:\n' >"$etc/group"
  printf 'hosts: files dns\n' >"$etc/nsswitch.conf"
  printf '%s\n' "$etc"
}

# wms_config DIR: lighttpd's and MapServer's configuration for the WMS image, as dev/services.d/wms.sh writes
# them for its WMS: two mapserv FastCGI processes on a socket in /tmp, the mapfile fixed in MapServer's config,
# errors to stderr (the pod's log).
wms_config() {
  mkdir -p "$1"
  write_if_changed "$1/mapserver.conf" <<'EOF'
CONFIG
  ENV
    MS_MAPFILE "/srv/dev/wms/world.map"
    MS_MAP_NO_PATH "1"
    MS_ERRORFILE "stderr"
  END
END
EOF
  write_if_changed "$1/lighttpd.conf" <<'EOF'
server.modules = ("mod_fastcgi")
server.compat-module-load = "disable"
server.port = 8090
server.document-root = "/tmp"
server.upload-dirs = ("/tmp")
fastcgi.server = ("/wms" => ("mapserv" => (
  "socket" => "/tmp/mapserv.sock",
  "bin-path" => "/usr/lib/cgi-bin/mapserv",
  "bin-environment" => ("MAPSERVER_CONFIG_FILE" => "/etc/mapserver.conf"),
  "max-procs" => 2,
  "check-local" => "disable",
)))
EOF
}

# write_if_changed FILE: writes stdin to FILE unless it holds that already (its time says when it last changed).
write_if_changed() {
  local new
  new=$(cat)
  if [ ! -f "$1" ] || [ "$(cat "$1")" != "$new" ]; then printf '%s\n' "$new" >"$1"; fi
}

# An empty, world-writable /tmp for images.
image_tmp() {
  local tmp="$CACHE/tmp"
  mkdir -p "$tmp"
  chmod 1777 "$tmp"
  printf '%s\n' "$tmp"
}

# The JRE the Java images run on: a jlink of the JDK found with the modules Quarkus, Kafka and Java2D use,
# once per JDK version. Prints its folder.
JRE_MODULES=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming
JRE_MODULES+=,java.net.http,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql
JRE_MODULES+=,java.transaction.xa,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.naming.dns,jdk.net
JRE_MODULES+=,jdk.unsupported,jdk.zipfs
jre_version() { "$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.version = //p'; }
jre_dir() {
  local jre
  jre="$CACHE/jre-$(jre_version)"
  if [ ! -f "$jre/.complete" ]; then
    step "jlink a JRE for the Java images" >&2
    rm -rf "$jre"
    "$JAVA_HOME/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
      --output "$jre" >/dev/null
    touch "$jre/.complete"
  fi
  printf '%s\n' "$jre"
}

# jre_files JRE: the JRE at /opt/java and the host's C libraries it loads (the X11 ones are left out: the
# images run headless and never load libawt_xawt).
jre_files() {
  printf 'opt/java=%s\n' "$1"
  { printf '%s\n' "$1/bin/java"; find "$1/lib" -name '*.so' ! -name 'libawt_xawt.so' ! -name 'libsplashscreen.so' \
      ! -name 'libjawt.so'; } | libraries "$1"
}

build_images() {
  local services pause podtargets coredns metrics kafka_libs redis cli minio mapserv lighttpd etc tmp jre files
  mkdir -p "$IMAGES"
  etc=$(image_etc)
  tmp=$(image_tmp)
  pause=$(build_module pause "$D/tools" ./pause)
  [ -f "$IMAGES/pause.tar" ] || mkimage -tag registry.k8s.io/pause:3.10 -out "$IMAGES/pause.tar" \
    -entrypoint '["/pause"]' -user 65535:65535 pause="$pause"
  coredns=$(build_module coredns "$D/coredns")
  [ -f "$IMAGES/coredns.tar" ] || mkimage -tag localhost/coredns:dev -out "$IMAGES/coredns.tar" \
    -entrypoint '["/coredns"]' coredns="$coredns"
  metrics=$(go_tool metrics-server sigs.k8s.io/metrics-server/cmd/metrics-server "$METRICS_SERVER_VERSION")
  if [ ! -f "$IMAGES/metrics-server.tar" ]; then
    # go install links it against the C library (cgo): take that along.
    mapfile -t files < <(libraries <<<"$metrics")
    mkimage -tag localhost/metrics-server:dev -out "$IMAGES/metrics-server.tar" -entrypoint '["/metrics-server"]' \
      metrics-server="$metrics" tmp="$tmp" "${files[@]}"
  fi
  services=$("$ROOT/dev/services" install)
  kafka_libs=$(sed -n 's/^KAFKA_LIBS=//p' <<<"$services")
  redis=$(readlink -f "$(sed -n 's/^REDIS_SERVER=//p' <<<"$services")")
  minio=$(sed -n 's/^MINIO_BIN=//p' <<<"$services")
  jre=$(jre_dir)
  if [ ! -f "$IMAGES/redis.tar" ] || [ "$redis" -nt "$IMAGES/redis.tar" ]; then
    # redis-cli for the readiness probe (PING).
    cli=$(readlink -f "$(command -v redis-cli)")
    mapfile -t files < <(printf '%s\n' "$redis" "$cli" | libraries)
    mkimage -tag localhost/redis:dev -out "$IMAGES/redis.tar" -entrypoint '["/usr/bin/redis-server"]' \
      usr/bin/redis-server="$redis" usr/bin/redis-cli="$cli" etc="$etc" "${files[@]}"
  fi
  if [ ! -f "$IMAGES/minio.tar" ] || [ "$minio" -nt "$IMAGES/minio.tar" ]; then
    mapfile -t files < <(libraries <<<"$minio")
    mkimage -tag localhost/minio:dev -out "$IMAGES/minio.tar" -entrypoint '["/usr/bin/minio"]' \
      -env MINIO_UPDATE=off usr/bin/minio="$minio" etc="$etc" tmp="$tmp" "${files[@]}"
  fi
  # Prometheus, Debian's (the package dev/chart-check installs for promtool), for the cluster tests.
  command -v prometheus >/dev/null || apt_install prometheus
  if [ ! -f "$IMAGES/prometheus.tar" ]; then
    mapfile -t files < <(libraries <<<"$(readlink -f "$(command -v prometheus)")")
    mkimage -tag localhost/prometheus:dev -out "$IMAGES/prometheus.tar" -entrypoint '["/usr/bin/prometheus"]' \
      usr/bin/prometheus="$(readlink -f "$(command -v prometheus)")" etc="$etc" tmp="$tmp" "${files[@]}"
  fi
  podtargets=$(build_module podtargets "$D/tools" ./podtargets)
  if ! { [ -f "$IMAGES/podtargets.tar" ] && [ "$IMAGES/podtargets.tar" -nt "$podtargets" ]; }; then
    mkimage -tag localhost/podtargets:dev -out "$IMAGES/podtargets.tar" -entrypoint '["/podtargets"]' \
      -user 65534:65534 podtargets="$podtargets"
  fi
  # The WMS dev/services --wms runs (Debian's lighttpd spawning mapserv over FastCGI) serving dev/wms/world.map,
  # whose data path, relative to the mapfile, holds because the image keeps the repository's layout under /srv.
  mapserv=$(readlink -f "$(sed -n 's/^MAPSERV=//p' <<<"$services")")
  lighttpd=$(readlink -f "$(sed -n 's/^LIGHTTPD=//p' <<<"$services")")
  wms_config "$CACHE/wms"
  if [ ! -f "$IMAGES/wms.tar" ] || [ "$ROOT/dev/wms/world.map" -nt "$IMAGES/wms.tar" ] \
      || [ "$CACHE/wms/lighttpd.conf" -nt "$IMAGES/wms.tar" ] || [ "$CACHE/wms/mapserver.conf" -nt "$IMAGES/wms.tar" ]; then
    mapfile -t files < <(printf '%s\n' "$mapserv" "$lighttpd" | libraries)
    mkimage -tag localhost/wms:dev -out "$IMAGES/wms.tar" -user 65534:65534 \
      -entrypoint '["/usr/sbin/lighttpd", "-D", "-f", "/etc/lighttpd.conf"]' \
      usr/lib/cgi-bin/mapserv="$mapserv" usr/sbin/lighttpd="$lighttpd" usr/share/proj=/usr/share/proj \
      etc/lighttpd.conf="$CACHE/wms/lighttpd.conf" etc/mapserver.conf="$CACHE/wms/mapserver.conf" etc="$etc" \
      tmp="$tmp" srv/dev/wms/world.map="$ROOT/dev/wms/world.map" \
      srv/layers/src/main/resources/layers/world/countries.geojson="$ROOT/layers/src/main/resources/layers/world/countries.geojson" \
      "${files[@]}"
  fi
  # curl, for the chart's `helm test` Pod (tests.image).
  if [ ! -f "$IMAGES/curl.tar" ]; then
    mapfile -t files < <(libraries <<<"$(readlink -f /usr/bin/curl)")
    mkimage -tag localhost/curl:dev -out "$IMAGES/curl.tar" -entrypoint '["/usr/bin/curl"]' \
      usr/bin/curl="$(readlink -f /usr/bin/curl)" etc="$etc" "${files[@]}"
  fi
  mapfile -t files < <(jre_files "$jre")
  if [ ! -f "$IMAGES/kafka.tar" ] || [ "$kafka_libs" -nt "$IMAGES/kafka.tar" ] || [ "$jre" -nt "$IMAGES/kafka.tar" ]; then
    mkimage -tag localhost/kafka:dev -out "$IMAGES/kafka.tar" -env PATH=/opt/java/bin:/usr/bin:/bin \
      -env LANG=C.UTF-8 -entrypoint '["/opt/java/bin/java"]' opt/kafka/libs="$kafka_libs" etc="$etc" tmp="$tmp" \
      "${files[@]}"
  fi
  # The product's base (dev/k8s-test builds the images on it with Jib): not imported, Jib reads the tarball.
  mkdir -p "$(dirname "$JRE_BASE")"
  if [ ! -f "$JRE_BASE" ] || [ "$jre" -nt "$JRE_BASE" ]; then
    mkimage -tag "localhost/tile-seeder/jre:$(jre_version)" -out "$JRE_BASE" \
      -env PATH=/opt/java/bin:/usr/bin:/bin -env JAVA_HOME=/opt/java -env LANG=C.UTF-8 etc="$etc" tmp="$tmp" \
      "${files[@]}"
  fi
}
