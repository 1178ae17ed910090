// The owaredb Python module (`import owaredb`): the probe library's public API
// (owaredb/probe.hpp) for Python, with a numpy batch call that releases the GIL.
//
// Errors: every ProbeStatus is an exception class, all subclasses of owaredb.Error;
// InvalidPosition and InvalidRules are also ValueErrors, IoError is also an OSError. The
// message is the library's; the attributes are the fields of the error object that the CLI
// and the HTTP API print (README, Errors). Tablebase.values() raises for the first failing position
// (lowest index) by default, or with errors="status" returns a status array next to the values.
#include "owaredb/game.hpp"
#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

namespace py = pybind11;
using namespace owaredb;

namespace {

static_assert(sizeof(Pits) == 12 && alignof(Pits) == 1,
              "a C-contiguous (N, 12) uint8 array is read as Pits[N] in place");

// A position from Python: 2P pit counts for the Tablebase's board of P pits a side.
using Counts = BoardPits;

constexpr int kStatusCount = static_cast<int>(ProbeStatus::IoError) + 1;
// A position of 2P pit counts that the library rejects as InvalidPosition without any I/O
// (49 seeds): the probe that detects unknown rules early (and the stand-in for malformed
// rows of a batch).
Counts too_many_seeds(int pits_per_side) {
    Counts pits(2 * pits_per_side, 0);
    pits[0] = 48;
    pits[1] = 1;
    return pits;
}

// The exception classes, by ProbeStatus (index 0: owaredb.Error). Created once at import
// and kept for the life of the process.
PyObject* g_exceptions[kStatusCount] = {};

// A failed query on its way to Python (see the translator in the module definition).
struct ProbeFailure : std::exception {
    ProbeStatus status;
    std::string message;
    std::optional<Counts> position;
    std::optional<std::size_t> index; ///< row of a values() batch
    // The rest of the one error object (README, Errors), set by with_context.
    std::string rules;
    std::optional<std::vector<int>> missing_levels; ///< a missing level: every one 0..seeds
    std::string generate;                           ///< the command that builds them
    /// A missing level: the legal moves as the CLI's error object has them ("moves"):
    /// pit, captured, and the value when the child's levels are there.
    std::vector<std::tuple<int, int, std::optional<int>>> moves;
    ProbeFailure(ProbeStatus s, std::string m, std::optional<Counts> p = {},
                 std::optional<std::size_t> i = {})
        : status(s), message(std::move(m)), position(p), index(i) {}
    const char* what() const noexcept override { return message.c_str(); }
};

// The legal moves of a position a query could not answer, each valued when its child's
// level is there (a capture may lead to one): what the CLI's error object lists, so that a
// program can still show them and play on. Every child is stored (its origin pit is
// empty), so a missing level is not asked for (a failed read looks at the directory).
std::vector<std::tuple<int, int, std::optional<int>>> valued_moves(const Tablebase& tb,
                                                                   const Counts& pits) {
    std::vector<std::tuple<int, int, std::optional<int>>> out;
    const ProbeResult<GameState> state = game_state(tb.rules(), pits);
    if (!state) return out;
    for (const GameMove& m : state->moves) {
        int seeds = 0;
        for (uint8_t c : m.child) seeds += c;
        std::optional<int> value;
        if (tb.level_available(seeds))
            if (const ProbeResult<int> child = tb.value(std::span<const uint8_t>(m.child)); child)
                value = m.captured - *child;
        out.emplace_back(m.pit, m.captured, value);
    }
    return out;
}

// `f` with what the error objects of the other front ends say besides the message: the
// rules, and for a missing level what the library's Tablebase::missing_levels says of the
// `files` the query read (every level 0..seeds without them, the command that builds them
// into this directory). With the GIL, which it releases while it looks at the levels.
ProbeFailure with_context(const Tablebase& tb, ProbeFailure f,
                          LevelFiles files = LevelFiles::Values) {
    f.rules = tb.rules();
    if (f.status != ProbeStatus::NotAvailable || !f.position) return f;
    int seeds = 0;
    for (uint8_t c : *f.position) seeds += c;
    MissingLevels missing;
    {
        py::gil_scoped_release release;
        missing = tb.missing_levels(seeds, {}, files);
    }
    f.missing_levels = std::move(missing.levels);
    f.generate = std::move(missing.generate);
    py::gil_scoped_release release;
    f.moves = valued_moves(tb, *f.position);
    return f;
}

// The Python repr of the position's tuple, e.g. "(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)".
template <class A> std::string pits_repr(const A& p) {
    std::string s = "(";
    for (std::size_t i = 0; i < p.size(); ++i) s += (i ? ", " : "") + std::to_string(p[i]);
    return s + ")";
}

template <class A> py::tuple pits_tuple(const A& p) {
    py::tuple t(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) t[i] = py::int_(p[i]);
    return t;
}

// InvalidPosition for a position as the caller gave it (with the GIL): the message starts
// with the position, and .position is its tuple, whatever its items are.
[[noreturn]] void invalid_given(py::handle sequence, const std::string& message) {
    py::tuple given = py::reinterpret_steal<py::tuple>(PySequence_Tuple(sequence.ptr()));
    if (!given) throw py::error_already_set();
    PyObject* cls = g_exceptions[static_cast<int>(ProbeStatus::InvalidPosition)];
    py::object e = py::reinterpret_borrow<py::object>(cls)(
        "position " + py::repr(given).cast<std::string>() + ": " + message);
    e.attr("position") = given;
    PyErr_SetObject(cls, e.ptr());
    throw py::error_already_set();
}

// A position under a rule set (owaredb.Position): its pit counts and the library's answer
// for them (owaredb/game.hpp), asked once.
class PyPosition {
  public:
    PyPosition(Counts pits, std::string rules);
    const Counts& pits() const { return pits_; }
    const std::string& rules() const { return rules_; }
    int pits_per_side() const { return int(pits_.size() / 2); }
    const GameState& state() const { return state_; }
    /// The legal move from `pit` (1..P); raises IllegalMove if there is none.
    const GameMove& move(int pit) const;

  private:
    Counts pits_;
    std::string rules_;
    GameState state_;
};

// What Tablebase.value's `default` is when not given: raise (created at import, kept for
// the life of the process).
PyObject* g_raise = nullptr;

// NotAvailable (missing) or IoError unless `path` is a directory that can be listed, with
// the library's words, as the CLI says them.
void refuse_directory(const std::string& path) {
    const std::string problem = directory_problem(path, "(see owaredb generate)");
    if (problem.empty()) return;
    const bool missing = problem.starts_with("no database directory");
    throw ProbeFailure(missing ? ProbeStatus::NotAvailable : ProbeStatus::IoError, problem);
}

// owaredb.IllegalMove, created at import.
PyObject* g_illegal_move = nullptr;

[[noreturn]] void illegal_move(const std::string& message) {
    PyErr_SetString(g_illegal_move, message.c_str());
    throw py::error_already_set();
}

// The CLI's text form, "4 4 4 4 4 4 4 4 4 4 4 4", as a list: decimal integers as ints, any
// other word kept as it is, for to_pits to name.
py::list words_of(py::handle text) {
    py::list items;
    for (py::handle word : text.attr("split")()) {
        const std::string w = py::str(word);
        const std::size_t digits = w.find_first_not_of("0123456789", w[0] == '-' ? 1 : 0);
        const bool integer = digits == std::string::npos && w.size() > (w[0] == '-' ? 1u : 0u);
        items.append(integer ? py::int_(py::reinterpret_borrow<py::object>(word))
                             : py::reinterpret_borrow<py::object>(word));
    }
    return items;
}

// A position from Python for a board of `board` pits a side: any sequence of 2P integers
// (list, tuple, 1-D numpy array, ...), or a string of 2P whitespace-separated numbers as the
// command line takes it.
Counts to_pits(py::handle obj, int board) {
    if (PyUnicode_Check(obj.ptr())) return to_pits(words_of(obj), board);
    if (py::isinstance<PyPosition>(obj))
        return to_pits(pits_tuple(obj.cast<const PyPosition&>().pits()), board);
    PyObject* o = obj.ptr();
    const std::string count = std::to_string(2 * board);
    if (PyBytes_Check(o) || PyByteArray_Check(o) || !PySequence_Check(o))
        throw py::type_error("a position is a sequence of " + count +
                             " pit counts or a string of them, not " +
                             std::string(Py_TYPE(o)->tp_name));
    const Py_ssize_t n = PySequence_Size(o);
    if (n < 0) throw py::error_already_set();
    if (n != 2 * board)
        invalid_given(
            obj, "a position has " + count + " pits" +
                     (board == 6 ? std::string()
                                 : " on this board of " + std::to_string(board) + " pits a side") +
                     ", this one has " + std::to_string(n));
    Counts pits(n);
    for (Py_ssize_t k = 0; k < n; ++k) {
        py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(o, k));
        if (!item) throw py::error_already_set();
        // True and False are ints to Python, but no count of seeds.
        if (PyFloat_Check(item.ptr()) || PyBool_Check(item.ptr()) || !PyIndex_Check(item.ptr()))
            invalid_given(obj, "pit " + std::to_string(k) + " is " +
                                   py::repr(item).cast<std::string>() + ", not an integer");
        py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
        if (!index) throw py::error_already_set();
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
        if (overflow < 0 || (!overflow && v < 0))
            invalid_given(obj, "pit " + std::to_string(k) + " holds " +
                                   py::str(index).cast<std::string>() + " seeds, a negative count");
        if (overflow > 0 || v > 48)
            invalid_given(obj, "pit " + std::to_string(k) + " holds " +
                                   py::str(index).cast<std::string>() + " seeds, more than 48");
        pits[k] = static_cast<uint8_t>(v);
    }
    return pits;
}

