#!/usr/bin/env python3
"""Tests of scripts/corpus_lib.py (the corpus test of real PTX, docs/reliability.md) without nvcc
or warpsim: the kernels and parameters read from PTX text, the values a run gives them, the
outcome classes, the percentiles, the summary line and the tables; and scripts/corpus.py's
suite file and one-line errors (exit 2).

    corpus_lib_test.py
"""

import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import corpus  # noqa: E402
import corpus_lib as lib  # noqa: E402

PTX = """
.version 9.0
.target sm_80
.visible .entry _Z6kernelPfifb(
	.param .u64 .ptr .global .align 4 _Z6kernelPfifb_param_0,
	.param .u32 _Z6kernelPfifb_param_1,
	.param .f32 _Z6kernelPfifb_param_2,
	.param .u8 _Z6kernelPfifb_param_3
)
{
	ret;
}
.weak .entry _Z4tmplI6float4EvT_Pi(
	.param .align 16 .b8 _Z4tmplI6float4EvT_Pi_param_0[16],
	.param .u64 _Z4tmplI6float4EvT_Pi_param_1
)
{
	ret;
}
.entry plain_c(
	.param .u64 plain_c_param_0,
	.param .u32 plain_c_param_1,
	.param .f64 plain_c_param_2
)
{
	ret;
}
.visible .entry noargs()
{
	ret;
}
.visible .entry bounded(
	.param .u32 bounded_param_0
)
.maxntid 128, 1, 1
.minnctapersm 4
{
	ret;
}
.entry required()
.reqntid 16, 8
{
	ret;
}
"""


class PtxEntries(unittest.TestCase):
    def test_every_entry_with_its_parameters(self):
        entries = lib.ptx_entries(PTX)
        self.assertEqual([e.name for e in entries],
                         ["_Z6kernelPfifb", "_Z4tmplI6float4EvT_Pi", "plain_c", "noargs", "bounded", "required"])
        k = entries[0]
        self.assertEqual([p.ptx_type for p in k.params], ["u64", "u32", "f32", "u8"])
        self.assertTrue(k.params[0].has_ptr_attr)
        self.assertEqual(k.params[1].ptx_name, "_Z6kernelPfifb_param_1")
        t = entries[1]
        self.assertTrue(t.params[0].is_array)
        self.assertEqual(t.params[0].ptx_name, "_Z4tmplI6float4EvT_Pi_param_0")
        self.assertEqual(entries[3].params, [])
        self.assertIsNone(entries[3].maxntid)
        self.assertEqual(entries[4].maxntid, (128, 1, 1))
        self.assertEqual([p.ptx_type for p in entries[4].params], ["u32"])
        self.assertEqual(entries[5].reqntid, (16, 8))

    def test_a_kernel_with_its_own_bounds_is_launched_within_them(self):
        _, _, _, noargs, bounded, required = lib.ptx_entries(PTX)
        self.assertEqual(lib.block_for(noargs, "256"), "256")
        self.assertEqual(lib.block_for(bounded, "256"), "128,1,1")  # CUDA would refuse 256 threads
        self.assertEqual(lib.block_for(bounded, "128"), "128")      # within the bound: as asked
        self.assertEqual(lib.block_for(bounded, "16,4"), "16,4")
        self.assertEqual(lib.block_for(required, "256"), "16,8")    # .reqntid: exactly
        self.assertEqual(lib.block_for(required, "16,8,1"), "16,8")

    def test_cxx_argument_types(self):
        self.assertEqual(lib.cxx_argument_types("kernel(float*, int, float, bool)"), ["float*", "int", "float", "bool"])
        self.assertEqual(lib.cxx_argument_types("void tmpl<float4>(float4, int*)"), ["float4", "int*"])
        self.assertEqual(lib.cxx_argument_types("k<2, 3>(Foo<int, 4>, float (*) [4], double)"),
                         ["Foo<int, 4>", "float (*) [4]", "double"])
        self.assertEqual(lib.cxx_argument_types("noargs()"), [])
        self.assertIsNone(lib.cxx_argument_types("plain_c"))

    def test_values_given(self):
        k, t, c, n = lib.ptx_entries(PTX)[:4]
        self.assertEqual(lib.parameter_values(k, ["float*", "int", "float", "bool"]), {1: "256", 2: "1.0", 3: "1"})
        # A struct by value gets none; a pointer in C++ gets none however PTX types it.
        self.assertEqual(lib.parameter_values(t, ["float4", "int*"]), {})
        self.assertEqual(lib.parameter_values(t, ["float4", "unsigned long"]), {1: "256"})
        # extern "C": no C++ types; an unsigned 64-bit parameter is taken for a pointer, as warpsim does.
        self.assertEqual(lib.parameter_values(c, None), {1: "256", 2: "1.0"})
        # C++ types that do not match the PTX parameters are not used.
        self.assertEqual(lib.parameter_values(c, ["int"]), {1: "256", 2: "1.0"})
        self.assertEqual(lib.parameter_values(n, []), {})
        # A template argument with a pointer is not a pointer; a half has no value.
        self.assertEqual(lib.parameter_values(lib.Entry("h", [lib.Param("p0", "b16", False, False),
                                                              lib.Param("p1", "b64", False, False)]),
                                              ["__half", "Foo<int*>"]), {1: "256"})


