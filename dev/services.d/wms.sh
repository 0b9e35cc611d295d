# shellcheck shell=bash
# Sourced by dev/services: the WMS, Debian's MapServer (cgi-mapserver) as FastCGI processes spawned by Debian's
# lighttpd on $HOST:$WMS_PORT, serving the bundled world layer's data (dev/wms/world.map); beside it, under
# $MAPCACHE_PATH, a WMTS of another maker: Debian's MapCache (mapcache-cgi) caching that WMS's world layer.
# `up --wms` also installs Debian's gdal-bin (the tests open the seeded cache with GDAL's WMTS driver). Config, pid file and socket in
# .dev/wms, the log in .dev/logs/wms.log. Optional: `up` without --wms leaves a WMS started earlier running.
# shellcheck disable=SC2154 # HOST, DEV, LOGS, ROOT and the *_PORT variables are dev/services's

# lighttpd spawns WMS_PROCS mapserv FastCGI processes and answers on http://$HOST:$WMS_PORT$WMS_PATH.
WMS_MAPFILE="$ROOT/dev/wms/world.map"
WMS_PATH=/wms
MAPSERV=/usr/lib/cgi-bin/mapserv
MAPCACHE_PATH=/mapcache
MAPCACHE=/usr/lib/cgi-bin/mapcache
LIGHTTPD=/usr/sbin/lighttpd
WMS_PROCS=${WMS_PROCS:-$(nproc 2>/dev/null || echo 2)}
WMS_PID= # set by wms_up

wms_url() { printf 'http://%s:%s%s\n' "$HOST" "$WMS_PORT" "$WMS_PATH"; }

wms_pid() { live_pid "$DEV/wms/wms.pid" "$DEV/wms/lighttpd.conf"; }

# True when a WMS answers a GetCapabilities on $WMS_PORT.
wms_answers() {
  local body
  body=$(curl -fsS --max-time 5 "$(wms_url)?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities" 2>/dev/null) || return 1
  [[ $body == *"<WMS_Capabilities"* ]]
}

wms_install() {
  [ -x "$MAPSERV" ] && [ -x "$MAPCACHE" ] && [ -x "$LIGHTTPD" ] && command -v gdal_translate >/dev/null && return 0
  apt_install cgi-mapserver mapcache-cgi lighttpd gdal-bin
  local binary
  for binary in "$MAPSERV" "$MAPCACHE" "$LIGHTTPD"; do
    [ -x "$binary" ] || die "$binary is still missing after apt-get install"
  done
  command -v gdal_translate >/dev/null || die "gdal_translate is still missing after apt-get install gdal-bin"
}

# The mapserv FastCGI processes of this clone's WMS, alive or orphaned: lighttpd does not stop them when it
# exits (they get a TERM, which mapserv only notes, finishing after its next request, which never comes),
# and a new lighttpd would reuse a backend still listening on the socket instead of spawning its own.
# They are recognised by the config file lighttpd passes them in their environment.
wms_backend_pids() {
  local dir arg0 want="MAPSERVER_CONFIG_FILE=$DEV/wms/mapserver.conf"
  for dir in /proc/[0-9]*; do
    IFS= read -r -d '' arg0 2>/dev/null <"$dir/cmdline" || continue
    if [ "$arg0" != "$MAPSERV" ] || ! alive "${dir#/proc/}"; then continue; fi
    tr '\0' '\n' 2>/dev/null <"$dir/environ" | grep -qxF -- "$want" || continue
    printf '%s\n' "${dir#/proc/}"
  done
}

# The FastCGI socket (lighttpd appends -0, -1, ... per process). A Unix socket path must fit in 108 bytes:
# from a deeply nested clone, fall back to one in the temporary folder named after this clone's .dev.
wms_socket() {
  local socket="$DEV/wms/mapserv.sock"
  if [ "${#socket}" -gt 96 ]; then
    socket="${TMPDIR:-/tmp}/tile-seeder-wms-$(printf '%s' "$DEV" | sha256sum | cut -c1-12).sock"
  fi
  printf '%s\n' "$socket"
}

