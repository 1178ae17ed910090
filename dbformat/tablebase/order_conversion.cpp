#include "tablebase/order_conversion.hpp"

#include "dbformat/checksum.hpp"
#include "dbformat/file_io.hpp"
#include "dbformat/threads.hpp"
#include "oware/ranking.hpp"
#include "retro/binomial.hpp"
#include "retro/parallel.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace owaredb {
namespace {

constexpr uint64_t kSourceChunk = uint64_t(32) << 20; // values read from the source at a time
constexpr uint64_t kRunBuffer = uint64_t(1) << 20;    // bytes buffered per pass-1 file
constexpr uint64_t kTile = 64;                        // transpose tile side
constexpr const char* kMarker = "pass1.done";
constexpr uint64_t kRunsPerMark = 4096; // read() walks at most this many runs to its start

const char* direction_name(OrderDirection d) {
    return d == OrderDirection::to_published ? "to_published" : "to_ours";
}

// The runs of the source order: our rows (of C_s values each) or their columns (R_s).
const std::vector<uint8_t>& source_runs(const PublishedLayout& l, OrderDirection d) {
    return d == OrderDirection::to_published ? l.our_rows() : l.their_columns();
}
const std::vector<uint8_t>& target_runs(const PublishedLayout& l, OrderDirection d) {
    return d == OrderDirection::to_published ? l.their_columns() : l.our_rows();
}
uint64_t source_run_length(const PublishedLayout& l, OrderDirection d, int s) {
    return d == OrderDirection::to_published ? l.columns(s) : l.rows(s);
}
uint64_t target_run_length(const PublishedLayout& l, OrderDirection d, int s) {
    return d == OrderDirection::to_published ? l.rows(s) : l.columns(s);
}

// The marker's first lines: the conversion its work files belong to. Pass 1 appends a
// line "pass1-S CHECKSUM" a file.
std::string marker_head(int n, OrderDirection d, uint64_t source_size, std::string identity) {
    std::replace(identity.begin(), identity.end(), '\n', ' ');
    return "owaredb order conversion\nlevel " + std::to_string(n) + "\ndirection " +
           direction_name(d) + "\nsource_size " + std::to_string(source_size) + "\nsource " +
           identity + "\n";
}

std::string hex(uint64_t v) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
}

void write_small_file(const std::filesystem::path& path, const std::string& text) {
    db::detail::AtomicFileSink sink(path);
    sink.write(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    sink.commit();
}

std::string read_small_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool is_work_file(const std::string& name) {
    return name == kMarker || name.rfind("pass1-", 0) == 0 || name.rfind("pass2-", 0) == 0 ||
           name.rfind(std::string(kMarker) + ".tmp.", 0) == 0;
}

void remove_files(const std::filesystem::path& dir, bool (*which)(const std::string&)) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (which(e.path().filename().string())) std::filesystem::remove(e.path(), ec);
}

// A read-only file read with pread, whole or in pieces.
class InputFile {
  public:
    explicit InputFile(const std::filesystem::path& path) : path_(path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            throw std::runtime_error(path.string() + ": cannot open: " + std::strerror(errno));
    }
    ~InputFile() { ::close(fd_); }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    void read(uint64_t offset, uint8_t* out, uint64_t count) const {
        while (count > 0) {
            const ssize_t got = ::pread(fd_, out, count, off_t(offset));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0)
                throw std::runtime_error(path_.string() + ": " +
                                         (got < 0 ? std::strerror(errno) : "file too short"));
            out += got;
            offset += uint64_t(got);
            count -= uint64_t(got);
        }
    }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
};

