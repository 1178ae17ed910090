// K ranks of a distributed solve as K threads of one process (retro/rank_link.hpp), so that
// the distributed engine is tested, under the sanitizers too, without MPI.
#pragma once

#include "retro/rank_link.hpp"

#include <barrier>
#include <cstdint>
#include <utility>
#include <vector>

namespace owaredb::test {

class ThreadRanks {
  public:
    explicit ThreadRanks(int ranks)
        : ranks_(ranks), barrier_(ranks), boxes_(size_t(ranks) * size_t(ranks)),
          values_(size_t(ranks)), counts_(size_t(ranks)) {
        for (int r = 0; r < ranks; ++r) links_.emplace_back(*this, r);
    }
    RankLink& link(int rank) { return links_[size_t(rank)]; }

  private:
    class Link final : public RankLink {
      public:
        Link(ThreadRanks& all, int rank) : all_(all), rank_(rank) {}
        int rank() const override { return rank_; }
        int ranks() const override { return all_.ranks_; }
        // The boxes are handed over when the exchange starts, and read when it finishes:
        // between the two, this rank works on as an MPI rank does while its messages
        // travel, and the engine must not count on having received anything yet.
        void start_exchange(std::vector<std::vector<uint64_t>> outboxes, uint64_t count) override {
            const size_t k = size_t(all_.ranks_), me = size_t(rank_);
            for (size_t r = 0; r < k; ++r) all_.boxes_[me * k + r] = std::move(outboxes.at(r));
            all_.counts_[me] = count;
            all_.barrier_.arrive_and_wait(); // every box of this exchange is written
        }
        Received finish_exchange() override {
            const size_t k = size_t(all_.ranks_), me = size_t(rank_);
            Received got;
            for (size_t r = 0; r < k; ++r) {
                got.count_sum += all_.counts_[r];
                if (r != me)
                    got.messages.insert(got.messages.end(), all_.boxes_[r * k + me].begin(),
                                        all_.boxes_[r * k + me].end());
            }
            all_.barrier_.arrive_and_wait(); // nobody writes a box before all have read
            return got;
        }
        uint64_t sum(uint64_t value) override {
            all_.values_[size_t(rank_)] = value;
            all_.barrier_.arrive_and_wait();
            uint64_t total = 0;
            for (uint64_t v : all_.values_) total += v;
            all_.barrier_.arrive_and_wait();
            return total;
        }

      private:
        ThreadRanks& all_;
        int rank_;
    };

    int ranks_;
    std::barrier<> barrier_;
    std::vector<std::vector<uint64_t>> boxes_; // boxes_[from * ranks + to]
    std::vector<uint64_t> values_;             // sum()
    std::vector<uint64_t> counts_;             // the exchange's counts
    std::vector<Link> links_;
};

} // namespace owaredb::test
