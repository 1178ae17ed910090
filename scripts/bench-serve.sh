#!/usr/bin/env bash
# /api/probe throughput of `owaredb serve` under wrk (Debian's wrk, scripts/install-deps.sh),
# the load generator of docs/results.md: 2 wrk threads, 16 kept-alive connections, on the
# same machine as the server. Several builds are measured in turn, run after run, so that a
# comparison sees the same background load (paired runs):
#   scripts/bench-serve.sh [OWAREDB...]     default build/tools/owaredb
#   RUNS=3 SECONDS_PER_RUN=10 SERVE_ARGS="--threads 2" scripts/bench-serve.sh OLD NEW
# Each run prints: run, program, requests/s, p50, p99.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
seconds=${SECONDS_PER_RUN:-10}
programs=("$@")
((${#programs[@]})) || programs=(build/tools/owaredb)
command -v wrk >/dev/null || { echo "bench-serve: wrk is not installed (scripts/install-deps.sh)"; exit 1; }
work=$(mktemp -d)
server=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# Levels 0..12: the position below (12 seeds) and its captures.
"${programs[0]}" generate --max-seeds 12 --dir "$work/db" --threads 2 >/dev/null
path="/api/probe?rules=abapa&position=2+0+3+1+0+2+1+0+2+0+1+0"
echo "== $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load" \
  "$(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c16 -d${seconds}s --latency \"http://127.0.0.1:PORT$path\""
for run in $(seq "$runs"); do
  for program in "${programs[@]}"; do
    # shellcheck disable=SC2086 # SERVE_ARGS is words
    "$program" serve --dir "$work/db" --port 0 ${SERVE_ARGS:-} >"$work/serve.log" 2>&1 &
    server=$!
    url=""
    for _ in $(seq 100); do
      url=$(grep -o 'http://[^ ]*/' "$work/serve.log" || true)
      [[ -n $url ]] && break
      sleep 0.1
    done
    [[ -n $url ]] || { echo "bench-serve: $program serve did not start: $(cat "$work/serve.log")"; exit 1; }
    curl -sf "${url%/}$path" >/dev/null # the levels opened before the clock starts
    out=$(wrk -t2 -c16 -d"${seconds}s" --latency "${url%/}$path")
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    errors=$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr -s ' ' | paste -sd';' || true)
    echo "run $run  $program  $rps req/s  p50 $p50  p99 $p99  ${errors}"
  done
done