// The checksum of a whole work file as hex, or "" when it cannot be read.
std::string file_checksum(const std::filesystem::path& path) {
    try {
        const InputFile file(path);
        const uint64_t size = std::filesystem::file_size(path);
        db::detail::StreamingChecksum sum;
        std::vector<uint8_t> piece(std::size_t(4) << 20);
        for (uint64_t at = 0; at < size; at += piece.size()) {
            const uint64_t count = std::min<uint64_t>(piece.size(), size - at);
            file.read(at, piece.data(), count);
            sum.update(std::span(piece).first(std::size_t(count)));
        }
        return hex(sum.digest());
    } catch (const std::exception&) {
        return "";
    }
}

// out[b * a_count + d] = in[src_of[d] * width + b] for b < width, d < a_count: a band of
// `width` target runs from `a_count` source runs, in tiles of kTile x kTile that stay in
// the L1 cache (the source runs read along b, the target runs written along d).
void transpose_band(const uint8_t* in, uint64_t width, std::span<const uint32_t> src_of,
                    uint8_t* out, int threads) {
    const uint64_t a_count = src_of.size();
    const int64_t tiles = int64_t((a_count + kTile - 1) / kTile);
#pragma omp parallel for schedule(static) num_threads(threads) if (tiles >= 16)
    for (int64_t t = 0; t < tiles; ++t) {
        const uint64_t d0 = uint64_t(t) * kTile, d1 = std::min(a_count, d0 + kTile);
        for (uint64_t b0 = 0; b0 < width; b0 += kTile) {
            const uint64_t b1 = std::min(width, b0 + kTile);
            for (uint64_t d = d0; d < d1; ++d) {
                const uint8_t* row = in + uint64_t(src_of[d]) * width;
                for (uint64_t b = b0; b < b1; ++b) out[b * a_count + d] = row[b];
            }
        }
    }
}

// The longest run of level n, of either order (a row or a column of some M_s).
uint64_t longest_run(int n) {
    uint64_t m = 0;
    for (int s = 0; s <= n; ++s) {
        const uint64_t rows = binomial(s + 5, 5);
        const uint64_t columns = binomial(n - s + 5, 5) - (n - s >= 6 ? binomial(n - s - 1, 5) : 0);
        m = std::max({m, rows, columns});
    }
    return m;
}

// Memory of pass 1 besides the tables: the source chunk with a carried run, and the
// buffers of the pass-1 files.
uint64_t pass1_bytes(int n) {
    return kSourceChunk + longest_run(n) + uint64_t(n + 1) * std::max(kRunBuffer, longest_run(n));
}

} // namespace

std::string source_file_identity(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
        throw std::runtime_error(file.string() + ": " + std::strerror(errno));
    return std::filesystem::absolute(file).string() + " dev " + std::to_string(st.st_dev) +
           " inode " + std::to_string(st.st_ino) + " size " + std::to_string(st.st_size) +
           " mtime " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec) + " ctime " + std::to_string(st.st_ctim.tv_sec) +
           "." + std::to_string(st.st_ctim.tv_nsec);
}

uint64_t ConvertedLevel::budget_needed(int n) {
    // Pass 2 at its narrowest: a band of one target run, in and out, and the index of the
    // source runs; pass 1 needs more.
    const uint64_t pass2 = 6 * longest_run(n);
    return PublishedLayout::memory_bytes(n) + std::max(pass1_bytes(n), pass2) +
           (uint64_t(16) << 20);
}

bool ConvertedLevel::has_work_files(const std::filesystem::path& dir) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (is_work_file(e.path().filename().string())) return true;
    return false;
}

