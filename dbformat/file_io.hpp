// File access for level files: an atomic writer and random-access byte sources.
// Internal to dbformat.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dbformat/status.hpp"

namespace owaredb::db::detail {

// Destination of an encoded level.
class Sink {
  public:
    virtual ~Sink() = default;
    virtual void write(std::span<const uint8_t> bytes) = 0;
};

class VectorSink final : public Sink {
  public:
    void write(std::span<const uint8_t> bytes) override {
        data.insert(data.end(), bytes.begin(), bytes.end());
    }
    std::vector<uint8_t> data;
};

// Writes "<path>.tmp", then commit() makes it <path> durably. Destroying an uncommitted
// writer removes the temp file. The temp file is created on the first write, so an encoder
// that rejects its arguments first leaves no trace. Errors throw std::runtime_error naming
// the file.
class AtomicFileSink final : public Sink {
  public:
    explicit AtomicFileSink(std::filesystem::path path);
    ~AtomicFileSink() override;
    AtomicFileSink(const AtomicFileSink&) = delete;
    AtomicFileSink& operator=(const AtomicFileSink&) = delete;
    void write(std::span<const uint8_t> bytes) override;
    void commit();

  private:
    void create();
    std::filesystem::path path_, tmp_;
    int fd_ = -1;
};

// Random-access bytes. Implementations are thread-safe.
class Source {
  public:
    virtual ~Source() = default;
    virtual uint64_t size() const = 0;
    // Reads exactly out.size() bytes at offset; messages carry no file name.
    virtual Status read(uint64_t offset, std::span<uint8_t> out) const = 0;
};

// Opens a regular file; NotFound if missing, Io for a directory or an unreadable file.
Result<std::unique_ptr<Source>> open_file_source(const std::filesystem::path& path);

std::unique_ptr<Source> memory_source(std::vector<uint8_t> bytes);

} // namespace owaredb::db::detail
