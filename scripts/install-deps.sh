#!/usr/bin/env bash
# Installs the Debian packages owaredb needs, only those that are missing.
# Idempotent and quiet when everything is already present.
set -euo pipefail
pkgs=(g++ cmake make pkg-config libzstd-dev libxxhash-dev libboost-program-options-dev
      libboost-dev nlohmann-json3-dev doctest-dev libomp-dev clang pybind11-dev python3-dev
      python3-numpy time chromium libopenmpi-dev openmpi-bin wrk eatmydata)
# node and npm run the owaredb serve tests (tests/browser): Debian's only if none is there.
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
