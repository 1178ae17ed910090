#include "cli/json.hpp"

#include <iostream>
#include <stdexcept>

namespace owaredb::cli {

void print_json_line(const Json& doc) {
    std::cout << doc.dump() << '\n' << std::flush;
    if (!std::cout) throw std::runtime_error("cannot write to standard output");
}

namespace json {

void append_escaped(std::string& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
}

} // namespace json

} // namespace owaredb::cli
