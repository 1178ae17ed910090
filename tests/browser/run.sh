#!/usr/bin/env bash
# Runs an owaredb serve check from a work directory of its own (node_modules never lands in
# the source tree):
#   run.sh api        OWAREDB WORK          the HTTP API (node only, no browser)
#   run.sh browser    OWAREDB WORK          the page in Debian's chromium via playwright-core
#   run.sh screenshot OWAREDB WORK OUTDIR   docs/oracle.png, docs/oracle-phone.png, docs/opening.png
# playwright-core comes from npm (`npm ci`, exactly package-lock.json; the npm cache is
# enough offline); it drives /usr/bin/chromium and downloads no browser. Exits 77 (ctest:
# skipped) with a message when node or chromium is missing.
set -uo pipefail
mode=$1 owaredb=$2 work=$3
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (scripts/install-deps.sh installs nodejs and npm)"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
cp "$here"/*.mjs "$here"/package.json "$here"/package-lock.json "$work"/
cd "$work" || exit 1
if [[ $mode == api ]]; then
  exec node serve_api_test.mjs "$owaredb"
fi
if [[ ! -x /usr/bin/chromium ]]; then
  echo "SKIP: /usr/bin/chromium is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
if ! cmp -s package-lock.json node_modules/.owaredb-package-lock.json; then
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  if ! npm ci --prefer-offline --no-audit --no-fund --loglevel=error; then
    echo "FAIL: npm ci could not install playwright-core (no network and nothing in the npm cache?)"
    exit 1
  fi
  cp package-lock.json node_modules/.owaredb-package-lock.json
fi
case $mode in
  browser) exec node browser_test.mjs "$owaredb" "$work" ;;
  screenshot) exec node screenshot.mjs "$owaredb" "$4" ;;
  *) echo "run.sh: unknown mode '$mode'"; exit 2 ;;
esac
