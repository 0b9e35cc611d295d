# shellcheck shell=bash
# Sourced by dev/services: Azurite, Microsoft's Azure Storage emulator, its Blob service only, on
# $HOST:$AZURITE_PORT; installed once from npm (azurite@$AZURITE_VERSION) into the cache. Data and pid file in
# .dev/azurite, its log in .dev/logs/azurite.log. Optional: `up` without --clouds leaves one started earlier running.
# shellcheck disable=SC2154 # HOST, DEV, LOGS, CACHE and the *_PORT variables are dev/services's

# 3.35.0: the last release that supports Node.js 20 (3.36 raised the minimum to 21, 3.37 to 22), the Node.js
# of the machines the project is built on.
AZURITE_VERSION=3.35.0
# Azurite's well-known development account and key, public (Microsoft documents them): they guard nothing.
AZURITE_ACCOUNT=devstoreaccount1
AZURITE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==
AZURITE_API_VERSION=2021-12-02 # the x-ms-version of azurite_check's requests
AZURITE_PID= # set by azurite_up

azurite_bin() { printf '%s\n' "$CACHE/azurite-$AZURITE_VERSION/node_modules/.bin/azurite-blob"; }

# Path-style: the account is the URL's first path segment, not a host name.
azurite_url() { printf 'http://%s:%s/%s\n' "$HOST" "$AZURITE_PORT" "$AZURITE_ACCOUNT"; }

# Any HTTP answer will do: unsigned, the list of containers is refused (403).
azurite_ready() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$(azurite_url)?comp=list" 2>/dev/null) || true
  [ -n "$code" ] && [ "$code" != 000 ]
}

azurite_pid() { live_pid "$DEV/azurite/azurite.pid" "--location $DEV/azurite/data"; }

azurite_install() {
  [ -x "$(azurite_bin)" ] && return 0
  command -v npm >/dev/null || apt_install nodejs npm
  local dir="$CACHE/azurite-$AZURITE_VERSION"
  say "installing Azurite $AZURITE_VERSION (npm) into $dir (about a minute the first time) ..."
  mkdir -p "$dir"
  # --ignore-scripts: Azurite needs no install script of any of its dependencies.
  if ! npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts "azurite@$AZURITE_VERSION" \
        >"$LOGS/azurite-install.log" 2>&1; then
    log_tail "$LOGS/azurite-install.log"
    die "installing Azurite failed (see $LOGS/azurite-install.log)"
  fi
}

azurite_start() {
  local dir="$DEV/azurite" pid
  mkdir -p "$dir/data"
  port_open "$AZURITE_PORT" && die "port $AZURITE_PORT is already in use by a process dev/services did not start (Azurite needs it; set AZURITE_PORT)"
  # --skipApiVersionCheck: the Azure SDKs send API versions newer than Azurite knows. --loose: headers and
  # parameters Azurite does not implement are ignored rather than refused. --disableProductStyleUrl: the account
  # is always the first path segment (path-style URLs). --silent: no access log, a line per request.
  setsid "$(azurite_bin)" --blobHost "$HOST" --blobPort "$AZURITE_PORT" --location "$dir/data" \
    --skipApiVersionCheck --loose --disableProductStyleUrl --disableTelemetry --silent \
    >"$LOGS/azurite.log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$dir/azurite.pid"
}

# Starts Azurite unless it runs, when $1 is 1 (up --clouds). AZURITE_PID: its pid, empty when it does not run.
azurite_up() {
  if AZURITE_PID=$(azurite_pid); then
    say "Azurite is already running (pid $AZURITE_PID)"
  elif [ "$1" = 1 ]; then
    azurite_start
    AZURITE_PID=$(cat "$DEV/azurite/azurite.pid")
  fi
}

azurite_wait() {
  if [ -n "$AZURITE_PID" ]; then
    wait_ready Azurite "$AZURITE_PID" "$(timeout_for 60)" "$LOGS/azurite.log" azurite_ready
  fi
}