// A count given as an argument (seeds, pits a side): an int, but not a bool, which Python
// would take as 0 or 1.
int count_argument(py::handle obj, const char* name) {
    if (PyBool_Check(obj.ptr()))
        throw py::type_error(std::string(name) + " must be an integer, not " +
                             py::repr(obj).cast<std::string>());
    return obj.cast<int>();
}

template <class T>
T unwrap(const Tablebase& tb, const ProbeResult<T>& r, const Counts& pits,
         LevelFiles files = LevelFiles::Values) {
    if (!r) throw with_context(tb, ProbeFailure(r.status(), r.message(), pits), files);
    return r.value();
}

// A Tablebase as Python holds it: close() (or leaving a `with` block) lets go of it, and
// every query after that raises ValueError, as a closed file does. A query takes its own
// reference before it releases the GIL, so a close() from another thread meanwhile only
// ends the Tablebase (its files and cache) once that query is done.
class PyTablebase {
  public:
    explicit PyTablebase(std::shared_ptr<const Tablebase> tb)
        : tb_(std::move(tb)), directory_(tb_->directory().string()), rules_(tb_->rules()),
          pits_per_side_(tb_->pits_per_side()) {}
    std::shared_ptr<const Tablebase> get() const {
        if (!tb_) throw py::value_error("the Tablebase is closed");
        return tb_;
    }
    void close() { tb_.reset(); }
    bool closed() const { return !tb_; }
    const std::string& directory() const { return directory_; }
    const std::string& rules() const { return rules_; }
    int pits_per_side() const { return pits_per_side_; }

  private:
    std::shared_ptr<const Tablebase> tb_;
    std::string directory_, rules_;
    int pits_per_side_;
};

// ---- values(): an (N, 2P) integer array in, an int8 array out ----

// An (N, width) array of integers with any strides (in bytes: s0 between rows, s1 between
// pits).
struct StridedRows {
    const char* data;
    py::ssize_t s0, s1;
    int width;
};

// The pit and count that made a row malformed.
struct BadCount {
    int pit = 0;
    std::string count; ///< exactly as stored, e.g. 2**63 of a uint64 array
};

// Reads row r of `rows`, of integer type T, into out[0, width); false if a count is
// negative or above 48 (then `bad` says which).
template <class T>
bool load_row(const StridedRows& rows, std::size_t r, uint8_t* out, BadCount& bad) {
    const char* row = rows.data + static_cast<py::ssize_t>(r) * rows.s0;
    for (int k = 0; k < rows.width; ++k) {
        T v;
        std::memcpy(&v, row + k * rows.s1, sizeof v);
        bool out_of_range = v > T(48);
        if constexpr (std::is_signed_v<T>) out_of_range = out_of_range || v < T(0);
        if (out_of_range) {
            bad = {k, std::to_string(v)};
            return false;
        }
        out[k] = static_cast<uint8_t>(v);
    }
    return true;
}

using RowLoader = bool (*)(const StridedRows&, std::size_t, uint8_t*, BadCount&);

RowLoader loader_for(char kind, py::ssize_t itemsize) {
    if (kind == 'i') switch (itemsize) {
        case 1:
            return load_row<int8_t>;
        case 2:
            return load_row<int16_t>;
        case 4:
            return load_row<int32_t>;
        case 8:
            return load_row<int64_t>;
        }
    if (kind == 'u') switch (itemsize) {
        case 1:
            return load_row<uint8_t>;
        case 2:
            return load_row<uint16_t>;
        case 4:
            return load_row<uint32_t>;
        case 8:
            return load_row<uint64_t>;
        }
    return nullptr;
}

struct BatchError {
    std::size_t index = 0;
    ProbeStatus status = ProbeStatus::Ok;
    std::string message;
    std::optional<Counts> position; ///< none for a malformed row
};

// One worker's share of a batch: rows [begin, end). Runs without the GIL.
struct BatchJob {
    const Tablebase* tb;
    const char* data;
    py::ssize_t s0, s1;
    RowLoader loader; ///< nullptr: the rows are read in place (C-contiguous uint8)
    int width;        ///< pit counts a row: 2P
    int8_t* values;
    uint8_t* status; ///< nullptr: stop at the first error (errors="raise")
    std::size_t begin, end;
    std::optional<BatchError> first_error;

    void run() {
        constexpr std::size_t kChunk = 4096;
        const std::size_t w = static_cast<std::size_t>(width);
        std::vector<uint8_t> pits(loader ? kChunk * w : 0);
        std::vector<char> malformed(kChunk);
        std::vector<ProbeResult<int>> results(kChunk, ProbeResult<int>(0));
        for (std::size_t at = begin; at < end; at += kChunk) {
            const std::size_t n = std::min(kChunk, end - at);
            const uint8_t* in;
            bool any_malformed = false;
            BadCount bad;
            const StridedRows rows{data, s0, s1, width};
            if (loader) {
                for (std::size_t i = 0; i < n; ++i) {
                    uint8_t* row = pits.data() + w * i;
                    malformed[i] = !loader(rows, at + i, row, bad);
                    if (malformed[i]) {
                        // A stand-in the library refuses without I/O: 49 seeds.
                        std::fill(row, row + w, uint8_t(0));
                        row[0] = 48;
                        row[1] = 1;
                        any_malformed = true;
                    }
                }
                in = pits.data();
            } else {
                in = reinterpret_cast<const uint8_t*>(data) + w * at;
            }
            std::span<ProbeResult<int>> out(results.data(), n);
            if (width == int(sizeof(Pits))) // the standard board: its batch of Pits, as always
                tb->values(std::span<const Pits>(reinterpret_cast<const Pits*>(in), n), out);
            else
                tb->values(std::span<const uint8_t>(in, w * n), out);
            for (std::size_t i = 0; i < n; ++i) {
                const ProbeResult<int>& r = out[i];
                if (r.ok() && !(any_malformed && malformed[i])) {
                    values[at + i] = static_cast<int8_t>(r.value());
                    if (status) status[at + i] = 0;
                    continue;
                }
                values[at + i] = 0;
                ProbeStatus s = r.status();
                if (any_malformed && malformed[i]) s = ProbeStatus::InvalidPosition;
                if (status) {
                    status[at + i] = static_cast<uint8_t>(s);
                    continue;
                }
                BatchError e;
                e.index = at + i;
                e.status = s;
                if (any_malformed && malformed[i]) {
                    // Re-read the row for the message (the loader stops at the first bad pit).
                    std::vector<uint8_t> scratch(w);
                    loader(rows, at + i, scratch.data(), bad);
                    e.message = "pit " + std::to_string(bad.pit) + " holds " + bad.count +
                                " seeds, " +
                                (bad.count.starts_with('-') ? "a negative count" : "more than 48");
                } else {
                    e.position = Counts(in + w * i, in + w * (i + 1));
                    e.message = r.message();
                }
                first_error = std::move(e);
                return;
            }
        }
    }
};

