// The errors the probe engine builds from the format layer's, and the words its messages
// name boards with. Private to the probe library.
#pragma once

#include "owaredb/probe.hpp"

#include "dbformat/status.hpp"

#include <string>
#include <vector>

namespace owaredb::probe_engine {

// A failed read of the format layer as the public API reports it (ProbeStatus).
ProbeError from_db(const db::Status& s);

// "4 pits a side (8 pit counts)".
std::string board_words(int pits_per_side);

// "4", "4 and 6", "3, 4 and 6".
std::string list_words(const std::vector<int>& boards);

} // namespace owaredb::probe_engine