azurite_summary() {
  if [ -n "$AZURITE_PID" ]; then
    say "Azurite        Blob $(azurite_url) (Azurite $AZURITE_VERSION, account $AZURITE_ACCOUNT, its well-known key), pid $AZURITE_PID"
  fi
}

azurite_down() {
  local pid
  if pid=$(azurite_pid); then say "stopping Azurite (pid $pid)"; stop_pid Azurite "$pid" 15; else say "Azurite is not running"; fi
  rm -f "$DEV/azurite/azurite.pid"
}

# One line. Optional: a stopped Azurite does not make status fail.
azurite_status() {
  local pid
  if pid=$(azurite_pid); then
    say "azurite  running  pid $pid  Blob $(azurite_url)  (log $LOGS/azurite.log)"
  else say "azurite  stopped  (optional: 'dev/services up --clouds' starts it)"; fi
}

# azurite_request VERB PATH [QUERY [BODY]]: one Blob request signed with the account's key (Shared Key: an
# HMAC-SHA256 of the request's canonical form), printing the answer's body; fails on an HTTP error. QUERY is
# one name=value at most; a BODY is put as a block blob.
azurite_request() {
  local verb=$1 path=$2 query=${3:-} body=${4:-} date length='' type='' headers sts key sig
  local -a put=()
  date=$(LC_ALL=C TZ=GMT date '+%a, %d %b %Y %H:%M:%S GMT')
  headers="x-ms-date:$date"$'\n'"x-ms-version:$AZURITE_API_VERSION"
  if [ -n "$body" ]; then
    length=${#body} type=text/plain
    headers="x-ms-blob-type:BlockBlob"$'\n'"$headers"
    put=(-H "x-ms-blob-type: BlockBlob" -H "Content-Type: $type" --data-binary "$body")
  fi
  # The fields Shared Key signs: verb, 11 standard headers (only Content-Length and Content-Type set here), the
  # x-ms-* headers sorted, then the resource: the account, the path (for the emulator, starting with the account
  # again) and the query's parameters.
  sts="$verb"$'\n\n\n'"$length"$'\n\n'"$type"$'\n\n\n\n\n\n\n'"$headers"$'\n'"/$AZURITE_ACCOUNT/$AZURITE_ACCOUNT$path${query:+$'\n'${query/=/:}}"
  key=$(printf '%s' "$AZURITE_KEY" | base64 -d | od -An -v -tx1 | tr -d ' \n')
  sig=$(printf '%s' "$sts" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | base64)
  curl -fsS --max-time 10 -X "$verb" -H "x-ms-date: $date" -H "x-ms-version: $AZURITE_API_VERSION" \
    -H "Authorization: SharedKey $AZURITE_ACCOUNT:$sig" "${put[@]}" "$(azurite_url)$path${query:+?$query}"
}

# When Azurite runs (optional: skipped otherwise), a Blob round trip: create a container, put, get and delete a
# blob, delete the container; returns 1 when it fails.
azurite_check() {
  if ! azurite_pid >/dev/null; then
    say "== Azurite: not running (optional; 'dev/services up --clouds' starts it), skipped"
    return 0
  fi
  say "== Azurite Blob ($(azurite_url))"
  local container="dev-check-$$"
  if azurite_request PUT "/$container" restype=container \
     && azurite_request PUT "/$container/hello.txt" '' "hello tiles" \
     && [ "$(azurite_request GET "/$container/hello.txt")" = "hello tiles" ] \
     && azurite_request DELETE "/$container/hello.txt" \
     && azurite_request DELETE "/$container" restype=container; then
    say "create container, put, get, delete (Shared Key) -> OK"
  else
    say "the Blob round trip failed (log $LOGS/azurite.log)"; return 1
  fi
}

# Its lines of .dev/services.env, while it runs. Quoted: the connection string holds ; and =.
azurite_env() {
  if azurite_pid >/dev/null; then
    say "export SEEDER_AZURE_CONNECTION_STRING='DefaultEndpointsProtocol=http;AccountName=$AZURITE_ACCOUNT;AccountKey=$AZURITE_KEY;BlobEndpoint=$(azurite_url);'"
  fi
}
