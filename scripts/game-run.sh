#!/usr/bin/env bash
# A whole game's databases built, checked, counted and probed in the background, in a
# directory outside the work tree, resumable: the run of issue #26 (awari, 3 seeds a pit)
# in one command, so that a restart after a session's end, or on a fresh machine, is one
# command too.
#
#   scripts/game-run.sh start  DIR   start, or resume, the generation and its checker
#   scripts/game-run.sh status DIR   where both stand
#   scripts/game-run.sh stop   DIR   stop both and wait until they are gone (STOP_WAIT s, 1800:
#                                    the generation saves its checkpoint first; it resumes
#                                    inside its level)
#   scripts/game-run.sh report DIR   the run's tables: each level's generation (mode, wall,
#                                    CPU, memory, file) and check (wall, CPU), the counted
#                                    levels and the start position's value
#
# Settings (environment, read by the first start and kept in DIR/settings): RULES (awari),
# GAME (3: seeds a pit), UP_TO (12 x GAME: with more, once the game's levels are there the run
# goes on to every level up to UP_TO, the game's missing 12k-1 first, each checked and counted
# as it lands), MEMORY (the generation's --memory, 18G), CHECK_MEMORY (the
# checker's beside the generation, 5G; the checker reads DIR/settings again before each step,
# so an edit there takes effect at its next check), CHECK_MEMORY_ALONE (the checker's once the
# generation has ended, when it also takes every core: auto, verify's own default of 90 % of
# the available memory; a check running when the generation ends, or starts again, starts
# again with the other settings, from its progress file: a streamed check's time falls with
# its memory), NICE (the generation's, 10), CHECK_NICE (the checker's, 19:
# the generation's CPU is what the machine spares last; each runs in a session of its own,
# scheduled at its nice), OWAREDB (the binary to pin,
# build/tools/owaredb).
#
# What DIR holds:
#   bin/owaredb, bin/lib/   the binary pinned at the first start (a rebuilt work tree does not
#                           change a run in progress); REPIN=1 pins OWAREDB again (what
#                           runs goes on with the binary it started with)
#   data/                   the level files, the build record, checkpoints
#   generate.log            `generate --game` (its progress lines, /usr/bin/time -v), appended
#   check/verify.log        `verify` runs over each level once its file is there, appended;
#                           check/progress.json makes a killed check resume
#   check/all-configurations.jsonl   `stats --all-configurations` lines of the checked levels
#   check/start-pv.txt      `probe --pv` of the start position, once the top level is there
#   check/FAILED            a check that found a wrong value or a damaged file (or a count or
#                           the probe that failed): the checker stops there (the generation
#                           goes on)
#   check/done              every level built, checked and counted, and the start probed
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: scripts/game-run.sh start|status|stop|report DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
binary_to_pin=$(realpath -m "${OWAREDB:-$repo/build/tools/owaredb}")