py::object batch_values(const Tablebase& tb, py::object positions, const std::string& errors,
                        int threads) {
    bool want_status = false;
    if (errors == "status")
        want_status = true;
    else if (errors != "raise")
        throw py::value_error("errors must be 'raise' or 'status', not '" + errors + "'");
    if (threads < 0) throw py::value_error("threads must be >= 0 (0: one per core)");
    py::module_ np = py::module_::import("numpy");
    py::array arr = py::isinstance<py::array>(positions)
                        ? py::reinterpret_borrow<py::array>(positions)
                        : py::array(np.attr("asarray")(positions));
    const int width = 2 * tb.pits_per_side();
    if (arr.ndim() != 2 || arr.shape(1) != width) {
        std::string shape = py::str(py::tuple(arr.attr("shape"))).cast<std::string>();
        throw py::value_error("values() takes an (N, " + std::to_string(width) +
                              ") array of pit counts, not shape " + shape);
    }
    const char kind = arr.dtype().kind();
    if (kind != 'i' && kind != 'u')
        throw py::type_error("values() takes an integer array, not dtype " +
                             py::str(arr.dtype()).cast<std::string>());
    if (!arr.dtype().attr("isnative").cast<bool>())
        arr = py::array(arr.attr("astype")(arr.dtype().attr("newbyteorder")("=")));

    const std::size_t n = static_cast<std::size_t>(arr.shape(0));
    py::array_t<int8_t> values(static_cast<py::ssize_t>(n));
    py::array_t<uint8_t> status;
    if (want_status) status = py::array_t<uint8_t>(static_cast<py::ssize_t>(n));

    const bool in_place = kind == 'u' && arr.itemsize() == 1 && arr.strides(1) == 1 &&
                          (n <= 1 || arr.strides(0) == width);
    RowLoader loader = in_place ? nullptr : loader_for(kind, arr.itemsize());
    if (!in_place && !loader)
        throw py::type_error("values() takes an integer array of 1, 2, 4 or 8 bytes");

    std::size_t workers = threads == 0 ? std::max(1u, std::thread::hardware_concurrency())
                                       : static_cast<std::size_t>(threads);
    workers = std::max<std::size_t>(1, std::min(workers, n / 4096));
    std::vector<BatchJob> jobs;
    for (std::size_t w = 0; w < workers; ++w)
        jobs.push_back(BatchJob{&tb, static_cast<const char*>(arr.data()), arr.strides(0),
                                arr.strides(1), loader, width, values.mutable_data(),
                                want_status ? status.mutable_data() : nullptr, n * w / workers,
                                n * (w + 1) / workers, std::nullopt});
    std::exception_ptr failure; // std::bad_alloc, or a thread that could not start
    {
        py::gil_scoped_release release;
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> failures(workers);
        auto run = [&jobs, &failures](std::size_t w) {
            try {
                jobs[w].run();
            } catch (...) {
                failures[w] = std::current_exception();
            }
        };
        std::size_t started = 1;
        try {
            for (; started < workers; ++started) pool.emplace_back(run, started);
        } catch (...) { // fewer threads: this one does the rest
        }
        run(0);
        for (std::size_t w = started; w < workers; ++w) run(w);
        for (auto& t : pool) t.join();
        for (auto& f : failures)
            if (f && !failure) failure = f;
    }
    if (failure) std::rethrow_exception(failure);
    for (const BatchJob& job : jobs) // in order: the first error has the lowest index
        if (job.first_error) {
            const BatchError& e = *job.first_error;
            std::string where = "position " + std::to_string(e.index);
            if (e.position) where += " (" + position_text(*e.position) + ")";
            throw with_context(
                tb, ProbeFailure(e.status, where + ": " + e.message, e.position, e.index));
        }
    if (want_status) return py::make_tuple(values, status);
    return values;
}

// ---- the module ----

PyObject* new_exception(py::module_& m, const char* name, const char* doc, PyObject* bases) {
    std::string qualified = std::string("owaredb.") + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
    if (!cls) throw py::error_already_set();
    m.add_object(name, py::handle(cls)); // the module takes a reference, g_exceptions keeps one
    return cls;
}

std::string repr_move(const BoardMoveInfo& mv) {
    return "Move(pit=" + std::to_string(mv.pit) + ", captured=" + std::to_string(mv.captured) +
           ", value=" + std::to_string(mv.value) + ", child=" + pits_repr(mv.child) + ")";
}

// ---- the game model: owaredb/game.hpp, with no database ----

// The board of a position as Python gives it, before its counts are read: half the number
// of its items (a string's words), so that to_pits names a count that is no board's.
int board_of(py::handle obj) {
    if (py::isinstance<PyPosition>(obj)) return obj.cast<const PyPosition&>().pits_per_side();
    if (PyUnicode_Check(obj.ptr())) return int(words_of(obj).size() + 1) / 2;
    const Py_ssize_t n = PySequence_Check(obj.ptr()) ? PySequence_Size(obj.ptr()) : 0;
    if (n < 0) throw py::error_already_set();
    return int(std::clamp<Py_ssize_t>((n + 1) / 2, 1, 8));
}

// The library's answer for a position, or its error raised.
GameState state_of(const std::string& rules, const Counts& pits) {
    ProbeResult<GameState> r = game_state(rules, pits);
    if (!r) throw ProbeFailure(r.status(), r.message(), pits);
    return *r;
}

PyPosition::PyPosition(Counts pits, std::string rules)
    : pits_(std::move(pits)), rules_(std::move(rules)), state_(state_of(rules_, pits_)) {}

const GameMove& PyPosition::move(int pit) const {
    for (const GameMove& m : state_.moves)
        if (m.pit == pit) return m;
    std::string legal;
    for (const GameMove& m : state_.moves)
        legal += (legal.empty() ? "" : ", ") + std::to_string(m.pit);
    const std::string why = state_.moves.empty()
                                ? std::string("the game is over (") + to_string(state_.end) + ")"
                                : "legal: " + legal;
    illegal_move("pit " + std::to_string(pit) + " is not a legal move in " + position_text(pits_) +
                 ": " + why);
}

// A game's history: the positions from its start, the moves and their captures, for its
// score and its repetitions.
class PyGame {
  public:
    explicit PyGame(PyPosition start) : positions_{std::move(start)} {}
    const PyPosition& position() const { return positions_.back(); }
    int turn() const { return int(moves_.size() % 2); }
    int play(int pit) {
        if (repetition()) illegal_move("the game is over (repetition)");
        const GameMove& m = position().move(pit);
        const int captured = m.captured;
        PyPosition child(m.child, position().rules());
        stores_[turn()] += captured;
        captures_.push_back(captured);
        moves_.push_back(pit);
        positions_.push_back(std::move(child));
        return captured;
    }
    int undo() {
        if (moves_.empty()) throw py::index_error("undo() at the start of the game");
        positions_.pop_back();
        const int pit = moves_.back();
        moves_.pop_back();
        stores_[turn()] -= captures_.back();
        captures_.pop_back();
        return pit;
    }
    /// Whether the position to move from was seen before with the same side to move: play
    /// goes round, which ends the game (docs/rules.md, Endless play).
    bool repetition() const {
        for (std::size_t i = positions_.size() - 1; i >= 2; i -= 2)
            if (positions_[i - 2].pits() == position().pits()) return true;
        return false;
    }
    std::optional<std::string> game_over() const {
        if (repetition()) return std::string("repetition");
        if (position().state().moves.empty()) return std::string(to_string(position().state().end));
        return std::nullopt;
    }
    /// The seeds each side ends with, South (the first to move) first: the stores, and the
    /// seeds left as the ending gives them; an even split of them after a repetition.
    py::tuple final_score() const {
        if (!game_over()) throw py::value_error("final_score(): the game is not over");
        const int left = position().state().seeds;
        const int mover_extra = repetition() ? 0 : position().state().final_value;
        double share[2];
        share[turn()] = stores_[turn()] + (left + mover_extra) / 2.0;
        share[1 - turn()] = stores_[1 - turn()] + (left - mover_extra) / 2.0;
        return py::make_tuple(share[0], share[1]);
    }
    const std::vector<PyPosition>& positions() const { return positions_; }
    const std::vector<int>& moves() const { return moves_; }
    py::tuple stores() const { return py::make_tuple(stores_[0], stores_[1]); }

