#include "dbformat/checkpoint.hpp"

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"

#include <memory>
#include <string>
#include <vector>

namespace owaredb::db {

using namespace detail;

namespace {

// "OWDBCKPT", format version, header length; the header; its checksum; the payload; the
// payload's checksum. All integers little-endian.
constexpr std::array<uint8_t, 8> kCheckpointMagic = {'O', 'W', 'D', 'B', 'C', 'K', 'P', 'T'};
// Version 2: five progress fields (version 1 had four). Version 3: the time spent after
// them. Version 4: the payload compressed, in pieces (below). Versions 2 and 3 are still
// read, for a run resumed by a newer binary.
constexpr uint32_t kCheckpointVersion = 4;
constexpr uint32_t kOldestReadVersion = 2;
// Version 4's payload: the working words in pieces of kPiece bytes (the last shorter), each
// one zstd frame, stored as (u64 compressed size, the frame); the payload's checksum that
// follows is of the words themselves. Working words compress about 3x (the in-memory
// engine's, awari 31: zstd -1 made 1 GB 320 MB), and a checkpoint is the largest scratch
// file a level has beside its file (docs/results.md).
constexpr uint64_t kPiece = uint64_t(64) << 20;
constexpr uint8_t kPayloadCodec = 1; // zstd
constexpr int kPayloadLevel = 1;
constexpr uint32_t kMaxHeaderBytes = 1 << 16;
constexpr uint64_t kUnknownTime = ~uint64_t(0);

// The header as `version` lays it out. Everything before the progress words is the
// checkpoint's identity; the progress words and (version 3) the time follow.
std::vector<uint8_t> encode_header(const CheckpointHeader& h, uint32_t version) {
    std::vector<uint8_t> out;
    put_u8(out, static_cast<uint8_t>(h.level.rules.size()));
    put_bytes(out, std::span(reinterpret_cast<const uint8_t*>(h.level.rules.data()),
                             h.level.rules.size()));
    put_u16(out, static_cast<uint16_t>(h.level.knobs.size()));
    put_bytes(out, h.level.knobs);
    put_u32(out, h.level.n);
    put_u64(out, h.level.entries);
    put_u8(out, h.level.capture_bounded ? 1 : 0);
    put_u8(out, static_cast<uint8_t>(h.level.kind));
    put_u32(out, h.engine);
    put_u64(out, h.payload_bytes);
    for (uint64_t p : h.progress) put_u64(out, p);
    if (version >= 3) {
        put_u64(out, h.spent ? h.spent->wall_ms : kUnknownTime);
        put_u64(out, h.spent ? h.spent->cpu_ms : kUnknownTime);
    }
    return out;
}

// Bytes after the identity in a header of `version`.
size_t state_bytes(uint32_t version) {
    return (CheckpointProgress{}.size() + (version >= 3 ? 2 : 0)) * 8;
}

Status named(const std::filesystem::path& path, const Status& s) {
    return Status(s.code(), path.string() + ": " + s.message());
}

Status corrupt(const std::filesystem::path& path, const std::string& why) {
    return Status(ErrorCode::Corrupt, path.string() + ": damaged checkpoint (" + why + ")");
}

} // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& level_file) {
    std::filesystem::path p = level_file;
    return p.replace_extension(".checkpoint");
}

std::filesystem::path exit_file_path(const std::filesystem::path& level_file) {
    std::filesystem::path p = level_file;
    return p.replace_extension(".exits");
}

std::filesystem::path scan_file_path(const std::filesystem::path& level_file, uint64_t generation) {
    std::filesystem::path p = level_file;
    return p.replace_extension(".scan" + std::to_string(generation));
}

std::filesystem::path rank_exit_file_path(const std::filesystem::path& level_file, int rank) {
    std::filesystem::path p = level_file;
    return p.replace_extension(".rank" + std::to_string(rank) + ".exits");
}

bool is_scan_file(const std::filesystem::path& level_file, const std::string& file_name) {
    const std::string prefix = level_file.stem().string() + ".scan";
    return file_name.size() > prefix.size() && file_name.starts_with(prefix) &&
           file_name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}

bool is_rank_exit_file(const std::filesystem::path& level_file, const std::string& file_name) {
    const std::string prefix = level_file.stem().string() + ".rank";
    return file_name.starts_with(prefix) && file_name.ends_with(".exits");
}

