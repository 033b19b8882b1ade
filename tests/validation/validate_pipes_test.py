#!/usr/bin/env python3
"""Tests of scripts/validate_pipes.py (docs/validation.md, "Pipe physics") without warpsim: the
bound from a tiny fixture table and profile, the kernel per compute capability, the summary, the
measured CSV parser, the docs writer and the one-line errors (exit 2) on bad input.

    validate_pipes_test.py
"""

import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import validate_pipes as vp  # noqa: E402

PROFILE = """name = "Fixture GPU"
compute_capability = "9.0"
clock_mhz = 1000
sm_count = 2
"""
OLD_PROFILE = """name = "Old GPU"
compute_capability = "6.1"
clock_mhz = 1500
sm_count = 10
"""
TABLE = """schedulers_per_sm = 4
[throughput]
fp32 = 128
fp16 = 256
tensor_f16 = 1024
sfu = 0
[latency]
fp32 = 4
"""


def kernel(name):
    return next(k for k in vp.KERNELS if k.kernel == name)


class Fixture(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = Path(self.tmp.name)
        (d / "gpus").mkdir()
        (d / "gpus/fix.toml").write_text(PROFILE)
        (d / "gpus/old.toml").write_text(OLD_PROFILE)
        (d / "tables").mkdir()
        (d / "tables/cc_9_0.toml").write_text(TABLE)
        self.dir = d

    def tearDown(self):
        self.tmp.cleanup()


class Bound(Fixture):
    def test_profiles_and_table(self):
        ps = vp.load_profiles(self.dir / "gpus")
        self.assertEqual([p.id for p in ps], ["fix"])  # CC 6.1 left out
        p = ps[0]
        self.assertEqual((p.cc, p.sm_count, p.clock_mhz), ((9, 0), 2, 1000.0))
        self.assertEqual(vp.table_path(self.dir / "tables", p.cc).name, "cc_9_0.toml")
        tp = vp.load_throughput(self.dir / "tables/cc_9_0.toml")
        self.assertEqual(tp["fp32"], 128.0)
        self.assertEqual(vp.launch_for(p), vp.Launch(vp.BLOCKS_PER_SM * 2, 256, vp.ITERS))

    def test_bound_by_hand(self):
        p = vp.load_profiles(self.dir / "gpus")[0]
        launch = vp.Launch(grid=4, block=256, iters=10)
        # fp32: 1024 threads x 10 iterations x 64 FFMA = 655360 results; 128 x 2 SMs x 1000 MHz
        # = 256000 results per microsecond -> 2.56 us.
        self.assertEqual(vp.work(kernel("pipe_fp32"), launch), 655360.0)
        self.assertAlmostEqual(vp.bound_us(kernel("pipe_fp32"), launch, p, 128.0), 2.56)
        # fp16x2: two results per instruction, at 256 per clock: the same time.
        self.assertAlmostEqual(vp.bound_us(kernel("pipe_fp16x2"), launch, p, 256.0), 2.56)
        # tensor: 32 warps x 10 x 64 mma x 2048 FMAs = 41943040 FMAs / (1024 x 2 x 1000) = 20.48 us
        self.assertEqual(vp.work(kernel("pipe_tensor"), launch), 32 * 10 * 64 * 2048.0)
        self.assertAlmostEqual(vp.bound_us(kernel("pipe_tensor"), launch, p, 1024.0), 20.48)
        self.assertAlmostEqual(vp.bound_us(kernel("pipe_tensor_k8"), launch, p, 1024.0), 10.24)
        with self.assertRaises(vp.BadInput):
            vp.bound_us(kernel("pipe_sfu"), launch, p, 0.0)

    def test_kernel_per_cc(self):
        self.assertEqual(vp.kernel_for("tensor", (9, 0)).kernel, "pipe_tensor")
        self.assertEqual(vp.kernel_for("tensor", (8, 0)).kernel, "pipe_tensor")
        self.assertEqual(vp.kernel_for("tensor", (7, 5)).kernel, "pipe_tensor_k8")
        self.assertEqual(vp.kernel_for("tensor", (7, 0)).kernel, "pipe_tensor_k8")
        self.assertEqual(vp.kernel_for("fp32", (12, 0)).kernel, "pipe_fp32")
        self.assertIsNone(vp.kernel_for("nope", (9, 0)))
        # every class has exactly one kernel on every CC from 7.0 on
        for cc in [(7, 0), (7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0)]:
            for cls in vp.CLASSES:
                self.assertEqual(sum(k.cls == cls and k.min_cc <= cc <= k.max_cc for k in vp.KERNELS), 1)

    def test_plan_notes(self):
        ps = vp.load_profiles(self.dir / "gpus")
        rows = {r["class"]: r for r in vp.plan(ps, self.dir / "tables", vp.CLASSES)}
        self.assertEqual(rows["fp32"]["throughput"], 128.0)
        self.assertIsNotNone(rows["fp32"]["bound_us"])
        self.assertIn("no throughput.fp64", rows["fp64"]["note"])
        self.assertIn("= 0", rows["sfu"]["note"])
        self.assertIsNone(rows["sfu"]["bound_us"])

    def test_bad_table(self):
        bad = self.dir / "tables/cc_8_0.toml"
        bad.write_text("[throughput]\nfp32 = \"fast\"\n")
        with self.assertRaises(vp.BadInput):
            vp.load_throughput(bad)
        bad.write_text("[latency]\nfp32 = 4\n")
        with self.assertRaises(vp.BadInput):
            vp.load_throughput(bad)


class Scores(unittest.TestCase):
    def rows(self):
        def r(gpu, cls, ratio):
            return {"gpu": gpu, "cc": "9.0", "class": cls, "kernel": "k", "throughput": 1.0,
                    "predicted_us": ratio, "bound_us": 1.0 if ratio is not None else None,
                    "ratio": ratio, "note": "", "launch": vp.Launch(1, 256, 1)}
        return [r("a", "fp32", 1.05), r("b", "fp32", 1.31), r("c", "fp32", 0.9),
                r("a", "sfu", 1.0), r("b", "sfu", None)]

    def test_summary_and_last_line(self):
        s = {x["class"]: x for x in vp.summarize(self.rows())}
        self.assertEqual(s["fp32"]["within"], 1)
        self.assertEqual(s["fp32"]["below"], 1)
        self.assertAlmostEqual(s["fp32"]["median"], 1.05)
        self.assertEqual((s["sfu"]["rows"], s["sfu"]["scored"], s["sfu"]["within"]), (2, 1, 1))
        self.assertEqual(vp.last_line("pipes", self.rows()),
                         "pipe physics (pipes): 2 of 5 (GPU, class) within [1, 1.3] of the bound, "
                         "1 below it, 1 not scored")

    def test_render_and_write_docs(self):
        rows = self.rows()
        text = vp.render(rows, vp.summarize(rows), "pipes")
        self.assertIn("| fp32 | 3 | 0.900 | 1.050 | 1.310 | 1 of 3 | 1 |", text)
        self.assertTrue(text.rstrip().endswith("1 not scored"))
        with tempfile.TemporaryDirectory() as d:
            doc = Path(d) / "validation.md"
            doc.write_text(f"# T\nbefore\n{vp.DOCS_BEGIN}\nold table\n{vp.DOCS_END}\nafter\n")
            vp.write_docs(doc, text)
            vp.write_docs(doc, text)  # idempotent
            out = doc.read_text()
            self.assertNotIn("old table", out)
            self.assertEqual(out.count("#### Per class"), 1)
            self.assertTrue(out.startswith(f"# T\nbefore\n{vp.DOCS_BEGIN}\nModel `pipes`"))
            self.assertTrue(out.endswith(f"1 not scored\n{vp.DOCS_END}\nafter\n"))
            nomark = Path(d) / "no.md"
            nomark.write_text("# nothing\n")
            with self.assertRaises(vp.BadInput):
                vp.write_docs(nomark, text)

    def test_render_measured(self):
        rows = self.rows()
        rows[0]["measured_us"] = 0.5
        m = [{"kernel": "pipe_fp32", "grid": 1, "block": 256, "iters": 1, "measured_us": 2.0,
              "predicted_us": 3.0, "bound_us": 1.0}]
        text = vp.render(rows, vp.summarize(rows), "pipes", m, "h100")
        self.assertIn("| a | 9.0 | fp32 | k | 1 | 1.1 | 1.0 | 1.050 | 0.5 | 2.100 |", text)
        self.assertIn("#### Measured on h100", text)
        self.assertIn("| pipe_fp32 | 1 | 256 | 1 | 2.0 | 3.0 | 1.0 | 1.500 | 2.000 |", text)


class Measured(unittest.TestCase):
    def test_parse(self):
        text = "# warpsim-measure pipes on H100\npipes,pipe_fp32,15840,256,1024,9.5\npipes,pipe_sfu,15840,256,1024,70\n"
        rows = vp.parse_measured(text)
        self.assertEqual(rows[0], {"kernel": "pipe_fp32", "grid": 15840, "block": 256, "iters": 1024,
                                   "measured_us": 9500.0})
        self.assertEqual(rows[1]["measured_us"], 70000.0)

    def test_bad(self):
        for bad in ("pipes,pipe_fp32,1,256,1024\n", "pipes,pipe_nope,1,256,1024,1\n",
                    "pipes,pipe_fp32,x,256,1024,1\n", "pipes,pipe_fp32,1,256,1024,0\n",
                    "other,pipe_fp32,1,256,1024,1\n", "# only a comment\n"):
            with self.assertRaises(vp.BadInput, msg=bad):
                vp.parse_measured(bad)


class Cli(Fixture):
    def run_main(self, *argv):
        err, out = io.StringIO(), io.StringIO()
        with redirect_stderr(err), redirect_stdout(out):
            rc = vp.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def test_bad_input_is_one_line_exit_2(self):
        t = str(self.dir / "tables")
        g = str(self.dir / "gpus")
        cases = [
            ("--tables", str(self.dir / "none")),
            ("--tables", t, "--gpus-dir", g, "--gpus", "nope"),
            ("--tables", t, "--gpus-dir", g, "--gpus", "old"),
            ("--tables", t, "--gpus-dir", g, "--classes", "fp128"),
            ("--tables", t, "--gpus-dir", g, "--warpsim", str(self.dir / "no-warpsim")),
            ("--tables", t, "--gpus-dir", g, "--measured", str(self.dir / "none.csv"), "--measured-gpu", "fix"),
            ("--tables", t, "--gpus-dir", g, "--ptx", str(self.dir / "none.ptx")),
            ("--no-such-option",),
        ]
        for argv in cases:
            rc, out, err = self.run_main(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertEqual(out, "", argv)
            self.assertEqual(len(err.strip().splitlines()), 1, (argv, err))
            self.assertTrue(err.startswith("validate-pipes: error: "), err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