  private:
    std::vector<PyPosition> positions_;
    std::vector<int> moves_, captures_;
    int stores_[2] = {0, 0};
};

// A Position from Python's arguments: a position (Position, sequence, text) and a rule set.
PyPosition make_position(py::object position, const std::string& rules) {
    if (py::isinstance<PyPosition>(position))
        return PyPosition(position.cast<const PyPosition&>().pits(), rules);
    return PyPosition(to_pits(position, board_of(position)), rules);
}

PyPosition start_position(py::object seeds_per_pit, py::object pits_per_side,
                          const std::string& rules) {
    const int k = count_argument(seeds_per_pit, "seeds_per_pit");
    const int p = count_argument(pits_per_side, "pits_per_side");
    if (k < 0 || k > 48)
        throw py::value_error("seeds_per_pit must be 0..48, not " + std::to_string(k));
    if (p < 1 || p > 8)
        throw py::value_error("pits_per_side must be 1..8, not " + std::to_string(p));
    return PyPosition(Counts(2 * p, uint8_t(k)), rules);
}

std::string repr_position(const PyPosition& p) {
    return "owaredb.Position('" + position_text(p.pits()) + "', '" + p.rules() + "')";
}

void bind_game_move(py::module_& m) {
    py::class_<GameMove>(m, "GameMove", "A legal move of a Position and what it captures.")
        .def_readonly("pit", &GameMove::pit, "1..P, from the mover's left")
        .def_readonly("captured", &GameMove::captured, "seeds this move captures")
        .def_property_readonly(
            "child", [](const GameMove& mv) { return pits_tuple(mv.child); },
            "the position after the move, opponent to move (rotated)")
        .def("__repr__", [](const GameMove& mv) {
            return "GameMove(pit=" + std::to_string(mv.pit) +
                   ", captured=" + std::to_string(mv.captured) + ", child=" + pits_repr(mv.child) +
                   ")";
        });
}

void bind_position(py::module_& m) {
    py::class_<PyPosition>(m, "Position", R"(A position under a rule set, with no database.

Position(position, rules="abapa"): position is 2P pit counts (a sequence, a Position, or
the text "4 4 4 4 4 4 4 4 4 4 4 4"), pits 0..P-1 the side to move's, on a board of P = 1..8
pits a side. Position.start(seeds_per_pit=4, pits_per_side=6, rules="abapa") is a game's
start. The rules are the library's (owaredb/game.hpp, the databases' own), never a copy in
Python. A Position is immutable and hashable; a Tablebase takes it as a position (its pit
counts, valued under the Tablebase's own rule set).)")
        .def(py::init(&make_position), py::arg("position"), py::arg("rules") = "abapa")
        .def_static("start", &start_position, py::arg("seeds_per_pit") = 4,
                    py::arg("pits_per_side") = 6, py::arg("rules") = "abapa",
                    "The start position: seeds_per_pit seeds in every pit.")
        .def_property_readonly("pits", [](const PyPosition& p) { return pits_tuple(p.pits()); })
        .def_property_readonly("rules", &PyPosition::rules)
        .def_property_readonly("pits_per_side", &PyPosition::pits_per_side)
        .def_property_readonly("seeds", [](const PyPosition& p) { return p.state().seeds; })
        .def_property_readonly(
            "moves", [](const PyPosition& p) { return p.state().moves; },
            "every legal move (GameMove), in pit order; empty when the game is over")
        .def_property_readonly(
            "legal_moves",
            [](const PyPosition& p) {
                std::vector<int> pits;
                for (const GameMove& mv : p.state().moves) pits.push_back(mv.pit);
                return pits;
            },
            "the pits (1..P) of the legal moves")
        .def(
            "captures", [](const PyPosition& p, int pit) { return p.move(pit).captured; },
            py::arg("pit"), "Seeds the move from pit (1..P) captures; IllegalMove if none.")
        .def(
            "play",
            [](const PyPosition& p, int pit) { return PyPosition(p.move(pit).child, p.rules()); },
            py::arg("pit"),
            "The position after the move from pit (1..P), opponent to move; IllegalMove if it "
            "is not legal.")
        .def("is_game_over", [](const PyPosition& p) { return p.state().moves.empty(); })
        .def_property_readonly(
            "game_over",
            [](const PyPosition& p) -> std::optional<std::string> {
                if (!p.state().moves.empty()) return std::nullopt;
                return std::string(to_string(p.state().end));
            },
            "None while a move is legal, else why not: 'the side to move has no seeds' (the "
            "opponent takes the seeds left) or 'no move feeds the opponent' (the mover does)")
        .def_property_readonly(
            "final_value",
            [](const PyPosition& p) -> std::optional<int> {
                if (!p.state().moves.empty()) return std::nullopt;
                return p.state().final_value;
            },
            "when the game is over, what the mover gets of the seeds left minus what the "
            "opponent gets (+seeds or -seeds, the Tablebase's value); else None")
        .def("__len__", [](const PyPosition& p) { return p.pits().size(); })
        .def("__getitem__",
             [](const PyPosition& p, py::ssize_t i) {
                 const py::ssize_t n = py::ssize_t(p.pits().size());
                 if (i < 0) i += n;
                 if (i < 0 || i >= n) throw py::index_error("pit index out of range");
                 return int(p.pits()[std::size_t(i)]);
             })
        .def("__eq__",
             [](const PyPosition& a, py::object b) {
                 return py::isinstance<PyPosition>(b) &&
                        a.pits() == b.cast<const PyPosition&>().pits() &&
                        a.rules() == b.cast<const PyPosition&>().rules();
             })
        .def("__hash__",
             [](const PyPosition& p) {
                 return py::hash(py::make_tuple(pits_tuple(p.pits()), p.rules()));
             })
        .def("__str__", [](const PyPosition& p) { return position_text(p.pits()); })
        .def("__repr__", repr_position);
}

void bind_game(py::module_& m) {
    py::class_<PyGame>(m, "Game", R"(A game from its start: the moves, the seeds each side has
captured (its store), and the repetition that ends it.

Game(position=None, rules="abapa", seeds_per_pit=4, pits_per_side=6): from position (South,
the first player, to move), or by default from the start of seeds_per_pit a pit. The game is
over when the side to move has no legal move, or at the first repetition: a position seen
before with the same side to move. Both rule sets count play that goes round for ever as an
even split of the seeds left (docs/rules.md, Endless play; a Tablebase's value 0, and where
its principal variations stop), so final_score() then gives each side half of them.)")
        .def(py::init([](py::object position, const std::string& rules, py::object seeds_per_pit,
                         py::object pits_per_side) {
                 return PyGame(position.is_none()
                                   ? start_position(seeds_per_pit, pits_per_side, rules)
                                   : make_position(position, rules));
             }),
             py::arg("position") = py::none(), py::arg("rules") = "abapa",
             py::arg("seeds_per_pit") = 4, py::arg("pits_per_side") = 6)
        .def_property_readonly("position", &PyGame::position, "the Position to move from")
        .def_property_readonly("turn", &PyGame::turn,
                               "who is to move: 0 South (who moved first), 1 North")
        .def_property_readonly("stores", &PyGame::stores,
                               "the seeds captured so far, (South, North)")
        .def_property_readonly("moves", &PyGame::moves, "the pits played, 1..P")
        .def_property_readonly("positions", &PyGame::positions,
                               "every Position of the game, the start first")
        .def("play", &PyGame::play, py::arg("pit"),
             "Plays the move from pit (1..P) and returns what it captured; IllegalMove if it "
             "is not legal or the game is over.")
        .def("undo", &PyGame::undo, "Takes the last move back and returns its pit.")
        .def("is_repetition", &PyGame::repetition,
             "Whether the position to move from was seen before with the same side to move.")
        .def("is_game_over", [](const PyGame& g) { return g.game_over().has_value(); })
        .def_property_readonly("game_over", &PyGame::game_over,
                               "None while the game goes on, else why it ended: 'repetition' "
                               "or the Position's game_over")
        .def("final_score", &PyGame::final_score,
             "When the game is over: the seeds each side ends with, (South, North), as floats "
             "(a repetition splits the seeds left evenly; halves are possible).")
        .def("__repr__", [](const PyGame& g) {
            std::string moves;
            for (int pit : g.moves()) moves += (moves.empty() ? "" : ", ") + std::to_string(pit);
            return "owaredb.Game(moves=[" + moves + "], position=" + repr_position(g.position()) +
                   ")";
        });
}

// ---- search(): the search above the levels built (owaredb/search.hpp) ----

// Tablebase.search's node budget: a positive integer below 2**63.
uint64_t search_nodes(py::handle nodes) {
    if (PyBool_Check(nodes.ptr()) || !PyIndex_Check(nodes.ptr()))
        throw py::type_error("nodes must be an integer, not " +
                             py::repr(nodes).cast<std::string>());
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(nodes.ptr()));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow || v <= 0)
        throw py::value_error("nodes must be a positive number of positions (below 2**63), not " +
                              py::str(index).cast<std::string>());
    return uint64_t(v);
}

