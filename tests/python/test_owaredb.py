"""The owaredb Python module against the command line (`owaredb probe --batch --json`).

Run by ctest (tests/python/CMakeLists.txt) with the interpreter the module was built for and
    PYTHONPATH          the directory of the built module
    OWAREDB_CLI         the owaredb program, which builds the test databases (abapa 0..10)
    OWAREDB_BUILD_DIR   the build tree, installed into a temporary prefix by one test
    OWAREDB_PYTHON_INSTALL_DIR  where the module goes under that prefix
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np

import owaredb

CLI = os.environ["OWAREDB_CLI"]
MAX_SEEDS = 10
tmp = None
DB = None


def setUpModule():
    global tmp, DB
    tmp = tempfile.mkdtemp(prefix="owaredb-py-")
    DB = os.path.join(tmp, "db")
    run = subprocess.run([CLI, "generate", "--rules", "abapa", "--max-seeds", str(MAX_SEEDS),
                          "--dir", DB, "--threads", "2"], capture_output=True, text=True)
    if run.returncode:
        sys.exit("owaredb generate failed:\n" + run.stdout + run.stderr)


def tearDownModule():
    shutil.rmtree(tmp, ignore_errors=True)


def random_positions(rng, count, min_seeds=0, max_seeds=MAX_SEEDS, stored_only=False,
                     pits_per_side=6):
    """`count` positions of min_seeds..max_seeds seeds, each seed in a uniformly random pit
    (both positions stored in the databases and ones valued by one ply of search)."""
    out = []
    pits = 2 * pits_per_side
    while len(out) < count:
        n = int(rng.integers(min_seeds, max_seeds + 1))
        p = rng.multinomial(n, [1 / pits] * pits)
        if stored_only and min(p[pits_per_side:]) != 0:
            continue
        out.append(p)
    return np.array(out, dtype=np.uint8)


def cli_batch(positions, pv=False, rules="abapa", db=None):
    args = [CLI, "probe", "--batch", "--json", "--dir", db or DB, "--rules", rules]
    if pv:
        args.append("--pv")
    text = "".join(" ".join(map(str, p)) + "\n" for p in positions)
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True).stdout
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(positions)
    return answers


def pits_of(text):
    return tuple(int(x) for x in text.split())


class AgainstCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rng = np.random.default_rng(2024)
        # A few thousand random positions plus the edge cases: empty board, all seeds on
        # one side (terminal or forced), the maximal level.
        edge = [[0] * 12, [0] * 6 + [1] * 6, [1] * 6 + [0] * 6, [10] + [0] * 11,
                [0] * 11 + [10], [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0]]
        cls.positions = np.concatenate([np.array(edge, dtype=np.uint8),
                                        random_positions(rng, 4000)])
        cls.answers = cli_batch(cls.positions)
        cls.tb = owaredb.Tablebase(pathlib.Path(DB), "abapa")

    def test_tablebase(self):
        self.assertEqual(self.tb.directory, DB)
        self.assertEqual(self.tb.rules, "abapa")
        self.assertEqual(repr(self.tb), "owaredb.Tablebase(%r, 'abapa')" % DB)
        self.assertEqual(owaredb.Tablebase(DB).rules, "abapa")

    def test_value_and_analyse(self):
        for p, a in zip(self.positions, self.answers):
            with self.subTest(position=a["position"]):
                self.assertEqual(self.tb.value(list(p)), a["value"])
                info = self.tb.analyse(tuple(int(x) for x in p))
                self.assertEqual(info.value, a["value"])
                self.assertEqual(info.seeds, a["seeds"])
                self.assertEqual(info.terminal, a.get("terminal", False))
                self.assertEqual([(m.pit, m.captured, m.value) for m in info.moves],
                                 [(m["move"], m["captured"], m["value"]) for m in a["moves"]])
                self.assertEqual(info.best, a["best"])

    def test_children(self):
        # Each move's child is the rotated position after it: value = captured - its value.
        for p in self.positions[:300]:
            for m in self.tb.analyse(p).moves:
                self.assertEqual(len(m.child), 12)
                self.assertEqual(sum(m.child), sum(int(x) for x in p) - m.captured)
                self.assertEqual(m.value, m.captured - self.tb.value(m.child))

    def test_values_batch(self):
        expected = np.array([a["value"] for a in self.answers])
        for dtype in (np.uint8, np.int64, np.int8, np.int16, np.uint16, np.int32, np.uint64):
            with self.subTest(dtype=dtype.__name__):
                got = self.tb.values(self.positions.astype(dtype))
                self.assertEqual(got.dtype, np.int8)
                self.assertEqual(got.shape, (len(self.positions),))
                np.testing.assert_array_equal(got, expected)
        # Strided and Fortran-ordered arrays, big-endian, plain lists, several threads.
        wide = np.zeros((len(self.positions), 24), dtype=np.int64)
        wide[:, ::2] = self.positions
        np.testing.assert_array_equal(self.tb.values(wide[:, ::2]), expected)
        np.testing.assert_array_equal(self.tb.values(np.asfortranarray(self.positions)),
                                      expected)
        np.testing.assert_array_equal(self.tb.values(self.positions.astype(">i4")), expected)
        np.testing.assert_array_equal(self.tb.values(self.positions[::-1]), expected[::-1])
        np.testing.assert_array_equal(self.tb.values(self.positions.tolist()), expected)
        for threads in (0, 2, 3):
            np.testing.assert_array_equal(self.tb.values(self.positions, threads=threads),
                                          expected)
        values, status = self.tb.values(self.positions, errors="status")
        np.testing.assert_array_equal(values, expected)
        self.assertEqual(status.dtype, np.uint8)
        self.assertFalse(status.any())
        self.assertEqual(self.tb.values(np.zeros((0, 12), dtype=np.uint8)).shape, (0,))

    def test_principal_variation(self):
        chosen = self.positions[:400]
        answers = cli_batch(chosen, pv=True)
        for p, a in zip(chosen, answers):
            with self.subTest(position=a["position"]):
                pv = self.tb.pv(p)
                self.assertEqual([(s.position, s.pit, s.captured, s.value) for s in pv.steps],
                                 [(pits_of(s["position"]), s["move"], s["captured"], s["value"])
                                  for s in a["pv"]])
                self.assertEqual(pv.moves, [s["move"] for s in a["pv"]])
                self.assertEqual(len(pv), len(a["pv"]))
                self.assertEqual(pv.end, a["pv_end"])
                self.assertEqual(pv.final_position, pits_of(a["final_position"]))
        self.assertEqual(self.tb.pv([1] * 6 + [0] * 6, max_plies=1).end, "ply limit")
        # Regression (issue #29): a line to the next capture was returned whole.
        rng = np.random.default_rng(29)
        for p in random_positions(rng, 200, min_seeds=6, stored_only=True):
            full = self.tb.pv(p)
            for limit in (0, 1, 3):
                cut = self.tb.pv(p, max_plies=limit)
                self.assertLessEqual(len(cut), limit)
                self.assertEqual(cut.moves, full.moves[:len(cut)])
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.pv([1] * 6 + [0] * 6, max_plies=-1)
        self.assertIn("max_plies -1", str(cm.exception))


class WholeLevel(unittest.TestCase):
    def test_distribution_equals_stats(self):
        # Every position of D_n through values() gives the counts of `owaredb stats`.
        import itertools
        stats = json.loads(subprocess.run([CLI, "stats", "--dir", DB, "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        tb = owaredb.Tablebase(DB)
        for level in stats["levels"]:
            n = level["seeds"]
            if n > 9:
                continue
            bars = np.array(list(itertools.combinations(range(n + 11), 11)))
            edges = np.c_[np.full(len(bars), -1), bars, np.full(len(bars), n + 11)]
            pits = (np.diff(edges) - 1).astype(np.uint8)
            pits = pits[(pits[:, 6:] == 0).any(axis=1)]
            self.assertEqual(len(pits), level["positions"])
            counts = np.bincount(tb.values(pits).astype(np.int64) + n, minlength=2 * n + 1)
            got = {str(v - n): int(c) for v, c in enumerate(counts) if c}
            self.assertEqual(got, level["values"], "level %d" % n)


class PublishedDirectory(unittest.TestCase):
    """Romein & Bal's format (scores.N), written by `owaredb export`, is read in place."""

    @staticmethod
    def built(name):
        """Levels 0..8 of awari built in tmp/NAME and exported to tmp/NAME-scores."""
        ours, theirs = os.path.join(tmp, name), os.path.join(tmp, name + "-scores")
        os.makedirs(theirs)
        subprocess.run([CLI, "generate", "--rules", "awari", "--max-seeds", "8", "--dir", ours,
                        "--threads", "2"], capture_output=True, check=True)
        subprocess.run([CLI, "export", "--from", ours, "--to", theirs], capture_output=True,
                       check=True)
        return ours, theirs

    def test_same_values_as_our_files(self):
        ours, theirs = self.built("awari")
        a, b = owaredb.Tablebase(ours, "awari"), owaredb.Tablebase(theirs, "awari")
        rng = np.random.default_rng(30)
        positions = np.array(random_positions(rng, 2000, max_seeds=8), dtype=np.uint8)
        np.testing.assert_array_equal(a.values(positions), b.values(positions))
        self.assertEqual(a.pv([1, 0, 2, 0, 0, 1, 0, 1, 0, 0, 1, 0]).moves,
                         b.pv([1, 0, 2, 0, 0, 1, 0, 1, 0, 0, 1, 0]).moves)
        with self.assertRaises(owaredb.NotAvailable) as cm:
            b.value([1] * 9 + [0] * 3)
        self.assertIn("scores.9", str(cm.exception))
        with self.assertRaises(owaredb.NotAvailable) as cm:
            owaredb.Tablebase(theirs, "abapa").value([1, 0] * 6)
        self.assertIn("published awari values only", str(cm.exception))

    def test_truncated_while_mapped(self):
        # Regression (issue #52): a scores.N truncated while mapped killed Python (SIGBUS).
        ours, theirs = self.built("awari-cut")
        tb = owaredb.Tablebase(theirs, "awari")
        position = [1, 0, 2, 0, 0, 1, 0, 1, 0, 0, 1, 0]
        expected = tb.value(position)
        os.truncate(os.path.join(theirs, "scores.6"), 0)
        with self.assertRaises(owaredb.Corrupt) as cm:
            tb.value(position)
        self.assertIn("scores.6", str(cm.exception))
        # A good copy moved in is read again (issue #52: the error stayed).
        again = theirs + "-again"
        os.makedirs(again)
        subprocess.run([CLI, "export", "--from", ours, "--to", again], capture_output=True,
                       check=True)
        os.replace(os.path.join(again, "scores.6"), os.path.join(theirs, "scores.6"))
        time.sleep(0.15)  # past the library's recheck of a level that failed
        self.assertEqual(tb.value(position), expected)


