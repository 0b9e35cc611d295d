# shellcheck shell=bash
# Sourced by dev/services: Kafka, one KRaft node acting as broker and controller on $HOST:$KAFKA_PORT (controller
# $KAFKA_CONTROLLER_PORT), share groups enabled. Its jars come from Maven Central (./mvnw and dev/kafka/pom.xml),
# copied once into the cache; its data, config and pid file live in .dev/kafka, its log in .dev/logs/kafka.log.
# shellcheck disable=SC2153,SC2154 # HOST, DEV, LOGS, CACHE, ROOT and the *_PORT variables are dev/services's

KAFKA_POM="$ROOT/dev/kafka/pom.xml"
KAFKA_CHECK="$ROOT/dev/kafka/KafkaCheck.java"
# Share groups (KIP-932) are switched on by the KRaft feature share.version (level >= 1), fixed here when the
# storage is formatted: in Kafka 4.4 the broker checks that feature, not a property (a node formatted with
# share.version=0 refuses share consumers even with 'share' in group.coordinator.rebalance.protocols).
# 2 is the newest production level in Kafka 4.4 (it is also what format picks by default; explicit here).
KAFKA_SHARE_VERSION=2
KAFKA_PID= # set by kafka_up

kafka_version() { sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$KAFKA_POM" | head -n 1; }

# The jars' cache folder is keyed by the Kafka version and a hash of the pom, so any change to the pom
# (a version bump, another dependency) gets a fresh copy instead of a mix of old and new jars.
kafka_home() {
  printf '%s/kafka-%s-%s\n' "$CACHE" "$(kafka_version)" "$(sha256sum "$KAFKA_POM" | cut -c1-12)"
}

kafka_install() {
  local home tmp
  home=$(kafka_home)
  [ -f "$home/.complete" ] && return 0
  say "copying the Kafka $(kafka_version) jars from Maven Central into $home ..."
  mkdir -p "$home"
  tmp=$(mktemp -d "$home/libs.tmp.XXXXXX")
  # Copy into a temporary folder and rename it at the end, so an interrupted copy never looks complete.
  if ! (cd "$ROOT" && ./mvnw -q -f "$KAFKA_POM" dependency:copy-dependencies -DoutputDirectory="$tmp" \
          >"$LOGS/kafka-install.log" 2>&1); then
    rm -rf "$tmp"
    log_tail "$LOGS/kafka-install.log"
    die "could not copy the Kafka jars (see $LOGS/kafka-install.log)"
  fi
  rm -rf "$home/libs"
  mv "$tmp" "$home/libs"
  touch "$home/.complete"
}

kafka_pid() { live_pid "$DEV/kafka/kafka.pid" kafka.Kafka; }

# The broker's configuration, written on every start so port overrides apply to an existing data folder.
kafka_write_config() {
  local dir="$DEV/kafka"
  cat >"$dir/server.properties" <<EOF
# Written by dev/services on every start: edit dev/services.d/kafka.sh, not this file.
# One KRaft node acting as broker and controller, listening on loopback only.
process.roles=broker,controller
node.id=1
# A static single-voter quorum: unlike a dynamic one (format --standalone), it does not record the
# controller's address in the metadata log, so KAFKA_CONTROLLER_PORT may change between runs.
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
# Tests create their topics.
auto.create.topics.enable=false
num.partitions=1
# A single node: every internal topic has one replica. Few partitions: on two cores, 50 partitions per
# internal topic (the defaults) only slow the start and the coordinators' loading down.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
# Share groups (KIP-932) keep their state in __share_group_state, written by the share coordinator.
# They are switched on by the share.version feature (set when formatting, see KAFKA_SHARE_VERSION in
# dev/services.d/kafka.sh), not here. Leave group.coordinator.rebalance.protocols unset: it is deprecated,
# no longer gates share groups, and any list without 'streams' switches the streams protocol off.
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
share.coordinator.state.topic.num.partitions=1
# No point delaying the first rebalance of a classic group on a dev box.
group.initial.rebalance.delay.ms=0
# Let the workers' share group have a short session (seeder.kafka.session-timeout sets it on the group), so that
# a dead worker's tasks go to the others within seconds instead of the default 45 s.
group.share.min.session.timeout.ms=2000
group.share.min.heartbeat.interval.ms=500
EOF
  # Kafka 4 logs through log4j 2; the official distribution's config is not in the jars, so write one.
  # One file, rewritten on every start, so an error message's pointer shows this run only.
  cat >"$dir/log4j2.properties" <<EOF
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = $LOGS/kafka.log
appender.file.append = false
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
# The request logger is very chatty at DEBUG/TRACE and useless here.
logger.request.name = kafka.request.logger
logger.request.level = WARN
EOF
}

# JVM options for the broker: heap (overridable), and on JDK 24+ the switches that keep the jars' use of
# sun.misc.Unsafe and native code (lz4, zstd, snappy) from printing warnings on every start.
kafka_jvm_opts() {
  local -a opts
  read -r -a opts <<<"${KAFKA_HEAP_OPTS:--Xms256m -Xmx1g}"
  opts+=(-XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
         "-Dlog4j2.configurationFile=$DEV/kafka/log4j2.properties")
  if [ "$(_java_major "$JAVA_HOME")" -ge 24 ]; then
    opts+=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
  fi
  printf '%s\n' "${opts[@]}"
}

# Starts Kafka in the background (formatting its storage the first time). Prints nothing on success.
kafka_start() {
  local home libs dir="$DEV/kafka" cluster_id pid
  home=$(kafka_home)
  libs="$home/libs/*"
  mkdir -p "$dir/data"
  for port in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    port_open "$port" && die "port $port is already in use by a process dev/services did not start (Kafka needs it; set KAFKA_PORT / KAFKA_CONTROLLER_PORT)"
  done
  kafka_write_config
  if [ ! -f "$dir/data/meta.properties" ]; then
    cluster_id=$(java -cp "$libs" kafka.tools.StorageTool random-uuid 2>>"$LOGS/kafka-format.log")
    say "formatting Kafka storage (cluster id $cluster_id, share.version=$KAFKA_SHARE_VERSION) ..."
    java -cp "$libs" "-Dlog4j2.configurationFile=$dir/log4j2.properties" kafka.tools.StorageTool format \
        --config "$dir/server.properties" --cluster-id "$cluster_id" \
        --feature "share.version=$KAFKA_SHARE_VERSION" >>"$LOGS/kafka-format.log" 2>&1 \
      || { log_tail "$LOGS/kafka-format.log"; die "formatting the Kafka storage failed (see $LOGS/kafka-format.log)"; }
  fi
  local -a opts
  mapfile -t opts < <(kafka_jvm_opts)
  : >"$LOGS/kafka.log" # log4j truncates it too, but only once the JVM runs: no stale log in error messages
  # setsid: the server gets its own session, so it outlives this script and the terminal it ran in.
  # In a non-interactive script a background job is not a group leader, so setsid execs in place and $!
  # is the JVM's own pid.
  # 9>&-: the server must not inherit the lock on .dev/services.lock (see main in dev/services), or it would hold it for life.
  setsid java "${opts[@]}" -cp "$libs" kafka.Kafka "$dir/server.properties" \
    >"$LOGS/kafka.out" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$dir/kafka.pid"
}

# Waits until the broker answers metadata requests and has share groups enabled (dev/kafka/KafkaCheck.java).
kafka_wait() {
  local pid=$1 limit start=$SECONDS remaining
  limit=$(timeout_for 120)
  wait_ready Kafka "$pid" "$limit" "$LOGS/kafka.log" port_open "$KAFKA_PORT"
  remaining=$((limit - (SECONDS - start)))
  [ "$remaining" -ge 5 ] || remaining=5
  java -cp "$(kafka_home)/libs/*" "$KAFKA_CHECK" ready "$HOST:$KAFKA_PORT" "$remaining" >"$DEV/kafka/ready.txt" 2>&1 \
    || { cat "$DEV/kafka/ready.txt" >&2; log_tail "$LOGS/kafka.log"; die "Kafka did not get ready (see $LOGS/kafka.log)"; }
}

# Starts Kafka unless it runs. KAFKA_PID: its pid, for kafka_wait and the summary.
kafka_up() {
  if KAFKA_PID=$(kafka_pid); then
    say "Kafka is already running (pid $KAFKA_PID)"
  else
    kafka_start
    KAFKA_PID=$(cat "$DEV/kafka/kafka.pid")
  fi
}

kafka_summary() {
  say "Kafka $(kafka_version)  PLAINTEXT://$HOST:$KAFKA_PORT (controller $HOST:$KAFKA_CONTROLLER_PORT), pid $KAFKA_PID; $(cat "$DEV/kafka/ready.txt")"
}

# Kafka shuts down in a controlled way on TERM (flushes logs, resigns as controller): give it time.
kafka_down() {
  local pid
  if pid=$(kafka_pid); then say "stopping Kafka (pid $pid)"; stop_pid Kafka "$pid" 30; else say "Kafka is not running"; fi
  rm -f "$DEV/kafka/kafka.pid"
}

# One line; returns 3 when Kafka is stopped.
kafka_status() {
  local pid
  if pid=$(kafka_pid); then
    say "kafka  running  pid $pid  PLAINTEXT://$HOST:$KAFKA_PORT, controller $HOST:$KAFKA_CONTROLLER_PORT  (log $LOGS/kafka.log)"
  else say "kafka  stopped"; return 3; fi
}

# A share group's round trip (dev/kafka/KafkaCheck.java); needs the JDK (jdk).
kafka_check() {
  say "== Kafka share group ($HOST:$KAFKA_PORT)"
  java -cp "$(kafka_home)/libs/*" "$KAFKA_CHECK" share-groups "$HOST:$KAFKA_PORT"
}

kafka_env() { say "export SEEDER_KAFKA_BOOTSTRAP=$HOST:$KAFKA_PORT"; }