// Tablebase.search's time budget: a positive finite number of seconds.
double search_seconds(py::handle seconds) {
    if (PyBool_Check(seconds.ptr()) || !PyNumber_Check(seconds.ptr()))
        throw py::type_error("seconds must be a number, not " +
                             py::repr(seconds).cast<std::string>());
    const double v = PyFloat_AsDouble(seconds.ptr());
    if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    if (!(v > 0) || !std::isfinite(v))
        throw py::value_error("seconds must be a positive, finite number, not " +
                              py::repr(seconds).cast<std::string>());
    return v;
}

// The options of Tablebase.search from its arguments: at least one budget, each refused
// by name when it is none.
SearchOptions search_options(py::handle seconds, py::handle nodes, py::handle max_depth) {
    if (seconds.is_none() && nodes.is_none())
        throw py::value_error("search() needs a budget: seconds=, nodes= or both (nodes "
                              "alone gives the same answer on every run)");
    SearchOptions o;
    o.max_nodes = nodes.is_none() ? 0 : search_nodes(nodes);
    o.max_seconds = seconds.is_none() ? 0 : search_seconds(seconds);
    o.max_depth = count_argument(max_depth, "max_depth"); // 1..100: the library says so
    return o;
}

std::string repr_search_move(const SearchMove& mv) {
    return "SearchMove(move=" + std::to_string(mv.pit) +
           ", captured=" + std::to_string(mv.captured) + ", value=" + std::to_string(mv.value) +
           ", bound='" + (mv.exact ? "exact" : "at_most") +
           "', proven=" + (mv.proven ? "True" : "False") + ")";
}

// The answer's classes, named as the members of `probe --search --json`'s "search".
void bind_search_result(py::module_& m) {
    py::class_<SearchMove>(m, "SearchMove", "What a search says of one legal move.")
        .def_readonly("move", &SearchMove::pit, "1..P, from the mover's left")
        .def_readonly("captured", &SearchMove::captured, "seeds the move captures")
        .def_readonly("value", &SearchMove::value, "captured - the child's score")
        .def_property_readonly(
            "bound", [](const SearchMove& mv) { return mv.exact ? "exact" : "at_most"; },
            "'exact': the tree's value of the move; 'at_most': not the best, no more is known")
        .def_readonly("proven", &SearchMove::proven,
                      "that value (or bound) holds under perfect play")
        .def("__repr__", repr_search_move);
    py::class_<SearchResult>(m, "SearchResult", R"(The answer of Tablebase.search.

kind is 'proven' (every line that decided it ends in the databases or at the game's end: the
value under perfect play, move a best move) or 'estimate' (the value of the depth-limited
tree, captures within the horizon: a search estimate, never a database value).)")
        .def_property_readonly(
            "kind", [](const SearchResult& r) { return r.proven ? "proven" : "estimate"; })
        .def_property_readonly(
            "move",
            [](const SearchResult& r) -> std::optional<int> {
                if (!r.best_move) return std::nullopt;
                return r.best_move;
            },
            "the best move found, 1..P; None when the game is over")
        .def_readonly("value", &SearchResult::value,
                      "for the side to move, on the databases' scale")
        .def_readonly("depth", &SearchResult::depth, "plies of the last completed iteration")
        .def_readonly("nodes", &SearchResult::nodes, "positions visited")
        .def_readonly("seconds", &SearchResult::seconds, "wall-clock time taken")
        .def_readonly("pv", &SearchResult::pv, "the expected line: pits 1..P, the move first")
        .def_readonly("moves", &SearchResult::moves, "every legal move (SearchMove), pit order")
        .def("__repr__", [](const SearchResult& r) {
            std::string moves;
            for (const SearchMove& mv : r.moves)
                moves += (moves.empty() ? "" : ", ") + repr_search_move(mv);
            return std::string("SearchResult(kind='") + (r.proven ? "proven" : "estimate") +
                   "', move=" + (r.best_move ? std::to_string(r.best_move) : "None") +
                   ", value=" + std::to_string(r.value) + ", depth=" + std::to_string(r.depth) +
                   ", nodes=" + std::to_string(r.nodes) + ", moves=[" + moves + "])";
        });
}

// Tablebase.search: the search of owaredb/search.hpp, the GIL released while it runs.
void bind_search(py::module_& m) {
    bind_search_result(m);
    auto tablebase = py::reinterpret_borrow<py::class_<PyTablebase>>(m.attr("Tablebase"));
    tablebase.def(
        "search",
        [](const PyTablebase& self, py::object position, py::object seconds, py::object nodes,
           py::object max_depth) {
            const std::shared_ptr<const Tablebase> tb = self.get();
            const Counts pits = to_pits(position, self.pits_per_side());
            const SearchOptions options = search_options(seconds, nodes, max_depth);
            std::optional<ProbeResult<SearchResult>> r;
            {
                py::gil_scoped_release release;
                r.emplace(owaredb::search(*tb, std::span<const uint8_t>(pits), options));
            }
            return unwrap(*tb, *r, pits);
        },
        py::arg("position"), py::kw_only(), py::arg("seconds") = py::none(),
        py::arg("nodes") = py::none(), py::arg("max_depth") = SearchOptions::kMaxDepth,
        R"(A best move and a score for any position, above the levels built too: the search of
`owaredb probe --search` (owaredb/search.hpp), iterative-deepening alpha-beta whose leaves
are the databases' values and the game's end, with a transposition table (16 MiB).

The budget is seconds=, nodes= (positions visited) or both, at least one (ValueError
otherwise, as for one that is not positive); nodes alone gives the same answer on every run
and machine. max_depth: plies at most, 1..100. Returns a SearchResult whose kind says
whether its value is proven or a search estimate. The GIL is released while it searches.)");
}

} // namespace