ConvertedLevel::ConvertedLevel(int n, OrderDirection direction, const db::ValueSource& source,
                               const ConversionOptions& options)
    : n_(n), direction_(direction), options_(options), layout_(n) {
    db::require_threads(options_.threads, "ConversionOptions::threads");
    if (source.size() != level_size<6>(n))
        throw std::invalid_argument("level " + std::to_string(n) + ": a source of " +
                                    std::to_string(source.size()) + " values for " +
                                    std::to_string(level_size<6>(n)) + " positions");
    if (options_.memory < budget_needed(n))
        throw std::runtime_error("converting level " + std::to_string(n) + " needs at least " +
                                 std::to_string((budget_needed(n) >> 20) + 1) +
                                 " MiB, over the budget of " +
                                 std::to_string(options_.memory >> 20) + " MiB");
    // A link planted at the work directory would have the conversion write and remove
    // files wherever it points.
    if (std::filesystem::is_symlink(options_.work_dir))
        throw std::runtime_error(options_.work_dir.string() +
                                 ": a symbolic link, not a work directory (remove it)");
    std::filesystem::create_directories(options_.work_dir);
    remove_files(options_.work_dir, [](const std::string& name) {
        return is_work_file(name) && name.find(".tmp.") != std::string::npos; // a killed write
    });

    // Resume: pass 1 is done if its marker says so for this very conversion and its files
    // still have their checksums, and each matrix of pass 2 is done if its file has its
    // checksum; anything else starts again.
    const std::string head = marker_head(n, direction, source.size(), options_.source_identity);
    if (!resumable(head)) {
        remove_files(options_.work_dir, is_work_file);
        pass1(source, head);
    }
    for (int s = 0; s <= n; ++s) {
        std::error_code ec;
        if (!std::filesystem::exists(work_file(2, s).concat(".sum"), ec)) pass2(s);
        std::filesystem::remove(work_file(1, s), ec);
        if (options_.progress) {
            uint64_t done = 0;
            for (int k = 0; k <= s; ++k) done += layout_.matrix_size(k);
            options_.progress({2, done, level_size<6>(n)});
        }
    }
    // The marks read() starts from.
    std::vector<uint64_t> before(std::size_t(n) + 1, 0);
    uint64_t at = 0, k = 0;
    for (uint8_t s : target_runs(layout_, direction_)) {
        if (k++ % kRunsPerMark == 0) marks_.push_back({at, before});
        ++before[s];
        at += target_run_length(layout_, direction_, s);
    }
    matrices_.resize(std::size_t(n) + 1);
    for (int s = 0; s <= n; ++s) {
        auto file = db::RawLevelFile::open(work_file(2, s), layout_.matrix_size(s), n);
        if (!file.ok()) throw std::runtime_error(file.status().message());
        matrices_[std::size_t(s)].emplace(std::move(*file));
    }
}

ConvertedLevel::~ConvertedLevel() = default;

// Whether the work files are this conversion's (the marker starts with `head`) and whole:
// each matrix has its pass-2 file with its checksum, or else its pass-1 file with the
// checksum the marker gives. Files left by another process may have been changed since:
// each is read and checked, once, here.
bool ConvertedLevel::resumable(const std::string& head) const {
    const auto marker_path = options_.work_dir / kMarker;
    std::error_code ec;
    if (!std::filesystem::exists(marker_path, ec)) return false;
    const std::string marker = read_small_file(marker_path);
    if (marker.compare(0, head.size(), head) != 0) return false;
    for (int s = 0; s <= n_; ++s) {
        const auto second = work_file(2, s), first = work_file(1, s);
        const auto second_sum = std::filesystem::path(second).concat(".sum");
        if (std::filesystem::exists(second_sum, ec)) {
            if (read_small_file(second_sum) != file_checksum(second) + "\n") return false;
            continue;
        }
        const std::string line = "pass1-" + std::to_string(s) + " ";
        const auto at = marker.find("\n" + line, head.size() - 1);
        if (at == std::string::npos ||
            marker.compare(at + 1 + line.size(), 17, file_checksum(first) + "\n") != 0)
            return false;
    }
    return true;
}

std::filesystem::path ConvertedLevel::work_file(int pass, int s) const {
    return options_.work_dir / ("pass" + std::to_string(pass) + "-" + std::to_string(s));
}

