#include "omweso/position.hpp"

#include <charconv>
#include <sstream>
#include <vector>

namespace owaredb::omweso {

Position initial_position() {
    Position p;
    for (auto& c : p.pits)
        for (int k = 0; k < 8; ++k) c = set_pit(c, k, 4);
    p.first_turn_pending = {true, true};
    p.capture_happened = false;
    return p;
}

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '\n' || text[i] == ';') {
            std::string_view line = text.substr(start, i - start);
            if (line.find_first_not_of(" \t\r,") != std::string_view::npos) lines.push_back(line);
            start = i + 1;
        }
    }
    return lines;
}

std::vector<int> parse_counts(std::string_view line, int line_no) {
    std::vector<int> out;
    constexpr std::string_view seps = " \t\r,";
    std::size_t i = line.find_first_not_of(seps);
    while (i != std::string_view::npos) {
        std::size_t j = line.find_first_of(seps, i);
        const std::string_view tok = line.substr(i, j == std::string_view::npos ? j : j - i);
        const std::string where = "line " + std::to_string(line_no) + ", count " +
                                  std::to_string(out.size() + 1) + ": '" + std::string(tok) + "'";
        int v = 0;
        auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (ec == std::errc::result_out_of_range ||
            (ec == std::errc() && ptr == tok.end() && v > kSeeds))
            throw ParseError(where + " is more than 64 seeds");
        if (ec != std::errc() || ptr != tok.end() || v < 0)
            throw ParseError(where + " is not a seed count (a non-negative integer)");
        out.push_back(v);
        i = j == std::string_view::npos ? j : line.find_first_not_of(seps, j);
    }
    return out;
}

} // namespace

Position parse_position(std::string_view text) {
    const auto lines = split_lines(text);
    if (lines.size() != 2 && lines.size() != 4)
        throw ParseError("expected 2 lines of 16 counts (circuit form) or 4 lines of 8 counts "
                         "(board form), got " +
                         std::to_string(lines.size()) + " non-empty line(s)");
    const std::size_t per_line = lines.size() == 2 ? 16 : 8;
    std::vector<std::vector<int>> rows;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        rows.push_back(parse_counts(lines[i], int(i + 1)));
        if (rows.back().size() != per_line)
            throw ParseError("line " + std::to_string(i + 1) + ": expected " +
                             std::to_string(per_line) + " counts, got " +
                             std::to_string(rows.back().size()));
    }
    Position p;
    int sum = 0;
    auto put = [&](int player, int k, int v) {
        p.pits[std::size_t(player)] = set_pit(p.pits[std::size_t(player)], k, v);
        sum += v;
    };
    if (lines.size() == 2) {
        for (int k = 0; k < kPits; ++k) {
            put(South, k, rows[0][std::size_t(k)]);
            put(North, k, rows[1][std::size_t(k)]);
        }
    } else {
        // Column c of each row as seen from South (see the column relation in board.hpp).
        for (int c = 0; c < kColumns; ++c) {
            put(North, 7 - c, rows[0][std::size_t(c)]);
            put(North, 8 + c, rows[1][std::size_t(c)]);
            put(South, 15 - c, rows[2][std::size_t(c)]);
            put(South, c, rows[3][std::size_t(c)]);
        }
    }
    if (sum > kSeeds)
        throw ParseError("the board holds " + std::to_string(sum) + " seeds, more than 64");
    return p;
}

std::string circuit_string(Packed c) {
    std::string s;
    for (int k = 0; k < kPits; ++k) {
        if (k) s += ' ';
        s += std::to_string(get_pit(c, k));
    }
    return s;
}

std::string to_circuit_text(const Position& p) {
    return circuit_string(p.mover()) + '\n' + circuit_string(p.opponent()) + '\n';
}

std::string to_board_text(const Position& p) {
    std::ostringstream out;
    auto row = [&](const char* label, int player, bool mark, auto pit_of_column) {
        out << label;
        for (int c = 0; c < kColumns; ++c) {
            std::string v = std::to_string(get_pit(p.pits[std::size_t(player)], pit_of_column(c)));
            out << std::string(4 - v.size(), ' ') << v;
        }
        out << (mark && p.to_move == player ? "   <- to move" : "") << '\n';
    };
    row("North back ", North, true, [](int c) { return 7 - c; });
    row("North front", North, false, [](int c) { return 8 + c; });
    row("South front", South, false, [](int c) { return 15 - c; });
    row("South back ", South, true, [](int c) { return c; });
    return out.str();
}

} // namespace owaredb::omweso
