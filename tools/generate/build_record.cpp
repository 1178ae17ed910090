#include "generate/build_record.hpp"

#include "cli/json.hpp"
#include "cli/system_stats.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace owaredb::cli {

namespace {

constexpr const char* kFileName = "owaredb-build.jsonl";

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
    line["threads"] = threads;
    line["finished"] = utc_timestamp();
    const std::string text = line.dump() + "\n";
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    int error = errno;
    if (ok) {
        // One write of a short line to a file opened for appending: a crash leaves at most a
        // cut last line, which find() skips.
        ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size()) && ::fsync(fd) == 0;
        error = errno;
        ::close(fd);
    }
    if (!ok)
        std::fprintf(stderr, "warning: could not record level %d's build in %s: %s\n", row.n,
                     path_.c_str(), std::strerror(error));
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
            found = std::move(row);
        } catch (const Json::exception&) {
            continue; // a line of another shape: not ours to read
        }
    }
    return found;
}

} // namespace owaredb::cli
