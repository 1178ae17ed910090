// The 2-bit working word of the WLD engine (wld_retrograde.hpp explains the method; Lincke's
// WLD(k), a threshold at a time, without counters), and the only operations that change it.
//
// A word is one of 4 states:
//     kUnknown   undecided, and some capture exit above -t (not eligible to be lost);
//     kEligible  undecided, and its best capture exit <= -t, or none: lost as soon as every
//                quiet child is won;
//     kWon, kLost decided at this threshold or an earlier one (which one: the bitmap of
//                the threshold that decided it, once the commit pass after the threshold
//                has written it).
// There is no counter of open moves: an eligible position re-generates its moves and looks
// at its quiet children whenever one of them becomes won (is_eligible(), then is_won() of
// each child up to the first not won).
//
// Memory ordering. Every change of a word during a threshold is a seq_cst read-modify-write
// (decide_won, decide_lost, make_eligible; on packed words, of their 64-bit container), and
// every load that decides whether a parent is lost is a seq_cst load (of the parent's word,
// then of each child's, is_won()). That is enough for the race the counters of the other
// engines never had: a parent P whose last two quiet children c1 and c2 are made won by two
// threads at once, each of which then loads P and the other child. With relaxed (or
// acquire/release) order each thread may read the other child's old word, both conclude
// "not every child won", and P stays undecided though it is lost (store buffering). With
// seq_cst, all these operations lie in one total order S consistent with each thread's
// program order, and a seq_cst load reads the last write to its word before it in S. Take
// the writes that P's loss waits for (each quiet child becoming won, and P becoming
// eligible: by make_eligible in a scan, or before the threshold, which the parallel loop's
// barrier orders before it) and let X be the last of them in S, made by thread T. After X,
// T always looks: a child made won is propagated by T to its parents, P among them (the
// un-moves of the child), and visiting P loads P's word and, if eligible, all of P's quiet
// children (however many other checks T runs beside it: wld_retrograde.hpp's
// check_side_by_side, the loads of P's check still follow X in T's program order);
// make_eligible is followed by T's own check of P. T's loads come after X in S, so
// they read P eligible (or already decided: then nothing is left to do) and every child
// won (kWon is final within a level). So T finds P lost, and decide_lost's compare-exchange
// from kEligible lets exactly one thread of those who find it claim P and propagate it.
// tests/retro/wld_test.cpp races two threads over sibling children (and the whole engine
// under TSan, where the suite is registered as a parallel test).
#pragma once

#include <atomic>
#include <cstdint>

namespace owaredb {

struct WldWord {
    static constexpr uint8_t kUnknown = 0;
    static constexpr uint8_t kEligible = 1;
    static constexpr uint8_t kWon = 2;
    static constexpr uint8_t kLost = 3;
    static constexpr std::memory_order kOrder = std::memory_order_seq_cst;

    static bool decided(uint8_t w) { return w >= kWon; }

    /// An undecided word becomes won; returns whether this call made it so (of threads
    /// racing for one position, exactly one does).
    template <class Ref> static bool decide_won(const Ref& word) {
        uint8_t old = word.load(kOrder);
        while (!decided(old))
            if (word.compare_exchange_weak(old, kWon, kOrder)) return true;
        return false;
    }
    /// An eligible word becomes lost; returns whether this call made it so.
    template <class Ref> static bool decide_lost(const Ref& word) {
        uint8_t old = kEligible;
        return word.compare_exchange_strong(old, kLost, kOrder);
    }
    /// An unknown word becomes eligible; returns whether this call made it so (false: it
    /// was decided meanwhile).
    template <class Ref> static bool make_eligible(const Ref& word) {
        uint8_t old = kUnknown;
        return word.compare_exchange_strong(old, kEligible, kOrder);
    }
    /// Whether the word is eligible (the first load of a parent's check).
    template <class Ref> static bool is_eligible(const Ref& word) {
        return word.load(kOrder) == kEligible;
    }
    /// The mask of a container's decided words (32 packed words, word k in bits 2k, 2k + 1;
    /// decided: the high bit set): bit k for word k.
    static uint32_t decided_mask(uint64_t container) {
        return gather(container >> 1 & kLowBits); // the high bits
    }
    /// The mask of a container's lost words (both bits set), as decided_mask().
    static uint32_t lost_mask(uint64_t container) {
        return gather(container >> 1 & container & kLowBits);
    }
    /// Whether a child's word is won (each load of a parent's check after the parent's).
    template <class Ref> static bool is_won(const Ref& word) { return word.load(kOrder) == kWon; }

  private:
    static constexpr uint64_t kLowBits = 0x5555555555555555ULL; // bit 0 of each word
    /// Bit 2k of m (m within kLowBits) as bit k.
    static uint32_t gather(uint64_t m) {
        m = (m | m >> 1) & 0x3333333333333333ULL;
        m = (m | m >> 2) & 0x0F0F0F0F0F0F0F0FULL;
        m = (m | m >> 4) & 0x00FF00FF00FF00FFULL;
        m = (m | m >> 8) & 0x0000FFFF0000FFFFULL;
        return static_cast<uint32_t>(m | m >> 16);
    }
};

} // namespace owaredb
