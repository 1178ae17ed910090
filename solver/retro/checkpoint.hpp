// Checkpoints inside a level: the threshold sweep (retro/sweep.hpp) stops at safe points,
// where everything it has done is in the level's working words and nothing is in flight,
// and offers the words to a SweepCheckpoint, which may save them. A run that was killed
// restores the last saved words and goes on from that point, and ends with the same level
// as an uninterrupted run, because the sweep after a safe point depends only on the words.
//
// Safe points: after each segment of the first pass (the first pass fills the words in
// order, a segment at a time, each in parallel), and after each threshold (when its
// scans, including overflow rescans, are done); the streamed engine has more before its
// first pass, in its gathering of capture exits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace owaredb {

/// How far a level's sweep has got at a safe point.
struct SweepPoint {
    uint64_t first_pass_done = 0; ///< words [0, first_pass_done) hold their first-pass value
    int thresholds_done = 0;      ///< thresholds n, n - 1, ..., n - thresholds_done + 1 finished
    uint64_t scans = 0;           ///< threshold scans so far (statistics)
    uint64_t propagated = 0;      ///< positions propagated so far (statistics)
    /// The streamed engine's gathering of capture exits, before its first pass
    /// (retro/exit_gathering.hpp): the smaller positions that have given their exits to
    /// the words; only while first_pass_done is 0 (a point of the gathering).
    uint64_t exits_gathered = 0;
    /// The streamed engine from its first pass on: the checksum of its exit file
    /// (retro/streamed_retrograde.hpp), which must still match when the point is restored.
    uint64_t exit_checksum = 0;
};

/// Where a sweep saves its words and finds them again. Called by one thread at a time.
class SweepCheckpoint {
  public:
    virtual ~SweepCheckpoint() = default;
    /// At the start of the level: a point saved earlier, with its words copied into `words`
    /// (the whole level's working words as bytes, in the machine's order), or nothing (then
    /// `words` is left as it was).
    virtual std::optional<SweepPoint> restore(std::span<uint8_t> words) = 0;
    /// At each safe point: the checkpoint saves `words` and `point` if it is due to, and
    /// returns whether it did (what an engine keeps on disk beside its words, the nibble
    /// engine's scan store, is then what this point needs).
    virtual bool reached(const SweepPoint& point, std::span<const uint8_t> words) = 0;
    /// Something the user should read (an engine refusing what was restored, and why).
    virtual void note(const std::string& what) { (void)what; }
};

} // namespace owaredb
