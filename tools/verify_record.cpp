#include "verify_record.hpp"

#include "cli/json.hpp"
#include "cli/system_stats.hpp"
#include "dbformat/file_io.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace owaredb::cli {

namespace {

constexpr const char* kMarker = "owaredb_verify_progress";
constexpr int kVersion = 1;

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// "0..28, 30, 32..33" for the levels set in `levels`.
std::string level_ranges(const std::vector<bool>& levels) {
    std::string text;
    for (int n = 0; n < int(levels.size()); ++n) {
        if (!levels[size_t(n)]) continue;
        int last = n;
        while (last + 1 < int(levels.size()) && levels[size_t(last) + 1]) ++last;
        if (!text.empty()) text += ", ";
        text += std::to_string(n);
        if (last > n) text += ".." + std::to_string(last);
        n = last;
    }
    return text;
}

std::filesystem::path absolute_dir(const std::filesystem::path& dir) {
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(dir, ec);
    return ec ? std::filesystem::absolute(dir) : canonical;
}

Json time_json(const CheckTime& t) {
    return Json{{"positions", t.positions},
                {"wall_seconds", t.wall_seconds},
                {"cpu_seconds", t.cpu_seconds}};
}

// A time as time_json() wrote it, or none (positions 0) where the object has none.
CheckTime time_from(const Json& j) {
    if (!j.contains("wall_seconds")) return {};
    return {j.at("positions").get<uint64_t>(), j.at("wall_seconds").get<double>(),
            j.at("cpu_seconds").get<double>()};
}

std::string describe(const VerifiedDirectory& d) {
    return "'" + d.dir.string() + "' (" + d.rules + ", " + std::to_string(d.pits) +
           " pits a side, " + d.format + " files)";
}

} // namespace

LevelFileStamp stamp_of(const std::filesystem::path& path) {
    // The reader's own stamp (dbformat/file_io.hpp); the inode and change time are left out,
    // so that a copy or a restore of the same bytes with their times keeps its facts.
    const db::detail::FileStamp st = db::detail::file_stamp(path);
    if (st.error != 0) return {};
    return {true, st.size, st.modified_ns};
}

VerifyRecord::VerifyRecord(std::filesystem::path file, VerifiedDirectory directory, int max_level,
                           PathOf path_of, double min_seconds_between_writes)
    : file_(std::move(file)), directory_(std::move(directory)),
      consistent_(size_t(max_level) + 1, false), times_(size_t(max_level) + 1),
      min_seconds_between_writes_(min_seconds_between_writes) {
    directory_.dir = absolute_dir(directory_.dir);
    for (int n = 0; n <= max_level; ++n) stamps_.push_back(stamp_of(path_of(n)));
    const std::string name = "progress file '" + file_.string() + "'";
    if (!std::filesystem::exists(file_)) {
        opening_lines_.push_back(name + ": new");
        write();
        return;
    }
    std::ifstream in(file_);
    if (!in) throw std::runtime_error("cannot read " + name + ": " + std::strerror(errno));
    Json doc;
    try {
        doc = Json::parse(in);
    } catch (const Json::exception& e) {
        throw std::runtime_error(name + " is not a verify progress file (" + e.what() + ")");
    }
    std::vector<LevelFileStamp> recorded(stamps_.size());
    std::vector<bool> consistent(consistent_.size(), false);
    std::vector<CheckTime> times(times_.size());
    int prefix_level = -1;
    uint64_t prefix_positions = 0;
    CheckTime prefix_time;
    std::string written;
    try {
        if (!doc.is_object() || doc.value(kMarker, 0) != kVersion)
            throw std::runtime_error("no \"" + std::string(kMarker) +
                                     "\": " + std::to_string(kVersion));
        const VerifiedDirectory theirs{
            doc.at("directory").get<std::string>(), doc.at("rules").get<std::string>(),
            doc.at("pits").get<int>(), doc.at("format").get<std::string>()};
        if (!(theirs == directory_))
            throw std::invalid_argument("it records a check of " + describe(theirs) + ", not of " +
                                        describe(directory_) +
                                        ": give another --progress-file, or remove this one");
        auto level_in_range = [&](int n) {
            if (n < 0 || n > max_level)
                throw std::runtime_error("level " + std::to_string(n) + " out of range");
            return size_t(n);
        };
        for (const Json& f : doc.at("files"))
            recorded[level_in_range(f.at("level").get<int>())] = {
                true, f.at("bytes").get<uint64_t>(), f.at("modified_ns").get<int64_t>()};
        for (const Json& n : doc.at("consistent")) consistent[level_in_range(n.get<int>())] = true;
        // Times came with version 1's later releases: a record without them is still valid.
        if (doc.contains("times"))
            for (const Json& t : doc["times"])
                times[level_in_range(t.at("level").get<int>())] = time_from(t);
        if (doc.contains("prefix")) {
            prefix_level = int(level_in_range(doc["prefix"].at("level").get<int>()));
            prefix_positions = doc["prefix"].at("positions").get<uint64_t>();
            if (doc["prefix"].contains("time")) prefix_time = time_from(doc["prefix"]["time"]);
        }
        written = doc.value("written", std::string("?"));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(name + ": " + e.what());
    } catch (const std::exception& e) {
        throw std::runtime_error(name + " is not a verify progress file (" + e.what() + ")");
    }
    // Facts about level n hold while the files of levels 0..n are as recorded.
    int changed = 0;
    while (changed < int(stamps_.size()) && recorded[size_t(changed)] == stamps_[size_t(changed)])
        ++changed;
    bool dropped = false;
    for (int n = 0; n < int(consistent.size()); ++n) {
        if (!consistent[size_t(n)]) continue;
        if (n < changed) {
            consistent_[size_t(n)] = true;
            times_[size_t(n)] = times[size_t(n)];
        } else {
            dropped = true;
        }
    }
    if (prefix_level >= 0 && prefix_level < changed) {
        prefix_level_ = opened_prefix_level_ = prefix_level;
        prefix_positions_ = prefix_positions;
        prefix_time_ = opened_prefix_time_ = prefix_time;
    } else if (prefix_level >= 0) {
        dropped = true;
    }
    std::string held = level_ranges(consistent_);
    held = held.empty() ? "no level consistent" : "levels " + held + " consistent";
    if (prefix_level_ >= 0)
        held += "; level " + std::to_string(prefix_level_) + ": its first " +
                std::to_string(prefix_positions_) + " positions consistent";
    opening_lines_.push_back(name + " (written " + written + "): " + held);
    if (dropped) {
        const LevelFileStamp& was = recorded[size_t(changed)];
        const LevelFileStamp& is = stamps_[size_t(changed)];
        const char* how = !was.present ? "appeared" : !is.present ? "is gone" : "changed";
        opening_lines_.push_back(name + ": level " + std::to_string(changed) + "'s file " + how +
                                 " since, so levels " + std::to_string(changed) +
                                 " and above are checked again");
    }
    write();
}

