// Errors as values for the level-file reader.
//
// Contract: the reader never throws on bad data or I/O trouble; it returns a Status (or a
// Result<T> holding either a value or a non-ok Status) whose message names the file and the
// problem. Only std::bad_alloc can escape from reader calls. The writer is different: it
// throws (see writer.hpp), because a failed write is always fatal for its caller.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace owaredb::db {

enum class ErrorCode {
    Ok = 0,
    NotFound,        // the file does not exist: the probe library reports "not available"
    Io,              // the OS refused: permission, a directory instead of a file, read error
    Corrupt,         // not a valid level file: truncated, checksum mismatch, impossible field
    Mismatch,        // a valid level file, but not the (rules, knobs, n, entries) asked for
    Unsupported,     // a level file of another format version or codec
    OutOfRange,      // position index >= number of entries
    InvalidArgument, // the caller passed something meaningless
};

// Stable lower-case name of a code, e.g. "corrupt".
const char* to_string(ErrorCode code);

class Status {
  public:
    Status() = default; // ok
    Status(ErrorCode code, std::string message, std::optional<uint64_t> block = std::nullopt)
        : code_(code), message_(std::move(message)), block_(block) {}

    bool ok() const { return code_ == ErrorCode::Ok; }
    ErrorCode code() const { return code_; }
    // Human-readable, names the file; empty when ok.
    const std::string& message() const { return message_; }
    // The damaged block's number when the error concerns one block.
    std::optional<uint64_t> block() const { return block_; }

  private:
    ErrorCode code_ = ErrorCode::Ok;
    std::string message_;
    std::optional<uint64_t> block_;
};

// Either a T or a non-ok Status (a minimal std::expected, which C++20 lacks).
template <class T> class Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Status error) : v_(std::move(error)) {
        if (std::get<Status>(v_).ok())
            v_ = Status(ErrorCode::InvalidArgument, "internal: Result built from an ok Status");
    }

    bool ok() const { return v_.index() == 0; }
    // Precondition: ok().
    T& value() & { return std::get<T>(v_); }
    const T& value() const& { return std::get<T>(v_); }
    T&& value() && { return std::get<T>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    // Ok status when ok(), else the error.
    const Status& status() const {
        static const Status ok_status;
        return ok() ? ok_status : std::get<Status>(v_);
    }

  private:
    std::variant<T, Status> v_;
};

} // namespace owaredb::db
