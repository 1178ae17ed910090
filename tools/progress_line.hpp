// The progress line of long commands (generate, verify) on stderr: redrawn in place on a
// terminal; in a log (stderr not a terminal) a plain line at most every 10 seconds, so
// that an overnight run's log stays readable.
#pragma once

#include "cli/system_stats.hpp"

#include <chrono>
#include <cstdio>

namespace owaredb::cli {

class ProgressLine {
  public:
    ProgressLine() : tty_(stderr_is_terminal()) {}
    bool terminal() const { return tty_; }
    /// Shows `line` (at most 100 columns): at once on a terminal, else if 10 s have passed
    /// since the last line printed.
    void show(const char* line) {
        if (tty_) {
            std::fprintf(stderr, "\r%-100s", line);
        } else if (Clock::now() - last_line_ > std::chrono::seconds(10)) {
            last_line_ = Clock::now();
            std::fprintf(stderr, "%s\n", line);
        }
        std::fflush(stderr);
    }
    /// Erases the line on a terminal (before other output, or when the work is done).
    void clear() const {
        if (tty_) std::fprintf(stderr, "\r%-100s\r", "");
    }

  private:
    using Clock = std::chrono::steady_clock;
    bool tty_;
    Clock::time_point last_line_{};
};

} // namespace owaredb::cli
