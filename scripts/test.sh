#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every doctest suite,
# then the same suites under ASan+UBSan and the parallel ones under TSan.
#   scripts/test.sh            full run (what CI does)
#   scripts/test.sh --quick    Release build and tests only, no sanitizer builds
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1
jobs=$(nproc)

scripts/install-deps.sh

# Each stage says when it started, so that a slow CI run shows which stage grew.
stage() { echo "== $* (at $SECONDS s)"; }

build() {  # build <dir> [--target T...] -- <cmake args...>
  local dir=$1; shift
  local targets=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do targets+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" ${targets[@]+"${targets[@]}"}
}

stage "Release build"
build build --
# The tests run under eatmydata, which makes fsync return at once: the programs' atomic
# writes and work files sync their data for a power cut, which no test makes (a kill -9
# leaves what was written in the page cache), and the waits were 15 % of the Release
# suites' time on a 2-core machine. (ASan's check that its runtime comes first among the
# libraries is off: eatmydata's is preloaded, where a build links ASan's runtime shared.)
tests() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" eatmydata ctest "$@"; }

stage "Release tests"
tests --test-dir build --output-on-failure -j "$jobs"
((quick)) && exit 0

# Sanitizer builds run the same suites; OWAREDB_QUICK=1 makes the tests skip their
# slowest cases (exhaustive sweeps over large levels) which sanitizers slow 5-20x.
# They are unity builds (CMAKE_UNITY_BUILD: a target's sources compiled 8 to a unit, so the
# headers are parsed once for 8): a third less CPU for the ASan build, a ninth less wall
# time for the smaller TSan one (docs/results.md, "The test run's time"). The Release build
# above compiles each file alone, which keeps every file's includes complete; names private
# to two files of one target must differ (the compiler says "redefinition" when they do not).
stage "ASan+UBSan build and tests"
# (install_consumer is skipped: an outside program cannot load an ASan-built library; the
# tests labelled release_only ran above and are not repeated: tests/CMakeLists.txt says why.)
# -O1, as the sanitizers' manuals advise: half the compile time of -O3 (82 s against 41 s
# for serve_http.cpp), which the 30-minute CI budget needs, at a small cost in test time.
# clang, whose sanitizers these are: it compiled this build (file by file) in 345 s where GCC
# took about 500, and its tests ran in 252 s against 305 (docs/results.md, "The test run's time").
build build-asan -- -DOWAREDB_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_UNITY_BUILD=ON
OWAREDB_QUICK=1 tests --test-dir build-asan --output-on-failure -j "$jobs" -E install_consumer -LE release_only

# TSan needs an OpenMP runtime it understands: GCC's libgomp is not instrumented and gives
# false reports, so this build uses clang with LLVM's libomp and its Archer tool, which
# tells TSan about OpenMP's synchronisation.
stage "TSan build (clang, libomp + Archer) and parallel tests"
# Only the programs that ctest -L parallel runs are built here (the target parallel_tests,
# tests/CMakeLists.txt). -O1 as for ASan, and -g1: line tables name a report's lines, and
# the two compile probe.cpp in 17 s against 42 s at CMake's -O2 -g.
build build-tsan --target parallel_tests \
  -- -DOWAREDB_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_UNITY_BUILD=ON
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | sort -V | tail -n 1)
OWAREDB_QUICK=1 OMP_TOOL_LIBRARIES="$archer" TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
  tests --test-dir build-tsan --output-on-failure -L parallel -j "$jobs"
stage "all green"
