# What the generation benchmarks (bench-threads.sh, bench-streamed.sh, bench-mpi.sh) share:
# the machine they ran on, and the files of the smaller levels they start from. Sourced,
# not run.

# One line: cores, processor, memory and load, for the benchmark's record.
bench_machine() {
  echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(free -g | awk '/Mem:/ {print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# The file of level K of RULES in DIR.
bench_level_file() { printf '%s/%s-%02d.owdb' "$1" "$2" "$3"; }

# bench_require_levels DIR RULES N: stops the benchmark, saying how to build them, unless
# DIR holds levels 0..N-1.
bench_require_levels() {
  local k f
  for k in $(seq 0 $(($3 - 1))); do
    f=$(bench_level_file "$1" "$2" "$k")
    [[ -f $f ]] || { echo "missing $f (owaredb generate --rules $2 --max-seeds $(($3 - 1)))" >&2; exit 1; }
  done
}

# bench_link_levels DIR RULES N DEST: levels 0..N-1 of DIR into DEST (hard links where the
# file system allows, else copies), so that each run starts from the same files.
bench_link_levels() {
  local k f
  mkdir -p "$4"
  for k in $(seq 0 $(($3 - 1))); do
    f=$(bench_level_file "$1" "$2" "$k")
    ln -f "$f" "$4/" 2>/dev/null || cp "$f" "$4/"
  done
}
