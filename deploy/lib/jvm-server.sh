# What the scripts of the local JVM servers (deploy/kafka/kafka.sh, deploy/zipkin/zipkin.sh)
# share; sourced, not run. The caller sets SERVER (its log prefix), PID_FILE, JAVA and
# JVM_PATTERN (what its JVM's command line holds, to tell it from a recycled pid).

log() { echo "[$SERVER] $*"; }
die() { echo "[$SERVER] ERROR: $*" >&2; exit 1; }
now_ms() { date +%s%3N; }

# Seconds since <t0 in ms>, to a tenth: "4.2s".
since() {
  local ms=$(( $(now_ms) - $1 ))
  echo "$((ms / 1000)).$(printf '%01d' $(( (ms % 1000) / 100 )))s"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# check_java <what needs it, e.g. "Kafka 4.1.0">: Java 17 or later on JAVA.
check_java() {
  command -v "$JAVA" >/dev/null || die "java not found on PATH ($1 needs Java 17+)"
  local v
  v="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)"
  [[ -n "$v" && "$v" -ge 17 ]] || die "$1 needs Java 17+, found: $("$JAVA" -version 2>&1 | head -n1)"
}

# The pid file names a live process, and it is our JVM (a pid recycled after a reboot is not).
pid_alive() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid; pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$JVM_PATTERN" || return 1
  fi
}

# wait_ready <probe> <timeout s> <log file>...: until the probe succeeds; fails with the logs'
# last lines when the process dies first or the time runs out.
wait_ready() {
  local probe="$1" timeout="$2"; shift 2
  local pid deadline
  pid="$(cat "$PID_FILE")"
  deadline=$(( $(date +%s) + timeout ))
  until "$probe"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      echo "[$SERVER] exited during start-up; last log lines:" >&2
      tail -n 40 "$@" 2>/dev/null >&2 || true
      exit 1
    fi
    if (( $(date +%s) >= deadline )); then
      echo "[$SERVER] not ready after ${timeout}s (pid $pid still running); see $1" >&2
      tail -n 20 "$1" 2>/dev/null >&2 || true
      exit 1
    fi
    sleep 0.2
  done
}

# stop_server <seconds before SIGKILL>: SIGTERM, then SIGKILL if it is still there.
stop_server() {
  if ! pid_alive; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  local pid i
  pid="$(cat "$PID_FILE")"
  log "stopping (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for (( i = 0; i < $1 * 5; i++ )); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "did not stop within $1s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$PID_FILE"
  log "stopped"
}
