// Free disk space, as the commands that write large files check it before they start:
// generate (generate/preflight.hpp, by the parts of a level's peak), compare and convert
// (a published level put in our order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace owaredb::cli {

/// Bytes as messages give them: "14.3 GB" from 1 GiB on, else "600 MB" (binary units).
std::string gigabytes(uint64_t bytes);

/// Free bytes for an unprivileged writer in `dir`; nullopt when the system cannot tell
/// (statvfs fails): the callers then check nothing.
std::optional<uint64_t> free_bytes(const std::string& dir);

/// Throws std::runtime_error, before level n is worked on, when the free space of `dir` is
/// below `bytes`, naming both figures and ENOSPC's text.
void check_disk(int n, uint64_t bytes, const std::string& dir);

} // namespace owaredb::cli
