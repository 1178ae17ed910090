#!/usr/bin/env bash
# Where the time of writing a level goes, and what each zstd level buys: for each level file
# of DIR (default ./owaredb-data, abapa), re-encodes its values with the default writer
# options at several zstd levels ("auto": the writer's default, zstd level and block size by
# level size) and splits the CPU seconds into compressing every block,
# measuring the symbol width and block size on the sample, the dictionary and the
# self-check (owaredb_format_bench --profile). Nothing is written to DIR.
#
#   scripts/bench-write.sh [DIR] [LEVELS (default 12,14,16,18)] [ZSTD (default auto,6,13,14)]
#   BUILD=build-write scripts/bench-write.sh /tmp/data 16,18 auto,14
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-owaredb-data}
levels=${2:-12,14,16,18}
zstd=${3:-auto,6,13,14}
bench=${BUILD:-build}/dbformat/owaredb_format_bench
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(free -g | awk '/Mem:/ {print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
files=()
for n in ${levels//,/ }; do
  f=$(printf '%s/abapa-%02d.owdb' "$dir" "$n")
  [[ -f $f ]] || { echo "missing $f (owaredb generate --max-seeds $n --dir $dir)" >&2; exit 1; }
  files+=("$f")
done
(IFS=,; "$bench" --profile "${files[*]}" --levels "$zstd" --threads "$(nproc)")
