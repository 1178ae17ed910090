#include "engine_errors.hpp"

namespace owaredb::probe_engine {

ProbeError from_db(const db::Status& s) {
    switch (s.code()) {
    case db::ErrorCode::NotFound:
        return {ProbeStatus::NotAvailable, s.message()};
    case db::ErrorCode::Io:
        return {ProbeStatus::IoError, s.message()};
    case db::ErrorCode::InvalidArgument: // a level past 48 seeds (LevelSlots::level)
        return {ProbeStatus::InvalidPosition, s.message()};
    default:
        return {ProbeStatus::Corrupt, s.message()};
    }
}

std::string board_words(int pits_per_side) {
    return std::to_string(pits_per_side) + " pits a side (" + std::to_string(2 * pits_per_side) +
           " pit counts)";
}

std::string list_words(const std::vector<int>& boards) {
    std::string out;
    for (std::size_t i = 0; i < boards.size(); ++i) {
        if (i) out += i + 1 == boards.size() ? " and " : ", ";
        out += std::to_string(boards[i]);
    }
    return out;
}

} // namespace owaredb::probe_engine