# lighttpd's and MapServer's configuration, written on every start (port, processes and paths may change).
wms_write_config() {
  local dir="$DEV/wms"
  mkdir -p "$dir/htdocs"
  # MapServer 8 reads a config file (MAPSERVER_CONFIG_FILE; /etc/mapserver.conf otherwise) once, when a
  # process starts. The mapfile is fixed there: under FastCGI, mapserv only sees the request's variables,
  # not its own environment, so an MS_MAPFILE in lighttpd's bin-environment would be lost. Clients need no
  # map= parameter, and MS_MAP_NO_PATH refuses one that names a path. Errors (each also answered as a
  # ServiceException) go to stderr, which lighttpd copies into its log, $LOGS/wms.log.
  cat >"$dir/mapserver.conf" <<EOF
# Written by dev/services on every start of the WMS: edit dev/services.d/wms.sh, not this file.
CONFIG
  ENV
    MS_MAPFILE "$WMS_MAPFILE"
    MS_MAP_NO_PATH "1"
    MS_ERRORFILE "stderr"
  END
END
EOF
  cat >"$dir/lighttpd.conf" <<EOF
# Written by dev/services on every start of the WMS: edit dev/services.d/wms.sh, not this file.
# lighttpd on loopback in the foreground (-D), spawning $WMS_PROCS mapserv FastCGI processes; requests beyond
# that many wait in lighttpd's queue. Nothing but $WMS_PATH is served.
server.modules = ("mod_fastcgi")
server.bind = "$HOST"
server.port = $WMS_PORT
server.document-root = "$dir/htdocs"
server.errorlog = "$LOGS/wms.log"
fastcgi.server = ("$WMS_PATH" => ("mapserv" => (
  "socket" => "$(wms_socket)",
  "bin-path" => "$MAPSERV",
  "bin-environment" => ("MAPSERVER_CONFIG_FILE" => "$dir/mapserver.conf"),
  "max-procs" => $WMS_PROCS,
  "check-local" => "disable",
)), "$MAPCACHE_PATH" => ("mapcache" => (
  "socket" => "$(wms_socket).mapcache",
  "bin-path" => "$MAPCACHE",
  "bin-environment" => ("MAPCACHE_CONFIG_FILE" => "$dir/mapcache.xml"),
  "max-procs" => 1,
  "check-local" => "disable",
)))
EOF
  # MapCache: the WMS's world and frames (WMS-T) layers as tilesets of those names, in WebMercatorQuad (MapCache's
  # GoogleMapsCompatible) and EPSG:4326 (its WGS84, WorldCRS84Quad's grid), one GetMap per tile (metatile 1 1, no buffer), so its tiles are the WMS's own; cached in
  # a folder emptied on every start. Its WMTS answers RESTful and KVP requests.
  rm -rf "$dir/mapcache"
  mkdir -p "$dir/mapcache"
  {
    cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by dev/services on every start of the WMS: edit dev/services.d/wms.sh, not this file. -->
<mapcache>
  <cache name="disk" type="disk"><base>$dir/mapcache</base></cache>
  <format name="PNG" type="PNG"><compression>fast</compression></format>
EOF
    mapcache_tileset world ''
    mapcache_tileset frames '<dimensions>
      <dimension type="values" name="TIME" default="2026-11-26T12:00:00Z">
        <value>2026-11-26T12:00:00Z</value>
        <value>2026-11-26T12:05:00Z</value>
      </dimension>
    </dimensions>'
    cat <<EOF
  <service type="wmts" enabled="true"/>
  <errors>report</errors>
  <lock_dir>$dir/mapcache</lock_dir>
  <threaded_fetching>false</threaded_fetching>
</mapcache>
EOF
  } >"$dir/mapcache.xml"
}

# mapcache_tileset LAYER EXTRA: MapCache's source and tileset of the WMS's LAYER, EXTRA (its dimensions) inside.
mapcache_tileset() {
  cat <<EOF
  <source name="$1" type="wms">
    <getmap><params><FORMAT>image/png</FORMAT><LAYERS>$1</LAYERS><TRANSPARENT>TRUE</TRANSPARENT></params></getmap>
    <http><url>$(wms_url)</url><connection_timeout>10</connection_timeout><timeout>60</timeout></http>
  </source>
  <tileset name="$1">
    <source>$1</source>
    <cache>disk</cache>
    <grid>GoogleMapsCompatible</grid>
    <grid>WGS84</grid>
    <format>PNG</format>
    <metatile>1 1</metatile>
    <metabuffer>0</metabuffer>
    $2
  </tileset>
EOF
}

wms_start() {
  local dir="$DEV/wms" pid
  [[ $WMS_PROCS =~ ^[1-9][0-9]*$ ]] || die "WMS_PROCS must be a positive number (not '$WMS_PROCS')"
  port_open "$WMS_PORT" && die "port $WMS_PORT is already in use by a process dev/services did not start (the WMS needs it; set WMS_PORT)"
  for pid in $(wms_backend_pids); do say "stopping a mapserv process left behind (pid $pid)"; stop_pid mapserv "$pid" 5; done
  wms_write_config
  : >"$LOGS/wms.log" # lighttpd appends: start afresh so error messages show this run only
  # setsid and 9>&-: as for Kafka (kafka_start).
  setsid "$LIGHTTPD" -D -f "$dir/lighttpd.conf" >"$LOGS/wms.out" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$dir/wms.pid"
}