PYBIND11_MODULE(owaredb, m) {
    m.doc() = R"(Perfect-play values of Oware/Awari positions from owaredb databases, and the
game itself without them.

    pos = owaredb.Position.start()      # or Position("4 4 ...", "awari"): no database needed
    pos.legal_moves, pos.moves          # pits 1..6; GameMove(pit, captured, child)
    pos.captures(3), pos.play(3)        # what a move captures; the position after it
    pos.game_over, pos.final_value      # None, or why no move is legal and the final split
    game = owaredb.Game()               # a game's history: game.play(3) -> seeds captured,
    game.stores, game.is_repetition()   # the score so far, a position seen before,
    game.game_over, game.final_score()  # 'repetition' or the position's ending; the result

    tb = owaredb.Tablebase("owaredb-data")  # the rule set of the files there, as the CLI
    tb.value(pos, default=None)         # None where the databases do not hold it
    tb.value([0, 0, 1, 0, 2, 0, 1, 1, 0, 0, 0, 0])   # value for the side to move
    tb.value("0 0 1 0 2 0 1 1 0 0 0 0")             # the same, as the command line writes it
    tb.available_levels()               # the seed counts whose level files open
    tb.value([4] * 12)                  # the start position: needs level 48
    tb.analyse(pos)                     # value, every move with its value, best moves
    tb.pv(pos)                          # a line of perfect play to the end of the game
    tb.values(array)                    # (N, 12) integer array -> int8 array, GIL released
    tb.bounds(pos), tb.analyse_bounds(pos)  # gM, gN from the bound files (generate --bounds)
    tb.search(pos, nodes=100000)        # a search, above the levels built too: .kind 'proven'
                                        # or 'estimate' (never a database value), .move, .value
    tb.close()                          # or: with owaredb.Tablebase(...) as tb: ...
    owaredb.__version__                 # the library's version, e.g. "0.2.0"

Positions are 12 pit counts, pits 0..5 for the side to move, in sowing order (2P counts,
pits 0..P-1 the mover's, on a board of P pits a side: Tablebase(..., pits_per_side=P), by
default the board of the directory's files). Values are
(seeds the side to move will still capture) - (seeds the opponent will), endless play 0.
Errors raise subclasses of owaredb.Error (NotAvailable, Corrupt, IoError, InvalidPosition,
InvalidRules); InvalidPosition and InvalidRules are also ValueErrors. An error carries the
fields of the CLI's and the HTTP API's error object: .code ("not_available", ...), .position,
.rules, and for NotAvailable .missing_levels, .generate (the command that builds them) and
.moves (the legal moves with their captures, valued where a capture reaches a built level).
A move that is not legal raises owaredb.IllegalMove, a ValueError.)";
    // The version of the libowaredb.so loaded (owaredb::version()); the module is built in
    // the same tree as the library, so it is the module's version too.
    m.attr("__version__") = owaredb::version();
    // Tablebase.value's `default` when none is given; shown as "<raise>" in help().
    struct Raise {};
    py::class_<Raise>(m, "_Raise").def("__repr__", [](const Raise&) { return "<raise>"; });
    g_raise = py::cast(Raise{}).release().ptr();
    m.attr("_RAISE") = py::handle(g_raise);

    // Status: the library's ProbeStatus as an IntEnum (the codes of values(errors="status")).
    py::module_ enum_module = py::module_::import("enum");
    py::list members;
    const std::pair<const char*, ProbeStatus> names[] = {
        {"OK", ProbeStatus::Ok},
        {"NOT_AVAILABLE", ProbeStatus::NotAvailable},
        {"INVALID_POSITION", ProbeStatus::InvalidPosition},
        {"INVALID_RULES", ProbeStatus::InvalidRules},
        {"CORRUPT", ProbeStatus::Corrupt},
        {"IO_ERROR", ProbeStatus::IoError}};
    for (const auto& [name, code] : names)
        members.append(py::make_tuple(name, static_cast<int>(code)));
    py::object status_enum = enum_module.attr("IntEnum")("Status", members);
    status_enum.attr("__module__") = "owaredb";
    status_enum.attr("__doc__") = "Status codes of owaredb queries (values(errors='status')).";
    m.attr("Status") = status_enum;

    py::tuple exception_base = py::make_tuple(py::handle(PyExc_Exception));
    PyObject* error = new_exception(m, "Error",
                                    "Base class of every owaredb query error: the fields of the "
                                    "error object of the CLI and the HTTP API (README, Errors). "
                                    "`status` is its owaredb.Status, `code` its word "
                                    "('not_available', ...), `position` the position (a tuple), "
                                    "`rules`, `index` the row of a values() batch, when known; "
                                    "for NotAvailable `missing_levels`, `generate`, the "
                                    "command that builds them, and `moves`, the legal moves "
                                    "as dicts {'move', 'captured', 'value'}, 'value' only "
                                    "where the child's level is there.",
                                    exception_base.ptr());
    g_exceptions[0] = error;
    auto sub = [&](ProbeStatus s, const char* name, const char* doc, PyObject* extra) {
        py::tuple bases = extra ? py::make_tuple(py::handle(error), py::handle(extra))
                                : py::make_tuple(py::handle(error));
        PyObject* cls = new_exception(m, name, doc, bases.ptr());
        g_exceptions[static_cast<int>(s)] = cls;
        py::handle(cls).attr("status") = status_enum(static_cast<int>(s));
    };
    sub(ProbeStatus::NotAvailable, "NotAvailable",
        "The level file a query needs does not exist (generate it).", nullptr);
    sub(ProbeStatus::InvalidPosition, "InvalidPosition",
        "Not a position: not 12 pits (2P on a board of P pits a side), a count that is not an "
        "integer or negative, or more than 48 seeds; or a board that is none. Also a "
        "ValueError.",
        PyExc_ValueError);
    sub(ProbeStatus::InvalidRules, "InvalidRules", "Unknown rule-set name. Also a ValueError.",
        PyExc_ValueError);
    sub(ProbeStatus::Corrupt, "Corrupt",
        "A level file is damaged, truncated, or not the level it claims; the message names "
        "the file and block.",
        nullptr);
    sub(ProbeStatus::IoError, "IoError",
        "The operating system refused to read a level file. Also an OSError.", PyExc_OSError);
    py::handle(error).attr("status") = py::none();
    for (PyObject* cls : g_exceptions)
        for (const char* name :
             {"position", "index", "rules", "missing_levels", "generate", "moves"})
            py::handle(cls).attr(name) = py::none();
    for (int k = 1; k < kStatusCount; ++k)
        py::handle(g_exceptions[k]).attr("code") = status_code(static_cast<ProbeStatus>(k));
    py::tuple value_error = py::make_tuple(py::handle(PyExc_ValueError));
    g_illegal_move =
        new_exception(m, "IllegalMove",
                      "A move that is not legal in the position (Position.play, Game.play), "
                      "or any move once the game is over. A ValueError, not a query error.",
                      value_error.ptr());
    bind_game_move(m);
    bind_position(m);
    bind_game(m);
    py::handle(error).attr("code") = py::none();

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ProbeFailure& f) {
            int s = static_cast<int>(f.status);
            PyObject* cls = g_exceptions[s > 0 && s < kStatusCount ? s : 0];
            py::object e = py::reinterpret_borrow<py::object>(cls)(f.message);
            if (f.position) e.attr("position") = pits_tuple(*f.position);
            if (f.index) e.attr("index") = py::int_(*f.index);
            e.attr("code") = status_code(f.status);
            if (!f.rules.empty()) e.attr("rules") = f.rules;
            if (f.missing_levels) {
                e.attr("missing_levels") = py::cast(*f.missing_levels);
                e.attr("generate") = f.generate;
                py::list moves;
                for (const auto& [pit, captured, value] : f.moves) {
                    py::dict mv;
                    mv["move"] = pit;
                    mv["captured"] = captured;
                    if (value) mv["value"] = *value;
                    moves.append(mv);
                }
                e.attr("moves") = moves;
            }
            PyErr_SetObject(cls, e.ptr());
        }
    });

    py::class_<BoardMoveInfo>(m, "Move",
                              "One legal move and what it is worth to the side playing it.")
        .def_readonly("pit", &BoardMoveInfo::pit,
                      "1..P (1..6 on the standard board), from the mover's left")
        .def_readonly("captured", &BoardMoveInfo::captured, "seeds this move captures")
        .def_readonly("value", &BoardMoveInfo::value, "captured - value of the child for its mover")
        .def_property_readonly(
            "child", [](const BoardMoveInfo& mv) { return pits_tuple(mv.child); },
            "the position after the move, opponent to move (rotated)")
        .def("__repr__", repr_move);

    py::class_<BoardPositionInfo>(m, "Analysis",
                                  "Value, every legal move with its value, best moves.")
        .def_readonly("seeds", &BoardPositionInfo::seeds)
        .def_readonly("value", &BoardPositionInfo::value, "value for the side to move")
        .def_readonly("terminal", &BoardPositionInfo::terminal, "no legal move: the game is over")
        .def_readonly("moves", &BoardPositionInfo::moves, "every legal move (Move), in pit order")
        .def_readonly("best", &BoardPositionInfo::best, "pits (1..P) of the moves worth `value`")
        .def("__repr__", [](const BoardPositionInfo& a) {
            std::string s = "Analysis(seeds=" + std::to_string(a.seeds) +
                            ", value=" + std::to_string(a.value) +
                            ", terminal=" + (a.terminal ? "True" : "False") + ", moves=[";
            for (std::size_t i = 0; i < a.moves.size(); ++i)
                s += (i ? ", " : "") + repr_move(a.moves[i]);
            s += "], best=[";
            for (std::size_t i = 0; i < a.best.size(); ++i)
                s += (i ? ", " : "") + std::to_string(a.best[i]);
            return s + "])";
        });

    py::class_<BoardPvStep>(m, "PvStep", "One ply of a principal variation.")
        .def_property_readonly(
            "position", [](const BoardPvStep& s) { return pits_tuple(s.position); },
            "before the move, side to move first")
        .def_readonly("pit", &BoardPvStep::pit, "1..P")
        .def_readonly("captured", &BoardPvStep::captured)
        .def_readonly("value", &BoardPvStep::value, "value of `position` for its mover")
        .def("__repr__", [](const BoardPvStep& s) {
            return "PvStep(position=" + pits_repr(s.position) + ", pit=" + std::to_string(s.pit) +
                   ", captured=" + std::to_string(s.captured) +
                   ", value=" + std::to_string(s.value) + ")";
        });

    py::class_<BoardPrincipalVariation>(m, "PrincipalVariation",
                                        "A line of perfect play to the end of the game.")
        .def_readonly("steps", &BoardPrincipalVariation::steps, "the plies (BoardPvStep)")
        .def_property_readonly(
            "end", [](const BoardPrincipalVariation& pv) { return std::string(to_string(pv.end)); },
            "'game over', 'endless play', 'ply limit' or 'repetition'")
        .def_property_readonly(
            "final_position",
            [](const BoardPrincipalVariation& pv) { return pits_tuple(pv.final_position); })
        .def_readonly("final_value", &BoardPrincipalVariation::final_value,
                      "terminal value of final_position for its mover ('game over')")
        .def_property_readonly(
            "moves",
            [](const BoardPrincipalVariation& pv) {
                py::list l;
                for (const BoardPvStep& s : pv.steps) l.append(s.pit);
                return l;
            },
            "the pits played, 1..P")
        .def("__len__", [](const BoardPrincipalVariation& pv) { return pv.steps.size(); })
        .def("__repr__", [](const BoardPrincipalVariation& pv) {
            std::string s = "PrincipalVariation(moves=[";
            for (std::size_t i = 0; i < pv.steps.size(); ++i)
                s += (i ? ", " : "") + std::to_string(pv.steps[i].pit);
            return s + "], end='" + to_string(pv.end) +
                   "', final_position=" + pits_repr(pv.final_position) + ")";
        });

    py::class_<Bounds>(m, "Bounds",
                       "Convention-free bounds of a position (docs/values.md): gM, gN.")
        .def_readonly("seeds", &Bounds::seeds)
        .def_readonly("gM", &Bounds::gM,
                      "seeds the side to move can force by play that ends by itself")
        .def_readonly("gN", &Bounds::gN, "the same for its opponent")
        .def_readonly("exact", &Bounds::exact,
                      "gM + gN == seeds: the same division under every rule for endless play")
        .def("__repr__", [](const Bounds& b) {
            return "Bounds(seeds=" + std::to_string(b.seeds) + ", gM=" + std::to_string(b.gM) +
                   ", gN=" + std::to_string(b.gN) + ", exact=" + (b.exact ? "True" : "False") + ")";
        });

    py::class_<BoardMoveBounds>(m, "MoveBounds", "One legal move and the bounds it guarantees.")
        .def_readonly("pit", &BoardMoveBounds::pit,
                      "1..P (1..6 on the standard board), from the mover's left")
        .def_readonly("captured", &BoardMoveBounds::captured, "seeds this move captures")
        .def_readonly("gM", &BoardMoveBounds::gM, "what the mover can force after it")
        .def_readonly("gN", &BoardMoveBounds::gN, "what the opponent can force after it")
        .def_property_readonly(
            "child", [](const BoardMoveBounds& mv) { return pits_tuple(mv.child); },
            "the position after the move, opponent to move (rotated)")
        .def("__repr__", [](const BoardMoveBounds& mv) {
            return "MoveBounds(pit=" + std::to_string(mv.pit) +
                   ", captured=" + std::to_string(mv.captured) + ", gM=" + std::to_string(mv.gM) +
                   ", gN=" + std::to_string(mv.gN) + ", child=" + pits_repr(mv.child) + ")";
        });

    py::class_<BoardBoundsInfo>(m, "BoundsAnalysis", "The bounds of a position and of every move.")
        .def_readonly("bounds", &BoardBoundsInfo::bounds, "the position's Bounds")
        .def_readonly("terminal", &BoardBoundsInfo::terminal, "no legal move: the game is over")
        .def_readonly("moves", &BoardBoundsInfo::moves,
                      "every legal move (BoardMoveBounds), in pit order")
        .def("__repr__", [](const BoardBoundsInfo& b) {
            std::string s = "BoundsAnalysis(bounds=Bounds(seeds=" + std::to_string(b.bounds.seeds) +
                            ", gM=" + std::to_string(b.bounds.gM) +
                            ", gN=" + std::to_string(b.bounds.gN) +
                            "), terminal=" + (b.terminal ? "True" : "False") + ", moves=[";
            for (std::size_t i = 0; i < b.moves.size(); ++i)
                s += std::string(i ? ", " : "") + "(" + std::to_string(b.moves[i].pit) + ", " +
                     std::to_string(b.moves[i].gM) + ", " + std::to_string(b.moves[i].gN) + ")";
            return s + "])";
        });

    // One query of the library on a position from Python: the GIL is released while the
    // library works, an error raises (with_context).
    // Positions are of the Tablebase's board, asked through the functions taking pit counts
    // (whose answers, Board..., are the Python classes above, on every board).
    // `files`: the level files `call` reads, which a NotAvailable names.
    auto query = [](auto call, LevelFiles files = LevelFiles::Values) {
        return [call, files](const PyTablebase& self, py::object position) {
            const std::shared_ptr<const Tablebase> tb = self.get();
            const Counts pits = to_pits(position, self.pits_per_side());
            std::optional<decltype(call(*tb, std::span<const uint8_t>(pits)))> r;
            {
                py::gil_scoped_release release;
                r.emplace(call(*tb, std::span<const uint8_t>(pits)));
            }
            return unwrap(*tb, *r, pits, files);
        };
    };

    py::class_<PyTablebase>(m, "Tablebase", R"doc(The databases of one rule set in one directory.

Tablebase(dir, rules=None, cache_bytes=256 MiB, pits_per_side=0), cache_bytes=0 meaning
the default (as in the C and C++ APIs). rules None, the default, takes the rule set as
`owaredb probe` does without --rules: the one whose level files lie in dir, else awari for
Romein & Bal's published files, else abapa (InvalidRules for files of several). A dir that
is no directory raises here with the CLI's message: NotAvailable ("no database directory
'D' (see owaredb generate)") when it does not exist, IoError otherwise. pits_per_side is the
board, 1..8 pits a side; 0, the default, takes the board of the level files in dir (6 when
it holds none): positions are then 2P pit counts. Level files are opened on first use; an
unknown rules name raises InvalidRules here, a board that is none InvalidPosition.
Thread-safe: every query releases the GIL, so threads can probe one Tablebase in parallel.
close() (or the end of a `with` block) lets go of its files and cache; a query after it
raises ValueError.)doc")
        .def(py::init([](py::object dir, py::object rules, std::size_t cache_bytes,
                         py::object pits_per_side) {
                 const std::string path =
                     py::module_::import("os").attr("fsdecode")(dir).cast<std::string>();
                 // As open() does: a path cut at its first NUL would name another directory.
                 if (path.find('\0') != std::string::npos)
                     throw py::value_error("embedded null character in path");
                 refuse_directory(path);
                 TablebaseOptions options;
                 options.cache_bytes = cache_bytes;
                 // None: the directory's rule set, as the commands choose it (the library's
                 // choice for an empty name).
                 auto tb = std::make_shared<Tablebase>(
                     path, rules.is_none() ? std::string() : rules.cast<std::string>(),
                     count_argument(pits_per_side, "pits_per_side"), options);
                 // The library reports unknown rules, and a board that is none, at the first
                 // query; 49 seeds make a query that needs no I/O.
                 ProbeResult<int> r = tb->value(too_many_seeds(std::max(tb->pits_per_side(), 1)));
                 if (r.status() == ProbeStatus::InvalidRules)
                     throw ProbeFailure(ProbeStatus::InvalidRules, r.message());
                 if (tb->pits_per_side() == 0)
                     throw ProbeFailure(ProbeStatus::InvalidPosition, r.message());
                 return PyTablebase(std::move(tb));
             }),
             py::arg("dir"), py::arg("rules") = py::none(),
             py::arg("cache_bytes") = TablebaseOptions::kDefaultCacheBytes,
             py::arg("pits_per_side") = 0)
        .def(
            "value",
            [query](const PyTablebase& self, py::object position,
                    py::object fallback) -> py::object {
                try {
                    return py::int_(query([](const Tablebase& tb, std::span<const uint8_t> pits) {
                        return tb.value(pits);
                    })(self, position));
                } catch (const ProbeFailure& f) {
                    if (f.status != ProbeStatus::NotAvailable || fallback.is(py::handle(g_raise)))
                        throw;
                    return fallback;
                }
            },
            py::arg("position"), py::arg("default") = py::handle(g_raise),
            R"(Value of the position for the side to move (an int).

With default given (tb.value(pos, default=None)), a position the databases do not hold (a
missing level: NotAvailable) gives default instead of raising; every other error raises.)")
        .def("analyse", query([](const Tablebase& tb, std::span<const uint8_t> pits) {
                 return tb.analyse(pits);
             }),
             py::arg("position"),
             "Value, every legal move with its value, and the best moves. A position outside the "
             "databases raises NotAvailable, whose .moves lists the legal moves with their "
             "captures and, where the child's level is there, their values, as the CLI's "
             "error object does (Position.moves has them without any database).")
        .def(
            "pv",
            [](const PyTablebase& self, py::object position, int max_plies) {
                const std::shared_ptr<const Tablebase> tb = self.get();
                const Counts pits = to_pits(position, self.pits_per_side());
                std::optional<ProbeResult<BoardPrincipalVariation>> r;
                {
                    py::gil_scoped_release release;
                    r.emplace(tb->principal_variation(std::span<const uint8_t>(pits), max_plies));
                }
                return unwrap(*tb, *r, pits);
            },
            py::arg("position"), py::arg("max_plies") = 1000,
            "A line of perfect play until the game ends or provably goes on forever.")
        .def("bounds",
             query(
                 [](const Tablebase& tb, std::span<const uint8_t> pits) { return tb.bounds(pits); },
                 LevelFiles::Bounds),
             py::arg("position"),
             "gM and gN of the position (Bounds) from the bound files (owaredb generate "
             "--bounds); the value files are not needed.")
        .def("analyse_bounds",
             query([](const Tablebase& tb,
                      std::span<const uint8_t> pits) { return tb.analyse_bounds(pits); },
                   LevelFiles::Bounds),
             py::arg("position"), "The bounds of the position and of every legal move.")
        .def(
            "values",
            [](const PyTablebase& self, py::object positions, const std::string& errors,
               int threads) { return batch_values(*self.get(), positions, errors, threads); },
            py::arg("positions"), py::arg("errors") = "raise", py::arg("threads") = 1,
            R"(Values of many positions: an (N, 2P) integer array, (N, 12) on the standard board (any integer dtype; a
C-contiguous uint8 array is read in place) -> int8 array of N values. The GIL is released.

