#!/usr/bin/env bash
# Every benchmark in one run, printed with the machine it ran on. Needs a Release build
# (scripts/demo.sh or scripts/test.sh --quick) and, for the probe benchmark, level 16 of
# abapa in ./owaredb-data (built here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/tools
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(free -g | awk '/Mem:/ {print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== unit costs (owaredb bench)"
$bin/owaredb bench
echo "== generator vs forward pass, 1 vs $(nproc) threads (owaredb bench-generate)"
$bin/owaredb bench-generate --levels 18 19 20
echo "== probes (owaredb bench-probe)"
$bin/owaredb generate --max-seeds 16 --dir owaredb-data >/dev/null
$bin/owaredb bench-probe --dir owaredb-data --level 16
echo "== batch probing through the command line (JSON Lines)"
python3 - <<'PY' >/tmp/owaredb-batch.txt
import random
random.seed(1)
for _ in range(500000):
    while True:
        pits = [0] * 12
        for _ in range(16):
            pits[random.randrange(12)] += 1
        if 0 in pits[6:]:
            break
    print(" ".join(map(str, pits)))
PY
start=$(date +%s.%N)
$bin/owaredb probe --batch --json --dir owaredb-data </tmp/owaredb-batch.txt >/dev/null
end=$(date +%s.%N)
python3 -c "print('  %d positions in %.2f s: %.0f positions/s (full answers with every move)' % (500000, $end - $start, 500000 / ($end - $start)))"
echo "== Omweso (omweso bench)"
$bin/omweso/omweso bench
