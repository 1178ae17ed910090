// Pure relay sowing on one circuit of 2..16 pits, and its exact never-ending detector.
//
// Pure relay (docs/rules.md, Omweso items 1-2, no captures): lift every seed of a pit and drop
// them one per pit counter-clockwise starting with the next pit (a lap of >= N seeds also
// drops into the start pit); if the last seed lands in an occupied pit, that pit is lifted
// and sown the same way (a relay); the move ends when a last seed lands in an empty pit.
//
// The state between two laps is (board, pit to lift next): the seeds in hand are that
// pit's content, the direction is always counter-clockwise and the lap origin is that pit.
// The state is finite and its successor is unique, so a relay either ends or revisits a
// state; `relay` decides which with Brent's cycle detection (O(1) extra memory, no lap or
// seed cap) and returns the cycle as proof.
#pragma once

#include "omweso/board.hpp"

#include <cstdint>
#include <optional>

namespace owaredb::omweso {

// Precomputed sowing tables for an N-pit circuit (pit k is byte k of a Packed board; the
// bytes N..15 stay 0).
class RelayCircuit {
  public:
    explicit RelayCircuit(int pits = kPits); // 2 <= pits <= 16, else std::invalid_argument
    int pits() const { return pits_; }

    // Sows one lap: lifts every seed of pit p (which must hold at least one) and sows it.
    // Returns the landing pit; the lap ended the relay iff that pit now holds exactly 1.
    int sow(Packed& b, int p) const {
        const int n = get_pit(b, p);
        b = clear_pit(b, p);
        return drop(b, p, n);
    }

    // Drops n (0..255) seeds counter-clockwise one per pit starting with the pit after p,
    // without lifting anything; returns the pit the last seed fell into (p itself if n = 0).
    int drop(Packed& b, int p, int n) const {
        b += (laps_[n] ? full_ * Packed(laps_[n]) : Packed(0)) + mask_[p][rest_[n]];
        return land_[p][n];
    }

  private:
    int pits_;
    Packed full_;         // one seed in each of the N pits
    Packed mask_[16][16]; // one seed in each of pits p+1 .. p+r (mod N)
    std::uint8_t land_[16][256];
    std::uint8_t laps_[256]; // n / N
    std::uint8_t rest_[256]; // n % N
};

// The tables of the 16-pit circuit of the real board, built once.
const RelayCircuit& omweso_circuit();

// A proven never-ending relay: after `entry_lap` laps the relay reaches the state
// (board, pit) and `period_laps` laps later (sowing `period_seeds` seeds) the same state
// again, with no lap in between ending the relay.
struct RelayCycle {
    std::uint64_t entry_lap = 0;
    std::uint64_t period_laps = 0;
    std::uint64_t period_seeds = 0;
    Packed board = 0; // state at the cycle start: the board before lifting `pit`
    int pit = 0;
};

struct RelayResult {
    bool ends = false;
    std::uint64_t laps = 0;          // when it ends: laps sown in all
    Packed board = 0;                // when it ends: the final board
    int last_pit = 0;                // when it ends: the pit the last seed fell into
    std::optional<RelayCycle> cycle; // when it never ends
    std::uint64_t work_laps = 0;     // laps simulated to decide, all passes (benchmarks)
};

struct RelayOptions {
    // Laps simulated plainly before Brent's bookkeeping starts (most relays end early).
    std::uint64_t plain_laps = 64;
    // Also find the entry lap and the seeds per period (a second pass); the period in laps
    // is always found.
    bool full_proof = true;
};

// Relays from pit `start` (which must hold at least 2 seeds, else std::invalid_argument).
RelayResult relay(const RelayCircuit& c, Packed board, int start, const RelayOptions& opt = {});

// Independent check of a proof: sows the cycle's period from its state with a naive
// one-seed-at-a-time sower and reports whether the same state comes back after exactly
// `period_laps` laps and `period_seeds` seeds with no lap ending the relay.
bool replay_cycle(int pits, const RelayCycle& cycle);

} // namespace owaredb::omweso