errors="raise" (default): raise the error of the first failing position (lowest index), its
    message "position I (pits): ...", with .index and .position set.
errors="status": never raise for a position; return (values, status), status a uint8 array
    of owaredb.Status codes (0 = OK), values 0 where status != 0. tb.value(row) gives the
    message of a failing row.
threads: worker threads for this call (0: one per core); rows are split among them.
Malformed arrays (not (N, 2P), not integers) raise ValueError / TypeError in both modes.)")
        .def(
            "level_available",
            [](const PyTablebase& self, py::object seeds_arg) {
                const int seeds = count_argument(seeds_arg, "seeds");
                const std::shared_ptr<const Tablebase> tb = self.get();
                py::gil_scoped_release release;
                return tb->level_available(seeds);
            },
            py::arg("seeds"), "Whether the level file for n seeds exists and is valid (opens it).")
        .def(
            "bounds_available",
            [](const PyTablebase& self, py::object seeds_arg) {
                const int seeds = count_argument(seeds_arg, "seeds");
                const std::shared_ptr<const Tablebase> tb = self.get();
                py::gil_scoped_release release;
                return tb->bounds_available(seeds);
            },
            py::arg("seeds"), "Whether the bound file for n seeds exists and is valid (opens it).")
        .def(
            "available_levels",
            [](const PyTablebase& self) {
                const std::shared_ptr<const Tablebase> tb = self.get();
                py::gil_scoped_release release;
                std::vector<int> levels;
                for (int n = 0; n <= 48; ++n)
                    if (tb->level_available(n)) levels.push_back(n);
                return levels;
            },
            "The seed counts 0..48 whose level files exist and are valid (opens them).")
        .def("close", &PyTablebase::close,
             "Lets go of the level files and the cache (once queries under way are done); "
             "queries after it raise ValueError. Closing twice is harmless.")
        .def_property_readonly("closed", &PyTablebase::closed)
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__",
             [](PyTablebase& self, py::object, py::object, py::object) {
                 self.close();
                 return false; // an exception from the block goes on
             })
        .def_property_readonly("directory", &PyTablebase::directory)
        .def_property_readonly("rules", &PyTablebase::rules)
        .def_property_readonly("pits_per_side", &PyTablebase::pits_per_side,
                               "the board: pits a side (positions are twice as many counts)")
        .def("__repr__", [](const PyTablebase& tb) {
            // The board is said when it is not the standard one.
            const std::string board = tb.pits_per_side() == 6
                                          ? std::string()
                                          : ", pits_per_side=" + std::to_string(tb.pits_per_side());
            return "owaredb.Tablebase(" + py::repr(py::str(tb.directory())).cast<std::string>() +
                   ", '" + tb.rules() + "'" + board + ")" + (tb.closed() ? " (closed)" : "");
        });
    bind_search(m);
}