class Outcomes(unittest.TestCase):
    def test_classify(self):
        self.assertEqual(lib.classify(0, False), "predicted")
        self.assertEqual(lib.classify(2, False), "refused")
        for rc in (1, 130, -11, 134):
            self.assertEqual(lib.classify(rc, False), "failed")
        self.assertEqual(lib.classify(0, True), "failed")
        self.assertEqual(lib.classify(None, False), "failed")

    def test_first_line_is_the_last_non_empty_line(self):
        self.assertEqual(lib.first_line("\rlowering [##] 50%\nwarpsim: error: a.ptx:3:1: bad\n\n"),
                         "warpsim: error: a.ptx:3:1: bad")
        self.assertEqual(lib.first_line(""), "")

    def test_percentile_nearest_rank(self):
        xs = [5.0, 1.0, 4.0, 2.0, 3.0]
        self.assertEqual(lib.percentile(xs, 50), 3.0)
        self.assertEqual(lib.percentile(xs, 90), 5.0)
        self.assertEqual(lib.percentile(xs, 20), 1.0)
        self.assertEqual(lib.percentile([7.0], 99), 7.0)
        self.assertNotEqual(lib.percentile([], 50), lib.percentile([], 50))  # nan

    def rows(self):
        def row(kernel, outcome, seconds, message="", emulate_all=""):
            return {"suite": "s", "build": "b", "file": "f.cu", "kernel": kernel, "outcome": outcome,
                    "seconds": seconds, "message": message, "emulate_all": emulate_all}
        return [row("a", "predicted", 0.05, emulate_all="equal"), row("b", "predicted", 1.5, emulate_all="equal"),
                row("c", "refused", 0.01, "warpsim: error: f.ptx:12:3: kernel c parameter 4 (x, int) has no value"),
                row("d", "failed", 10.2, "still running after 10 s (stopped)")]

    def test_summary_line(self):
        self.assertEqual(lib.summary_line(self.rows()), "corpus: 4 kernels, 2 predicted, 1 refused, 1 failed, slowest 10.20 s")
        self.assertEqual(lib.summary_line([]), "corpus: 0 kernels, 0 predicted, 0 refused, 0 failed, slowest 0.00 s")

    def test_tables(self):
        text = "\n".join(lib.markdown(self.rows(), not_built=7, timeout=10))
        self.assertIn("| s | b | 4 | 2 | 1 | 1 |", text)
        self.assertIn("Files that did not compile (not counted as kernels): 7.", text)
        self.assertIn("| 0.050 | 1.500 | 1.500 | 1.500 | 1 | 1 |", text)  # median, 90th, 99th (nearest rank), slowest, >1 s, >0.1 s
        self.assertIn("| s | b | f.cu | `d` | still running after 10 s (stopped) |", text)
        self.assertIn("| s | b | f.cu | `b` | 1.50 |", text)
        self.assertIn("| 1 | kernel K parameter N (x, int) has no value |", text)  # location, name dropped, numbers N
        self.assertIn("2 equal", text)
        self.assertTrue(text.endswith(lib.summary_line(self.rows())))

    def test_fast_path_checks_are_counted(self):
        rows = self.rows()
        rows[0].update(small_check="equal", full_check="different", sampled="16 of 1024")
        rows[1].update(small_check="skipped (--emulate-all failed: still running after 10 s (stopped))")
        self.assertEqual(lib.check_counts(rows, "small_check"), "1 equal, 0 different, 1 skipped")
        self.assertEqual(lib.check_counts(rows, "full_check"), "0 equal, 1 different, 0 skipped")
        text = "\n".join(lib.markdown(rows, not_built=0, timeout=10, checks=("4 x 256", 20, 20261129, 10.0)))
        self.assertIn("every predicted kernel at 4 x 256: 1 equal, 0 different, 1 skipped", text)
        self.assertIn("a seeded sample of 20 at the full launch (seed 20261129): 0 equal, 1 different, 0 skipped", text)
        self.assertIn("Sampled (each block its own path, over the work budget): 1 kernels.", text)


class SuiteFile(unittest.TestCase):
    def test_the_committed_suites_pin_full_commits(self):
        suites, builds, compat = corpus.load_suites(ROOT / "scripts/corpus/suites.toml", [])
        self.assertEqual(sorted(s["name"] for s in suites), ["cuda-samples", "polybench-gpu", "rodinia", "shoc"])
        for s in suites:
            self.assertRegex(s["commit"], r"^[0-9a-f]{40}$")
        self.assertEqual([b["name"] for b in builds], ["sm_80-O3", "sm_90-lineinfo", "sm_75-G"])
        self.assertTrue(all(f.startswith("-D") for f in compat))
        only, _, _ = corpus.load_suites(ROOT / "scripts/corpus/suites.toml", ["shoc"])
        self.assertEqual([s["name"] for s in only], ["shoc"])

    def test_bad_input_is_one_line_and_exit_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "suites.toml"
            cases = {"[[suite]]\nname = 'x'\n": "suite x has no `repository`",
                     "[[suite]\n": str(bad)}
            for text, expected in cases.items():
                bad.write_text(text)
                with self.assertRaises(corpus.Fail) as e:
                    corpus.load_suites(bad, [])
                self.assertIn(expected, str(e.exception))
            with self.assertRaises(corpus.Fail) as e:
                corpus.load_suites(ROOT / "scripts/corpus/suites.toml", ["nosuch"])
            self.assertIn("--only nosuch: no such suite", str(e.exception))
            # Through main: exit 2 and one line.
            bad.write_text("[[suite]]\nname = 'x'\n")
            err = io.StringIO()
            with redirect_stderr(err), self.assertRaises(SystemExit) as code:
                corpus.entry_point(["--suites", str(bad), "--out", tmp])
            self.assertEqual(code.exception.code, 2)
            self.assertEqual(err.getvalue().count("\n"), 1)
            self.assertTrue(err.getvalue().startswith("corpus: "))


if __name__ == "__main__":
    unittest.main()
