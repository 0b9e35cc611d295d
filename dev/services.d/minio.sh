# shellcheck shell=bash
# Sourced by dev/services: MinIO (S3) on $HOST:$MINIO_PORT (console $MINIO_CONSOLE_PORT), a `minio` on PATH or
# one built once with `go install github.com/minio/minio@$MINIO_GO_VERSION` into the cache; data and pid file in
# .dev/minio, its log in .dev/logs/minio.log.
# shellcheck disable=SC2154 # HOST, DEV, LOGS, CACHE and the *_PORT variables are dev/services's

# Fixed development credentials: this MinIO only listens on loopback and holds throwaway data.
MINIO_USER=seeder
MINIO_PASSWORD=seeder-secret
S3_REGION=us-east-1
MINIO_GO_VERSION=${MINIO_GO_VERSION:-latest}
MINIO_PID= # set by minio_up

minio_ready() { curl -fsS -o /dev/null --max-time 2 "http://$HOST:$MINIO_PORT/minio/health/ready" 2>/dev/null; }

minio_bin() {
  if [ -x "$CACHE/bin/minio" ]; then printf '%s\n' "$CACHE/bin/minio"; return 0; fi
  command -v minio
}

minio_pid() { live_pid "$DEV/minio/minio.pid" "server $DEV/minio/data"; }

minio_install() {
  minio_bin >/dev/null && return 0
  local go
  go=$(go_bin)
  say "building MinIO ($MINIO_GO_VERSION) with $("$go" version | cut -d' ' -f3) into $CACHE/bin (about 2 minutes the first time) ..."
  mkdir -p "$CACHE/bin"
  # GOTOOLCHAIN=local: build with the Go that is installed rather than downloading another toolchain.
  if ! GOBIN="$CACHE/bin" GOTOOLCHAIN=local "$go" install "github.com/minio/minio@$MINIO_GO_VERSION" \
        >"$LOGS/minio-build.log" 2>&1; then
    log_tail "$LOGS/minio-build.log"
    die "building MinIO failed (see $LOGS/minio-build.log)"
  fi
}

minio_start() {
  local dir="$DEV/minio" bin pid
  bin=$(minio_bin)
  mkdir -p "$dir/data"
  for port in "$MINIO_PORT" "$MINIO_CONSOLE_PORT"; do
    port_open "$port" && die "port $port is already in use by a process dev/services did not start (MinIO needs it; set MINIO_PORT / MINIO_CONSOLE_PORT)"
  done
  # MINIO_UPDATE=off: no update checks (there is no network beyond the package registries anyway).
  MINIO_ROOT_USER=$MINIO_USER MINIO_ROOT_PASSWORD=$MINIO_PASSWORD MINIO_UPDATE=off \
    setsid "$bin" server "$dir/data" --address "$HOST:$MINIO_PORT" --console-address "$HOST:$MINIO_CONSOLE_PORT" \
    >"$LOGS/minio.log" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$dir/minio.pid"
}

# Starts MinIO unless it runs. MINIO_PID: its pid.
minio_up() {
  if MINIO_PID=$(minio_pid); then
    say "MinIO is already running (pid $MINIO_PID)"
  else
    minio_start
    MINIO_PID=$(cat "$DEV/minio/minio.pid")
  fi
}

minio_wait() { wait_ready MinIO "$MINIO_PID" "$(timeout_for 60)" "$LOGS/minio.log" minio_ready; }

minio_summary() {
  say "MinIO          S3 http://$HOST:$MINIO_PORT, console http://$HOST:$MINIO_CONSOLE_PORT (user $MINIO_USER, password $MINIO_PASSWORD), pid $MINIO_PID"
}

minio_down() {
  local pid
  if pid=$(minio_pid); then say "stopping MinIO (pid $pid)"; stop_pid MinIO "$pid" 15; else say "MinIO is not running"; fi
  rm -f "$DEV/minio/minio.pid"
}

# One line; returns 3 when MinIO is stopped.
minio_status() {
  local pid
  if pid=$(minio_pid); then
    say "minio  running  pid $pid  S3 http://$HOST:$MINIO_PORT, console http://$HOST:$MINIO_CONSOLE_PORT, user $MINIO_USER / password $MINIO_PASSWORD  (log $LOGS/minio.log)"
  else say "minio  stopped"; return 3; fi
}

# An S3 round trip: create a bucket, put, get and delete an object, delete the bucket.
minio_check() {
  local bucket url s3 body_sha
  say "== MinIO S3 ($HOST:$MINIO_PORT)"
  bucket="dev-check-$$"
  url="http://$HOST:$MINIO_PORT/$bucket"
  # curl signs the requests itself (AWS signature v4), so no S3 client is needed for this check.
  s3=(curl -fsS --max-time 10 --aws-sigv4 "aws:amz:$S3_REGION:s3" --user "$MINIO_USER:$MINIO_PASSWORD")
  # curl 7.88 leaves the payload's hash out of what it signs; S3 (MinIO) then rejects a PUT with a body
  # unless the request carries it in x-amz-content-sha256.
  body_sha=$(printf 'hello tiles' | sha256sum | cut -d' ' -f1)
  if "${s3[@]}" -X PUT "$url" -o /dev/null \
     && "${s3[@]}" -X PUT -H "x-amz-content-sha256: $body_sha" --data-binary "hello tiles" "$url/hello.txt" -o /dev/null \
     && [ "$("${s3[@]}" "$url/hello.txt")" = "hello tiles" ] \
     && "${s3[@]}" -X DELETE "$url/hello.txt" -o /dev/null \
     && "${s3[@]}" -X DELETE "$url" -o /dev/null; then
    say "create bucket, put, get, delete -> OK"
  else
    say "the S3 round trip failed"; return 1
  fi
}

minio_env() {
  cat <<EOF
export SEEDER_S3_ENDPOINT=http://$HOST:$MINIO_PORT
export SEEDER_S3_ACCESS_KEY=$MINIO_USER
export SEEDER_S3_SECRET_KEY=$MINIO_PASSWORD
export SEEDER_S3_REGION=$S3_REGION
export SEEDER_MINIO_BIN=$(minio_bin)
EOF
}
