#include "verify_record.hpp"

#include "cli/json.hpp"
#include "cli/system_stats.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/file_io.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace owaredb::cli {

namespace {

constexpr const char* kMarker = "owaredb_verify_progress";
constexpr int kVersion = 2; // 2: with "checksum"

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

// An integer of `j` in lo..hi, or an exception naming `what` (a fraction, a string, a number
// out of range: nlohmann's get<> would round or wrap it).
int64_t integer_in(const Json& j, int64_t lo, int64_t hi, const std::string& what) {
    const bool fits = j.is_number_unsigned()  ? j.get<uint64_t>() <= uint64_t(hi)
                      : j.is_number_integer() ? j.get<int64_t>() >= lo && j.get<int64_t>() <= hi
                                              : false;
    if (!fits) throw std::runtime_error(what + " " + j.dump() + " out of range");
    return j.get<int64_t>();
}
uint64_t count_up_to(const Json& j, uint64_t most, const std::string& what) {
    if (!j.is_number_unsigned() || j.get<uint64_t>() > most)
        throw std::runtime_error(what + " " + j.dump() + " out of range 0.." +
                                 std::to_string(most));
    return j.get<uint64_t>();
}
double seconds_of(const Json& j, const std::string& what) {
    if (!j.is_number() || !(j.get<double>() >= 0) || !std::isfinite(j.get<double>()))
        throw std::runtime_error(what + " " + j.dump() + " is not a time");
    return j.get<double>();
}

// A time as time_json() wrote it, of at most `most` positions, or none (positions 0) where
// the object has none.
CheckTime time_from(const Json& j, uint64_t most) {
    if (!j.contains("wall_seconds")) return {};
    return {count_up_to(j.at("positions"), most, "timed positions"),
            seconds_of(j.at("wall_seconds"), "wall_seconds"),
            seconds_of(j.at("cpu_seconds"), "cpu_seconds")};
}

// The checksum a document carries, of its text without it.
std::string checksum_of(Json doc) {
    doc.erase("checksum");
    const std::string text = doc.dump();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(db::detail::checksum(
                      std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()))));
    return hex;
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

namespace {

// What a progress file holds, read and checked against the levels of this check.
struct Recorded {
    std::vector<LevelFileStamp> stamps;
    std::vector<bool> consistent;
    std::vector<CheckTime> times;
    int prefix_level = -1;
    uint64_t prefix_positions = 0;
    CheckTime prefix_time;
    std::string written;
};

// The facts of `doc` for levels 0..max_level of `files`; throws std::invalid_argument for a
// file of another check, std::runtime_error for one that does not fit.
Recorded read_recorded(const Json& doc, const VerifiedDirectory& mine, int max_level,
                       const LevelFiles& files) {
    const int version = doc.is_object() ? doc.value(kMarker, 0) : 0;
    if (version != 1 && version != kVersion)
        throw std::runtime_error("no \"" + std::string(kMarker) +
                                 "\": " + std::to_string(kVersion));
    if (version == kVersion && doc.value("checksum", std::string()) != checksum_of(doc))
        throw std::runtime_error("its checksum does not match its text: damaged or edited");
    const VerifiedDirectory theirs{doc.at("directory").get<std::string>(),
                                   doc.at("rules").get<std::string>(), doc.at("pits").get<int>(),
                                   doc.at("format").get<std::string>()};
    if (!(theirs == mine))
        throw std::invalid_argument("it records a check of " + describe(theirs) + ", not of " +
                                    describe(mine) +
                                    ": give another --progress-file, or remove this one");
    const size_t levels = size_t(max_level) + 1;
    Recorded r;
    r.stamps.resize(levels);
    r.consistent.resize(levels, false);
    r.times.resize(levels);
    auto level = [&](const Json& j) { return size_t(integer_in(j, 0, max_level, "level")); };
    for (const Json& f : doc.at("files"))
        r.stamps[level(f.at("level"))] = {
            true, count_up_to(f.at("bytes"), uint64_t(INT64_MAX), "bytes"),
            integer_in(f.at("modified_ns"), INT64_MIN, INT64_MAX, "modified_ns")};
    for (const Json& j : doc.at("consistent")) {
        const size_t n = level(j);
        if (!r.stamps[n].present)
            throw std::runtime_error("level " + std::to_string(n) +
                                     " recorded consistent without its file");
        r.consistent[n] = true;
    }
    // Times came with version 1's later releases: a record without them is still valid.
    if (doc.contains("times"))
        for (const Json& t : doc["times"]) {
            const size_t n = level(t.at("level"));
            r.times[n] = time_from(t, files.positions(int(n)));
        }
    if (doc.contains("prefix")) {
        const Json& p = doc["prefix"];
        r.prefix_level = int(level(p.at("level")));
        const uint64_t size = files.positions(r.prefix_level);
        r.prefix_positions =
            count_up_to(p.at("positions"), size > 0 ? size - 1 : 0, "prefix positions");
        if (p.contains("time")) r.prefix_time = time_from(p["time"], r.prefix_positions);
    }
    r.written = doc.value("written", std::string("?"));
    return r;
}

} // namespace