# Whether the process of pid file $1 runs, and is ours: its command line names DIR (after
# a reboot the pid may be another process's).
alive() {
  [[ -f $1 ]] || return 1
  local pid
  pid=$(cat "$1")
  [[ -r /proc/$pid/cmdline ]] && tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF "$dir"
}
stamp() { date -u +%FT%TZ; }
# say_in FILE MESSAGE: prints MESSAGE and makes it FILE's content at once (written beside it,
# then renamed), so that a reader (status, a test, a person) never sees FILE empty.
say_in() {
  echo "$2"
  echo "$2" >"$1.tmp" && mv -f "$1.tmp" "$1"
}
# in_session PIDFILE: whether a process of the session PIDFILE's process leads (setsid)
# is alive, the leader gone or not: on SIGTERM the generation's shell and /usr/bin/time
# exit at once, and owaredb, their child, goes on until its checkpoint is saved.
in_session() {
  [[ -f $1 ]] || return 1
  local sid stat rest session
  sid=$(cat "$1")
  for stat in /proc/[0-9]*/stat; do
    { read -r rest <"$stat"; } 2>/dev/null || continue # a builtin: no process a file
    rest=${rest##*) } # after the command's name, which may hold spaces
    read -r _ _ _ session _ <<<"$rest"
    [[ $session == "$sid" ]] && return 0
  done
  return 1
}
# wait_gone SECONDS PIDFILE...: waits until no PIDFILE names a live process of this run,
# nor a process of its session; says so and fails after SECONDS.
wait_gone() {
  local seconds=$1 f i running
  shift
  for ((i = 0; i <= 2 * seconds; i++)); do
    running=
    for f in "$@"; do alive "$f" || in_session "$f" && running=1; done
    [[ -z $running ]] && return 0
    sleep 0.5
  done
  echo "game-run: still running after $seconds s: $*" >&2
  return 1
}

# The levels a game of k seeds a pit reaches on 6 pits a side: 0..12k-2 and 12k.
game_levels() {
  local k=$1 n
  for ((n = 0; n <= 12 * k - 2; n++)); do echo "$n"; done
  echo $((12 * k))
}

# The run's levels in the order they are built: the game's, then 12k-1 and those above 12k
# up to UP_TO.
run_levels() {
  local n
  game_levels "$GAME"
  ((UP_TO > 12 * GAME)) || return 0
  for ((n = 12 * GAME - 1; n <= UP_TO; n++)); do
    ((n != 12 * GAME)) && echo "$n"
  done
  return 0
}

start_generation() {
  if alive "$dir/generate.pid"; then
    echo "generation: running (pid $(cat "$dir/generate.pid"))"
    return
  fi
  if [[ -f $dir/generate.exit && $(cat "$dir/generate.exit") == 0 ]]; then
    echo "generation: finished"
    return
  fi
  rm -f "$dir/generate.exit"
  # Under autogroup scheduling (Linux's default), nice weighs a process only against the
  # processes of its own session: a run in a session of its own at nice 10 would take as
  # much of the machine as the user's shell. Its session's group takes the same nice.
  setsid bash -c '
    group=
    echo "$NICE" 2>/dev/null >/proc/self/autogroup && group=", its session at nice $NICE"
    echo "== start $(date -u +%FT%TZ) $(cat bin/version)$group" >>generate.log
    nice -n "$NICE" /usr/bin/time -v bin/owaredb generate --rules "$RULES" --game "$GAME" \
      --memory "$MEMORY" --dir data >>generate.log 2>&1
    rc=$?
    if ((rc == 0 && UP_TO > 12 * GAME)); then
      echo "== levels up to $UP_TO $(date -u +%FT%TZ)" >>generate.log
      nice -n "$NICE" /usr/bin/time -v bin/owaredb generate --rules "$RULES" --max-seeds "$UP_TO" \
        --memory "$MEMORY" --dir data >>generate.log 2>&1
      rc=$?
    fi
    echo "== exit $rc $(date -u +%FT%TZ)" >>generate.log
    echo $rc >generate.exit
  ' game-run-generation "$dir" </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/generate.pid"
  echo "generation: started (pid $!), log $dir/generate.log"
}

start_checker() {
  if alive "$dir/check/checker.pid"; then
    echo "checker: running (pid $(cat "$dir/check/checker.pid"))"
    return
  fi
  setsid nice -n "$CHECK_NICE" "$repo/scripts/game-run.sh" checker-loop "$dir" </dev/null >>"$dir/check/checker.log" 2>&1 &
  echo $! >"$dir/check/checker.pid"
  echo "checker: started (pid $!), log $dir/check/checker.log"
}

level_file() { echo "$dir/data/$RULES-$(printf %02d "$1").owdb"; }

# How many of the run's levels, in build order, are there without a gap (files appear
# whole: written aside, then renamed).
built_count() {
  local count=0 n
  for n in $(run_levels); do
    [[ -f $(level_file "$n") ]] || break
    count=$((count + 1))
  done
  echo "$count"
}

# How many of the run's levels, in build order, come up to and with level $1 (0 for -1).
count_up_to() {
  local count=0 n
  ((${1} >= 0)) || { echo 0; return; }
  for n in $(run_levels); do
    count=$((count + 1))
    ((n == $1)) && break
  done
  echo "$count"
}

# How many of the run's levels, in build order, are counted without a gap (the counted
# file is in order of seeds, not of building).
counted_count() {
  local count=0 n counted
  counted=" $(counted_levels | tr '\n' ' ') "
  for n in $(run_levels); do
    [[ $counted == *" $n "* ]] || break
    count=$((count + 1))
  done
  echo "$count"
}

# The highest level of the run's that is there (status).
top_level() {
  local top=-1 n
  for n in $(run_levels); do
    [[ -f $(level_file "$n") ]] && ((n > top)) && top=$n
  done
  echo "$top"
}

# The run's levels from position $1 to $2 (0-based, exclusive) in build order, as one
# range for the commands: the game's levels together (a command skips a game's missing
# 12k-1), a level above the game's alone (its range would hold levels checked before).
# Prints "FROM TO COUNT".
next_range() {
  local -a levels
  mapfile -t levels < <(run_levels)
  local from=$1 to=$2 last=$1 game
  game=$(game_levels "$GAME" | wc -l)
  if ((from < game)); then
    while ((last + 1 < to && last + 1 < game)); do last=$((last + 1)); done
  fi
  echo "${levels[from]} ${levels[last]} $((last - from + 1))"
}

# The levels of check/all-configurations.jsonl.
counted_levels() {
  [[ -f $dir/check/all-configurations.jsonl ]] || return 0
  python3 -c 'import json,sys
for line in open(sys.argv[1]):
    if line.strip(): print(json.loads(line)["seeds"])' "$dir/check/all-configurations.jsonl"
}

# run_check BESIDE COMMAND...: runs COMMAND (/usr/bin/time and its command) and returns its
# status; if the generation ends while a check beside it (BESIDE set) runs, or starts while a
# check alone runs (whose memory it would need), it stops the command and returns $restarted,
# so that the check starts again with the settings of the other case (it resumes from its
# progress file, rewritten every 30 s).
restarted=200
run_check() {
  local beside=$1 pid now
  shift
  "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    now=''
    alive "$dir/generate.pid" && now=1
    if [[ $now != "$beside" ]]; then
      pkill -TERM -P "$pid" # the command /usr/bin/time waits for: time then exits
      wait "$pid"
      return "$restarted"
    fi
    sleep 1
  done
  wait "$pid"
}

# Checks each level once its file is there, counts it once checked, probes the start once
# the game's top level is there; ends when all is done or a check fails. The levels go in
# build order (run_levels); check/verified-up-to names the last level of that order checked.
checker_loop() {
  local threads verified counted built from to all beside rc
  local -a memory
  all=$(run_levels | wc -l)
  while :; do
    # Read again before each step: CHECK_MEMORY edited in DIR/settings takes effect at the
    # next check (more memory for the checker once the generation's levels are streamed).
    source "$dir/settings"
    verified=$(count_up_to "$(cat "$dir/check/verified-up-to" 2>/dev/null || echo -1)")
    built=$(built_count)
    # Beside the generation: one thread and CHECK_MEMORY. Alone: every core and
    # CHECK_MEMORY_ALONE (auto: verify's default budget).
    if alive "$dir/generate.pid"; then
      beside=1 threads=1 memory=(--memory "$CHECK_MEMORY")
    else
      beside='' threads=0 memory=()
      [[ ${CHECK_MEMORY_ALONE:-auto} != auto ]] && memory=(--memory "$CHECK_MEMORY_ALONE")
    fi
    if ((built > verified)); then
      read -r from to _ <<<"$(next_range "$verified" "$built")"
      echo "== $(stamp) verify levels $from..$to, $threads threads, memory ${memory[1]:-auto}" >>"$dir/check/verify.log"
      rc=0
      run_check "$beside" /usr/bin/time -v bin/owaredb verify --rules "$RULES" --dir data \
        --values-from "$from" --values-up-to "$to" "${memory[@]}" --threads "$threads" \
        --progress-file check/progress.json >>"$dir/check/verify.log" 2>&1 || rc=$?
      if ((rc == 0)); then
        echo "$to" >"$dir/check/verified-up-to"
      elif ((rc == restarted)) && [[ -n $beside ]]; then
        echo "== $(stamp) the generation has ended: the check starts again, alone" >>"$dir/check/verify.log"
      elif ((rc == restarted)); then
        echo "== $(stamp) a generation runs: the check starts again, beside it" >>"$dir/check/verify.log"
      else
        say_in "$dir/check/FAILED" "$(stamp) verify of levels $from..$to failed: see check/verify.log"
        return 1
      fi
      continue
    fi
    counted=$(counted_count)
    if ((verified > counted)); then
      read -r from to _ <<<"$(next_range "$counted" "$verified")"
      echo "== $(stamp) count levels $from..$to" >>"$dir/check/stats.log"
      OWAREDB=$dir/bin/owaredb /usr/bin/time -v "$repo/scripts/all-configurations-jsonl.sh" "$dir/data" \
        "$dir/check/all-configurations.jsonl" "${memory[@]}" --threads "$threads" \
        --values-from "$from" --values-up-to "$to" >>"$dir/check/stats.log" 2>&1 || {
        say_in "$dir/check/FAILED" "$(stamp) count of levels $from..$to failed: see check/stats.log"
        return 1
      }
      continue
    fi
    if [[ -f $(level_file $((12 * GAME))) && ! -s $dir/check/start-pv.txt ]]; then
      local start
      start=$(printf "$GAME %.0s" {1..12})
      if bin/owaredb probe --rules "$RULES" --dir data --pv "$start" >check/start-pv.tmp 2>&1; then
        mv check/start-pv.tmp check/start-pv.txt
      else
        say_in "$dir/check/FAILED" "$(stamp) probe of the start failed: see check/start-pv.tmp"
        return 1
      fi
      continue
    fi
    if ((verified == all)) && [[ -s $dir/check/start-pv.txt ]]; then
      say_in check/done "$(stamp) done: levels built, checked and counted; the start probed"
      return 0
    fi
    sleep "${POLL:-60}"
  done
}

pin_binary() {
  local from=$binary_to_pin
  [[ -x $dir/bin/owaredb && -z ${REPIN:-} ]] && return
  [[ -x $from ]] || {
    echo "game-run: no binary at $from (build the work tree first, or set OWAREDB)" >&2
    exit 1
  }
  mkdir -p "$dir/bin/lib"
  local lib
  lib=$(ldd "$from" | awk '/libowaredb/ {print $3}')
  # Copied aside and renamed: a process running the old files keeps them (overwriting a
  # running binary fails, a mapped library in place would crash it).
  cp -L "$lib" "$dir/bin/lib/.new" && mv "$dir/bin/lib/.new" "$dir/bin/lib/$(basename "$lib")"
  cp "$from" "$dir/bin/.new" && mv "$dir/bin/.new" "$dir/bin/owaredb.real"
  # The wrapper finds the pinned library before the build tree's (RUNPATH comes after it).
  printf '#!/bin/sh\nLD_LIBRARY_PATH="%s/bin/lib" exec "%s/bin/owaredb.real" "$@"\n' "$dir" "$dir" >"$dir/bin/owaredb"
  chmod +x "$dir/bin/owaredb"
  echo "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" diff --quiet 2>/dev/null || echo +changes)" >"$dir/bin/version"
  echo "binary: pinned $from ($(cat "$dir/bin/version"))"
}

