#include "cli/stop_signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace owaredb::cli {

namespace {

constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_signal{0}; // the first signal that asked to stop, 0 before
char g_notice[256];           // written by the handler: no allocation there
std::size_t g_notice_size = 0;
struct sigaction g_previous[kSignals.size()];
bool g_installed[kSignals.size()] = {};

static_assert(std::atomic<int>::is_always_lock_free, "the handler stores it");

// Sends `sig` to the process with its default action (async-signal-safe). From the
// handler it is delivered as the handler returns (it is blocked while it runs).
void default_action(int sig) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    ::kill(::getpid(), sig);
}

extern "C" void on_stop_signal(int sig) {
    int none = 0;
    if (!g_signal.compare_exchange_strong(none, sig)) {
        default_action(sig); // a second signal: at once
        return;
    }
    const int saved = errno;
    [[maybe_unused]] const ssize_t put = ::write(STDERR_FILENO, g_notice, g_notice_size);
    errno = saved;
}

} // namespace

StopSignals::StopSignals(const std::string& notice) {
    g_notice_size = std::min(notice.size() + 1, sizeof g_notice - 1);
    std::memcpy(g_notice, (notice + "\n").data(), g_notice_size);
    g_signal.store(0);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
        struct sigaction old {};
        if (::sigaction(kSignals[i], nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        if (::sigaction(kSignals[i], &action, &g_previous[i]) != 0)
            throw std::runtime_error(std::string("cannot install a signal handler: ") +
                                     std::strerror(errno));
        g_installed[i] = true;
    }
}

StopSignals::~StopSignals() {
    for (std::size_t i = 0; i < kSignals.size(); ++i)
        if (g_installed[i]) ::sigaction(kSignals[i], &g_previous[i], nullptr);
    std::fill(std::begin(g_installed), std::end(g_installed), false);
}

bool StopSignals::requested() {
    return g_signal.load(std::memory_order_relaxed) != 0;
}

void StopSignals::end_by_signal() {
    if (const int sig = g_signal.load()) default_action(sig);
}

std::string StopSignals::signal_name() {
    switch (g_signal.load()) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    default:
        return "";
    }
}

} // namespace owaredb::cli
