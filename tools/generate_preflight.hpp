// What `owaredb generate` checks before it solves anything: that the directory can be
// written, that no other writer holds it, and that each level fits the memory and the
// disk, so that a doomed run stops at once with a message instead of after hours of work.
#pragma once

#include "dbformat/dir_lock.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace owaredb::cli {

/// Creates `dir` if needed, checks that a file can be created in it, and takes the
/// writer's lock (db::DirectoryLock), removing the temp files of killed writers. Throws
/// UsageError for a path that cannot be a directory, std::runtime_error when another
/// process holds the lock or the directory cannot be written. Writes nothing else.
std::unique_ptr<db::DirectoryLock> prepare_output_directory(const std::string& dir);

/// Bytes of memory an in-memory build of level n needs: `working` bytes per position of
/// D_n plus `stored` bytes per position of every smaller level.
uint64_t memory_needed(int n, int working, int stored);

/// The memory budget of `generate --memory`: `requested` bytes, or when 0 (not given) 90 %
/// of the memory available now (MemAvailable), or 0 when that is unknown (no check).
uint64_t memory_budget(uint64_t requested);

/// Throws std::runtime_error, before level n is solved, when `needed` bytes of memory
/// exceed `budget` (memory_budget(); 0: no check), or the free space of `dir` is below
/// `disk` bytes (the estimated size of the level's file, with a margin), naming both
/// figures: "level 36 needs 28.5 GB of memory in in-memory mode; --memory is 20.0 GB".
/// `budget_given`: whether the user set the budget (the message names --memory) or it is
/// the default (the message names the available memory).
void check_level_fits(int n, uint64_t needed, uint64_t disk, const std::string& dir,
                      uint64_t budget, bool budget_given);

} // namespace owaredb::cli
