// Process statistics for reports: peak resident memory, terminal detection.
#pragma once

#include <cstdint>
#include <string>

namespace owaredb::cli {

/// Starts a new peak-RSS measurement (Linux: /proc/self/clear_refs); false if unsupported.
bool reset_peak_rss();
/// Peak resident set size in bytes since the last reset (VmHWM), 0 if unknown.
uint64_t peak_rss_bytes();
/// User and system CPU seconds of this process so far (every thread), 0 if unknown.
double cpu_seconds();
/// True when standard error is a terminal (progress then redraws one line).
bool stderr_is_terminal();
/// "1:02:03" / "4:05" for a duration in seconds.
std::string format_duration(double seconds);
/// The time now in UTC, "2026-12-03T15:04:05Z" (records' timestamps).
std::string utc_timestamp();

} // namespace owaredb::cli
