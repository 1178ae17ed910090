// A stop asked for by a signal, for a command that can stop at a safe point and keep its
// work (generate saves the level's checkpoint there): SIGINT (Ctrl-C), SIGTERM and SIGHUP
// only set a flag, which the command looks at where stopping loses nothing; a second one
// ends the process at once, as if no handler were installed.
#pragma once

#include <string>

namespace owaredb::cli {

/// The exit status of a command that a signal stopped at a safe point, its work saved: a
/// rerun of the same command goes on from there (1 is a failure, 2 a usage error).
inline constexpr int kStoppedStatus = 3;

/// While it lives, SIGINT, SIGTERM and SIGHUP set the flag requested() reads and write
/// `notice` (one line) on standard error; each signal that comes after the first ends the
/// process with that signal's default action. A signal the process ignores (nohup, a
/// shell's background job) stays ignored. The handler is async-signal-safe (an atomic
/// store and write(2)); it is installed with SA_RESTART, so no system call fails with
/// EINTR because of it. One instance at a time; its destructor restores the dispositions
/// it replaced. Not for MPI ranks (mpirun forwards signals as it decides).
class StopSignals {
  public:
    explicit StopSignals(const std::string& notice);
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    /// Whether a signal asked to stop (false when no StopSignals was ever installed).
    static bool requested();
    /// The name of the signal that asked ("SIGTERM"), or "" when none did.
    static std::string signal_name();
    /// Ends the process by the signal that asked, with its default action (after the
    /// command has cleaned up), as if it had never been caught. Returns if none asked.
    static void end_by_signal();
};

} // namespace owaredb::cli