# The commands, in a function called from the script's last line: bash reads a script as it
# runs it, so a checker running for days would otherwise read an edited file from its old
# offset once its loop returns.
main() {
  export RULES=${RULES:-awari} GAME=${GAME:-3} MEMORY=${MEMORY:-18G} CHECK_MEMORY=${CHECK_MEMORY:-5G} NICE=${NICE:-10}
  export CHECK_NICE=${CHECK_NICE:-19} CHECK_MEMORY_ALONE=${CHECK_MEMORY_ALONE:-auto}
  export UP_TO=${UP_TO:-}
  mkdir -p "$dir/data" "$dir/check"
  cd "$dir"
  case $cmd in
    start)
      # The settings of the first start are the run's (a restart keeps them).
      if [[ -f settings ]]; then
        # shellcheck disable=SC1091
        source settings
      else
        printf 'export RULES=%s GAME=%s UP_TO=%s MEMORY=%s CHECK_MEMORY=%s CHECK_MEMORY_ALONE=%s NICE=%s CHECK_NICE=%s\n' \
          "$RULES" "$GAME" "${UP_TO:-$((12 * GAME))}" "$MEMORY" "$CHECK_MEMORY" "$CHECK_MEMORY_ALONE" "$NICE" "$CHECK_NICE" >settings
      fi
      export UP_TO=${UP_TO:-$((12 * GAME))}
      pin_binary
      start_generation
      start_checker
      ;;
    checker-loop)
      source settings
      # Its session yields too (start_generation); said in check/checker.log.
      if echo "$CHECK_NICE" 2>/dev/null >/proc/self/autogroup; then
        echo "== checker $(stamp), its session at nice $CHECK_NICE"
      fi
      checker_loop
      ;;
    status)
      [[ -f settings ]] && source settings
      if alive generate.pid; then echo "generation: running"; else echo "generation: not running (exit $(cat generate.exit 2>/dev/null || echo ?))"; fi
      tail -c 4000 generate.log 2>/dev/null | tr '\r' '\n' | grep -E '^(level|==)' | tail -2 || true
      if alive check/checker.pid; then echo "checker: running"; else echo "checker: not running"; fi
      echo "levels built up to $(top_level), checked up to $(cat check/verified-up-to 2>/dev/null || echo none), counted: $(counted_levels | tr '\n' ' ')"
      tail -c 4000 check/verify.log 2>/dev/null | tr '\r' '\n' | grep -E '^(level|verify|==)' | tail -2 || true
      [[ -f check/FAILED ]] && cat check/FAILED
      [[ -f check/done ]] && cat check/done
      [[ -s check/start-pv.txt ]] && grep -E '^seeds' check/start-pv.txt
      true
      ;;
    report)
      [[ -f settings ]] && source settings
      python3 "$repo/scripts/build-record-table.py" data --verify check/progress.json
      echo
      echo "counted levels (check/all-configurations.jsonl): $(counted_levels | tr '\n' ' ')"
      if [[ -s check/start-pv.txt ]]; then
        grep -E '^seeds' check/start-pv.txt
        echo "principal variation: $(grep -cE '^ *[0-9]+\. ' check/start-pv.txt) plies, $(grep -E '^ *end:' check/start-pv.txt | sed 's/^ *end: //')"
      fi
      true
      ;;
    stop)
      local ours=() # the pid files that name this run's processes: only their sessions count
      for f in check/checker.pid generate.pid; do
        alive "$f" && kill -- -"$(cat "$f")" 2>/dev/null && echo "stopped $f" && ours+=("$f")
      done
      # A generation saves its checkpoint before it exits (minutes at the largest levels):
      # stop returns once both are gone, so that a start right after finds the directory's
      # lock free instead of failing on it.
      wait_gone "${STOP_WAIT:-1800}" "${ours[@]}"
      ;;
    *) usage ;;
  esac
}

main "$@"
exit
