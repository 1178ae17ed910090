# What the shell tests of tests/tools share, sourced after `set -uo pipefail`: a work
# directory removed at exit, the pass and failure counts, and the ways to count them.
#   check <description> <command...>          passes when the command succeeds
#   expect_fail <description> <message part> <command...>
#                                             passes when the command fails with a short
#                                             message (at most 3 lines) holding the part
#   expect_status2 <description> <message part> <command...>
#                                             counts a failure unless the command exits
#                                             with status 2 (a usage error), the part on
#                                             its stderr
#   fail <message>                            counts a failure, printing it
#   finish <name>                             prints the counts; status 1 on any failure
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() {
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else fail "$what"; fi
}
expect_fail() {
  local what=$1 msg=$2; shift 2
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [[ $rc -ne 0 && "$out" == *"$msg"* && $(wc -l <<<"$out") -le 3 ]]; then
    passes=$((passes + 1))
  else
    fail "$what (rc=$rc): $out"
  fi
}
expect_status2() {
  local what=$1 part=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [[ $rc == 2 ]] || fail "$what: status $rc, expected 2"
  grep -qF -- "$part" "$work/err" || fail "$what: stderr lacks '$part': $(cat "$work/err")"
}
finish() {
  if ((failures)); then
    echo "$1: $failures failed, $passes passed"
    return 1
  fi
  # Tests written with fail alone count no passes: their checks are the conditions that
  # did not call it.
  if ((passes)); then echo "$1: all $passes passed"; else echo "$1: all passed"; fi
}
