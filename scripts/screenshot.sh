#!/usr/bin/env bash
# Pictures of `owaredb serve` for the README: builds owaredb, builds abapa levels 0..12 in a
# temporary directory, starts the server and saves docs/oracle.png (laptop, 1280 x 800),
# docs/oracle-phone.png (phone, 390 x 844 at 2x) and docs/opening.png (the opening with the
# search's suggestions, 1100 x 540) with Debian's chromium driven by
# playwright-core (tests/browser, installed with npm ci into the build tree).
#   scripts/screenshot.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target owaredb
bash "$root/tests/browser/run.sh" screenshot "$build/tools/owaredb" "$build/tests/browser/work-screenshot" "$root/docs"
