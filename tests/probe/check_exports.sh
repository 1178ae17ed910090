#!/usr/bin/env bash
# libowaredb.so exports the documented API and nothing else: every defined dynamic symbol
# is in namespace owaredb (the C++ API of owaredb/probe.hpp) or named owaredb_* (the C API
# of owaredb/probe.h); with the header given, the C functions exported are exactly those it
# declares. Usage: check_exports.sh path/to/libowaredb.so [path/to/owaredb/probe.h]
set -euo pipefail
lib=$1 header=${2:-}
symbols=$(nm -D --defined-only "$lib" | awk '{print $3}' | c++filt)
count=$(grep -c . <<<"$symbols")
stray=$(grep -Ev '^owaredb_[a-z_]+$|^owaredb::' <<<"$symbols" || true)
if [[ -n "$stray" ]]; then
  echo "libowaredb.so exports symbols outside the documented API:"
  echo "$stray"
  exit 1
fi
# Internals live in nested namespaces (owaredb::db, ...) and must not leak either.
internal=$(grep -E '^owaredb::(db|detail|cli|probe_engine)::|legal_moves|AtomicFileSink' <<<"$symbols" || true)
if [[ -n "$internal" ]]; then
  echo "libowaredb.so exports internal symbols:"
  echo "$internal"
  exit 1
fi
for api in owaredb_open owaredb_value owaredb_values owaredb_version owaredb_open_board \
  'owaredb::Tablebase::value(' 'owaredb::Tablebase::pits_per_side()' 'owaredb::version()' \
  'owaredb::generate_command' 'owaredb::position_text' 'owaredb::Tablebase::missing_levels(' \
  'owaredb::game_state(' 'owaredb::directory_problem(' owaredb_principal_variation \
  owaredb_search owaredb_rules 'owaredb::search('; do
  grep -qF "$api" <<<"$symbols" || { echo "missing API symbol: $api"; exit 1; }
done
if [[ -n "$header" ]]; then
  declared=$(grep -oE '\bowaredb_[a-z_]+\(' "$header" | tr -d '(' | sort -u)
  exported=$(grep -E '^owaredb_' <<<"$symbols" | sort -u)
  if [[ "$declared" != "$exported" ]]; then
    echo "C functions declared in $header and exported by libowaredb.so differ:"
    diff <(echo "$declared") <(echo "$exported") || true
    exit 1
  fi
fi
echo "libowaredb.so: $count symbols, all in the documented API"