VerifyRecord::VerifyRecord(std::filesystem::path file, VerifiedDirectory directory, int max_level,
                           LevelFiles files, double min_seconds_between_writes)
    : file_(std::move(file)), directory_(std::move(directory)),
      consistent_(size_t(max_level) + 1, false), times_(size_t(max_level) + 1),
      min_seconds_between_writes_(min_seconds_between_writes) {
    directory_.dir = absolute_dir(directory_.dir);
    for (int n = 0; n <= max_level; ++n) stamps_.push_back(stamp_of(files.path(n)));
    const std::string name = "progress file '" + file_.string() + "'";
    if (!std::filesystem::exists(file_)) {
        opening_lines_.push_back(name + ": new");
        write();
        return;
    }
    std::ifstream in(file_);
    if (!in) throw std::runtime_error("cannot read " + name + ": " + std::strerror(errno));
    Recorded recorded;
    try {
        recorded = read_recorded(Json::parse(in), directory_, max_level, files);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(name + ": " + e.what());
    } catch (const std::exception& e) {
        throw std::runtime_error(name + " is not a verify progress file (" + e.what() +
                                 "): remove it to check again");
    }
    // Facts about level n hold while the files of levels 0..n are as recorded.
    int changed = 0;
    while (changed < int(stamps_.size()) &&
           recorded.stamps[size_t(changed)] == stamps_[size_t(changed)])
        ++changed;
    bool dropped = false;
    for (int n = 0; n < int(consistent_.size()); ++n) {
        if (!recorded.consistent[size_t(n)]) continue;
        if (n < changed) {
            consistent_[size_t(n)] = true;
            times_[size_t(n)] = recorded.times[size_t(n)];
        } else {
            dropped = true;
        }
    }
    if (recorded.prefix_level >= 0 && recorded.prefix_level < changed) {
        prefix_level_ = opened_prefix_level_ = recorded.prefix_level;
        prefix_positions_ = recorded.prefix_positions;
        prefix_time_ = opened_prefix_time_ = recorded.prefix_time;
    } else if (recorded.prefix_level >= 0) {
        dropped = true;
    }
    std::string held = level_ranges(consistent_);
    held = held.empty() ? "no level consistent" : "levels " + held + " consistent";
    if (prefix_level_ >= 0)
        held += "; level " + std::to_string(prefix_level_) + ": its first " +
                std::to_string(prefix_positions_) + " positions consistent";
    opening_lines_.push_back(name + " (written " + recorded.written + "): " + held);
    if (dropped) {
        const LevelFileStamp& was = recorded.stamps[size_t(changed)];
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
    doc["checksum"] = checksum_of(doc);
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