class Errors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tb = owaredb.Tablebase(DB, "abapa")

    def test_hierarchy(self):
        for cls in (owaredb.NotAvailable, owaredb.InvalidPosition, owaredb.InvalidRules,
                    owaredb.Corrupt, owaredb.IoError):
            self.assertTrue(issubclass(cls, owaredb.Error))
            self.assertIsInstance(cls.status, owaredb.Status)
        self.assertTrue(issubclass(owaredb.Error, Exception))
        self.assertTrue(issubclass(owaredb.InvalidPosition, ValueError))
        self.assertTrue(issubclass(owaredb.InvalidRules, ValueError))
        self.assertTrue(issubclass(owaredb.IoError, OSError))
        self.assertEqual(owaredb.NotAvailable.status, owaredb.Status.NOT_AVAILABLE)
        self.assertEqual(int(owaredb.Status.CORRUPT), 4)

    def test_malformed_positions(self):
        bad = {
            "12 pits": [4] * 11,
            "12 pits, this one has 13": [4] * 13,
            "negative": [-1] + [0] * 11,
            "more than 48": [49] + [0] * 11,
            "50 seeds, more than 48": [5] * 10 + [0, 0],
            "not an integer": [4.0] * 12,
            "not an integer ": ["4"] * 12,
            "not an integer  ": [None] * 12,
            "more than 48 ": [2**70] + [0] * 11,
            "negative ": [-(2**70)] + [0] * 11,
        }
        for what, position in bad.items():
            for call in (self.tb.value, self.tb.analyse, self.tb.pv):
                with self.subTest(what=what, call=call.__name__):
                    with self.assertRaises(owaredb.InvalidPosition) as cm:
                        call(position)
                    self.assertIsInstance(cm.exception, ValueError)
                    self.assertIn(what.strip(), str(cm.exception))
        for position in (b"\x04" * 12, 4, None):
            with self.assertRaises(TypeError):
                self.tb.value(position)
        # Regression (issue #29): a bad pit's error had no .position and its message no pits.
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.value([1, -1] + [0] * 10)
        self.assertEqual(cm.exception.position, (1, -1) + (0,) * 10)
        self.assertIn("position (1, -1, 0", str(cm.exception))
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.value([0] * 11 + [2**70])
        self.assertEqual(cm.exception.position[11], 2**70)
        # Regression (issue #29): a uint64 2**63 was reported as 1000000 seeds.
        big = np.zeros((1, 12), dtype=np.uint64)
        big[0, 0] = 2**63
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.values(big)
        self.assertIn("holds 9223372036854775808 seeds, more than 48", str(cm.exception))

    def test_positions_as_text(self):
        # The command line's form is a position too (issue #29).
        p = [0, 0, 1, 0, 2, 0, 1, 1, 0, 0, 0, 0]
        self.assertEqual(self.tb.value(" ".join(map(str, p))), self.tb.value(p))
        self.assertEqual(self.tb.value("  0 0 1 0 2 0\t1 1 0 0 0 0\n"), self.tb.value(p))
        for text, part in (("0 0 1", "12 pits, this one has 3"), ("0 0 x 0 0 0 0 0 0 0 0 0",
                           "pit 2 is 'x', not an integer"), ("0 -1 0 0 0 0 0 0 0 0 0 0",
                           "a negative count"), ("", "this one has 0")):
            with self.assertRaises(owaredb.InvalidPosition) as cm:
                self.tb.value(text)
            self.assertIn(part, str(cm.exception))

    def test_available_levels(self):
        self.assertEqual(self.tb.available_levels(), list(range(MAX_SEEDS + 1)))
        # numpy scalars and arrays are positions too
        self.assertEqual(self.tb.value(np.zeros(12, dtype=np.int32)), 0)
        self.assertEqual(self.tb.value([np.uint8(0)] * 12), 0)

    def test_missing_level(self):
        position = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]  # 11 seeds, stored
        for call in (self.tb.value, self.tb.analyse, self.tb.pv):
            with self.assertRaises(owaredb.NotAvailable) as cm:
                call(position)
            self.assertIn("abapa-11", str(cm.exception))
            self.assertEqual(cm.exception.position, tuple(position))
            self.assertEqual(cm.exception.status, owaredb.Status.NOT_AVAILABLE)
        self.assertFalse(self.tb.level_available(11))
        self.assertTrue(self.tb.level_available(MAX_SEEDS))

    def test_cache_bytes_zero_is_the_default(self):
        # One rule in every API: 0 means the default cache (256 MiB), as in C. It meant no
        # cache here: every value decompressed its block, 1000 times slower.
        rng = np.random.default_rng(5)
        positions = random_positions(rng, 2000, MAX_SEEDS, MAX_SEEDS, stored_only=True)

        def seconds(tb):
            tb.values(positions)  # warm the cache
            start = time.perf_counter()
            for _ in range(3):
                values = tb.values(positions)
            return time.perf_counter() - start, values

        default, expected = seconds(owaredb.Tablebase(DB, "abapa"))
        zero, values = seconds(owaredb.Tablebase(DB, "abapa", cache_bytes=0))
        np.testing.assert_array_equal(values, expected)
        self.assertLess(zero, 20 * default + 0.05, (zero, default))

    def test_unknown_rules(self):
        with self.assertRaises(owaredb.InvalidRules) as cm:
            owaredb.Tablebase(DB, "oware-ish")
        self.assertIn("oware-ish", str(cm.exception))
        self.assertIsInstance(cm.exception, ValueError)

    def test_corrupt_file(self):
        damaged = os.path.join(tmp, "damaged")
        shutil.copytree(DB, damaged)
        name = os.path.join(damaged, "abapa-%02d.owdb" % MAX_SEEDS)
        with open(name, "r+b") as f:
            data = bytearray(f.read())
            lo, hi = len(data) // 3, 2 * len(data) // 3
            data[lo:hi] = bytes(b ^ 0x5A for b in data[lo:hi])
            f.seek(0)
            f.write(data)
        tb = owaredb.Tablebase(damaged, "abapa")
        good = owaredb.Tablebase(DB, "abapa")
        rng = np.random.default_rng(7)
        positions = random_positions(rng, 3000, MAX_SEEDS, MAX_SEEDS, stored_only=True)
        values, status = tb.values(positions, errors="status")
        corrupt = status == owaredb.Status.CORRUPT
        self.assertTrue(corrupt.any())
        self.assertTrue(np.isin(status, [owaredb.Status.OK, owaredb.Status.CORRUPT]).all())
        ok = status == owaredb.Status.OK
        np.testing.assert_array_equal(values[ok], good.values(positions[ok]))
        self.assertFalse(values[corrupt].any())
        first = int(np.argmax(corrupt))
        with self.assertRaises(owaredb.Corrupt) as cm:
            tb.value(positions[first])
        self.assertIn("abapa-%02d" % MAX_SEEDS, str(cm.exception))
        with self.assertRaises(owaredb.Corrupt) as cm:
            tb.values(positions)
        self.assertEqual(cm.exception.index, first)
        self.assertTrue(str(cm.exception).startswith("position %d (" % first))

    def test_values_errors(self):
        rows = np.zeros((20000, 12), dtype=np.int64)
        rows[:, 0] = 1  # one seed: worth +1 or 0
        rows[5] = [1] * 11 + [0]  # level 11: not available
        rows[9, 3] = -2  # negative count
        rows[12] = [5] * 10 + [0, 0]  # 50 seeds
        rows[17000, 2] = 200  # above 48 in one pit
        values, status = self.tb.values(rows, errors="status")
        S = owaredb.Status
        self.assertEqual(status[5], S.NOT_AVAILABLE)
        self.assertEqual(status[9], S.INVALID_POSITION)
        self.assertEqual(status[12], S.INVALID_POSITION)
        self.assertEqual(status[17000], S.INVALID_POSITION)
        self.assertEqual(int(np.count_nonzero(status)), 4)
        self.assertEqual(values[5], 0)
        self.assertEqual(values[0], self.tb.value(rows[0]))
        for threads in (1, 2, 4):
            with self.subTest(threads=threads):
                with self.assertRaises(owaredb.NotAvailable) as cm:
                    self.tb.values(rows, threads=threads)
                self.assertEqual(cm.exception.index, 5)
                self.assertEqual(cm.exception.position, tuple(rows[5]))
                self.assertIn("position 5 (1 1 1 1 1 1 1 1 1 1 1 0)", str(cm.exception))
        rows[5] = rows[0]
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.values(rows, threads=2)
        self.assertEqual(cm.exception.index, 9)
        self.assertIn("position 9: pit 3 holds -2 seeds, a negative count", str(cm.exception))
        rows[9] = rows[0]
        rows[12] = rows[0]
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.values(rows, threads=3)
        self.assertEqual(cm.exception.index, 17000)
        self.assertIn("more than 48", str(cm.exception))

    def test_values_rejects_bad_arrays(self):
        for shape in ((12,), (3, 11), (3, 13), (2, 12, 1), (0,), ()):
            with self.subTest(shape=shape):
                with self.assertRaises(ValueError):
                    self.tb.values(np.zeros(shape, dtype=np.uint8))
        for dtype in (np.float64, np.bool_, object, "U3"):
            with self.subTest(dtype=str(dtype)):
                with self.assertRaises(TypeError):
                    self.tb.values(np.zeros((3, 12), dtype=dtype))
        with self.assertRaises(ValueError):
            self.tb.values(np.zeros((3, 12), dtype=np.uint8), errors="ignore")
        with self.assertRaises(ValueError):
            self.tb.values(np.zeros((3, 12), dtype=np.uint8), threads=-1)

    def test_no_bools_for_counts_no_nul_in_paths(self):
        # Regression (issue #52): True was taken as 1 seed or 1 pit a side, and "da\0ta"
        # opened "da".
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.value([True] + [0] * 11)
        self.assertIn("pit 0 is True, not an integer", str(cm.exception))
        for call in (self.tb.level_available, self.tb.bounds_available):
            with self.assertRaises(TypeError):
                call(True)
        with self.assertRaises(TypeError):
            owaredb.Tablebase(DB, "abapa", pits_per_side=True)
        with self.assertRaises(ValueError) as cm:
            owaredb.Tablebase(DB + "\0ta", "abapa")
        self.assertIn("null", str(cm.exception))


