#include "dbformat/checkpoint.hpp"

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/file_io.hpp"

#include <string>
#include <vector>

namespace owaredb::db {

using namespace detail;

namespace {

// "OWDBCKPT", format version, header length; the header; its checksum; the payload; the
// payload's checksum. All integers little-endian.
constexpr std::array<uint8_t, 8> kCheckpointMagic = {'O', 'W', 'D', 'B', 'C', 'K', 'P', 'T'};
// Version 2: five progress fields (version 1 had four).
constexpr uint32_t kCheckpointVersion = 2;
constexpr uint32_t kMaxHeaderBytes = 1 << 16;

std::vector<uint8_t> encode_header(const CheckpointHeader& h) {
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
    return out;
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

void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      std::span<const uint8_t> payload) {
    if (payload.size() != header.payload_bytes)
        throw std::invalid_argument("checkpoint payload size differs from its header");
    const std::vector<uint8_t> body = encode_header(header);
    std::vector<uint8_t> start(kCheckpointMagic.begin(), kCheckpointMagic.end());
    put_u32(start, kCheckpointVersion);
    put_u32(start, static_cast<uint32_t>(body.size()));
    put_bytes(start, body);
    put_u64(start, checksum(start));
    std::vector<uint8_t> end;
    put_u64(end, checksum(payload));
    AtomicFileSink sink(path);
    sink.write(start);
    sink.write(payload);
    sink.write(end);
    sink.commit();
}

Status read_checkpoint(const std::filesystem::path& path, const CheckpointHeader& expected,
                       CheckpointProgress& progress, std::span<uint8_t> payload) {
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
    if (get_le(start.data() + 8, 4) != kCheckpointVersion)
        return Status(ErrorCode::Unsupported, path.string() + ": checkpoint of another version");
    const uint64_t header_bytes = get_le(start.data() + 12, 4);
    if (header_bytes > kMaxHeaderBytes || size < 16 + header_bytes + 8 + 8)
        return corrupt(path, "truncated");
    start.resize(16 + header_bytes + 8);
    if (Status s = src.read(0, start); !s.ok()) return named(path, s);
    const uint64_t stored = get_le(start.data() + 16 + header_bytes, 8);
    if (!checksum_matches(stored, checksum(std::span(start).first(16 + header_bytes))))
        return corrupt(path, "header checksum");
    // The header must be exactly the expected one but for the progress fields.
    CheckpointHeader want = expected;
    const std::vector<uint8_t> mine = encode_header(want);
    const std::span<const uint8_t> theirs(start.data() + 16, header_bytes);
    const std::size_t identity = mine.size() - want.progress.size() * 8;
    if (header_bytes != mine.size() ||
        !std::equal(mine.begin(), mine.begin() + identity, theirs.begin()))
        return Status(ErrorCode::Mismatch,
                      path.string() + ": a checkpoint of another level, rule set or engine");
    if (size != start.size() + payload.size() + 8) return corrupt(path, "truncated");
    if (Status s = src.read(start.size(), payload); !s.ok()) return named(path, s);
    std::vector<uint8_t> end(8);
    if (Status s = src.read(start.size() + payload.size(), end); !s.ok()) return named(path, s);
    if (!checksum_matches(get_le(end.data(), 8), checksum(payload)))
        return corrupt(path, "payload checksum");
    for (std::size_t i = 0; i < progress.size(); ++i)
        progress[i] = get_le(theirs.data() + identity + 8 * i, 8);
    return {};
}

} // namespace owaredb::db
