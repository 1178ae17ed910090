// How long compressing and writing a level's file will take, for the level's ETA: the
// solving phases report their progress, the write does not, and at 36 seeds the write of
// a level is minutes (docs/results.md). The write's time per position is taken from the
// last level written in the same mode (an in-memory level compresses from memory, a
// streamed one from its working file; the two rates differ by about two), or, for the
// first level of a mode, from the last level written at all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace owaredb::cli {

class WriteRate {
  public:
    /// A level of `positions` built in `mode` whose file took `seconds` to write; it
    /// replaces what an earlier (smaller) level of the mode said. Nothing for an empty
    /// level or a time that is not positive.
    void add(const std::string& mode, uint64_t positions, double seconds) {
        if (positions == 0 || !(seconds > 0)) return;
        last_ = by_mode_[mode] = seconds / double(positions);
    }

    /// Seconds to write a level of `positions` built in `mode`; none before any level was
    /// added.
    std::optional<double> seconds(const std::string& mode, uint64_t positions) const {
        const auto it = by_mode_.find(mode);
        const std::optional<double> rate = it != by_mode_.end() ? it->second : last_;
        if (!rate) return std::nullopt;
        return *rate * double(positions);
    }

  private:
    std::map<std::string, double> by_mode_; ///< seconds per position
    std::optional<double> last_;
};

} // namespace owaredb::cli