class ErrorObject(unittest.TestCase):
    """Regression (issue #29): the one error object. An exception carries what `owaredb probe
    --json` and the HTTP API say of the same query: the status word, the rules, and for a
    missing level the levels and the command that builds them."""

    def cli_error(self, position):
        run = subprocess.run([CLI, "probe", "--json", "--dir", DB, "--rules", "abapa", position],
                             capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        return json.loads(run.stdout)

    def test_not_available_as_the_cli_says(self):
        tb = owaredb.Tablebase(DB, "abapa")
        want = self.cli_error("4 4 4 4 4 4 4 4 4 4 4 4")
        for call in (tb.value, tb.analyse, tb.pv):
            with self.subTest(call=call.__name__):
                with self.assertRaises(owaredb.NotAvailable) as cm:
                    call([4] * 12)
                e = cm.exception
                self.assertEqual(e.code, want["status"])
                self.assertEqual(e.code, "not_available")
                self.assertEqual(e.rules, want["rules"])
                self.assertEqual(" ".join(map(str, e.position)), want["position"])
                self.assertEqual(e.missing_levels, want["missing_levels"])
                self.assertEqual(e.missing_levels, list(range(MAX_SEEDS + 1, 49)))
                self.assertEqual(e.generate, want["generate"])
        with self.assertRaises(owaredb.NotAvailable) as cm:
            tb.values(np.array([[1] * 6 + [0] * 6, [4] * 12], dtype=np.uint8))
        self.assertEqual(cm.exception.index, 1)
        self.assertEqual(cm.exception.generate, want["generate"])

    def test_generate_quotes_a_directory_as_the_cli_does(self):
        # A directory a shell would split: one quoter (the library's) for every front end,
        # the same command word for word.
        odd = os.path.join(tmp, "it's a db")
        shutil.copytree(DB, odd, dirs_exist_ok=True)
        run = subprocess.run([CLI, "probe", "--json", "--dir", odd, "--rules", "abapa",
                              "4 4 4 4 4 4 4 4 4 4 4 4"], capture_output=True, text=True)
        want = json.loads(run.stdout)["generate"]
        self.assertTrue(want.endswith("--dir '" + tmp + "/it'\\''s a db'"), want)
        with self.assertRaises(owaredb.NotAvailable) as cm:
            owaredb.Tablebase(odd, "abapa").value([4] * 12)
        self.assertEqual(cm.exception.generate, want)

    def test_invalid_position_as_the_cli_says(self):
        tb = owaredb.Tablebase(DB, "abapa")
        want = self.cli_error("9 9 9 9 9 9 0 0 0 0 0 0")
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            tb.value([9] * 6 + [0] * 6)
        self.assertEqual(cm.exception.code, want["status"])
        self.assertEqual(cm.exception.rules, "abapa")
        self.assertIsNone(cm.exception.missing_levels)
        self.assertIsNone(cm.exception.generate)
        self.assertEqual(owaredb.Corrupt.code, "corrupt")
        self.assertEqual(owaredb.IoError.code, "io_error")


class Lifetime(unittest.TestCase):
    """close() and `with` (issue #29): the files and cache are let go of; a query after it
    raises ValueError, as a closed file does."""

    def test_with_closes(self):
        with owaredb.Tablebase(DB, "abapa") as tb:
            self.assertFalse(tb.closed)
            self.assertEqual(tb.value([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0]), 5)
        self.assertTrue(tb.closed)
        self.assertIn("(closed)", repr(tb))
        for call in (lambda: tb.value([1] * 12), lambda: tb.analyse([1] * 12),
                     lambda: tb.pv([1] * 12), lambda: tb.values(np.ones((2, 12), np.uint8)),
                     lambda: tb.level_available(3), tb.available_levels,
                     lambda: tb.bounds([1] * 12)):
            with self.assertRaisesRegex(ValueError, "closed"):
                call()
        tb.close()  # twice: harmless
        self.assertEqual(tb.directory, DB)
        self.assertEqual(tb.rules, "abapa")

    def test_with_passes_exceptions_on(self):
        with self.assertRaises(owaredb.NotAvailable):
            with owaredb.Tablebase(DB, "abapa") as tb:
                tb.value([4] * 12)
        self.assertTrue(tb.closed)

    def test_files_are_let_go(self):
        # The level files a Tablebase opened stay open until it is closed.
        fds = pathlib.Path("/proc/self/fd")
        if not fds.is_dir():
            self.skipTest("no /proc/self/fd")

        def open_levels():
            n = 0
            for fd in fds.iterdir():
                try:
                    n += os.readlink(fd).startswith(DB)
                except OSError:
                    pass
            return n

        before = open_levels()
        tb = owaredb.Tablebase(DB, "abapa")
        tb.available_levels()
        self.assertGreater(open_levels(), before)
        tb.close()
        self.assertEqual(open_levels(), before)

    def test_close_during_queries(self):
        # Threads query until another closes: each query either answers (the right values)
        # or raises ValueError, and every thread sees the close; nothing crashes.
        tb = owaredb.Tablebase(DB, "abapa")
        batch = random_positions(np.random.default_rng(3), 20000)
        want = tb.values(batch)
        results = []

        def work():
            answered = 0
            while True:
                try:
                    got = tb.values(batch)
                except ValueError:
                    results.append(answered)
                    return
                assert np.array_equal(got, want)
                answered += 1

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        time.sleep(0.1)
        tb.close()
        for t in threads:
            t.join(60)
        self.assertEqual(len(results), 3)


class BoundsQueries(unittest.TestCase):
    """bounds() and analyse_bounds(), as C++ has them (issue #29), against `owaredb probe
    --json`, which gives gM and gN where the bound files exist."""

    @classmethod
    def setUpClass(cls):
        cls.dir = os.path.join(tmp, "bounds")
        for extra in ([], ["--bounds"]):
            subprocess.run([CLI, "generate", "--rules", "abapa", "--max-seeds", "8", "--dir",
                            cls.dir, "--threads", "2", *extra], capture_output=True, check=True)
        cls.tb = owaredb.Tablebase(cls.dir, "abapa")

    def test_against_cli(self):
        positions = random_positions(np.random.default_rng(7), 300, max_seeds=8)
        answers = cli_batch(positions, db=self.dir)
        for p, want in zip(positions, answers):
            with self.subTest(position=want["position"]):
                b = self.tb.bounds(p)
                self.assertEqual((b.seeds, b.gM, b.gN, b.exact),
                                 (want["seeds"], want["gM"], want["gN"], want["exact"]))
                a = self.tb.analyse_bounds(p)
                self.assertEqual((a.bounds.gM, a.bounds.gN), (b.gM, b.gN))
                self.assertEqual(a.terminal, bool(want.get("terminal")))
                self.assertEqual([(m.pit, m.captured, m.gM, m.gN) for m in a.moves],
                                 [(m["move"], m["captured"], m["gM"], m["gN"])
                                  for m in want["moves"]])
        self.assertTrue(self.tb.bounds_available(8))
        self.assertFalse(self.tb.bounds_available(9))

    def test_missing_bound_files(self):
        with self.assertRaises(owaredb.NotAvailable):
            owaredb.Tablebase(DB, "abapa").bounds([1] * 12)

    def test_missing_bound_files_named_as_probe_scores_names_them(self):
        # Regression (issue #50): the levels and the command were the value files' (DB
        # holds levels 0..MAX_SEEDS of them), a generate without --bounds.
        run = subprocess.run([CLI, "probe", "--json", "--scores", "0", "0", "--rules", "abapa",
                              "--dir", DB, " ".join(["1"] * 12)], capture_output=True, text=True)
        want = json.loads(run.stdout)
        self.assertEqual(want["missing_levels"], list(range(13)))
        self.assertIn(" --bounds ", want["generate"])
        tb = owaredb.Tablebase(DB, "abapa")
        for call in (tb.bounds, tb.analyse_bounds):
            with self.assertRaises(owaredb.NotAvailable) as cm:
                call([1] * 12)
            self.assertEqual(cm.exception.missing_levels, want["missing_levels"])
            self.assertEqual(cm.exception.generate, want["generate"])


class OtherBoards(unittest.TestCase):
    """Boards of P != 6 pits a side (#28): positions of 2P numbers, the board the
    directory's (or pits_per_side), against `owaredb probe` on the same directory and
    against a one-ply recomputation from the module's own values."""

    @classmethod
    def setUpClass(cls):
        cls.dir4 = os.path.join(tmp, "p4")
        cls.dir3 = os.path.join(tmp, "p3")
        subprocess.run([CLI, "generate", "--pits", "4", "--rules", "abapa", "--max-seeds", "10",
                        "--dir", cls.dir4, "--threads", "2"], capture_output=True, check=True)
        for extra in ([], ["--bounds"]):
            subprocess.run([CLI, "generate", "--pits", "3", "--rules", "awari", "--max-seeds",
                            "8", "--dir", cls.dir3, "--threads", "2", *extra],
                           capture_output=True, check=True)
        cls.tb = owaredb.Tablebase(cls.dir4, "abapa")
        cls.positions = random_positions(np.random.default_rng(28), 1500, pits_per_side=4)
        cls.answers = cli_batch(cls.positions, db=cls.dir4)

    def test_the_board_is_the_directorys(self):
        self.assertEqual(self.tb.pits_per_side, 4)
        self.assertEqual(repr(self.tb), "owaredb.Tablebase(%r, 'abapa', pits_per_side=4)" % self.dir4)
        self.assertEqual(owaredb.Tablebase(self.dir4, "abapa", pits_per_side=4).pits_per_side, 4)
        self.assertEqual(owaredb.Tablebase(self.dir3, "awari").pits_per_side, 3)
        self.assertEqual(owaredb.Tablebase(DB, "abapa").pits_per_side, 6)
        self.assertEqual(self.tb.available_levels(), list(range(11)))

    def test_against_cli(self):
        for p, a in zip(self.positions, self.answers):
            with self.subTest(position=a["position"]):
                self.assertEqual(self.tb.value(p), a["value"])
                info = self.tb.analyse(list(p))
                self.assertEqual((info.value, info.seeds, info.terminal),
                                 (a["value"], a["seeds"], a.get("terminal", False)))
                self.assertEqual([(m.pit, m.captured, m.value) for m in info.moves],
                                 [(m["move"], m["captured"], m["value"]) for m in a["moves"]])
                self.assertEqual(info.best, a["best"])
        self.assertEqual(self.tb.value(" ".join(map(str, self.positions[0]))),
                         self.answers[0]["value"])

    def test_moves_by_one_ply(self):
        # Each move's value is captured - the value of its child, looked up on its own; the
        # position's value is the best of them.
        for p in self.positions[:400]:
            info = self.tb.analyse(p)
            for m in info.moves:
                self.assertEqual(len(m.child), 8)
                self.assertTrue(1 <= m.pit <= 4)
                self.assertEqual(sum(m.child), int(sum(p)) - m.captured)
                self.assertEqual(m.value, m.captured - self.tb.value(m.child))
            if info.moves:
                self.assertEqual(info.value, max(m.value for m in info.moves))
                self.assertEqual(info.best,
                                 [m.pit for m in info.moves if m.value == info.value])

    def test_values_batch(self):
        expected = np.array([a["value"] for a in self.answers])
        for dtype in (np.uint8, np.int64, np.int16):
            np.testing.assert_array_equal(self.tb.values(self.positions.astype(dtype)), expected)
        np.testing.assert_array_equal(self.tb.values(np.asfortranarray(self.positions)), expected)
        np.testing.assert_array_equal(self.tb.values(self.positions, threads=2), expected)
        bad = self.positions.copy().astype(np.int64)
        bad[5, 2] = 49
        values, status = self.tb.values(bad, errors="status")
        self.assertEqual(status[5], owaredb.Status.INVALID_POSITION)
        self.assertEqual(int(status.sum()), int(owaredb.Status.INVALID_POSITION))
        with self.assertRaises(ValueError) as cm:
            self.tb.values(np.zeros((3, 12), dtype=np.uint8))
        self.assertIn("(N, 8)", str(cm.exception))

    def test_principal_variation(self):
        chosen = self.positions[:200]
        for p, a in zip(chosen, cli_batch(chosen, pv=True, db=self.dir4)):
            pv = self.tb.pv(p)
            self.assertEqual([(s.position, s.pit, s.captured, s.value) for s in pv.steps],
                             [(pits_of(s["position"]), s["move"], s["captured"], s["value"])
                              for s in a["pv"]])
            self.assertEqual((pv.end, pv.final_position),
                             (a["pv_end"], pits_of(a["final_position"])))

    def test_bounds(self):
        tb = owaredb.Tablebase(self.dir3, "awari")
        positions = random_positions(np.random.default_rng(3), 300, max_seeds=8, pits_per_side=3)
        for p, want in zip(positions, cli_batch(positions, rules="awari", db=self.dir3)):
            b = tb.bounds(p)
            self.assertEqual((b.seeds, b.gM, b.gN), (want["seeds"], want["gM"], want["gN"]))
            self.assertEqual([(m.pit, m.gM, m.gN) for m in tb.analyse_bounds(p).moves],
                             [(m["move"], m["gM"], m["gN"]) for m in want["moves"]])

    def test_wrong_board(self):
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            self.tb.value([1] * 12)
        self.assertIn("8 pits on this board of 4 pits a side, this one has 12", str(cm.exception))
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            owaredb.Tablebase(self.dir4, "abapa", pits_per_side=9)
        self.assertIn("1..8 pits a side, not 9", str(cm.exception))
        six = owaredb.Tablebase(self.dir4, "abapa", pits_per_side=6)
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            six.value([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0])
        self.assertIn("are for 4 pits a side (8 pit counts), not 6 pits a side (12 pit counts)",
                      str(cm.exception))
        two = os.path.join(tmp, "two-boards")
        os.makedirs(two)
        shutil.copy(os.path.join(self.dir4, "abapa-p4-00.owdb"), two)
        shutil.copy(os.path.join(self.dir3, "awari-p3-00.owdb"), two)
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            owaredb.Tablebase(two, "abapa")
        self.assertIn("several boards (3 and 4", str(cm.exception))
        self.assertEqual(owaredb.Tablebase(two, "abapa", pits_per_side=4).value([0] * 8), 0)

    def test_missing_level(self):
        with self.assertRaises(owaredb.NotAvailable) as cm:
            self.tb.value([2, 2, 2, 2, 2, 2, 0, 0])
        e = cm.exception
        self.assertEqual(e.position, (2, 2, 2, 2, 2, 2, 0, 0))
        self.assertEqual(e.missing_levels, [11, 12])
        self.assertEqual(e.generate, "owaredb generate --rules abapa --pits 4 --max-seeds 12 "
                         "--dir " + self.dir4)


def assert_gil_released(test, call):
    """Runs call() in a thread while this one runs Python code, checks that this one kept
    running while the call was inside the library, and returns the call's result."""
    times = {}
    started = threading.Event()

    def work():
        started.set()
        times["start"] = time.perf_counter()
        times["result"] = call()
        times["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    ticks = []
    while worker.is_alive():
        ticks.append(time.perf_counter())
        sum(range(100))
    worker.join()
    duration = times["end"] - times["start"]
    inside = [t for t in ticks if times["start"] <= t <= times["end"]]
    test.assertGreater(duration, 0.02)
    test.assertGreater(len(inside), 100)
    test.assertGreater(inside[-1] - inside[0], 0.5 * duration)
    return times["result"]


class Threads(unittest.TestCase):
    def test_gil_released(self):
        # While one thread is inside values(), the main thread keeps running Python code.
        tb = owaredb.Tablebase(DB, "abapa")
        rng = np.random.default_rng(3)
        positions = np.tile(random_positions(rng, 20000), (100, 1))  # 2,000,000 rows
        tb.values(positions[:20000])  # warm the cache
        result = assert_gil_released(self, lambda: tb.values(positions))
        np.testing.assert_array_equal(result, np.tile(tb.values(positions[:20000]), 100))

    def test_many_threads_one_tablebase(self):
        tb = owaredb.Tablebase(DB, "abapa", cache_bytes=1 << 20)  # small: blocks get evicted
        rng = np.random.default_rng(11)
        positions = random_positions(rng, 30000)
        expected = owaredb.Tablebase(DB, "abapa").values(positions)
        results = [None] * 6

        def work(k):
            if k % 2:
                results[k] = tb.values(positions)
            else:
                results[k] = np.array([tb.value(p) for p in positions[:3000]])

        pool = [threading.Thread(target=work, args=(k,)) for k in range(len(results))]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        for k, r in enumerate(results):
            np.testing.assert_array_equal(r, expected if k % 2 else expected[:3000])


    def test_values_while_another_thread_changes_the_array(self):
        # values() reads each row of the caller's array once: a row that another thread
        # changes during the call is answered as whichever version was read (a value, or
        # InvalidPosition for 288 seeds), never by validating one version and looking up
        # another (which indexed past the 49 levels and crashed). In a child process, so
        # that a crash is reported as such.
        script = """
import sys, threading, time, numpy as np, owaredb
tb = owaredb.Tablebase(sys.argv[1], "abapa")
good = np.zeros((100000, 12), dtype=np.uint8)
good[:, 0] = 1                       # 1 seed, stored: worth 0 or 1
bad = np.zeros_like(good)
bad[:, :6] = 48                      # 288 seeds, the opponent's pits empty
arr = good.copy()
done = threading.Event()
def flip():
    while not done.is_set():
        arr[:] = bad
        arr[:] = good
t = threading.Thread(target=flip)
t.start()
S = owaredb.Status
allowed = [S.OK, S.INVALID_POSITION, S.NOT_AVAILABLE]  # a torn row may hold 48 seeds
end = time.monotonic() + 2
rounds = 0
while time.monotonic() < end:
    values, status = tb.values(arr, errors="status")
    assert np.isin(status, allowed).all(), np.unique(status)
    assert (np.abs(values[status == S.OK].astype(int)) <= 48).all()
    rounds += 1
done.set()
t.join()
print("rounds", rounds)
"""
        run = subprocess.run([sys.executable, "-c", script, DB], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("rounds", run.stdout)


class Installed(unittest.TestCase):
    def test_install_and_import(self):
        build = os.environ.get("OWAREDB_BUILD_DIR")
        site = os.environ.get("OWAREDB_PYTHON_INSTALL_DIR")
        if not build or not site:
            self.skipTest("OWAREDB_BUILD_DIR / OWAREDB_PYTHON_INSTALL_DIR not set")
        prefix = os.path.join(tmp, "prefix")
        subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "PYTHONHOME")}
        env["PYTHONPATH"] = os.path.join(prefix, site)
        code = ("import owaredb, sys; tb = owaredb.Tablebase(sys.argv[1]); print(tb.value([1]*6+[0]*6));"
                "print(owaredb.__file__);"
                "print([l.split()[-1] for l in open('/proc/self/maps') if 'libowaredb' in l][0])")
        out = subprocess.run([sys.executable, "-c", code, DB], env=env, capture_output=True,
                             text=True, check=True).stdout.split("\n")
        self.assertEqual(int(out[0]), owaredb.Tablebase(DB).value([1] * 6 + [0] * 6))
        real_prefix = os.path.realpath(prefix)
        self.assertTrue(os.path.realpath(out[1]).startswith(real_prefix), out[1])
        self.assertTrue(os.path.realpath(out[2]).startswith(real_prefix), out[2])


class GameModel(unittest.TestCase):
    """Issue #50: the game without a database (owaredb.Position, owaredb.Game), on the
    library's rules: the moves, captures and children a Tablebase gives, for both rule sets
    and other boards."""

    @classmethod
    def setUpClass(cls):
        cls.tb = owaredb.Tablebase(DB, "abapa")

    def test_moves_are_the_tablebases(self):
        rng = np.random.default_rng(50)
        for pits in random_positions(rng, 300):
            position = owaredb.Position(pits)
            a = self.tb.analyse(pits)
            self.assertEqual([(m.pit, m.captured, m.child) for m in position.moves],
                             [(m.pit, m.captured, m.child) for m in a.moves])
            self.assertEqual(position.legal_moves, [m.pit for m in a.moves])
            self.assertEqual(position.is_game_over(), a.terminal)
            if a.terminal:
                self.assertEqual(position.final_value, a.value)
            for m in a.moves:
                self.assertEqual(position.captures(m.pit), m.captured)
                self.assertEqual(position.play(m.pit).pits, m.child)
            # A Position is a position for the Tablebase.
            self.assertEqual(self.tb.value(position), a.value)

    def test_start_text_and_errors(self):
        start = owaredb.Position.start()
        self.assertEqual(start, owaredb.Position("4 4 4 4 4 4 4 4 4 4 4 4"))
        self.assertEqual(str(start), "4 4 4 4 4 4 4 4 4 4 4 4")
        self.assertEqual((start.seeds, start.pits_per_side, start.rules), (48, 6, "abapa"))
        self.assertEqual(start.play(1).pits, (4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4))
        self.assertEqual(len({start, owaredb.Position([4] * 12)}), 1)
        self.assertEqual(owaredb.Position.start(3, pits_per_side=4).pits, (3,) * 8)
        # A capture: the last seed makes 2 in the opponent's first pit.
        p = owaredb.Position("0 0 0 0 0 1 1 1 0 0 0 0")
        self.assertEqual(p.captures(6), 2)
        self.assertEqual(p.play(6).pits, (0, 1) + (0,) * 10)
        with self.assertRaises(owaredb.IllegalMove) as cm:
            p.play(1)
        self.assertIn("legal: 6", str(cm.exception))
        self.assertIsInstance(cm.exception, ValueError)
        with self.assertRaises(owaredb.InvalidRules):
            owaredb.Position(start, "chess")
        with self.assertRaises(owaredb.InvalidPosition):
            owaredb.Position([1] * 13)

    def test_game_over_by_the_rule_set(self):
        empty = owaredb.Position([0] * 6 + [1] * 6)
        self.assertEqual(empty.game_over, "the side to move has no seeds")
        self.assertEqual(empty.final_value, -6)
        # North is empty and no move reaches it: abapa ends the game, the mover takes all;
        # awari lets the move be played, which leaves North unable to move.
        cannot_feed = [1, 0, 0, 0, 0, 0] + [0] * 6
        self.assertEqual(owaredb.Position(cannot_feed).game_over, "no move feeds the opponent")
        self.assertEqual(owaredb.Position(cannot_feed).final_value, 1)
        awari = owaredb.Position(cannot_feed, "awari")
        self.assertIsNone(awari.game_over)
        self.assertEqual(awari.play(1).game_over, "the side to move has no seeds")
        # Grand slam: abapa captures nothing, awari everything.
        slam = [0, 0, 0, 0, 0, 2] + [1, 1, 0, 0, 0, 0]
        self.assertEqual(owaredb.Position(slam).captures(6), 0)
        self.assertEqual(owaredb.Position(slam, "awari").captures(6), 4)

    def test_game_history_score_and_repetition(self):
        g = owaredb.Game(seeds_per_pit=1, pits_per_side=2)
        self.assertEqual((g.position.pits, g.turn, g.stores), ((1, 1, 1, 1), 0, (0, 0)))
        with self.assertRaises(owaredb.IllegalMove):
            g.play(3)
        self.assertEqual(g.play(2), 2)      # 1 seed into North's 1: 2, captured
        self.assertEqual((g.stores, g.turn), ((2, 0), 1))
        self.assertEqual(g.position.pits, (0, 1, 1, 0))
        self.assertEqual(g.undo(), 2)
        self.assertEqual((g.stores, g.moves, g.turn), ((0, 0), [], 0))
        # Two seeds on a board of one pit a side go round for ever: the game ends at the
        # first repetition, the seeds left split evenly (as a Tablebase's value 0 counts it).
        g = owaredb.Game([1, 1], pits_per_side=1)
        while not g.is_game_over():
            self.assertFalse(g.is_repetition())
            g.play(g.position.legal_moves[0])
        self.assertTrue(g.is_repetition())
        self.assertEqual(g.game_over, "repetition")
        self.assertEqual(g.final_score(), (1.0, 1.0))
        self.assertEqual(g.positions[-1], g.positions[-3])
        with self.assertRaises(owaredb.IllegalMove):
            g.play(1)
        # A game played to its end: stores plus the seeds left add up to the seeds.
        g = owaredb.Game(seeds_per_pit=2, pits_per_side=3)
        while not g.is_game_over():
            g.play(g.position.legal_moves[-1])
        self.assertEqual(sum(g.final_score()), 12)
        self.assertEqual(len(g.positions), len(g.moves) + 1)


class MissingAnswers(unittest.TestCase):
    """Issue #50: value(default=...), the moves of a position outside the databases, the
    rule set and the directory as the CLI finds them."""

    def cli(self, *args):
        return subprocess.run([CLI, "probe"] + list(args), capture_output=True, text=True)

    def test_value_default(self):
        tb = owaredb.Tablebase(DB, "abapa")
        self.assertIsNone(tb.value([4] * 12, default=None))
        self.assertEqual(tb.value([4] * 12, default=-99), -99)
        self.assertEqual(tb.value([1] * 6 + [0] * 6, default=None), tb.value([1] * 6 + [0] * 6))
        with self.assertRaises(owaredb.NotAvailable):
            tb.value([4] * 12)
        with self.assertRaises(owaredb.InvalidPosition):  # only a missing level gives default
            tb.value([9] * 12, default=None)

    def test_analyse_outside_carries_the_clis_moves(self):
        tb = owaredb.Tablebase(DB, "abapa")
        # 11 seeds: the capture of 2 from pit 6 reaches level 9, which is there.
        for text in ("4 4 4 4 4 4 4 4 4 4 4 4", "0 0 0 0 1 1 1 0 0 0 0 8"):
            with self.subTest(position=text):
                want = json.loads(self.cli("--json", "--dir", DB, "--rules", "abapa", text).stdout)
                with self.assertRaises(owaredb.NotAvailable) as cm:
                    tb.analyse(text)
                self.assertEqual(cm.exception.moves, want["moves"])
                self.assertEqual([m["move"] for m in cm.exception.moves],
                                 owaredb.Position(text).legal_moves)
                moves = cm.exception.moves
        self.assertEqual(moves, [{"move": 5, "captured": 0},
                                 {"move": 6, "captured": 2, "value": 11}])

    def test_rules_found_as_the_cli_finds_them(self):
        awari = os.path.join(tmp, "awari4")
        subprocess.run([CLI, "generate", "--rules", "awari", "--max-seeds", "4", "--dir", awari],
                       capture_output=True, check=True)
        for d, rules in ((awari, "awari"), (DB, "abapa")):
            want = json.loads(self.cli("--json", "--dir", d, "1 0 0 0 0 0 0 0 0 0 0 0").stdout)
            self.assertEqual(want["rules"], rules)
            tb = owaredb.Tablebase(d)
            self.assertEqual(tb.rules, rules)
            self.assertEqual(tb.value([1] + [0] * 11), want["value"])
        both = os.path.join(tmp, "both")
        shutil.copytree(awari, both)
        shutil.copy(os.path.join(DB, "abapa-01.owdb"), both)
        self.assertNotEqual(self.cli("--dir", both, "1 0 0 0 0 0 0 0 0 0 0 0").returncode, 0)
        with self.assertRaises(owaredb.InvalidRules) as cm:
            owaredb.Tablebase(both)
        self.assertIn("abapa and awari", str(cm.exception))
        self.assertEqual(owaredb.Tablebase(both, "awari").rules, "awari")

    def test_no_directory_as_the_cli_says(self):
        missing = os.path.join(tmp, "nonexistent")
        run = self.cli("--dir", missing, "--rules", "abapa", "1 0 0 0 0 0 0 0 0 0 0 0")
        self.assertEqual(run.returncode, 2)
        with self.assertRaises(owaredb.NotAvailable) as cm:
            owaredb.Tablebase(missing, "abapa")
        self.assertEqual(str(cm.exception), "no database directory '%s' (see owaredb generate)"
                         % missing)
        self.assertIn(str(cm.exception), run.stderr)
        a_file = os.path.join(DB, "abapa-01.owdb")
        with self.assertRaises(owaredb.IoError) as cm:
            owaredb.Tablebase(a_file, "abapa")
        self.assertIn(str(cm.exception), self.cli("--dir", a_file, "1 0 0 0 0 0 0 0 0 0 0 0").stderr)


def search_words(r):
    """A SearchResult in the words of `probe --search --json`'s "search" member, less the
    time it took (and the budget, the caller's)."""
    return {"kind": r.kind, "move": r.move, "value": r.value, "depth": r.depth,
            "nodes": r.nodes, "pv": r.pv,
            "moves": [{"move": m.move, "captured": m.captured, "value": m.value,
                       "bound": m.bound, "proven": m.proven} for m in r.moves]}


class Search(unittest.TestCase):
    """Issue #50: the search above the levels built (tb.search), as `probe --search` gives
    it, proven where the databases one level up say so."""

    def cli_search(self, text, budget="100000n", db=None):
        run = subprocess.run([CLI, "probe", "--json", "--dir", db or DB, "--rules", "abapa",
                              "--search", budget, text], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        answer = json.loads(run.stdout)["search"]
        self.assertEqual(answer["budget"], {"nodes": 100000, "seconds": None})
        del answer["seconds"], answer["budget"]
        return answer

    def test_against_cli(self):
        tb = owaredb.Tablebase(DB, "abapa")
        rng = np.random.default_rng(50)
        texts = [" ".join(map(str, p)) for p in random_positions(rng, 5, 11, 14)]
        # The start, a game over above the levels, a position inside them.
        texts += ["4 4 4 4 4 4 4 4 4 4 4 4", "0 0 0 0 0 0 11 0 0 0 0 0",
                  "1 0 0 1 0 1 0 1 0 0 1 0"]
        kinds = set()
        for text in texts:
            with self.subTest(position=text):
                got = tb.search(text, nodes=100000)
                self.assertEqual(search_words(got), self.cli_search(text))
                self.assertGreaterEqual(got.seconds, 0)
                kinds.add(got.kind)
                # A Position and a list are the same position.
                again = tb.search(owaredb.Position(text, "awari"), nodes=100000)
                self.assertEqual(search_words(again), search_words(got))
        self.assertEqual(kinds, {"proven", "estimate"})
        over = tb.search("0 0 0 0 0 0 11 0 0 0 0 0", nodes=1)
        self.assertEqual((over.kind, over.move, over.value, over.moves), ("proven", None, -11, []))
        self.assertIn("kind='estimate'", repr(tb.search(texts[1], nodes=1000)))

    def test_proven_scores_are_the_databases_one_level_up(self):
        below = os.path.join(tmp, "search-below")  # levels 0..9: level 10 is searched
        os.makedirs(below, exist_ok=True)
        for n in range(MAX_SEEDS):
            shutil.copy(os.path.join(DB, "abapa-%02d.owdb" % n), below)
        full = owaredb.Tablebase(DB, "abapa")
        tb = owaredb.Tablebase(below, "abapa")
        self.assertEqual(tb.available_levels(), list(range(MAX_SEEDS)))
        rng = np.random.default_rng(7)
        proven = 0
        # Most lines from one level up go round without a capture: few answers are proven.
        for p in random_positions(rng, 300, MAX_SEEDS, MAX_SEEDS, stored_only=True):
            r = tb.search(p, nodes=5000)
            truth = full.analyse(p)
            if r.kind != "proven":
                continue
            proven += 1
            self.assertEqual(r.value, truth.value)
            self.assertTrue(r.move in truth.best or truth.terminal)
            for m, t in zip(r.moves, truth.moves):
                self.assertEqual((m.move, m.captured), (t.pit, t.captured))
                if m.proven and m.bound == "exact":
                    self.assertEqual(m.value, t.value)
                elif m.proven:
                    self.assertLessEqual(t.value, m.value)
        self.assertGreaterEqual(proven, 10)

    def test_bad_budgets_raise(self):
        tb = owaredb.Tablebase(DB, "abapa")
        pos = [1] * 12
        with self.assertRaises(ValueError) as cm:
            tb.search(pos)
        self.assertIn("needs a budget", str(cm.exception))
        for kw in ({"nodes": -1}, {"nodes": 0}, {"nodes": 2 ** 64}, {"seconds": -1},
                   {"seconds": 0}, {"seconds": float("nan")}, {"seconds": float("inf")},
                   {"nodes": 10, "seconds": -0.5}):
            with self.subTest(**kw), self.assertRaises(ValueError) as cm:
                tb.search(pos, **kw)
            self.assertRegex(str(cm.exception), "^(nodes|seconds) must be a positive")
        for kw in ({"nodes": True}, {"nodes": 1.5}, {"seconds": "1"}):
            with self.subTest(**kw), self.assertRaises(TypeError):
                tb.search(pos, **kw)
        with self.assertRaises(owaredb.InvalidPosition) as cm:
            tb.search(pos, nodes=10, max_depth=0)
        self.assertIn("max_depth 0", str(cm.exception))
        with self.assertRaises(owaredb.InvalidPosition):
            tb.search([1] * 11, nodes=10)
        with self.assertRaises(TypeError):
            tb.search(pos, 10)  # the budget is named
        self.assertEqual(tb.search(pos, nodes=10, max_depth=1).depth, 1)
        self.assertGreater(tb.search(pos, seconds=0.01).nodes, 0)
        tb.close()
        with self.assertRaises(ValueError):
            tb.search(pos, nodes=10)

    def test_gil_released(self):
        # While one thread searches, the main thread keeps running Python code.
        tb = owaredb.Tablebase(DB, "abapa")
        result = assert_gil_released(self, lambda: tb.search([4] * 12, seconds=0.3))
        self.assertEqual(result.kind, "estimate")

if __name__ == "__main__":
    unittest.main()
