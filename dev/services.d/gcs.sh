# shellcheck shell=bash
# Sourced by dev/services: fake-gcs-server, the community's Google Cloud Storage emulator (its JSON API), on
# $HOST:$GCS_PORT, built once with `go install github.com/fsouza/fake-gcs-server@$GCS_VERSION` into the cache
# (about 2 minutes the first time). Data and pid file in .dev/gcs, its log in .dev/logs/gcs.log. Optional: `up` without --clouds leaves one
# started earlier running.
# shellcheck disable=SC2154 # HOST, DEV, LOGS, CACHE and the *_PORT variables are dev/services's

GCS_VERSION=v1.56.1
GCS_PROJECT=tile-seeder-dev # any project will do for fake-gcs-server; Google's client libraries ask for one
GCS_PID= # set by gcs_up

gcs_url() { printf 'http://%s:%s\n' "$HOST" "$GCS_PORT"; }

gcs_ready() { curl -fsS -o /dev/null --max-time 2 "$(gcs_url)/storage/v1/b" 2>/dev/null; }

# Where go_tool (dev/lib/tools.sh) builds it, once per pinned version.
gcs_bin() { printf '%s\n' "$TOOLS_CACHE/go/fake-gcs-server-$GCS_VERSION/fake-gcs-server"; }

gcs_pid() { live_pid "$DEV/gcs/gcs.pid" "-filesystem-root $DEV/gcs/data"; }

gcs_install() { go_tool fake-gcs-server github.com/fsouza/fake-gcs-server "$GCS_VERSION" >/dev/null; }

gcs_start() {
  local dir="$DEV/gcs" pid
  mkdir -p "$dir/data"
  port_open "$GCS_PORT" && die "port $GCS_PORT is already in use by a process dev/services did not start (fake-gcs-server needs it; set GCS_PORT)"
  # -public-host and -external-url: the addresses it writes into its answers (media links, upload locations);
  # by default storage.googleapis.com and the address it binds.
  setsid "$(gcs_bin)" -scheme http -host "$HOST" -port "$GCS_PORT" -backend filesystem -filesystem-root "$dir/data" \
    -public-host "$HOST:$GCS_PORT" -external-url "$(gcs_url)" -log-level warn \
    >"$LOGS/gcs.log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$dir/gcs.pid"
}

# Starts fake-gcs-server unless it runs, when $1 is 1 (up --clouds). GCS_PID: its pid, empty when it does not run.
gcs_up() {
  if GCS_PID=$(gcs_pid); then
    say "fake-gcs-server is already running (pid $GCS_PID)"
  elif [ "$1" = 1 ]; then
    gcs_start
    GCS_PID=$(cat "$DEV/gcs/gcs.pid")
  fi
}

gcs_wait() {
  if [ -n "$GCS_PID" ]; then wait_ready fake-gcs-server "$GCS_PID" "$(timeout_for 60)" "$LOGS/gcs.log" gcs_ready; fi
}

gcs_summary() {
  if [ -n "$GCS_PID" ]; then
    say "GCS            $(gcs_url) (fake-gcs-server $GCS_VERSION, project $GCS_PROJECT), pid $GCS_PID"
  fi
}

gcs_down() {
  local pid
  if pid=$(gcs_pid); then say "stopping fake-gcs-server (pid $pid)"; stop_pid fake-gcs-server "$pid" 15; else say "fake-gcs-server is not running"; fi
  rm -f "$DEV/gcs/gcs.pid"
}

# One line. Optional: a stopped fake-gcs-server does not make status fail.
gcs_status() {
  local pid
  if pid=$(gcs_pid); then
    say "gcs    running  pid $pid  $(gcs_url)  (log $LOGS/gcs.log)"
  else say "gcs    stopped  (optional: 'dev/services up --clouds' starts it)"; fi
}

# When fake-gcs-server runs (optional: skipped otherwise), a JSON API round trip: create a bucket, upload, read
# and delete an object, delete the bucket; returns 1 when it fails.
gcs_check() {
  if ! gcs_pid >/dev/null; then
    say "== fake-gcs-server: not running (optional; 'dev/services up --clouds' starts it), skipped"
    return 0
  fi
  say "== fake-gcs-server GCS ($(gcs_url))"
  local bucket="dev-check-$$" url
  url=$(gcs_url)
  local -a gcs=(curl -fsS --max-time 10)
  if "${gcs[@]}" -o /dev/null -H "Content-Type: application/json" -d "{\"name\":\"$bucket\"}" \
       "$url/storage/v1/b?project=$GCS_PROJECT" \
     && "${gcs[@]}" -o /dev/null -H "Content-Type: text/plain" --data-binary "hello tiles" \
       "$url/upload/storage/v1/b/$bucket/o?uploadType=media&name=hello.txt" \
     && [ "$("${gcs[@]}" "$url/storage/v1/b/$bucket/o/hello.txt?alt=media")" = "hello tiles" ] \
     && "${gcs[@]}" -o /dev/null -X DELETE "$url/storage/v1/b/$bucket/o/hello.txt" \
     && "${gcs[@]}" -o /dev/null -X DELETE "$url/storage/v1/b/$bucket"; then
    say "create bucket, upload, read, delete -> OK"
  else
    say "the GCS round trip failed (log $LOGS/gcs.log)"; return 1
  fi
}

# Its lines of .dev/services.env, while it runs.
gcs_env() {
  if gcs_pid >/dev/null; then
    say "export SEEDER_GCS_ENDPOINT=$(gcs_url)"
    say "export SEEDER_GCS_PROJECT=$GCS_PROJECT"
  fi
}
