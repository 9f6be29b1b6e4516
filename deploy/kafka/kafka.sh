#!/usr/bin/env bash
# Local single-node Apache Kafka (KRaft combined mode) fetched from Maven Central.
#
#   deploy/kafka/kafka.sh fetch    download the broker jars (first run only)
#   deploy/kafka/kafka.sh format   format the KRaft storage (first run only)
#   deploy/kafka/kafka.sh start    fetch + format if needed, start in background, wait until ready
#   deploy/kafka/kafka.sh stop     SIGTERM (SIGKILL after 20s)
#   deploy/kafka/kafka.sh status   exit 0 if running and answering
#   deploy/kafka/kafka.sh restart | logs | reset (stop + delete data)
#
# Env: KAFKA_PORT (19092), KAFKA_CONTROLLER_PORT (19093), KAFKA_HEAP_OPTS
#      (-Xmx512m -Xms256m), KAFKA_GC_OPTS (the collector and its settings: G1, 20 ms pauses),
#      KAFKA_JVM_OPTS (extra JVM flags), KAFKA_READY_TIMEOUT (60s),
#      JAVA (java on PATH), KAFKA_INSTANCE (dev: data, logs and pid under .local/kafka/<instance>).
# Runtime state lives in <repo>/.local/kafka (gitignored).
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/../.." && pwd -P)"
POM="$SCRIPT_DIR/pom.xml"

KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m}"
KAFKA_GC_OPTS="${KAFKA_GC_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35}"
KAFKA_JVM_OPTS="${KAFKA_JVM_OPTS:-}"
KAFKA_READY_TIMEOUT="${KAFKA_READY_TIMEOUT:-60}"
JAVA="${JAVA:-java}"

# One set of jars, one data/log/pid directory per instance, so that the stack of `npm run up`
# (instance dev) and the one of `npm test` (instance test, other ports) can run side by side.
KAFKA_INSTANCE="${KAFKA_INSTANCE:-dev}"
[[ "$KAFKA_INSTANCE" =~ ^[a-z0-9-]+$ ]] || { echo "[kafka] KAFKA_INSTANCE must be [a-z0-9-]+" >&2; exit 2; }
BASE_DIR="$REPO_ROOT/.local/kafka"
LIB_DIR="$BASE_DIR/lib"
INSTANCE_DIR="$BASE_DIR/$KAFKA_INSTANCE"
DATA_DIR="$INSTANCE_DIR/data"
LOG_DIR="$INSTANCE_DIR/logs"
CONFIG="$INSTANCE_DIR/server.properties"
PID_FILE="$INSTANCE_DIR/kafka.pid"
MARKER="$LIB_DIR/.fetched"

KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$POM" | head -n1)"
[[ -n "$KAFKA_VERSION" ]] || { echo "[kafka] cannot read <kafka.version> from $POM" >&2; exit 1; }

SERVER=kafka
JVM_PATTERN='kafka\.Kafka'
# shellcheck source=../lib/jvm-server.sh
source "$SCRIPT_DIR/../lib/jvm-server.sh"

# ---------------------------------------------------------------- fetch
is_fetched() { [[ -f "$MARKER" && "$(cat "$MARKER")" == "$KAFKA_VERSION" ]] && compgen -G "$LIB_DIR/kafka_2.13-*.jar" >/dev/null; }

cmd_fetch() {
  is_fetched && return 0
  command -v mvn >/dev/null || die "mvn not found on PATH (needed once to fetch Kafka from Maven Central)"
  mkdir -p "$BASE_DIR"
  # Different (or partial) version in lib/: start from a clean directory so jars don't mix.
  rm -rf "$LIB_DIR"
  local mvn_log="$BASE_DIR/fetch.log"
  printf '[kafka] fetching Apache Kafka %s from Maven Central (first run only)...' "$KAFKA_VERSION"
  # Batch mode prints one "Downloaded from" line per artifact: show a dot for each instead.
  local rc=0
  mvn -B -f "$POM" dependency:copy-dependencies -Dkafka.lib.dir="$LIB_DIR" >"$mvn_log" 2>&1 &
  local mvn_pid=$!
  local seen=0 n
  while kill -0 "$mvn_pid" 2>/dev/null; do
    n=$(grep -c '^Downloaded from\|^\[INFO\] Downloaded from' "$mvn_log" 2>/dev/null || true)
    while (( seen < n )); do printf '.'; seen=$((seen + 1)); done
    sleep 0.5
  done
  wait "$mvn_pid" || rc=$?
  if (( rc != 0 )); then
    echo " failed"
    tail -n 30 "$mvn_log" >&2
    die "maven failed (full log: $mvn_log)"
  fi
  echo "$KAFKA_VERSION" >"$MARKER"
  echo " done ($(ls "$LIB_DIR"/*.jar | wc -l) jars in ${LIB_DIR#"$REPO_ROOT"/})"
}

# ---------------------------------------------------------------- config / java
render_config() {
  mkdir -p "$BASE_DIR" "$INSTANCE_DIR" "$DATA_DIR" "$LOG_DIR"
  sed -e "s#@KAFKA_PORT@#$KAFKA_PORT#g" \
      -e "s#@KAFKA_CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" \
      -e "s#@KAFKA_DATA_DIR@#$DATA_DIR#g" \
      "$SCRIPT_DIR/server.properties.template" >"$CONFIG.tmp"
  mv "$CONFIG.tmp" "$CONFIG"
}

