// MpiJob with Open MPI (mpi_job.hpp). Only the main thread calls MPI (between parallel
// regions, or as thread 0 of one: RankLink::progress), so MPI_THREAD_FUNNELED is all the
// engine needs.
#include "mpi_job.hpp"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace owaredb::cli {

namespace {

MpiJob* current_job = nullptr;

void check(int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("MPI: ") + what +
                             " failed: " + std::string(text, size_t(length)));
}

int as_count(uint64_t n, const char* what) {
    if (n > uint64_t(INT_MAX))
        throw std::runtime_error(std::string("MPI: ") + what + " of " + std::to_string(n) +
                                 " elements does not fit one MPI call (use more ranks)");
    return static_cast<int>(n);
}

} // namespace

// The exchange of a round in two non-blocking collectives: MPI_Ialltoall of (messages for
// you, my count) per rank, then, once every rank's numbers are in, MPI_Ialltoallv of the
// messages. progress() tests the request in flight and posts the second call as soon as
// it can, so the messages travel while the engine scans its next round.
struct MpiJob::Link final : RankLink {
    MpiJob& job;
    enum class Stage { idle, counting, sending } stage = Stage::idle;
    std::vector<uint64_t> send_meta, receive_meta; // 2 a rank: messages, count
    std::vector<int> sc, sd, rc, rd;
    std::vector<uint64_t> out, in;
    uint64_t count_sum = 0;
    MPI_Request request = MPI_REQUEST_NULL;

    explicit Link(MpiJob& j) : job(j) {}
    int rank() const override { return job.rank_; }
    int ranks() const override { return job.ranks_; }

    void start_exchange(std::vector<std::vector<uint64_t>> outboxes, uint64_t count) override {
        if (stage != Stage::idle)
            throw std::logic_error("MPI: an exchange started while another is in flight");
        const size_t k = size_t(job.ranks_);
        send_meta.assign(2 * k, count);
        receive_meta.assign(2 * k, 0);
        uint64_t total = 0;
        for (size_t r = 0; r < k; ++r) total += (send_meta[2 * r] = outboxes.at(r).size());
        out.clear();
        out.reserve(total);
        for (auto& box : outboxes) {
            out.insert(out.end(), box.begin(), box.end());
            std::vector<uint64_t>().swap(box); // the flat copy is what travels
        }
        check(MPI_Ialltoall(send_meta.data(), 2, MPI_UINT64_T, receive_meta.data(), 2, MPI_UINT64_T,
                            MPI_COMM_WORLD, &request),
              "MPI_Ialltoall");
        stage = Stage::counting;
    }

    // The counts are in: post the messages.
    void send() {
        const size_t k = size_t(job.ranks_);
        sc.assign(k, 0), sd.assign(k, 0), rc.assign(k, 0), rd.assign(k, 0);
        uint64_t send_total = 0, receive_total = 0;
        count_sum = 0;
        for (size_t r = 0; r < k; ++r) {
            sd[r] = as_count(send_total, "a message exchange");
            sc[r] = as_count(send_meta[2 * r], "a message exchange");
            send_total += send_meta[2 * r];
            rd[r] = as_count(receive_total, "a message exchange");
            rc[r] = as_count(receive_meta[2 * r], "a message exchange");
            receive_total += receive_meta[2 * r];
            count_sum += receive_meta[2 * r + 1];
        }
        as_count(send_total, "a message exchange");
        as_count(receive_total, "a message exchange");
        in.assign(receive_total, 0);
        check(MPI_Ialltoallv(out.data(), sc.data(), sd.data(), MPI_UINT64_T, in.data(), rc.data(),
                             rd.data(), MPI_UINT64_T, MPI_COMM_WORLD, &request),
              "MPI_Ialltoallv");
        stage = Stage::sending;
    }

    void progress() override {
        if (stage == Stage::idle) return;
        int done = 0;
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done && stage == Stage::counting) send();
    }

    Received finish_exchange() override {
        if (stage == Stage::idle) throw std::logic_error("MPI: no exchange in flight to finish");
        if (stage == Stage::counting) {
            check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
            send();
        }
        check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
        stage = Stage::idle;
        std::vector<uint64_t>().swap(out);
        Received got;
        got.messages = std::move(in);
        got.count_sum = count_sum;
        in = {};
        return got;
    }
    uint64_t sum(uint64_t value) override { return job.sum(value); }
};

bool MpiJob::available() {
    return true;
}

MpiJob::MpiJob(int* argc, char*** argv) {
    int provided = 0;
    check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    // Errors come back as codes (turned into exceptions, then MPI_Abort), not as an abort
    // deep inside a call with no word of which step failed.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
    MPI_Comm node;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    MPI_Comm_size(node, &ranks_on_node_);
    MPI_Comm_free(&node);
    link_ = new Link(*this);
    current_job = this;
}

MpiJob::~MpiJob() {
    current_job = nullptr;
    delete link_;
    MPI_Finalize();
}

MpiJob* MpiJob::current() {
    return current_job;
}

RankLink& MpiJob::link() {
    return *link_;
}

namespace {
constexpr int kFetchTag = 11, kValuesTag = 12;
} // namespace

void MpiJob::fetch(int owner, uint64_t begin, uint64_t length, std::span<int8_t> out) {
    uint64_t request[3] = {begin, length, out.size()};
    check(MPI_Send(request, 3, MPI_UINT64_T, owner, kFetchTag, MPI_COMM_WORLD), "MPI_Send");
    check(MPI_Recv(out.data(), as_count(out.size(), "a fetch"), MPI_BYTE, owner, kValuesTag,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
}

void MpiJob::stop_serving() {
    uint64_t stop[3] = {0, 0, 0};
    for (int r = 1; r < ranks_; ++r)
        check(MPI_Send(stop, 3, MPI_UINT64_T, r, kFetchTag, MPI_COMM_WORLD), "MPI_Send");
}

void MpiJob::serve(const Values& values) {
    std::vector<int8_t> out;
    for (;;) {
        uint64_t request[3];
        check(MPI_Recv(request, 3, MPI_UINT64_T, 0, kFetchTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        if (request[1] == 0) return;
        out.resize(request[2]);
        values(request[0], request[1], out);
        check(MPI_Send(out.data(), as_count(out.size(), "a fetch"), MPI_BYTE, 0, kValuesTag,
                       MPI_COMM_WORLD),
              "MPI_Send");
    }
}

std::vector<uint64_t> MpiJob::gather(uint64_t value) {
    std::vector<uint64_t> all(rank_ == 0 ? size_t(ranks_) : 0);
    check(MPI_Gather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    return all;
}

uint64_t MpiJob::broadcast(uint64_t value) {
    check(MPI_Bcast(&value, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return value;
}

uint64_t MpiJob::sum(uint64_t value) {
    uint64_t total = 0;
    check(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
    return total;
}

void MpiJob::abort(const std::string& why) {
    std::fprintf(stderr, "owaredb: rank %d of %d: %s; ending the MPI job\n", rank_, ranks_,
                 why.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort(); // MPI_Abort does not return
}

} // namespace owaredb::cli
