// `owaredb serve` runs the program owaredb-serve (tools/serve_main.cpp), which holds the web
// oracle. It was split off when HTTP came from cpp-httplib, a shared library linked with
// OpenSSL, zlib and brotli, whose loading and relocation cost every owaredb command about 9
// million instructions at start-up (callgrind), 6 % of a 20,000-position probe batch. On
// Boost.Beast (header-only, serve_http.cpp) that cost is gone; the split keeps the HTTP
// server's code and threads out of owaredb.
#include "commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace owaredb::cli {

int cmd_serve_launch(const Args& args) {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find this program's directory: " + ec.message());
    const std::string server = (self.parent_path() / "owaredb-serve").string();
    // owaredb-serve takes the same arguments after "serve", and names itself "owaredb" in
    // its messages, so that both ways of starting it behave the same.
    std::vector<std::string> words{"owaredb", "serve"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    execv(server.c_str(), argv.data());
    throw std::runtime_error("cannot start " + server + ": " + std::strerror(errno) +
                             " (owaredb serve is the program owaredb-serve, installed next to "
                             "owaredb)");
}

} // namespace owaredb::cli
