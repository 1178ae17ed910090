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
    if (auto codec = find_codec(o.codec); !codec.ok())
        throw std::invalid_argument(codec.status().message());
}

// The codec of a validated options' byte.
const Codec& codec_of(const WriterOptions& o) {
    return **find_codec(o.codec);
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

// total[v] += the entries of `values` equal to v.
void add_counts(std::span<const int8_t> values, int threads, ValueCounts& total) {
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

ValueCounts count_values(const ValueSource& source, uint64_t window_entries, int threads) {
    ValueCounts total{};
    std::vector<int8_t> buffer;
    for (uint64_t begin = 0; begin < source.size(); begin += window_entries)
        add_counts(window(source, begin, std::min(window_entries, source.size() - begin), buffer),
                   threads, total);
    return total;
}

// The first value whose count a source gave differs from its entries counted.
std::string counts_differ(const ValueCounts& given, const ValueCounts& read) {
    for (int b = 0; b < 256; ++b)
        if (given[b] != read[b])
            return "the values' source counted " + std::to_string(given[b]) + " entries of value " +
                   std::to_string(int(int8_t(uint8_t(b)))) + ", its values hold " +
                   std::to_string(read[b]);
    return {};
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
    const BlockCodec* dict; // the codec with its dictionary, or without
};

// Compresses every job (one parallel loop over all of them, so a candidate with few blocks
// does not leave threads idle) and returns the frames in job order.
std::vector<std::vector<uint8_t>> compress_jobs(std::span<const int8_t> values,
                                                const std::vector<Job>& jobs,
                                                const std::vector<Candidate>& candidates,
                                                const SymbolMap& map, int threads) {
    std::vector<std::vector<uint8_t>> frames(jobs.size());
    std::string error;
#pragma omp parallel num_threads(threads)
    {
        try {
            // One context per (level, dictionary) this thread meets; usually one.
            std::vector<
                std::pair<std::pair<int, const BlockCodec*>, std::unique_ptr<BlockCompressor>>>
                comps;
#pragma omp for schedule(dynamic, 1)
            for (int64_t i = 0; i < int64_t(jobs.size()); ++i) {
                const Job& job = jobs[std::size_t(i)];
                const Candidate& c = candidates[job.candidate];
                const std::pair<int, const BlockCodec*> key{c.level, c.dict};
                auto it = std::find_if(comps.begin(), comps.end(),
                                       [&](const auto& e) { return e.first == key; });
                if (it == comps.end()) {
                    comps.emplace_back(key, c.dict->compressor(c.level));
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
    std::shared_ptr<const BlockCodec> dict; // the codec, with the dictionary chosen
    // Frames of file blocks already compressed while measuring, exactly as the final pass
    // would compress them (same input, level, dictionary: a codec is deterministic), so that
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

// The entries the encodings are measured on. Regions start at multiples of the largest
// candidate block, so every sample block is a block of the file. They are read once into
// one buffer, where `regions` are; file_regions[i] is where regions[i] lies in the level.
struct Sample {
    uint64_t entries; // the level's
    std::vector<Span> file_regions;
    std::vector<Span> regions;
    std::vector<int8_t> buffer;

    Sample(const ValueSource& source, uint32_t largest_block, const WriterOptions& o)
        : entries(source.size()) {
        file_regions =
            sample_regions(entries, largest_block, sample_budget(entries, largest_block, o));
        for (Span r : file_regions) {
            regions.push_back({buffer.size(), r.count});
            buffer.resize(buffer.size() + r.count);
            source.read(r.start, std::span<int8_t>(buffer).subspan(regions.back().start, r.count));
        }
    }
    std::span<const int8_t> values() const { return buffer; }
    // The block number in the file of a block that starts at `start` in the buffer.
    uint64_t file_block(uint64_t start, uint32_t block_entries) const {
        std::size_t i = 0;
        while (i + 1 < regions.size() && regions[i + 1].start <= start) ++i;
        return (file_regions[i].start + (start - regions[i].start)) / block_entries;
    }
};

// The sample blocks of the chosen encoding, compressed while measuring.
struct Measured {
    std::vector<Job> jobs;
    std::vector<std::vector<uint8_t>> frames;
};

// Per block size its best width (the narrower on a tie), then the smallest block size
// within the tolerance of the best: the candidate chosen among `cost` (widths per block
// size, block sizes ascending).
std::size_t cheapest(const std::vector<uint64_t>& cost, std::size_t geometries, std::size_t widths,
                     double tolerance) {
    std::vector<std::size_t> best_for_geometry;
    for (std::size_t g = 0; g < geometries; ++g) {
        std::size_t best = g * widths;
        for (std::size_t c = best + 1; c < (g + 1) * widths; ++c)
            if (cost[c] < cost[best]) best = c;
        best_for_geometry.push_back(best);
    }
    uint64_t best = UINT64_MAX;
    for (std::size_t c : best_for_geometry) best = std::min(best, cost[c]);
    for (std::size_t c : best_for_geometry)
        if (double(cost[c]) <= double(best) * (1 + tolerance)) return c;
    return best_for_geometry.front();
}

// Measures every (width, block size) on the sample and sets p's width and block size to the
// cheapest; returns its sample blocks' frames.
Measured measure_encodings(Plan& p, const Sample& sample, const std::vector<uint8_t>& widths,
                           const std::vector<uint32_t>& geometries, const WriterOptions& o,
                           int threads) {
    std::vector<Candidate> candidates;
    std::vector<Job> jobs;
    std::vector<uint32_t> geometry_of;
    for (uint32_t g : geometries)
        for (uint8_t w : widths) {
            for (Span s : cut_blocks(sample.regions, g)) jobs.push_back({candidates.size(), s});
            candidates.push_back({w, o.level, p.dict.get()});
            geometry_of.push_back(g);
        }
    auto frames = compress_jobs(sample.values(), jobs, candidates, p.map, threads);
    std::vector<uint64_t> cost(candidates.size(), 0);
    for (std::size_t j = 0; j < jobs.size(); ++j)
        cost[jobs[j].candidate] += frames[j].size() + kIndexEntryBytes;
    const std::size_t chosen =
        cheapest(cost, geometries.size(), widths.size(), o.larger_block_tolerance);
    p.block_entries = geometry_of[chosen];
    p.bits = uint8_t(candidates[chosen].bits);
    Measured m;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (jobs[j].candidate != chosen) continue;
        m.jobs.push_back(jobs[j]);
        m.frames.push_back(std::move(frames[j]));
    }
    return m;
}

// A dictionary trained for p's encoding, if o asks for one and (DictionaryMode::Auto) it
// pays for itself on the sample; null otherwise.
std::shared_ptr<const BlockCodec> trained_dictionary(const Plan& p, const Sample& sample,
                                                     const Measured& measured,
                                                     const WriterOptions& o, int threads) {
    // Train on the even sample blocks and judge on the odd ones, so the dictionary is not
    // credited for memorising the very blocks it is judged on.
    auto blocks = cut_blocks(sample.regions, p.block_entries);
    std::vector<uint8_t> samples;
    std::vector<std::size_t> sample_sizes;
    for (std::size_t i = 0; i < blocks.size(); i += 2) {
        auto b = pack(sample.values(), blocks[i], p.map, p.bits);
        samples.insert(samples.end(), b.begin(), b.end());
        sample_sizes.push_back(b.size());
    }
    auto trained = codec_of(o).train(samples, sample_sizes, o.dictionary_bytes);
    if (trained.empty() || (o.dictionary == DictionaryMode::Auto && blocks.size() < 2))
        return nullptr;
    auto dict = codec_of(o).open(std::move(trained), o.level, true);
    if (!dict.ok()) return nullptr;
    if (o.dictionary != DictionaryMode::Auto) return *dict;
    // Sizes without the dictionary: those just measured (the same blocks), if any.
    std::vector<Job> odd;
    for (std::size_t i = 1; i < blocks.size(); i += 2) odd.push_back({0, blocks[i]});
    uint64_t judged = 0, without = 0, with = 0;
    for (const Job& j : odd) judged += j.span.count;
    for (const auto& f :
         compress_jobs(sample.values(), odd, {{p.bits, o.level, dict->get()}}, p.map, threads))
        with += f.size();
    if (measured.frames.size() == blocks.size()) {
        for (std::size_t i = 1; i < blocks.size(); i += 2) without += measured.frames[i].size();
    } else {
        for (const auto& f :
             compress_jobs(sample.values(), odd, {{p.bits, o.level, p.dict.get()}}, p.map, threads))
            without += f.size();
    }
    double scale = double(sample.entries) / double(judged);
    double cost_with = double(with) * scale + double((*dict)->dictionary().size());
    double cost_without = double(without) * scale;
    if (!(cost_with < cost_without)) return nullptr;
    return *dict;
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
    p.dict = *codec_of(o).open({}, o.level, true);
    if (source.size() == 0) return p;

    const Sample sample(source, geometries.back(), o);
    Measured measured;
    if (widths.size() > 1 || geometries.size() > 1)
        measured = measure_encodings(p, sample, widths, geometries, o, threads);
    std::shared_ptr<const BlockCodec> dict;
    if (o.dictionary != DictionaryMode::Off)
        dict = trained_dictionary(p, sample, measured, o, threads);
    if (dict) {
        p.dict = std::move(dict);
        return p;
    }
    for (std::size_t j = 0; j < measured.jobs.size(); ++j)
        p.done.emplace(sample.file_block(measured.jobs[j].span.start, p.block_entries),
                       std::move(measured.frames[j]));
    return p;
}

// What the blocks of a file are encoded with.
struct Encoding {
    const Header& h;
    Plan& plan; // its measured frames are taken
    const WriterOptions& o;
    int threads;
};

// Compresses blocks [first, first + out.size()) in parallel into `out`, from `chunk_values`
// (the entries from block `first`'s first on). Throws naming the first block that failed.
void compress_chunk(const Encoding& e, uint64_t first, std::span<const int8_t> chunk_values,
                    std::vector<std::vector<uint8_t>>& out) {
    const Header& h = e.h;
    const uint64_t begin = first * h.block_entries;
    const uint64_t n = out.size();
    std::vector<std::string> errors(n);
#pragma omp parallel num_threads(e.threads)
    {
        std::unique_ptr<BlockCompressor> comp;
        try {
            comp = e.plan.dict->compressor(e.o.level);
        } catch (const std::exception&) {
            // Reported below for every block this thread was given.
        }
        std::vector<uint8_t> packed, check;
#pragma omp for schedule(dynamic, 1)
        for (int64_t k = 0; k < int64_t(n); ++k) {
            const auto i = std::size_t(k);
            const uint64_t b = first + i;
            if (!comp) {
                errors[i] =
                    std::string("cannot create a ") + codec_of(e.o).name + " compression context";
                continue;
            }
            try {
                packed = pack(chunk_values, {b * h.block_entries - begin, h.block_symbols(b)},
                              e.plan.map, h.symbol_bits);
                if (auto done = e.plan.done.find(b); done != e.plan.done.end())
                    out[i] = std::move(done->second);
                else
                    comp->compress(packed, out[i]);
                if (e.o.self_check) {
                    check.assign(packed.size(), 0);
                    Status s = e.plan.dict->decompress(out[i], check);
                    if (!s.ok())
                        errors[i] = s.message();
                    else if (check != packed)
                        errors[i] = "round trip differs";
                }
            } catch (const std::exception& ex) {
                errors[i] = ex.what();
            }
        }
    }
    for (uint64_t i = 0; i < n; ++i)
        if (!errors[i].empty())
            throw std::runtime_error("cannot encode block " + std::to_string(first + i) + ": " +
                                     errors[i]);
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
    // Counts the source gave are checked against the values as the blocks read them.
    const std::optional<ValueCounts> given = values.counts();
    ValueCounts counts = given ? *given : count_values(values, o.window_entries, threads);
    check_values(values, o.window_entries, counts, meta.n, meta.kind);
    ValueCounts read{};
    Plan plan = choose_plan(values, counts, o, threads);

    Header h;
    h.meta = meta;
    h.symbol_bits = plan.bits;
    h.codec = o.codec;
    h.codec_level = int8_t(o.level);
    h.block_entries = plan.block_entries;
    h.block_count = (meta.entries + h.block_entries - 1) / h.block_entries;
    h.value_map = plan.map.values;
    h.dictionary = plan.dict->dictionary();

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
    std::vector<int8_t> buffer;
    for (uint64_t first = 0; first < h.block_count; first += chunk) {
        const uint64_t n = std::min(chunk, h.block_count - first);
        out.assign(n, {});
        // This chunk's values: entries from `begin` on.
        const uint64_t begin = first * h.block_entries;
        const auto chunk_values = window(
            values, begin, std::min(meta.entries, (first + n) * h.block_entries) - begin, buffer);
        if (given) add_counts(chunk_values, threads, read);
        compress_chunk({h, plan, o, threads}, first, chunk_values, out);
        for (uint64_t i = 0; i < n; ++i) {
            emit(out[i]);
            put_u32(index, uint32_t(out[i].size()));
            put_u64(index, checksum(out[i]));
        }
    }
    if (given && read != counts) throw std::runtime_error(counts_differ(counts, read));
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