# Stops lighttpd, then its mapserv processes (see wms_backend_pids: the TERM they got from lighttpd only
# told them to finish after one more request; this second TERM ends them).
wms_down() {
  local pid
  if pid=$(wms_pid); then
    say "stopping the WMS (pid $pid)"
    stop_pid WMS "$pid" 15
    for pid in $(wms_backend_pids); do stop_pid mapserv "$pid" 5; done
  else
    say "the WMS is not running"
    for pid in $(wms_backend_pids); do say "stopping a mapserv process left behind (pid $pid)"; stop_pid mapserv "$pid" 5; done
  fi
  rm -f "$DEV/wms/wms.pid"
}

# Starts the WMS unless it runs, when $1 is 1 (up --wms). WMS_PID: its pid, empty when it does not run.
wms_up() {
  if WMS_PID=$(wms_pid); then
    say "the WMS is already running (pid $WMS_PID)"
  elif [ "$1" = 1 ]; then
    wms_start
    WMS_PID=$(cat "$DEV/wms/wms.pid")
  fi
}

wms_wait() {
  if [ -n "$WMS_PID" ]; then wait_ready WMS "$WMS_PID" "$(timeout_for 60)" "$LOGS/wms.log" wms_answers; fi
}

wms_summary() {
  if [ -n "$WMS_PID" ]; then
    say "WMS            $(wms_url) (MapServer, $(wms_backend_pids | wc -l) FastCGI processes; layers world, frames, styled, broken; mapfile $WMS_MAPFILE), pid $WMS_PID"
    say "WMTS           http://$HOST:$WMS_PORT$MAPCACHE_PATH/wmts (MapCache of the WMS's world and frames; config $DEV/wms/mapcache.xml)"
  fi
}

# One line. Optional: a stopped WMS does not make status fail.
wms_status() {
  local pid
  if pid=$(wms_pid); then
    say "wms    running  pid $pid  $(wms_url)  (log $LOGS/wms.log)"
  else say "wms    stopped  (optional: 'dev/services up --wms' starts it)"; fi
}

# When the WMS runs (optional: skipped otherwise), a GetCapabilities naming the layer world, a GetMap of the
# whole world answering a PNG, and MapCache's WMTS capabilities naming world; returns 1 when one fails.
wms_check() {
  if ! wms_pid >/dev/null; then
    say "== WMS: not running (optional; 'dev/services up --wms' starts it), skipped"
    return 0
  fi
  say "== WMS ($(wms_url))"
  local url caps png="$DEV/wms/check.png" type
  url=$(wms_url)
  if caps=$(curl -fsS --max-time 10 "$url?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities") \
     && [[ $caps == *"<Name>world</Name>"* ]]; then
    say "GetCapabilities 1.3.0 -> layer world"
  else
    say "GetCapabilities failed or does not list the layer world"; return 1
  fi
  type=$(curl -fsS --max-time 30 -o "$png" -w '%{content_type}' "$url?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=world&STYLES=&SRS=EPSG:3857&BBOX=-20037508.34,-20037508.34,20037508.34,20037508.34&WIDTH=256&HEIGHT=256&FORMAT=image/png&TRANSPARENT=TRUE") \
    || { say "GetMap failed"; return 1; }
  if [ "$type" = image/png ] && [ "$(head -c 4 "$png" | tail -c 3)" = PNG ]; then
    say "GetMap 256x256 EPSG:3857 -> image/png, $(wc -c <"$png") bytes"
  else
    say "GetMap answered $type instead of a PNG:"; head -c 600 "$png"; say ""; return 1
  fi
  if caps=$(curl -fsS --max-time 30 "http://$HOST:$WMS_PORT$MAPCACHE_PATH/wmts?SERVICE=WMTS&REQUEST=GetCapabilities") \
     && [[ $caps == *"<ows:Identifier>world</ows:Identifier>"* ]]; then
    say "MapCache WMTS GetCapabilities -> layer world"
  else
    say "MapCache's WMTS GetCapabilities failed or does not list the layer world (log $LOGS/wms.log)"; return 1
  fi
}

# Its line of .dev/services.env, while it runs.
wms_env() {
  if wms_pid >/dev/null; then
    say "export SEEDER_WMS_URL=$(wms_url)"
    say "export SEEDER_WMTS_URL=http://$HOST:$WMS_PORT$MAPCACHE_PATH/wmts"
  fi
}