bool VerifyRecord::consistent(int n) const {
    return n >= 0 && n < int(consistent_.size()) && consistent_[size_t(n)];
}

uint64_t VerifyRecord::consistent_prefix(int n) const {
    return n == prefix_level_ ? prefix_positions_ : 0;
}

std::optional<CheckTime> VerifyRecord::time_of(int n) const {
    CheckTime t;
    if (consistent(n))
        t = times_[size_t(n)];
    else if (n == prefix_level_)
        t = prefix_time_;
    if (t.positions == 0) return std::nullopt;
    return t;
}

CheckTime VerifyRecord::earlier_time(int n) const {
    return n == opened_prefix_level_ ? opened_prefix_time_ : CheckTime{};
}

void VerifyRecord::record_consistent(int n, const CheckTime& this_run) {
    consistent_.at(size_t(n)) = true;
    times_.at(size_t(n)) = earlier_time(n);
    times_[size_t(n)] += this_run;
    if (prefix_level_ == n) prefix_level_ = -1, prefix_positions_ = 0, prefix_time_ = {};
    write();
    last_write_ = steady_seconds();
}

void VerifyRecord::record_prefix(int n, uint64_t positions, const CheckTime& this_run) {
    prefix_level_ = n;
    prefix_positions_ = positions;
    prefix_time_ = earlier_time(n);
    prefix_time_ += this_run;
    if (last_write_ >= 0 && steady_seconds() - last_write_ < min_seconds_between_writes_) return;
    write();
    last_write_ = steady_seconds();
}

void VerifyRecord::write() {
    Json doc;
    doc[kMarker] = kVersion;
    doc["directory"] = directory_.dir.string();
    doc["rules"] = directory_.rules;
    doc["pits"] = directory_.pits;
    doc["format"] = directory_.format;
    Json files = Json::array();
    for (int n = 0; n < int(stamps_.size()); ++n)
        if (stamps_[size_t(n)].present)
            files.push_back(Json{{"level", n},
                                 {"bytes", stamps_[size_t(n)].bytes},
                                 {"modified_ns", stamps_[size_t(n)].modified_ns}});
    doc["files"] = std::move(files);
    Json consistent = Json::array();
    for (int n = 0; n < int(consistent_.size()); ++n)
        if (consistent_[size_t(n)]) consistent.push_back(n);
    doc["consistent"] = std::move(consistent);
    Json times = Json::array();
    for (int n = 0; n < int(times_.size()); ++n)
        if (consistent_[size_t(n)] && times_[size_t(n)].positions > 0) {
            Json t = time_json(times_[size_t(n)]);
            t["level"] = n;
            times.push_back(std::move(t));
        }
    doc["times"] = std::move(times);
    if (prefix_level_ >= 0) {
        doc["prefix"] = Json{{"level", prefix_level_}, {"positions", prefix_positions_}};
        if (prefix_time_.positions > 0) doc["prefix"]["time"] = time_json(prefix_time_);
    }
    doc["written"] = utc_timestamp();
    const std::string text = doc.dump() + "\n";
    try {
        db::detail::AtomicFileSink sink(file_);
        sink.write(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
        sink.commit();
    } catch (const std::runtime_error& e) {
        throw ProgressFileError(std::string("cannot write the progress file: ") + e.what());
    }
}

} // namespace owaredb::cli
