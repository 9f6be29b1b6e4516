#!/usr/bin/env bash
# The trace viewer: a local Zipkin server (in-memory storage, loopback only) fetched from Maven Central.
#
#   deploy/zipkin/zipkin.sh fetch    download the server jar (first run only)
#   deploy/zipkin/zipkin.sh start    fetch if needed, start in background, wait until it answers
#   deploy/zipkin/zipkin.sh stop     SIGTERM (SIGKILL after 10s)
#   deploy/zipkin/zipkin.sh status   exit 0 if running and answering
#   deploy/zipkin/zipkin.sh restart | logs | url | version
#
# Env: ZIPKIN_PORT (9411), ZIPKIN_INSTANCE (dev: log and pid under .local/zipkin/<instance>),
#      ZIPKIN_HEAP_OPTS (-Xms64m -Xmx512m), ZIPKIN_MAX_SPANS (60000: the oldest traces go first;
#      about 1,000 searches and an idle hour, docs/operations.md "Trace viewer"),
#      ZIPKIN_JVM_OPTS (extra JVM flags), ZIPKIN_READY_TIMEOUT (60s), JAVA (java on PATH).
# Nothing is kept on disk but the jar: spans live in the server's memory until it stops.
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/../.." && pwd -P)"
POM="$SCRIPT_DIR/pom.xml"

ZIPKIN_PORT="${ZIPKIN_PORT:-9411}"
ZIPKIN_HEAP_OPTS="${ZIPKIN_HEAP_OPTS:--Xms64m -Xmx512m}"
ZIPKIN_MAX_SPANS="${ZIPKIN_MAX_SPANS:-60000}"
ZIPKIN_JVM_OPTS="${ZIPKIN_JVM_OPTS:-}"
ZIPKIN_READY_TIMEOUT="${ZIPKIN_READY_TIMEOUT:-60}"
JAVA="${JAVA:-java}"

ZIPKIN_INSTANCE="${ZIPKIN_INSTANCE:-dev}"
[[ "$ZIPKIN_INSTANCE" =~ ^[a-z0-9-]+$ ]] || { echo "[zipkin] ZIPKIN_INSTANCE must be [a-z0-9-]+" >&2; exit 2; }
BASE_DIR="$REPO_ROOT/.local/zipkin"
LIB_DIR="$BASE_DIR/lib"
INSTANCE_DIR="$BASE_DIR/$ZIPKIN_INSTANCE"
PID_FILE="$INSTANCE_DIR/zipkin.pid"
LOG_FILE="$INSTANCE_DIR/zipkin.log"

ZIPKIN_VERSION="$(sed -n 's:.*<zipkin.version>\(.*\)</zipkin.version>.*:\1:p' "$POM" | head -n1)"
[[ -n "$ZIPKIN_VERSION" ]] || { echo "[zipkin] cannot read <zipkin.version> from $POM" >&2; exit 1; }
JAR="$LIB_DIR/zipkin-server-$ZIPKIN_VERSION-slim.jar"

SERVER=zipkin
JVM_PATTERN='zipkin-server'
# shellcheck source=../lib/jvm-server.sh
source "$SCRIPT_DIR/../lib/jvm-server.sh"
url() { echo "http://127.0.0.1:$ZIPKIN_PORT"; }

cmd_fetch() {
  [[ -s "$JAR" ]] && return 0
  command -v mvn >/dev/null || die "mvn not found on PATH (needed once to fetch Zipkin from Maven Central)"
  mkdir -p "$BASE_DIR"
  local mvn_log="$BASE_DIR/fetch.log"
  log "fetching the Zipkin server $ZIPKIN_VERSION from Maven Central (first run only, 84 MB) ..."
  if ! mvn -B -ntp -f "$POM" dependency:copy -Dzipkin.lib.dir="$LIB_DIR" >"$mvn_log" 2>&1; then
    tail -n 30 "$mvn_log" >&2
    die "maven failed (full log: $mvn_log)"
  fi
  [[ -s "$JAR" ]] || die "maven ran but $JAR is missing (log: $mvn_log)"
  log "done (${JAR#"$REPO_ROOT"/})"
}

# GET /health answers 200 (bash's /dev/tcp: no curl needed).
answers() {
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$0" || exit 1
    printf "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" >&3
    head -c 12 <&3 | grep -q " 200"
  ' "$ZIPKIN_PORT" 2>/dev/null
}

cmd_start() {
  local t0; t0="$(now_ms)"
  if pid_alive; then
    if answers; then
      log "already running (pid $(cat "$PID_FILE")) at $(url), reusing it"
      return 0
    fi
    log "process $(cat "$PID_FILE") is alive but not answering yet; waiting for it"
  else
    rm -f "$PID_FILE"
    port_open "$ZIPKIN_PORT" && die "port $ZIPKIN_PORT on 127.0.0.1 is already in use by another process (not started by this script); set ZIPKIN_PORT"
    cmd_fetch
    check_java "Zipkin $ZIPKIN_VERSION"
    mkdir -p "$INSTANCE_DIR"
    log "starting Zipkin $ZIPKIN_VERSION (in-memory, $(url), log ${LOG_FILE#"$REPO_ROOT"/})"
    # Loopback only (the armeria port settings replace the default 0.0.0.0:9411). Serial GC and
    # the C1 compiler alone: a local viewer needs little throughput, and they halve its start-up
    # CPU and its memory. Collectors other than HTTP stay off whatever the caller's environment says.
    # shellcheck disable=SC2086  # heap/jvm opts are intentionally word-split
    env -u KAFKA_BOOTSTRAP_SERVERS -u RABBIT_ADDRESSES -u RABBIT_URI -u ACTIVEMQ_URL -u PULSAR_SERVICE_URL \
      STORAGE_TYPE=mem MEM_MAX_SPANS="$ZIPKIN_MAX_SPANS" SELF_TRACING_ENABLED=false \
      setsid nohup "$JAVA" $ZIPKIN_HEAP_OPTS -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError \
      -Djava.awt.headless=true $ZIPKIN_JVM_OPTS \
      -jar "$JAR" \
      "--armeria.ports[0].ip=127.0.0.1" "--armeria.ports[0].port=$ZIPKIN_PORT" "--armeria.ports[0].protocols=http" \
      >"$LOG_FILE" 2>&1 </dev/null &
    echo $! >"$PID_FILE"
  fi
  wait_ready answers "$ZIPKIN_READY_TIMEOUT" "$LOG_FILE"
  log "ready at $(url)/zipkin/ ($(since "$t0"))"
}

cmd_stop() { stop_server 10; }

cmd_status() {
  if pid_alive && answers; then
    log "running (pid $(cat "$PID_FILE")) at $(url), Zipkin $ZIPKIN_VERSION"
    return 0
  fi
  if pid_alive; then log "process $(cat "$PID_FILE") alive but not answering at $(url)"; else log "not running"; fi
  return 1
}

case "${1:-}" in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_stop; cmd_start ;;
  status) cmd_status ;;
  logs) tail -n "${2:-100}" -F "$LOG_FILE" ;;
  url) echo "$(url)/zipkin/" ;;
  version) echo "$ZIPKIN_VERSION" ;;
  *) echo "usage: $0 {fetch|start|stop|restart|status|logs|url|version}" >&2; exit 2 ;;
esac