void ConvertedLevel::pass1(const db::ValueSource& source, const std::string& head) const {
    const int n = n_;
    const bool to_published = direction_ == OrderDirection::to_published;
    std::vector<std::unique_ptr<db::detail::AtomicFileSink>> files;
    std::vector<std::unique_ptr<db::detail::StreamingChecksum>> sums;
    std::vector<std::vector<uint8_t>> buffers(std::size_t(n) + 1);
    const uint64_t buffer_bytes = std::max(kRunBuffer, longest_run(n_));
    for (int s = 0; s <= n; ++s) {
        files.push_back(std::make_unique<db::detail::AtomicFileSink>(work_file(1, s)));
        sums.push_back(std::make_unique<db::detail::StreamingChecksum>());
        buffers[std::size_t(s)].reserve(buffer_bytes);
    }
    auto flush = [&](int s) {
        auto& b = buffers[std::size_t(s)];
        files[std::size_t(s)]->write(b);
        sums[std::size_t(s)]->update(b);
        b.clear();
    };

    // The source in chunks; a run cut by the chunk's end is carried to the next one.
    const uint64_t size = source.size();
    std::vector<int8_t> chunk(kSourceChunk + longest_run(n_));
    uint64_t read_to = 0, at = 0, have = 0; // source offset read so far; chunk[at, have)
    uint64_t reported = 0;
    for (uint8_t s8 : source_runs(layout_, direction_)) {
        const int s = s8;
        const uint64_t length = source_run_length(layout_, direction_, s);
        if (have - at < length) {
            std::memmove(chunk.data(), chunk.data() + at, have - at);
            have -= at;
            at = 0;
            const uint64_t more = std::min(kSourceChunk, size - read_to);
            source.read(read_to, std::span(chunk).subspan(have, more));
            read_to += more;
            have += more;
            if (have - at < length)
                throw std::logic_error("order conversion: level " + std::to_string(n) +
                                       " ends inside a run");
            if (options_.progress && read_to - reported >= (uint64_t(64) << 20)) {
                reported = read_to;
                options_.progress({1, read_to, size});
            }
        }
        auto& out = buffers[std::size_t(s)];
        if (out.size() + length > buffer_bytes) flush(s);
        const std::size_t base = out.size();
        out.resize(base + length);
        const auto* run = reinterpret_cast<const uint8_t*>(chunk.data() + at);
        uint8_t* dst = out.data() + base;
        if (to_published) { // a row of ours: its columns into their order
            const auto to = layout_.column_to_theirs(s);
            for (uint64_t j = 0; j < length; ++j) dst[to[j]] = run[j];
        } else { // a column of theirs: its rows into our order
            const auto from = layout_.row_to_theirs(s);
            for (uint64_t i = 0; i < length; ++i) dst[i] = run[from[i]];
        }
        at += length;
    }
    if (read_to != size || at != have)
        throw std::logic_error("order conversion: the runs do not cover level " +
                               std::to_string(n));
    std::string marker = head;
    for (int s = 0; s <= n; ++s) {
        flush(s);
        files[std::size_t(s)]->commit();
        marker += "pass1-" + std::to_string(s) + " " + hex(sums[std::size_t(s)]->digest()) + "\n";
    }
    if (options_.progress) options_.progress({1, size, size});
    write_small_file(options_.work_dir / kMarker, marker);
}

