#include "dbformat/status.hpp"

namespace owaredb::db {

const char* to_string(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok:
        return "ok";
    case ErrorCode::NotFound:
        return "not found";
    case ErrorCode::Io:
        return "i/o error";
    case ErrorCode::Corrupt:
        return "corrupt";
    case ErrorCode::Mismatch:
        return "mismatch";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::OutOfRange:
        return "out of range";
    case ErrorCode::InvalidArgument:
        return "invalid argument";
    }
    return "unknown";
}

} // namespace owaredb::db
