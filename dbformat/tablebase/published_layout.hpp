// How our rank order of D_n and Romein & Bal's order of it (tablebase/published_dir.hpp)
// relate, in blocks big enough to move a level between them with sequential I/O.
//
// Split a position into its south half (pits 0..5, s seeds) and its north half (pits
// 6..11, n - s seeds, one of them empty: D_n's condition). For each s the positions form a
// matrix M_s with a row per south half (R_s = C(s+5, 5) of them) and a column per valid
// north half (C_s of them).
//
// - Our order is lexicographic over pits 0..11: it lists the south halves lexicographically
//   over pits 0..5, whatever their seed count, and under each one the north halves of its
//   matrix lexicographically over pits 6..11. So it is the rows of all the matrices
//   interleaved, each row contiguous.
// - Theirs is lexicographic over pits 11..0: the north halves lexicographically over pits
//   11..6, and under each the south halves of its matrix lexicographically over pits 5..0.
//   So it is the columns of all the matrices interleaved, each column contiguous.
//
// Converting a level is then, for each s, a transpose of M_s with its rows and its columns
// each put in the other order (tablebase/order_conversion.hpp). This class holds those
// sequences and permutations; their size grows with the number of halves (about 26 M
// south halves at n = 48, 200 MB of tables), not with the level (204 G positions).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace owaredb {

class PublishedLayout {
  public:
    /// The layout of D_n, 0 <= n <= 48.
    explicit PublishedLayout(int n);

    int n() const { return n_; }
    /// R_s: the south halves of s seeds (rows of M_s), 0 <= s <= n.
    uint64_t rows(int s) const { return rows_[std::size_t(s)]; }
    /// C_s: the valid north halves of n - s seeds (columns of M_s).
    uint64_t columns(int s) const { return columns_[std::size_t(s)]; }
    /// R_s * C_s: the positions of D_n whose south half holds s seeds.
    uint64_t matrix_size(int s) const { return rows(s) * columns(s); }

    /// The s of each row in our order: the seeds of each south half, the halves taken
    /// lexicographically over pits 0..5. Row k of our order is the next row of M_s.
    const std::vector<uint8_t>& our_rows() const { return our_rows_; }
    /// The s of each column in their order (valid north halves lexicographically over pits
    /// 11..6); column k of their order is the next column of M_s.
    const std::vector<uint8_t>& their_columns() const { return their_columns_; }

    /// For the south halves of s seeds: row_to_theirs(s)[i] is where the i-th of them in
    /// our order (lexicographic over pits 0..5) comes in theirs (over pits 5..0).
    std::span<const uint32_t> row_to_theirs(int s) const { return row_to_theirs_[std::size_t(s)]; }
    /// For the valid north halves of n - s seeds: column_to_theirs(s)[j] is where the j-th
    /// of them in our order (over pits 6..11) comes in theirs (over pits 11..6).
    std::span<const uint32_t> column_to_theirs(int s) const {
        return column_to_theirs_[std::size_t(s)];
    }

    /// The bytes these tables take.
    uint64_t memory_bytes() const;
    /// What PublishedLayout(n) would take, without building it.
    static uint64_t memory_bytes(int n);

  private:
    int n_;
    std::vector<uint64_t> rows_, columns_;
    std::vector<uint8_t> our_rows_, their_columns_;
    std::vector<std::vector<uint32_t>> row_to_theirs_, column_to_theirs_;
};

} // namespace owaredb
