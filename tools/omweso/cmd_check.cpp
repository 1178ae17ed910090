// omweso check --pit k "<position>": every outcome of one move (it may branch on reverse
// captures), each a final board or a never-ending proof.
#include "commands.hpp"

#include "cli/json.hpp"
#include "omweso/game_end.hpp"
#include "omweso/meyer.hpp"
#include "omweso/position.hpp"
#include "omweso/turn.hpp"

#include <iostream>
#include <sstream>

namespace owaredb::omweso::cli {

using owaredb::cli::Json;
using owaredb::cli::print_json_line;

namespace {

Json json_circuit(Packed c) {
    Json a = Json::array();
    for (int k = 0; k < kPits; ++k) a.push_back(get_pit(c, k));
    return a;
}

std::string choices_text(const Turn& t) {
    std::string s = t.start == Start::Reverse   ? "clockwise"
                    : t.start == Start::Opening ? "3-seed opening"
                                                : "counter-clockwise";
    for (bool rev : t.reversed_after_capture)
        s += rev ? ", capture sown clockwise" : ", capture sown counter-clockwise";
    return s;
}

std::string player_name(int p) {
    return p == South ? "South" : "North";
}

void print_text(const Position& pos, int pit, const std::vector<Turn>& ts) {
    std::cout << to_board_text(pos) << '\n';
    std::cout << "move from pit " << pit << ": " << ts.size() << " outcome"
              << (ts.size() == 1 ? "" : "s") << '\n';
    int i = 0;
    for (const Turn& t : ts) {
        std::cout << "\n[" << ++i << "] " << choices_text(t) << '\n';
        std::cout << "  captures: " << t.captures << " (" << t.captured_seeds << " seeds)\n";
        if (t.never_ending) {
            const CycleProof& p = *t.never_ending;
            std::cout << "  NEVER-ENDING: after " << p.entry_lap << " laps (" << t.seeds_sown
                      << " seeds sown) the move enters a cycle of " << p.period_laps << " laps ("
                      << p.period_seeds << " seeds sown per period)\n"
                      << "  cycle state: mover " << circuit_string(p.state.mine)
                      << "\n               opponent " << circuit_string(p.state.theirs)
                      << "\n               " << p.state.hand << " seeds in hand sown from pit "
                      << p.state.origin << (p.state.dir > 0 ? " counter-clockwise" : " clockwise")
                      << '\n';
        } else {
            std::cout << "  ends after " << t.laps << " laps (" << t.seeds_sown
                      << " seeds sown), last seed in pit " << t.last_pit << '\n';
            std::istringstream board(to_board_text(t.final));
            for (std::string line; std::getline(board, line);) std::cout << "  " << line << '\n';
            if (auto r = game_result(t))
                std::cout << "  game over: " << player_name(r->winner) << " wins, " << r->points
                          << " point" << (r->points == 1 ? "" : "s") << '\n';
        }
    }
}

void print_json(const Position& pos, int pit, const std::vector<Turn>& ts) {
    Json turns = Json::array();
    for (const Turn& t : ts) {
        Json turn = {{"choices", choices_text(t)},
                     {"captures", t.captures},
                     {"captured_seeds", t.captured_seeds},
                     {"never_ending", t.never_ending.has_value()}};
        if (t.never_ending) {
            const CycleProof& p = *t.never_ending;
            turn["entry_lap"] = p.entry_lap;
            turn["period_laps"] = p.period_laps;
            turn["period_seeds"] = p.period_seeds;
            turn["cycle_state"] = {{"mover", json_circuit(p.state.mine)},
                                   {"opponent", json_circuit(p.state.theirs)},
                                   {"origin", p.state.origin},
                                   {"hand", p.state.hand},
                                   {"direction", p.state.dir > 0 ? "ccw" : "cw"}};
        } else {
            turn["laps"] = t.laps;
            turn["seeds_sown"] = t.seeds_sown;
            turn["last_pit"] = t.last_pit;
            turn["final"] = {{"mover", json_circuit(t.final.opponent())},
                             {"opponent", json_circuit(t.final.mover())}};
            if (auto r = game_result(t))
                turn["game_over"] = {{"winner", player_name(r->winner)}, {"points", r->points}};
        }
        turns.push_back(std::move(turn));
    }
    print_json_line(
        {{"pit", pit}, {"mover", player_name(pos.to_move)}, {"turns", std::move(turns)}});
}

} // namespace

int cmd_check(const Args& args) {
    int pit = -1;
    std::string position_text;
    bool reverse = false, opening = false, first_turn = false, pure = false,
         no_reverse_captures = false, json = false;
    po::options_description opts("options");
    opts.add_options()("pit", po::value(&pit), "pit k (0..15)")(
        "reverse", po::bool_switch(&reverse),
        "sow clockwise (a reverse capture from pit 0, 1, 14 or 15)")(
        "opening", po::bool_switch(&opening),
        "the 3-seed opening sowing (implies no capture yet this game)")(
        "first-turn", po::bool_switch(&first_turn), "it is the mover's first turn (no captures)")(
        "pure", po::bool_switch(&pure), "pure relay sowing: no captures at all")(
        "no-reverse-captures", po::bool_switch(&no_reverse_captures),
        "never sow captured seeds clockwise")("json", po::bool_switch(&json),
                                              "one JSON object on stdout")(
        "position", po::value(&position_text), "position");
    po::positional_options_description positional;
    positional.add("position", 1);
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: omweso check [options] --pit k \"<position>\"\n\n"
            "Plays the move from pit k of the side to move and prints every outcome (a move\n"
            "branches when captured seeds may be sown clockwise): the final board, laps and\n"
            "captures, or the proof that it never ends (entry lap, period in laps and seeds,\n"
            "state at the cycle start). The position is the circuit form: two lines of 16 counts,\n"
            "mover's circuit k = 0..15 then the opponent's (';' may separate the lines). It is\n"
            "taken as mid-game (no first turn pending, a capture already happened).\n",
            opts, positional, vm))
        return 0;
    if (!vm.count("pit")) throw UsageError("check needs --pit k");
    if (pit < 0 || pit >= kPits) throw UsageError("--pit must be in 0..15");
    if (!vm.count("position")) throw UsageError("check needs a position argument");
    if (reverse && opening) throw UsageError("--reverse and --opening exclude each other");
    Position pos = position_argument(position_text);
    Rules rules;
    if (pure) rules = pure_relay_rules();
    if (no_reverse_captures) rules.reverse_captures = false;
    if (first_turn) pos.first_turn_pending[std::size_t(pos.to_move)] = true;
    if (opening) pos.capture_happened = false;
    const Start start = reverse ? Start::Reverse : opening ? Start::Opening : Start::Forward;
    if (const std::string why = illegal_start_reason(pos, pit, start, rules); !why.empty())
        throw UsageError("illegal move: " + why);
    const std::vector<Turn> ts = turns_from(pos, pit, start, rules);
    if (json)
        print_json(pos, pit, ts);
    else
        print_text(pos, pit, ts);
    return 0;
}

} // namespace owaredb::omweso::cli
