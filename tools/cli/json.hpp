// JSON output of both programs, two ways:
//
// - Json (nlohmann::ordered_json) for documents printed once per command or per result
//   (`owaredb stats --json`, `omweso census --json`, `omweso check --json`): build the
//   document, print it with print_json_line. Keys keep their insertion order and dump() is
//   compact, which is the output format of every command.
// - the appender in namespace json, for answers written hundreds of thousands of times per
//   second (`owaredb probe --batch --json`, tools/probe_format.cpp): it writes through a raw
//   pointer into room reserved once per answer. Building the same answers as a Json and
//   dumping them costs several times the CPU time, which would dominate a batch
//   (docs/results.md, Probing and files).
//
// json::append_escaped is the one JSON string escaper of our code. A Json escapes the
// strings it holds with nlohmann's own escaper, which writes some control characters
// differently (\n, \t) and throws on invalid UTF-8: documents built as Json hold only
// strings of our own (names, fixed texts), never the user's input.
#pragma once

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstring>
#include <string>
#include <string_view>

namespace owaredb::cli {

/// A JSON document whose objects keep their keys in insertion order.
using Json = nlohmann::ordered_json;

/// Writes `doc` compactly (no spaces) and a newline to standard output and flushes it;
/// throws OutputError (cli/command.hpp) if standard output cannot be written.
void print_json_line(const Json& doc);

namespace json {

/// Characters of the longest int, "-2147483648".
inline constexpr std::size_t kIntChars = 11;

/// Makes room for `bound` more characters at the end of `out` and returns where it starts.
/// Write at most `bound` characters from there with the put functions, then call
/// `commit(out, end)` with the end of what was written.
inline char* reserve(std::string& out, std::size_t bound) {
    const std::size_t size = out.size();
    out.resize(size + bound);
    return out.data() + size;
}

/// Trims the room made by reserve() to what was written, which ends at `end`.
inline void commit(std::string& out, const char* end) {
    out.resize(static_cast<std::size_t>(end - out.data()));
}

/// Writes `v` (at most kIntChars characters).
inline char* put_int(char* p, int v) {
    // Fast path for the small numbers that make up most of an answer (|v| < 100).
    if (v > -100 && v < 100) {
        if (v < 0) {
            *p++ = '-';
            v = -v;
        }
        if (v >= 10) *p++ = static_cast<char>('0' + v / 10);
        *p++ = static_cast<char>('0' + v % 10);
        return p;
    }
    return std::to_chars(p, p + kIntChars, v).ptr;
}

/// Writes a string literal as it is (JSON punctuation, keys): N - 1 characters.
template <std::size_t N> char* put(char* p, const char (&literal)[N]) {
    std::memcpy(p, literal, N - 1);
    return p + N - 1;
}

/// Writes `s` as it is: for text that needs no escaping (names, numbers).
inline char* put(char* p, std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
}

/// Length of the UTF-8 sequence of two to four bytes starting at s[i] (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or 0 if the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i);

/// Whether `s` is valid UTF-8.
bool valid_utf8(std::string_view s);

/// Appends the characters of `s` as the inside of a JSON string: '"' and '\' escaped with
/// a backslash, control characters (< 0x20) as \u00XX, valid UTF-8 as it is, and every
/// byte that is not part of valid UTF-8 as \ufffd (the replacement character), so that the
/// result is valid JSON whatever the input.
void append_escaped(std::string& out, std::string_view s);

} // namespace json

} // namespace owaredb::cli
