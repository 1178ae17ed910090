#include "generate/build_record.hpp"

#include "cli/json.hpp"
#include "cli/system_stats.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace owaredb::cli {

namespace {

constexpr const char* kFileName = "owaredb-build.jsonl";

// The record opened for appending, or -1 with the reason in `why`. Never through a link (a
// planted one would get the line appended to its target), and never anything but a regular
// file (opened non-blocking, so that a FIFO there does not hold the run up).
int open_for_append(const std::filesystem::path& path, std::string& why) {
    const int fd = ::open(
        path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) {
        why = errno == ELOOP ? "it is a symbolic link, not followed" : std::strerror(errno);
        return -1;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::fcntl(fd, F_SETFL, O_APPEND) != 0) {
        why = "not a regular file";
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

BuildRecord::BuildRecord(const std::filesystem::path& dir) : path_(dir / kFileName) {}

void BuildRecord::append(const std::filesystem::path& file, const LevelRow& row,
                         int threads) const {
    Json line;
    line["file"] = file.filename().string();
    line["file_bytes"] = row.file_bytes;
    line["level"] = row.n;
    line["positions"] = row.positions;
    line["mode"] = row.mode;
    line["seconds"] = row.seconds;
    line["write_seconds"] = row.write_seconds;
    line["cpu_seconds"] = row.cpu_seconds;
    line["earlier_unknown"] = row.earlier_unknown;
    line["peak_rss"] = row.peak_rss;
    if (row.messages) line["messages"] = *row.messages;
    if (row.disk_peak) line["disk_peak"] = *row.disk_peak;
    if (row.scans) line["scans"] = *row.scans;
    if (row.spilled_peak) line["spilled_peak"] = *row.spilled_peak;
    for (const auto& [name, t] : row.phases)
        line["phases"][name] = {{"seconds", t.seconds}, {"cpu_seconds", t.cpu_seconds}};
    line["threads"] = threads;
    line["finished"] = utc_timestamp();
    const std::string text = line.dump() + "\n";
    std::string why;
    const int fd = open_for_append(path_, why);
    if (fd >= 0) {
        // One write of a short line to a file opened for appending: a crash leaves at most a
        // cut last line, which find() skips.
        if (::write(fd, text.data(), text.size()) != ssize_t(text.size()) || ::fsync(fd) != 0)
            why = std::strerror(errno);
        ::close(fd);
    }
    if (!why.empty())
        std::fprintf(stderr, "warning: could not record level %d's build in %s: %s\n", row.n,
                     path_.c_str(), why.c_str());
}

std::optional<LevelRow> BuildRecord::find(const std::filesystem::path& file) const {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(file, ec);
    if (ec) return std::nullopt;
    std::ifstream in(path_);
    std::optional<LevelRow> found;
    for (std::string text; std::getline(in, text);) {
        const Json line = Json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (!line.is_object()) continue;
        try {
            if (line.at("file").get<std::string>() != file.filename().string() ||
                line.at("file_bytes").get<uint64_t>() != size)
                continue;
            LevelRow row;
            row.mode = line.at("mode").get<std::string>();
            row.seconds = line.at("seconds").get<double>();
            row.write_seconds = line.at("write_seconds").get<double>();
            row.cpu_seconds = line.at("cpu_seconds").get<double>();
            row.earlier_unknown = line.at("earlier_unknown").get<bool>();
            row.peak_rss = line.at("peak_rss").get<std::vector<uint64_t>>();
            if (line.contains("messages")) row.messages = line.at("messages").get<uint64_t>();
            if (line.contains("disk_peak")) row.disk_peak = line.at("disk_peak").get<uint64_t>();
            if (line.contains("scans")) row.scans = line.at("scans").get<uint64_t>();
            if (line.contains("spilled_peak"))
                row.spilled_peak = line.at("spilled_peak").get<uint64_t>();
            if (line.contains("phases"))
                for (const auto& [name, t] : line.at("phases").items())
                    row.phases[name] = {t.at("seconds").get<double>(),
                                        t.at("cpu_seconds").get<double>()};
            found = std::move(row);
        } catch (const Json::exception&) {
            continue; // a line of another shape: not ours to read
        }
    }
    return found;
}

} // namespace owaredb::cli
