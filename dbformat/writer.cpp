#include "dbformat/writer.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"
#include "dbformat/layout.hpp"
#include "dbformat/threads.hpp"

namespace owaredb::db {

using namespace detail;

namespace {

bool is_power_of_two(uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

void check_block_entries(uint32_t b) {
    if (!is_power_of_two(b) || b < kMinBlockEntries || b > kMaxBlockEntries)
        throw std::invalid_argument("block size " + std::to_string(b) +
                                    " is not a power of two in [64, 2^24]");
}

int thread_count(const WriterOptions& o) {
    return require_threads(o.threads, "WriterOptions::threads");
}

void validate(const LevelMeta& meta, const ValueSource& values, const WriterOptions& o) {
    if (!valid_rules_name(meta.rules))
        throw std::invalid_argument("invalid rule-set name '" + meta.rules + "'");
    if (meta.knobs.size() > kMaxKnobsBytes) throw std::invalid_argument("knob blob too large");
    if (meta.n > kMaxLevel) throw std::invalid_argument("n = " + std::to_string(meta.n));
    if (meta.kind == LevelKind::Bounds && (meta.capture_bounded || meta.entries % 2 != 0))
        throw std::invalid_argument(
            "a bounds level has an even entry count, never capture-bounded");
    if (values.size() != meta.entries)
        throw std::invalid_argument("level has " + std::to_string(meta.entries) + " entries but " +
                                    std::to_string(values.size()) + " values were given");
    if (o.block_entries != 0) check_block_entries(o.block_entries);
    if (o.block_entries == 0 && o.block_candidates.empty())
        throw std::invalid_argument("no block size candidates");
    for (uint32_t b : o.block_candidates) check_block_entries(b);
    if (o.level < -100 || o.level > 22)
        throw std::invalid_argument("zstd level " + std::to_string(o.level));
    if (o.symbol_bits != 0 && o.symbol_bits != 1 && o.symbol_bits != 2 && o.symbol_bits != 4 &&
        o.symbol_bits != 8)
        throw std::invalid_argument("symbol width " + std::to_string(o.symbol_bits));
    if (o.dictionary_bytes < 256 || o.dictionary_bytes > kMaxDictionaryBytes)
        throw std::invalid_argument("dictionary capacity out of [256, 1 MiB]");
}

// Values [begin, begin + count) of `values`: in place when the source is contiguous in
// memory, else read into `buffer`.
std::span<const int8_t> window(const ValueSource& values, uint64_t begin, uint64_t count,
                               std::vector<int8_t>& buffer) {
    if (const int8_t* all = values.contiguous()) return {all + begin, std::size_t(count)};
    buffer.resize(count);
    values.read(begin, buffer);
    return buffer;
}

ValueCounts count_values(const ValueSource& source, uint64_t window_entries, int threads) {
    ValueCounts total{};
    std::vector<int8_t> buffer;
    for (uint64_t begin = 0; begin < source.size(); begin += window_entries) {
        const auto values =
            window(source, begin, std::min(window_entries, source.size() - begin), buffer);
        const int64_t size = int64_t(values.size());
#pragma omp parallel num_threads(threads)
        {
            ValueCounts local{};
#pragma omp for schedule(static)
            for (int64_t i = 0; i < size; ++i) ++local[uint8_t(values[std::size_t(i)])];
#pragma omp critical(owaredb_db_count)
            for (int b = 0; b < 256; ++b) total[b] += local[b]; // integer sums: order-free
        }
    }
    return total;
}

// The index of the first entry equal to v (one is known to exist).
uint64_t find_value(const ValueSource& source, uint64_t window_entries, int8_t v) {
    std::vector<int8_t> buffer;
    for (uint64_t begin = 0; begin < source.size(); begin += window_entries) {
        const auto values =
            window(source, begin, std::min(window_entries, source.size() - begin), buffer);
        auto at = std::find(values.begin(), values.end(), v);
        if (at != values.end()) return begin + uint64_t(at - values.begin());
    }
    return source.size();
}

void check_values(const ValueSource& values, uint64_t window_entries, const ValueCounts& counts,
                  uint32_t n, LevelKind kind) {
    const bool bounds = kind == LevelKind::Bounds; // entries in 0..n, no kDontCare
    for (int b = 0; b < 256; ++b) {
        int v = int8_t(uint8_t(b));
        if (counts[b] == 0) continue;
        if (bounds ? v >= 0 && v <= int(n) : v == kDontCare || (v >= -int(n) && v <= int(n)))
            continue;
        const uint64_t at = find_value(values, window_entries, int8_t(v));
        throw std::invalid_argument(
            "value " + std::to_string(v) + " at index " + std::to_string(at) + " is outside " +
            (bounds ? "0" : "-" + std::to_string(n)) + ".." + std::to_string(n));
    }
}

struct Span {
    uint64_t start, count;
};

// Evenly spaced regions of `region` entries covering at most ~budget entries. Only the
// geometry of the level decides them, so the choice is reproducible.
std::vector<Span> sample_regions(uint64_t entries, uint64_t region, uint64_t budget) {
    std::vector<Span> out;
    uint64_t total = (entries + region - 1) / region;
    uint64_t take = std::min<uint64_t>(total, std::max<uint64_t>(1, budget / region));
    for (uint64_t j = 0; j < take; ++j) {
        uint64_t r = j * total / take;
        uint64_t start = r * region;
        out.push_back({start, std::min(region, entries - start)});
    }
    return out;
}

std::vector<Span> cut_blocks(const std::vector<Span>& regions, uint64_t block) {
    std::vector<Span> out;
    for (auto r : regions)
        for (uint64_t off = 0; off < r.count; off += block)
            out.push_back({r.start + off, std::min(block, r.count - off)});
    return out;
}

std::vector<uint8_t> pack(std::span<const int8_t> values, Span s, const SymbolMap& map,
                          unsigned bits) {
    std::vector<uint8_t> out((s.count * bits + 7) / 8);
    pack_symbols(values.data() + s.start, s.count, map, bits, out.data());
    return out;
}

// One block to compress while measuring: which candidate encoding, which entries.
struct Job {
    std::size_t candidate;
    Span span;
};

struct Candidate {
    unsigned bits;
    int level;
    const Dictionary* dict;
};

// Compresses every job (one parallel loop over all of them, so a candidate with few blocks
// does not leave threads idle) and returns the frames in job order.
std::vector<std::vector<uint8_t>> compress_jobs(std::span<const int8_t> values,
                                                const std::vector<Job>& jobs,
                                                const std::vector<Candidate>& candidates,
                                                const std::shared_ptr<const Dictionary>& no_dict,
                                                const std::shared_ptr<const Dictionary>& dict,
                                                const SymbolMap& map, int threads) {
    std::vector<std::vector<uint8_t>> frames(jobs.size());
    std::string error;
#pragma omp parallel num_threads(threads)
    {
        try {
            // One context per (level, dictionary) this thread meets; usually one.
            std::vector<
                std::pair<std::pair<int, const Dictionary*>, std::unique_ptr<BlockCompressor>>>
                comps;
#pragma omp for schedule(dynamic, 1)
            for (int64_t i = 0; i < int64_t(jobs.size()); ++i) {
                const Job& job = jobs[std::size_t(i)];
                const Candidate& c = candidates[job.candidate];
                const std::pair<int, const Dictionary*> key{c.level, c.dict};
                auto it = std::find_if(comps.begin(), comps.end(),
                                       [&](const auto& e) { return e.first == key; });
                if (it == comps.end()) {
                    comps.emplace_back(key, std::make_unique<BlockCompressor>(
                                                c.level, c.dict == dict.get() ? dict : no_dict));
                    it = comps.end() - 1;
                }
                it->second->compress(pack(values, job.span, map, c.bits), frames[std::size_t(i)]);
            }
        } catch (const std::exception& e) {
#pragma omp critical(owaredb_db_error)
            error = e.what();
        }
    }
    if (!error.empty()) throw std::runtime_error(error);
    return frames;
}

struct Plan {
    SymbolMap map;
    uint8_t bits = 8;
    uint32_t block_entries = 1u << 16;
    std::shared_ptr<const Dictionary> dict;
    // Frames of file blocks already compressed while measuring, exactly as the final pass
    // would compress them (same input, level, dictionary: zstd is deterministic), so that
    // pass takes them instead of compressing them again. Keyed by block number.
    std::map<uint64_t, std::vector<uint8_t>> done;
};

// Entries to measure on: at most one in sample_one_in of the level (measuring costs a
// compression of the sample per candidate, of which only the chosen one's blocks are
// reused), at least one region, at most sample_entries.
uint64_t sample_budget(uint64_t entries, uint32_t largest_block, const WriterOptions& o) {
    uint64_t share = o.sample_one_in > 1 ? entries / o.sample_one_in : entries;
    return std::min<uint64_t>(o.sample_entries, std::max<uint64_t>(share, largest_block));
}

Plan choose_plan(const ValueSource& source, const ValueCounts& counts, const WriterOptions& o,
                 int threads) {
    Plan p;
    p.map = build_symbol_map(counts);
    uint8_t narrow = min_symbol_bits(p.map.values.size());
    if (o.symbol_bits != 0 && o.symbol_bits < narrow)
        throw std::invalid_argument("symbol width " + std::to_string(o.symbol_bits) +
                                    " cannot hold " + std::to_string(p.map.values.size()) +
                                    " distinct values");
    std::vector<uint8_t> widths;
    if (o.symbol_bits != 0)
        widths = {o.symbol_bits};
    else
        widths = narrow == 8 ? std::vector<uint8_t>{8} : std::vector<uint8_t>{narrow, 8};
    std::vector<uint32_t> geometries;
    if (o.block_entries != 0)
        geometries = {o.block_entries};
    else
        geometries = o.block_candidates;
    std::sort(geometries.begin(), geometries.end());
    geometries.erase(std::unique(geometries.begin(), geometries.end()), geometries.end());

    p.bits = widths.front();
    p.block_entries = geometries.front();
    p.dict = *Dictionary::create({}, o.level, true);
    const uint64_t entries = source.size();
    if (entries == 0) return p;

    // Measure every (width, block size) on the same sample regions. Regions start at
    // multiples of the largest candidate, so every sample block is a block of the file.
    // They are read once into one buffer, `values`, where `regions` are; file_regions[i]
    // is where regions[i] lies in the level.
    const auto file_regions =
        sample_regions(entries, geometries.back(), sample_budget(entries, geometries.back(), o));
    std::vector<Span> regions;
    std::vector<int8_t> buffer;
    for (Span r : file_regions) {
        regions.push_back({buffer.size(), r.count});
        buffer.resize(buffer.size() + r.count);
        source.read(r.start, std::span<int8_t>(buffer).subspan(regions.back().start, r.count));
    }
    const std::span<const int8_t> values(buffer);
    // The block number in the file of a block that starts at `start` in the buffer.
    auto file_block = [&](uint64_t start, uint32_t block_entries) {
        std::size_t i = 0;
        while (i + 1 < regions.size() && regions[i + 1].start <= start) ++i;
        return (file_regions[i].start + (start - regions[i].start)) / block_entries;
    };
    std::vector<Job> chosen_jobs; // the sample blocks of the chosen encoding
    std::vector<std::vector<uint8_t>> chosen_frames;
    if (widths.size() > 1 || geometries.size() > 1) {
        std::vector<Candidate> candidates;
        std::vector<Job> jobs;
        std::vector<uint32_t> geometry_of;
        for (uint32_t g : geometries)
            for (uint8_t w : widths) {
                for (Span s : cut_blocks(regions, g)) jobs.push_back({candidates.size(), s});
                candidates.push_back({w, o.level, p.dict.get()});
                geometry_of.push_back(g);
            }
        auto frames = compress_jobs(values, jobs, candidates, p.dict, p.dict, p.map, threads);
        std::vector<uint64_t> cost(candidates.size(), 0);
        for (std::size_t j = 0; j < jobs.size(); ++j)
            cost[jobs[j].candidate] += frames[j].size() + kIndexEntryBytes;
        // Per block size its best width (the narrower on a tie), then the smallest block
        // size within the tolerance of the best.
        std::vector<std::size_t> best_for_geometry;
        for (std::size_t g = 0; g < geometries.size(); ++g) {
            std::size_t best = g * widths.size();
            for (std::size_t c = best + 1; c < (g + 1) * widths.size(); ++c)
                if (cost[c] < cost[best]) best = c;
            best_for_geometry.push_back(best);
        }
        uint64_t best = UINT64_MAX;
        for (std::size_t c : best_for_geometry) best = std::min(best, cost[c]);
        std::size_t chosen = best_for_geometry.front();
        for (std::size_t c : best_for_geometry) {
            if (double(cost[c]) <= double(best) * (1 + o.larger_block_tolerance)) {
                chosen = c;
                break;
            }
        }
        p.block_entries = geometry_of[chosen];
        p.bits = uint8_t(candidates[chosen].bits);
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            if (jobs[j].candidate != chosen) continue;
            chosen_jobs.push_back(jobs[j]);
            chosen_frames.push_back(std::move(frames[j]));
        }
    }
    auto keep_measured_frames = [&] {
        for (std::size_t j = 0; j < chosen_jobs.size(); ++j)
            p.done.emplace(file_block(chosen_jobs[j].span.start, p.block_entries),
                           std::move(chosen_frames[j]));
    };

    if (o.dictionary == DictionaryMode::Off) {
        keep_measured_frames();
        return p;
    }
    // Train on the even sample blocks and judge on the odd ones, so the dictionary is not
    // credited for memorising the very blocks it is judged on.
    auto blocks = cut_blocks(regions, p.block_entries);
    std::vector<uint8_t> samples;
    std::vector<std::size_t> sample_sizes;
    for (std::size_t i = 0; i < blocks.size(); i += 2) {
        auto b = pack(values, blocks[i], p.map, p.bits);
        samples.insert(samples.end(), b.begin(), b.end());
        sample_sizes.push_back(b.size());
    }
    auto trained = train_dictionary(samples, sample_sizes, o.dictionary_bytes);
    if (trained.empty() || (o.dictionary == DictionaryMode::Auto && blocks.size() < 2)) {
        keep_measured_frames();
        return p;
    }
    auto dict = Dictionary::create(std::move(trained), o.level, true);
    if (!dict.ok()) {
        keep_measured_frames();
        return p;
    }
    if (o.dictionary == DictionaryMode::Auto) {
        // Sizes without the dictionary: those just measured (the same blocks), if any.
        std::vector<Job> odd;
        for (std::size_t i = 1; i < blocks.size(); i += 2) odd.push_back({0, blocks[i]});
        uint64_t judged = 0, without = 0, with = 0;
        for (const Job& j : odd) judged += j.span.count;
        for (const auto& f : compress_jobs(values, odd, {{p.bits, o.level, dict->get()}}, p.dict,
                                           *dict, p.map, threads))
            with += f.size();
        if (chosen_frames.size() == blocks.size()) {
            for (std::size_t i = 1; i < blocks.size(); i += 2) without += chosen_frames[i].size();
        } else {
            for (const auto& f : compress_jobs(values, odd, {{p.bits, o.level, p.dict.get()}},
                                               p.dict, p.dict, p.map, threads))
                without += f.size();
        }
        double scale = double(entries) / double(judged);
        double cost_with = double(with) * scale + double((*dict)->bytes().size());
        double cost_without = double(without) * scale;
        if (!(cost_with < cost_without)) {
            keep_measured_frames();
            return p;
        }
    }
    p.dict = *dict;
    return p;
}

void encode(const LevelMeta& meta, const ValueSource& values, const WriterOptions& options,
            Sink& sink, WriteReport& report) {
    // From here on o.level is a zstd level; a tier's block size is fixed like an explicit one.
    WriterOptions o = options;
    const SizeTier tier = encoding_for(options, meta.entries);
    o.level = tier.level;
    o.block_entries = tier.block_entries;
    validate(meta, values, o);
    const int threads = thread_count(o);
    if (o.window_entries == 0) throw std::invalid_argument("window of 0 entries");
    ValueCounts counts = count_values(values, o.window_entries, threads);
    check_values(values, o.window_entries, counts, meta.n, meta.kind);
    Plan plan = choose_plan(values, counts, o, threads);

    Header h;
    h.meta = meta;
    h.symbol_bits = plan.bits;
    h.zstd_level = int8_t(o.level);
    h.block_entries = plan.block_entries;
    h.block_count = (meta.entries + h.block_entries - 1) / h.block_entries;
    h.value_map = plan.map.values;
    h.dictionary = plan.dict->bytes();

    StreamingChecksum file_hash;
    uint64_t offset = 0;
    auto emit = [&](std::span<const uint8_t> b) {
        sink.write(b);
        file_hash.update(b);
        offset += b.size();
    };
    emit(serialize_header(h));

    std::vector<uint8_t> index;
    index.reserve(h.block_count * kIndexEntryBytes + kChecksumBytes);
    // Blocks are compressed a chunk at a time (in parallel) and written in order, so memory
    // stays bounded and the bytes do not depend on the schedule.
    // A chunk is also at most a window of entries (or one block), the most the writer reads
    // from a ValueSource at once.
    const uint64_t chunk = std::max<uint64_t>(
        1, std::min(std::max<uint64_t>(uint64_t(threads) * 4,
                                       (uint64_t(64) << 20) /
                                           std::max<uint64_t>(1, h.max_block_bytes())),
                    o.window_entries / h.block_entries));
    std::vector<std::vector<uint8_t>> out;
    std::vector<std::string> errors;
    std::vector<int8_t> buffer;
    for (uint64_t first = 0; first < h.block_count; first += chunk) {
        const uint64_t n = std::min(chunk, h.block_count - first);
        out.assign(n, {});
        errors.assign(n, {});
        // This chunk's values: entries from `begin` on.
        const uint64_t begin = first * h.block_entries;
        const auto chunk_values = window(
            values, begin, std::min(meta.entries, (first + n) * h.block_entries) - begin, buffer);
#pragma omp parallel num_threads(threads)
        {
            std::unique_ptr<BlockCompressor> comp;
            try {
                comp = std::make_unique<BlockCompressor>(o.level, plan.dict);
            } catch (const std::exception&) {
                // Reported below for every block this thread was given.
            }
            std::vector<uint8_t> packed, check;
#pragma omp for schedule(dynamic, 1)
            for (int64_t k = 0; k < int64_t(n); ++k) {
                const auto i = std::size_t(k);
                const uint64_t b = first + i;
                if (!comp) {
                    errors[i] = "cannot create a zstd compression context";
                    continue;
                }
                try {
                    packed = pack(chunk_values, {b * h.block_entries - begin, h.block_symbols(b)},
                                  plan.map, h.symbol_bits);
                    if (auto done = plan.done.find(b); done != plan.done.end())
                        out[i] = std::move(done->second);
                    else
                        comp->compress(packed, out[i]);
                    if (o.self_check) {
                        check.assign(packed.size(), 0);
                        Status s = decompress_block(out[i], plan.dict.get(), check);
                        if (!s.ok())
                            errors[i] = s.message();
                        else if (check != packed)
                            errors[i] = "round trip differs";
                    }
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            }
        }
        for (uint64_t i = 0; i < n; ++i) {
            if (!errors[i].empty())
                throw std::runtime_error("cannot encode block " + std::to_string(first + i) + ": " +
                                         errors[i]);
            emit(out[i]);
            put_u32(index, uint32_t(out[i].size()));
            put_u64(index, checksum(out[i]));
        }
    }
    const uint64_t index_offset = offset;
    put_u64(index, checksum(index));
    emit(index);

    std::vector<uint8_t> trailer;
    put_u64(trailer, index_offset);
    file_hash.update(trailer);
    put_u64(trailer, file_hash.digest());
    put_bytes(trailer, kEndMagic);
    sink.write(trailer);
    offset += trailer.size();

    report.symbol_bits = h.symbol_bits;
    report.block_entries = h.block_entries;
    report.level = o.level;
    report.dictionary_bytes = h.dictionary.size();
    report.blocks = h.block_count;
    report.file_bytes = offset;
    report.bits_per_position = meta.entries ? double(offset) * 8 / double(meta.entries) : 0;
}

} // namespace

SizeTier encoding_for(const WriterOptions& o, uint64_t entries) {
    if (o.level != WriterOptions::kLevelBySize) return {0, o.level, o.block_entries};
    if (o.size_tiers.empty() || o.size_tiers.front().min_entries != 0)
        throw std::invalid_argument("size tiers must start at 0 entries");
    const SizeTier* chosen = &o.size_tiers.front();
    for (std::size_t i = 1; i < o.size_tiers.size(); ++i) {
        if (o.size_tiers[i].min_entries <= o.size_tiers[i - 1].min_entries)
            throw std::invalid_argument("size tiers must be in increasing order of entries");
        if (o.size_tiers[i].min_entries <= entries) chosen = &o.size_tiers[i];
    }
    if (chosen->level == WriterOptions::kLevelBySize)
        throw std::invalid_argument("a size tier needs a zstd level");
    return {chosen->min_entries, chosen->level,
            o.block_entries != 0 ? o.block_entries : chosen->block_entries};
}

std::vector<uint8_t> encode_level(const LevelMeta& meta, std::span<const int8_t> values,
                                  const WriterOptions& options, WriteReport* report) {
    VectorSink sink;
    WriteReport r;
    encode(meta, SpanValues(values), options, sink, r);
    if (report) *report = r;
    return std::move(sink.data);
}

WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        std::span<const int8_t> values, const WriterOptions& options) {
    return write_level(path, meta, SpanValues(values), options);
}

WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        const ValueSource& values, const WriterOptions& options) {
    AtomicFileSink sink(path);
    WriteReport r;
    try {
        encode(meta, values, options, sink, r);
    } catch (const std::invalid_argument&) {
        throw;
    } catch (const std::exception& e) {
        std::string msg = e.what();
        if (msg.find(path.string()) == std::string::npos) msg = path.string() + ": " + msg;
        throw std::runtime_error(msg);
    }
    sink.commit();
    return r;
}

} // namespace owaredb::db
