#include "tablebase/level_store.hpp"

#include "oware/ranking.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_store_formats.hpp"

#include <array>
#include <stdexcept>

namespace owaredb {

namespace {

// Every format, in the order a mixed directory's message names them. A directory with no
// level files is the last one's (owaredb's: generate writes there).
constexpr std::array kFormats{&kPublishedFormat, &kOurFormat};

} // namespace

std::size_t read_entries(std::span<const EntryQuery> queries, std::span<int8_t> values,
                         db::Status& error) {
    if (queries.size() > kMaxEntryQueries || values.size() != queries.size())
        throw std::invalid_argument("read_entries: more than 16 queries, or spans of two sizes");
    std::array<db::ValueQuery, kMaxEntryQueries> batch;
    std::array<int8_t, kMaxEntryQueries> batch_values;
    std::array<std::size_t, kMaxEntryQueries> query_of; // batch entry -> query
    std::size_t batched = 0, failed = queries.size();
    for (std::size_t i = 0; i < queries.size() && i < failed; ++i) {
        const EntryQuery& q = queries[i];
        if (const db::LevelReader* reader = q.source->level_reader()) {
            query_of[batched] = i;
            batch[batched++] = {reader, q.index};
        } else if (db::Status s = q.source->read({&q.index, 1}, values.subspan(i, 1)); !s.ok()) {
            failed = i; // the queries after it are not read
            error = s;
        }
    }
    db::Status batch_error;
    const std::size_t read = db::LevelReader::read_values(
        std::span(batch).first(batched), std::span(batch_values).first(batched), batch_error);
    for (std::size_t k = 0; k < read; ++k) values[query_of[k]] = batch_values[k];
    if (read < batched && query_of[read] < failed) {
        failed = query_of[read];
        error = batch_error;
    }
    return failed;
}

uint64_t LevelStore::level_size(int n) const {
    return owaredb::level_size(pits(), n);
}

std::vector<int> LevelStore::levels() const {
    std::vector<int> present;
    for (int n = 0; n <= kMaxSeeds; ++n)
        if (has(n)) present.push_back(n);
    return present;
}

std::unique_ptr<LevelRuns> LevelStore::our_order(int n,
                                                 const std::function<ConversionOptions()>&) const {
    return file_order(n);
}

std::string LevelStore::position_in_file(int n, uint64_t offset) const {
    return with_pits_per_side(
        pits(), [&](auto p) { return to_string(unrank<decltype(p)::value>(n, offset)); });
}

std::vector<std::string_view> formats_in(const std::filesystem::path& dir) {
    std::vector<std::string_view> names;
    for (const StoreFormat* f : kFormats)
        if (f->found(dir)) names.push_back(f->name);
    return names;
}

db::Result<std::unique_ptr<LevelStore>>
open_level_store(const std::filesystem::path& dir, const Rules& rules, int pits, int threads) {
    const StoreFormat* format = nullptr;
    std::string first_words;
    for (const StoreFormat* f : kFormats) {
        const std::optional<std::string> words = f->found(dir);
        if (!words) continue;
        if (format)
            return db::Status(db::ErrorCode::Corrupt,
                              "directory '" + dir.string() + "' holds both " + first_words +
                                  " and " + *words + ": give each kind a directory of its own");
        format = f;
        first_words = *words;
    }
    if (!format) format = kFormats.back();
    return format->open(dir, rules, pits, threads);
}

DirectoryRules directory_rules(const std::filesystem::path& dir) {
    DirectoryRules out{rule_sets_in(dir), ""};
    if (out.found.size() == 1) out.rules = out.found[0];
    if (!out.found.empty()) return out;
    // A format limited to one rule set (Romein & Bal's files: awari) gives it.
    const Rules fallback = Rules::presets().front();
    out.rules = fallback.name;
    if (db::Result<std::unique_ptr<LevelStore>> store = open_level_store(dir, fallback, 6, 1);
        store.ok())
        if (const std::optional<std::string> only = (*store)->only_rules()) out.rules = *only;
    return out;
}

} // namespace owaredb
