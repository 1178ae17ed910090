// owaredb info: what a level file says about itself, its value histogram and its size.
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "commands.hpp"
#include "dbformat/reader.hpp"

#include <cstdio>

namespace owaredb::cli {

int cmd_info(const Args& args) {
    std::string file;
    po::options_description opts("options");
    opts.add_options()("file", po::value(&file), "a level file (.owdb)");
    po::positional_options_description pos;
    pos.add("file", 1);
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb info FILE", opts, pos, vm)) return 0;
    // Checked here, not by the parser, whose message would name the option "--file" that
    // the positional FILE fills.
    if (file.empty()) throw UsageError("info needs a level FILE (usage: owaredb info FILE)");
    db::LevelReader reader(file);
    db::Result<db::LevelInfo> info = reader.info();
    if (!info.ok()) throw std::runtime_error(info.status().message());
    const db::LevelInfo& i = *info;
    std::printf("file            %s\n", file.c_str());
    std::printf("format version  %u\n", i.format_version);
    std::printf("rules           %s (knobs", i.meta.rules.c_str());
    for (uint8_t k : i.meta.knobs) std::printf(" %u", k);
    std::printf(")\nseeds           %u\n", i.meta.n);
    std::printf("entries         %llu\n", (unsigned long long)i.meta.entries);
    std::printf("kind            %s\n", db::to_string(i.meta.kind));
    std::printf("codec           %s level %d, %u bits per symbol, %s dictionary\n",
                i.codec_name.c_str(), i.codec_level, i.symbol_bits,
                i.dictionary_bytes ? "with a" : "no");
    std::printf("values stored   %s\n",
                i.meta.capture_bounded
                    ? "capture-bounded (value = max(stored, best capture); owaredb stats "
                      "counts the values)"
                    : "exact");
    std::printf("blocks          %llu of %u entries\n", (unsigned long long)i.block_count,
                i.block_entries);
    std::printf("value map      ");
    for (int8_t v : i.value_map) std::printf(" %d", v);
    std::printf("\nsizes           header %llu, dictionary %llu, index %llu, data %llu, file %llu "
                "bytes\n",
                (unsigned long long)i.header_bytes, (unsigned long long)i.dictionary_bytes,
                (unsigned long long)i.index_bytes, (unsigned long long)i.data_bytes,
                (unsigned long long)i.file_bytes);
    std::printf("bits/position   %.4f\n", i.bits_per_position());
    db::Result<db::Histogram> h = reader.histogram(resolve_threads(0)); // one per core
    if (!h.ok()) throw std::runtime_error(h.status().message());
    std::printf(i.meta.capture_bounded ? "stored bytes   " : "values         ");
    for (int v = -128; v < 128; ++v)
        if (uint64_t c = h->count(static_cast<int8_t>(v)))
            std::printf(" %s:%llu", v == db::kDontCare ? "dont-care" : std::to_string(v).c_str(),
                        (unsigned long long)c);
    std::printf("\n");
    return 0;
}

} // namespace owaredb::cli