void ConvertedLevel::pass2(int s) const {
    const bool to_published = direction_ == OrderDirection::to_published;
    // The pass-1 file holds a_count source runs of `width_all` values; the target holds
    // width_all runs of a_count values: target run b at d is source run src_of[d] at b.
    const uint64_t a_count = to_published ? layout_.rows(s) : layout_.columns(s);
    const uint64_t width_all = source_run_length(layout_, direction_, s);
    std::vector<uint32_t> src_of(a_count);
    if (to_published) { // target d = their south half; the source run is our row of it
        const auto to = layout_.row_to_theirs(s);
        for (uint32_t a = 0; a < a_count; ++a) src_of[to[a]] = a;
    } else { // target d = our north half; the source run is their column of it
        const auto to = layout_.column_to_theirs(s);
        std::copy(to.begin(), to.end(), src_of.begin());
    }

    const uint64_t used = layout_.memory_bytes() + 4 * a_count + (uint64_t(16) << 20);
    uint64_t room = options_.memory > used ? options_.memory - used : 0;
    if (options_.band_bytes != 0) room = std::min(room, options_.band_bytes);
    const uint64_t width = std::clamp<uint64_t>(room / (2 * a_count), 1, width_all);
    std::vector<uint8_t> in(a_count * width), out(a_count * width);
    const InputFile file(work_file(1, s));
    db::detail::AtomicFileSink sink(work_file(2, s));
    db::detail::StreamingChecksum sum;
    for (uint64_t b0 = 0; b0 < width_all; b0 += width) {
        const uint64_t w = std::min(width, width_all - b0);
        if (w == width_all)
            file.read(0, in.data(), a_count * w);
        else
            for (uint64_t a = 0; a < a_count; ++a)
                file.read(a * width_all + b0, in.data() + a * w, w);
        transpose_band(in.data(), w, src_of, out.data(), options_.threads);
        sink.write(std::span(out).first(a_count * w));
        sum.update(std::span(out).first(a_count * w));
    }
    sink.commit();
    write_small_file(std::filesystem::path(work_file(2, s)).concat(".sum"),
                     hex(sum.digest()) + "\n");
}

uint64_t ConvertedLevel::size() const {
    return level_size<6>(n_);
}

void ConvertedLevel::read(uint64_t begin, std::span<int8_t> out) const {
    if (begin + out.size() > size())
        throw std::out_of_range("ConvertedLevel::read past the level's end");
    // A large read (the level writer's windows of 64 Mi values) in pieces on every thread:
    // it copies from the page cache, which one thread does at a fraction of the bandwidth.
    constexpr uint64_t kPiece = uint64_t(1) << 20;
    if (out.size() < 4 * kPiece || options_.threads < 2) return read_piece(begin, out);
    parallel::for_chunks(options_.threads, 0, out.size(), kPiece, [&](uint64_t b, uint64_t e) {
        read_piece(begin + b, out.subspan(b, e - b));
    });
}

void ConvertedLevel::read_piece(uint64_t begin, std::span<int8_t> out) const {
    if (out.empty()) return;
    const auto& runs = target_runs(layout_, direction_);
    // The last mark at or before `begin`, then run by run.
    const auto mark =
        std::prev(std::upper_bound(marks_.begin(), marks_.end(), begin,
                                   [](uint64_t b, const Mark& m) { return b < m.begin; }));
    std::vector<uint64_t> before = mark->runs_before;
    uint64_t run = uint64_t(mark - marks_.begin()) * kRunsPerMark, run_begin = mark->begin;
    std::size_t done = 0;
    while (done < out.size()) {
        const int s = runs[run];
        const uint64_t length = target_run_length(layout_, direction_, s);
        if (begin >= run_begin + length) { // past this run
            ++before[std::size_t(s)];
            run_begin += length;
            ++run;
            continue;
        }
        const uint64_t in_run = begin - run_begin;
        const uint64_t take = std::min<uint64_t>(length - in_run, out.size() - done);
        const uint64_t offset = before[std::size_t(s)] * length + in_run;
        if (db::Status st = matrices_[std::size_t(s)]->read(offset, out.subspan(done, take));
            !st.ok())
            throw std::runtime_error(st.message());
        begin += take;
        done += take;
    }
}

void ConvertedLevel::remove_work_files() {
    matrices_.clear();
    discard_work_files(options_.work_dir);
}

void ConvertedLevel::discard_work_files(const std::filesystem::path& dir) {
    std::error_code ec;
    if (std::filesystem::is_symlink(dir, ec) || !std::filesystem::is_directory(dir, ec)) return;
    remove_files(dir, is_work_file);
    std::filesystem::remove(dir, ec); // only if empty
}

} // namespace owaredb
