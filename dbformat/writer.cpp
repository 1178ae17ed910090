#include "dbformat/writer.hpp"

#include <algorithm>
#include <cstring>
#include <omp.h>
#include <stdexcept>
#include <string>

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"
#include "dbformat/layout.hpp"

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
    return o.threads > 0 ? o.threads : omp_get_max_threads();
}

void validate(const LevelMeta& meta, std::span<const int8_t> values, const WriterOptions& o) {
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

ValueCounts count_values(std::span<const int8_t> values, int threads) {
    ValueCounts total{};
    const int64_t size = int64_t(values.size());
#pragma omp parallel num_threads(threads)
    {
        ValueCounts local{};
#pragma omp for schedule(static)
        for (int64_t i = 0; i < size; ++i) ++local[uint8_t(values[std::size_t(i)])];
#pragma omp critical(owaredb_db_count)
        for (int b = 0; b < 256; ++b) total[b] += local[b]; // integer sums: order-free
    }
    return total;
}

void check_values(std::span<const int8_t> values, const ValueCounts& counts, uint32_t n,
                  LevelKind kind) {
    const bool bounds = kind == LevelKind::Bounds; // entries in 0..n, no kDontCare
    for (int b = 0; b < 256; ++b) {
        int v = int8_t(uint8_t(b));
        if (counts[b] == 0) continue;
        if (bounds ? v >= 0 && v <= int(n) : v == kDontCare || (v >= -int(n) && v <= int(n)))
            continue;
        auto at = std::find(values.begin(), values.end(), int8_t(v)) - values.begin();
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

// Compressed size of each listed block.
std::vector<uint64_t> compressed_sizes(std::span<const int8_t> values,
                                       const std::vector<Span>& blocks, const SymbolMap& map,
                                       unsigned bits, int level,
                                       const std::shared_ptr<const Dictionary>& dict, int threads) {
    std::vector<uint64_t> sizes(blocks.size());
    std::string error;
#pragma omp parallel num_threads(threads)
    {
        try {
            BlockCompressor comp(level, dict);
            std::vector<uint8_t> out;
#pragma omp for schedule(dynamic, 1)
            for (int64_t i = 0; i < int64_t(blocks.size()); ++i) {
                comp.compress(pack(values, blocks[std::size_t(i)], map, bits), out);
                sizes[std::size_t(i)] = out.size();
            }
        } catch (const std::exception& e) {
#pragma omp critical(owaredb_db_error)
            error = e.what();
        }
    }
    if (!error.empty()) throw std::runtime_error(error);
    return sizes;
}

uint64_t sum(const std::vector<uint64_t>& v, std::size_t first = 0, std::size_t step = 1) {
    uint64_t s = 0;
    for (std::size_t i = first; i < v.size(); i += step) s += v[i];
    return s;
}

struct Plan {
    SymbolMap map;
    uint8_t bits = 8;
    uint32_t block_entries = 1u << 16;
    std::shared_ptr<const Dictionary> dict;
};

Plan choose_plan(std::span<const int8_t> values, const ValueCounts& counts, const WriterOptions& o,
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
    if (values.empty()) return p;

    // Measure every (width, block size) on the same sample regions.
    auto regions = sample_regions(values.size(), geometries.back(), o.sample_entries);
    if (widths.size() > 1 || geometries.size() > 1) {
        std::vector<uint64_t> best_for_geometry(geometries.size(), UINT64_MAX);
        std::vector<uint8_t> width_for_geometry(geometries.size());
        for (std::size_t g = 0; g < geometries.size(); ++g) {
            auto blocks = cut_blocks(regions, geometries[g]);
            for (uint8_t w : widths) {
                auto sizes = compressed_sizes(values, blocks, p.map, w, o.level, p.dict, threads);
                uint64_t cost = sum(sizes) + blocks.size() * kIndexEntryBytes;
                if (cost < best_for_geometry[g]) {
                    best_for_geometry[g] = cost;
                    width_for_geometry[g] = w;
                }
            }
        }
        uint64_t best = *std::min_element(best_for_geometry.begin(), best_for_geometry.end());
        for (std::size_t g = 0; g < geometries.size(); ++g) {
            if (double(best_for_geometry[g]) <= double(best) * (1 + o.larger_block_tolerance)) {
                p.block_entries = geometries[g];
                p.bits = width_for_geometry[g];
                break;
            }
        }
    }

    if (o.dictionary == DictionaryMode::Off) return p;
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
    if (trained.empty()) return p;
    auto dict = Dictionary::create(std::move(trained), o.level, true);
    if (!dict.ok()) return p;
    if (o.dictionary == DictionaryMode::Auto) {
        if (blocks.size() < 2) return p;
        uint64_t judged = 0;
        for (std::size_t i = 1; i < blocks.size(); i += 2) judged += blocks[i].count;
        auto with = compressed_sizes(values, blocks, p.map, p.bits, o.level, *dict, threads);
        auto without = compressed_sizes(values, blocks, p.map, p.bits, o.level, p.dict, threads);
        double scale = double(values.size()) / double(judged);
        double cost_with = double(sum(with, 1, 2)) * scale + double((*dict)->bytes().size());
        double cost_without = double(sum(without, 1, 2)) * scale;
        if (!(cost_with < cost_without)) return p;
    }
    p.dict = *dict;
    return p;
}

void encode(const LevelMeta& meta, std::span<const int8_t> values, const WriterOptions& o,
            Sink& sink, WriteReport& report) {
    validate(meta, values, o);
    const int threads = thread_count(o);
    ValueCounts counts = count_values(values, threads);
    check_values(values, counts, meta.n, meta.kind);
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
    const uint64_t chunk = std::max<uint64_t>(
        uint64_t(threads) * 4, (uint64_t(64) << 20) / std::max<uint64_t>(1, h.max_block_bytes()));
    std::vector<std::vector<uint8_t>> out;
    std::vector<std::string> errors;
    for (uint64_t first = 0; first < h.block_count; first += chunk) {
        const uint64_t n = std::min(chunk, h.block_count - first);
        out.assign(n, {});
        errors.assign(n, {});
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
                    packed = pack(values, {b * h.block_entries, h.block_symbols(b)}, plan.map,
                                  h.symbol_bits);
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

std::vector<uint8_t> encode_level(const LevelMeta& meta, std::span<const int8_t> values,
                                  const WriterOptions& options, WriteReport* report) {
    VectorSink sink;
    WriteReport r;
    encode(meta, values, options, sink, r);
    if (report) *report = r;
    return std::move(sink.data);
}

WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        std::span<const int8_t> values, const WriterOptions& options) {
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