namespace {

const BlockCodec& payload_codec(bool for_compression) {
    static const auto open = [](bool compress) {
        Result<const Codec*> codec = find_codec(kPayloadCodec);
        if (!codec.ok()) throw std::runtime_error("checkpoint: " + codec.status().message());
        auto opened = (*codec)->open({}, kPayloadLevel, compress);
        if (!opened.ok()) throw std::runtime_error("checkpoint: " + opened.status().message());
        return *opened;
    };
    static const std::shared_ptr<const BlockCodec> compressing = open(true), reading = open(false);
    return for_compression ? *compressing : *reading;
}

// Writes the payload as version 4's pieces.
void write_pieces(Sink& sink, std::span<const uint8_t> payload) {
    const std::unique_ptr<BlockCompressor> compressor =
        payload_codec(true).compressor(kPayloadLevel);
    std::vector<uint8_t> frame, size;
    for (uint64_t at = 0; at < payload.size(); at += kPiece) {
        compressor->compress(payload.subspan(at, std::min(kPiece, payload.size() - at)), frame);
        size.clear();
        put_u64(size, frame.size());
        sink.write(size);
        sink.write(frame);
    }
}

// Reads version 4's pieces from `at` into payload; returns where they end (through `end`).
Status read_pieces(const Source& src, const std::filesystem::path& path, uint64_t at,
                   std::span<uint8_t> payload, uint64_t& end) {
    const Result<const Codec*> codec = find_codec(kPayloadCodec);
    if (!codec.ok()) return codec.status();
    std::vector<uint8_t> size(8), frame;
    for (uint64_t done = 0; done < payload.size(); done += kPiece) {
        const uint64_t piece = std::min(kPiece, payload.size() - done);
        if (at + 8 > src.size()) return corrupt(path, "truncated");
        if (Status s = src.read(at, size); !s.ok()) return named(path, s);
        const uint64_t bytes = get_le(size.data(), 8);
        if (bytes > (*codec)->bound(piece) || at + 8 + bytes > src.size())
            return corrupt(path, "truncated or damaged payload");
        frame.resize(bytes);
        if (Status s = src.read(at + 8, frame); !s.ok()) return named(path, s);
        if (!payload_codec(false).decompress(frame, payload.subspan(done, piece)).ok())
            return corrupt(path, "damaged payload");
        at += 8 + bytes;
    }
    end = at;
    return {};
}

} // namespace

void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      std::span<const uint8_t> payload) {
    if (payload.size() != header.payload_bytes)
        throw std::invalid_argument("checkpoint payload size differs from its header");
    const std::vector<uint8_t> body = encode_header(header, kCheckpointVersion);
    std::vector<uint8_t> start(kCheckpointMagic.begin(), kCheckpointMagic.end());
    put_u32(start, kCheckpointVersion);
    put_u32(start, static_cast<uint32_t>(body.size()));
    put_bytes(start, body);
    put_u64(start, checksum(start));
    std::vector<uint8_t> end;
    put_u64(end, checksum(payload));
    AtomicFileSink sink(path);
    sink.write(start);
    write_pieces(sink, payload);
    sink.write(end);
    sink.commit();
}

Status read_checkpoint(const std::filesystem::path& path, const CheckpointHeader& expected,
                       CheckpointFound& found, std::span<uint8_t> payload) {
    if (payload.size() != expected.payload_bytes)
        return Status(ErrorCode::InvalidArgument, "checkpoint payload size differs");
    Result<std::unique_ptr<Source>> opened = open_file_source(path);
    if (!opened.ok()) return opened.status(); // it names the file
    const Source& src = **opened;
    const uint64_t size = src.size();
    std::vector<uint8_t> start(16);
    if (size < start.size() + 16) return corrupt(path, "truncated");
    if (Status s = src.read(0, start); !s.ok()) return named(path, s);
    if (!std::equal(kCheckpointMagic.begin(), kCheckpointMagic.end(), start.begin()))
        return corrupt(path, "not an owaredb checkpoint");
    const uint32_t version = static_cast<uint32_t>(get_le(start.data() + 8, 4));
    if (version < kOldestReadVersion || version > kCheckpointVersion)
        return Status(ErrorCode::Unsupported, path.string() + ": checkpoint of version " +
                                                  std::to_string(version) + ", this build reads " +
                                                  std::to_string(kOldestReadVersion) + ".." +
                                                  std::to_string(kCheckpointVersion));
    const uint64_t header_bytes = get_le(start.data() + 12, 4);
    if (header_bytes > kMaxHeaderBytes || size < 16 + header_bytes + 8 + 8)
        return corrupt(path, "truncated");
    start.resize(16 + header_bytes + 8);
    if (Status s = src.read(0, start); !s.ok()) return named(path, s);
    const uint64_t stored = get_le(start.data() + 16 + header_bytes, 8);
    if (!checksum_matches(stored, checksum(std::span(start).first(16 + header_bytes))))
        return corrupt(path, "header checksum");
    // The header must be exactly the expected one but for the progress fields and time.
    const std::vector<uint8_t> mine = encode_header(expected, version);
    const std::span<const uint8_t> theirs(start.data() + 16, header_bytes);
    const std::size_t identity = mine.size() - state_bytes(version);
    if (header_bytes != mine.size() ||
        !std::equal(mine.begin(), mine.begin() + identity, theirs.begin()))
        return Status(ErrorCode::Mismatch,
                      path.string() + ": a checkpoint of another level, rule set or engine");
    uint64_t payload_end = start.size() + payload.size();
    if (version >= 4) {
        if (Status s = read_pieces(src, path, start.size(), payload, payload_end); !s.ok())
            return s;
    } else if (size == payload_end + 8) {
        if (Status s = src.read(start.size(), payload); !s.ok()) return named(path, s);
    }
    if (size != payload_end + 8) return corrupt(path, "truncated");
    std::vector<uint8_t> end(8);
    if (Status s = src.read(payload_end, end); !s.ok()) return named(path, s);
    if (!checksum_matches(get_le(end.data(), 8), checksum(payload)))
        return corrupt(path, "payload checksum");
    CheckpointFound read;
    for (std::size_t i = 0; i < read.progress.size(); ++i)
        read.progress[i] = get_le(theirs.data() + identity + 8 * i, 8);
    if (version >= 3) {
        const uint8_t* time = theirs.data() + identity + 8 * read.progress.size();
        const CheckpointTime spent{get_le(time, 8), get_le(time + 8, 8)};
        if (spent.wall_ms != kUnknownTime) read.spent = spent;
    }
    found = read;
    return {};
}

} // namespace owaredb::db
