// Bound files (gM, gN; docs/values.md, Convention-free bounds) of one rule set in a
// directory, beside its value files: "<dir>/<rules>-NN.bounds.owdb", header kind Bounds,
// two entries per position (entry 2i = gM, 2i + 1 = gN of position i; dbformat/README.md).
// The in-memory form is the same interleaved array the bounds solver (retro/bounds.hpp)
// produces and takes its smaller levels in.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "retro/bounds.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_dir.hpp"

#include <filesystem>
#include <vector>

namespace owaredb {

/// LevelDir gives dir(), rules(), pits(), with_game(f), path(n) ("<dir>/<rules>-NN.bounds.owdb",
/// "<dir>/<rules>-pP-NN.bounds.owdb" on a board of P != 6 pits a side),
/// meta(n) (entries = 2 * positions, kind Bounds) and expectation(n).
class BoundsDir : public LevelDir {
  public:
    BoundsDir(std::filesystem::path dir, Rules rules, int pits_per_side);

    /// Reads level n's bounds (2 * positions bytes) into `out`, checking every block
    /// checksum, that the file is this level's bound file, and that every pair has
    /// gM + gN <= n (else Corrupt). Leaves `out` untouched on failure (NotFound: no file).
    db::Status load(int n, ValueArray& out, int threads) const;

    /// Writes level n's bounds atomically; throws on failure.
    db::WriteReport save(int n, const ValueArray& bounds, int threads) const;
};

/// The consistency check of `owaredb verify` for bound files: the index of the first
/// position of level n whose stored (gM, gN) differs from the right-hand side of the bound
/// equations (retro/bounds.hpp, bounds_equation) over the stored levels[0..n], or
/// level_size(n) when all agree (among the positions of `range`). A necessary condition
/// only: every fixed point of the equations passes it, not just the least one that gM and
/// gN are. For a board of P pits a side, 1..8 (the bounds solver builds P <= 6; the check
/// reads any).
template <int P>
uint64_t first_bounds_mismatch(const BasicOwareGame<P>& game, int n,
                               const std::vector<ValueArray>& levels, int threads,
                               IndexRange range = {});

} // namespace owaredb