java_run() { # java_run <main-class> args...  (short-lived tools)
  local main="$1"; shift
  "$JAVA" -Xmx256m -XX:TieredStopAtLevel=1 \
    -Dlog4j2.configurationFile="$SCRIPT_DIR/log4j2.xml" -Dkafka.logs.dir="$LOG_DIR" \
    -cp "$LIB_DIR/*" "$main" "$@"
}

# ---------------------------------------------------------------- format
cmd_format() {
  cmd_fetch
  check_java "Kafka $KAFKA_VERSION"
  render_config
  if [[ -f "$DATA_DIR/meta.properties" ]]; then
    return 0
  fi
  local cluster_id
  # Kafka Uuid string = base64url(16 random bytes) without padding; avoid a leading '-'.
  while :; do
    cluster_id="$(head -c16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    [[ "$cluster_id" != -* ]] && break
  done
  log "formatting KRaft storage in ${DATA_DIR#"$REPO_ROOT"/} (cluster id $cluster_id)"
  java_run kafka.tools.StorageTool format -t "$cluster_id" -c "$CONFIG" --ignore-formatted \
    >"$LOG_DIR/format.log" 2>&1 || { cat "$LOG_DIR/format.log" >&2; die "storage format failed"; }
}

# ---------------------------------------------------------------- probes
# Sends a Kafka Metadata v4 request (no topics) and succeeds if the broker
# answers with at least one live (unfenced) broker, i.e. it is really serving.
broker_answers() {
  local port="$1" out
  out="$(timeout 3 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$0" || exit 1
    # size=23 | api_key=3 (Metadata) v4 | correlation_id=0x2a2a2a2a | client_id "kafka.sh" | topics=[] | allow_auto=false
    printf "\x00\x00\x00\x17\x00\x03\x00\x04\x2a\x2a\x2a\x2a\x00\x08kafka.sh\x00\x00\x00\x00\x00" >&3
    head -c 16 <&3 | od -An -v -tx1 | tr -d " \n"
  ' "$port" 2>/dev/null)" || return 1
  # bytes: size(4) correlation_id(4) throttle_ms(4) broker_count(4)
  [[ ${#out} -eq 32 && "${out:8:8}" == "2a2a2a2a" ]] || return 1
  (( 16#${out:24:8} >= 1 ))
}

is_running() { pid_alive && broker_answers "$KAFKA_PORT"; }
serving() { broker_answers "$KAFKA_PORT"; }

# ---------------------------------------------------------------- start / stop
cmd_start() {
  local t0; t0="$(now_ms)"
  if pid_alive; then
    if broker_answers "$KAFKA_PORT"; then
      log "broker already running (pid $(cat "$PID_FILE")) on 127.0.0.1:$KAFKA_PORT, reusing it"
      return 0
    fi
    log "broker process $(cat "$PID_FILE") is alive but not answering yet; waiting for it"
  else
    rm -f "$PID_FILE"
    if port_open "$KAFKA_PORT" || port_open "$KAFKA_CONTROLLER_PORT"; then
      die "port $KAFKA_PORT or $KAFKA_CONTROLLER_PORT on 127.0.0.1 is already in use by another process (not started by this script); set KAFKA_PORT/KAFKA_CONTROLLER_PORT"
    fi
    cmd_format
    log "starting Apache Kafka $KAFKA_VERSION (KRaft, 127.0.0.1:$KAFKA_PORT, logs in ${LOG_DIR#"$REPO_ROOT"/})"
    # shellcheck disable=SC2086  # heap/jvm opts are intentionally word-split
    setsid nohup "$JAVA" $KAFKA_HEAP_OPTS \
      -server $KAFKA_GC_OPTS \
      -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true \
      -Dlog4j2.configurationFile="$SCRIPT_DIR/log4j2.xml" -Dkafka.logs.dir="$LOG_DIR" \
      $KAFKA_JVM_OPTS \
      -cp "$LIB_DIR/*" kafka.Kafka "$CONFIG" \
      >"$LOG_DIR/kafka.out" 2>&1 </dev/null &
    echo $! >"$PID_FILE"
  fi

  wait_ready serving "$KAFKA_READY_TIMEOUT" "$LOG_DIR/server.log" "$LOG_DIR/kafka.out"
  log "broker ready on 127.0.0.1:$KAFKA_PORT ($(since "$t0"))"
}

cmd_stop() { stop_server 20; }

cmd_status() {
  if is_running; then
    log "running (pid $(cat "$PID_FILE")) on 127.0.0.1:$KAFKA_PORT, Apache Kafka $KAFKA_VERSION"
    return 0
  fi
  if pid_alive; then log "process $(cat "$PID_FILE") alive but broker not answering on 127.0.0.1:$KAFKA_PORT"; else log "not running"; fi
  return 1
}

cmd_reset() {
  cmd_stop
  rm -rf "$DATA_DIR"
  log "data removed (${DATA_DIR#"$REPO_ROOT"/})"
}

case "${1:-}" in
  fetch) cmd_fetch; log "Apache Kafka $KAFKA_VERSION jars present in ${LIB_DIR#"$REPO_ROOT"/}" ;;
  format) cmd_format ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop; cmd_start ;;
  status) cmd_status ;;
  logs) tail -n "${2:-100}" -F "$LOG_DIR/server.log" ;;
  reset) cmd_reset ;;
  version) echo "$KAFKA_VERSION" ;;
  *) echo "usage: $0 {fetch|format|start|stop|restart|status|logs|reset|version}" >&2; exit 2 ;;
esac
