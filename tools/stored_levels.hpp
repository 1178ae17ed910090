// What the commands that read stored levels whole (verify's value check, stats) need
// besides the levels themselves, which they read through a LevelStore
// (tablebase/level_store.hpp, opened by open_store in database_options.hpp) whatever the
// format. Our files may be of any board (P pits a side, 1..8); the code that needs the
// game's rules for a board (the checks, one-ply values) gets it through with_oware_game
// (oware/oware_game.hpp), once per use, from the store's pits() and rules().
#pragma once

#include "oware/oware_game.hpp"

#include <cstdint>
#include <string>

namespace owaredb::cli {

/// The text form (2P numbers) of the position of rank `index` in level n of a board of
/// `pits` pits a side.
std::string position_text(int pits, int n, uint64_t index);

} // namespace owaredb::cli
