#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and runs each one for a while on a
# freshly generated seed corpus. A crash leaves its input in build-fuzz/crashes/<target>/.
#   scripts/fuzz.sh [SECONDS]     seconds per fuzzer, default 60
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
build=build-fuzz

# One line per fuzzer: "<fuzz target> <seed writer target>". The seed writer is an
# executable target that fills the directory given as its argument with seed inputs.
fuzzers=(
  "fuzz_level_reader_checked owaredb_fuzz_seeds"
  "fuzz_level_reader_raw owaredb_fuzz_seeds"
  "fuzz_position_parser owaredb_fuzz_position_seeds"
)

scripts/install-deps.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -DOWAREDB_FUZZ=ON -DOWAREDB_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=()
for line in "${fuzzers[@]}"; do targets+=($line); done
cmake --build "$build" -j "$(nproc)" --target $(printf '%s\n' "${targets[@]}" | sort -u)

exe() { find "$build" -type f -perm -u+x -name "$1" | head -n 1; }

status=0
for line in "${fuzzers[@]}"; do
  read -r target seeder <<<"$line"
  corpus="$build/corpus/$target" crashes="$build/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  "$(exe "$seeder")" "$corpus" >/dev/null
  echo "== $target: ${secs}s on $(ls "$corpus" | wc -l) inputs"
  if ! "$(exe "$target")" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" 2>"$build/$target.log"; then
    echo "!! $target failed; see $build/$target.log and $crashes/"
    status=1
  fi
  grep -E "stat::number_of_executed_units|cov:" "$build/$target.log" | tail -n 2 || true
done
exit $status
