#!/usr/bin/env python3
"""Tests of scripts/validate_public.py (docs/validation.md) without the public repositories:
its parsing, conversions and scores on cases with known answers, the recipes' checks, and (with
nvcc, git and a warpsim binary) the whole pipeline on a synthetic fixture whose "public
repository" (tests/validation/public_fixture/repo) is committed into a scratch git repository.

    validate_public_test.py [WARPSIM]

Without WARPSIM, nvcc or git the pipeline test is skipped (the library tests always run)."""

import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import validate_public as vp  # noqa: E402
import validate_public_lib as lib  # noqa: E402
import validate_public_recipes as rec  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "public_fixture"
WARPSIM = sys.argv[1] if len(sys.argv) > 1 else None


class Parsing(unittest.TestCase):
    def test_shapes(self):
        self.assertEqual(lib.parse_shape("(64,64,1)"), (64, 64, 1))
        self.assertEqual(lib.parse_shape("(1024,1,1) per source"), (1024, 1, 1))
        self.assertEqual(lib.parse_shape("(864,1,1) = GetNumBlocks: min(N/256, 108)"), (864, 1, 1))
        for bad in ("multi-kernel", "(0,1,1)", "(1,1)"):
            with self.assertRaises(ValueError):
                lib.parse_shape(bad)

    def test_sizes(self):
        self.assertEqual(lib.parse_size("M=N=K=16384"), {"m": 16384, "n": 16384, "k": 16384})
        self.assertEqual(lib.parse_size("N=32*1024*1024 fp32 (first-stage reduce)"), {"n": 33554432})
        self.assertEqual(lib.parse_size("N=1111490560 doubles per array (8891.9 MB/array)"), {"n": 1111490560})
        self.assertEqual(lib.parse_size("Num Rows 1=512;Num Cols 1 / Rows 2=256;Num Threads=16"),
                         {"num_rows_1": 512, "num_cols_1_rows_2": 256, "num_threads": 16})
        for bad in ("N", "N=fast", "=5"):
            with self.assertRaises(ValueError):
                lib.parse_size(bad)

    def test_values_and_commits(self):
        self.assertEqual(lib.parse_value("66.7"), 66.7)
        self.assertAlmostEqual(lib.parse_value("10.1-10.2"), 10.15, places=12)
        with self.assertRaises(ValueError):
            lib.parse_value("fast")
        c = "913851bc9ce19cbd14267d56c2f4aacc303286a1"
        self.assertEqual(lib.leading_commit(c + " (results file); fetch HEAD a972fb5"), c)
        with self.assertRaises(ValueError):
            lib.leading_commit("913851b (short)")

    def test_expressions(self):
        env = {"n": 10, "reps": 3}
        self.assertEqual(lib.eval_expr("2 * n * 8", env), 160)
        self.assertEqual(lib.eval_expr("(n + 3) // 4 - -1", env), 4)
        self.assertEqual(lib.eval_expr("n % reps", env), 1)
        self.assertEqual(lib.eval_expr(7, env), 7)
        for bad in ("n / 2", "__import__('os')", "n ** 2", "m", "n +"):
            with self.assertRaises(ValueError):
                lib.eval_expr(bad, env)

    def test_measured_times(self):
        self.assertEqual(lib.measured_us(1500, "ns (nsight)"), 1.5)
        self.assertEqual(lib.measured_us(2.5, "ms (min of 5)"), 2500.0)
        self.assertEqual(lib.measured_us(12.0, "us (NvBench cold GPU time, mean)"), 12.0)
        # 8e6 bytes at 4e6 MB/s (4e12 B/s) = 2 us; 4e12 flops at 2 TFLOP/s = 2 s.
        self.assertAlmostEqual(lib.measured_us(4e6, "MB/s (1e6 B/s)", bytes_moved=8_000_000), 2.0, places=12)
        self.assertAlmostEqual(lib.measured_us(2.0, "TFLOP/s", flops=4 * 10**12), 2e6, places=6)
        with self.assertRaises(ValueError):
            lib.measured_us(1.0, "MB/s")  # no bytes
        with self.assertRaises(ValueError):
            lib.measured_us(1.0, "furlongs")
        with self.assertRaises(ValueError):
            lib.measured_us(0.0, "us")

    def test_architectures(self):
        self.assertEqual(lib.arch_for("6.1"), ("sm_75", True))
        self.assertEqual(lib.arch_for("7.5"), ("sm_75", False))
        self.assertEqual(lib.arch_for("12.0"), ("sm_120", False))
        with self.assertRaises(ValueError):
            lib.arch_for("nine")

    def test_entry_names(self):
        self.assertEqual(vp.normalise_entry("void reduce5<256u>(float*, float*)"), "reduce5<256>")
        self.assertEqual(vp.normalise_entry("void reduce6<256u, 128>(float*, float*, unsigned int)"), "reduce6<256,128>")
        self.assertEqual(vp.normalise_entry("void mat_mat_mul<unsigned int>(unsigned int*, int)"),
                         "mat_mat_mul<unsignedint>")
        self.assertEqual(vp.normalise_entry("reduce6<256, 128>"), "reduce6<256,128>")


class Scores(unittest.TestCase):
    def test_ranks_and_spearman(self):
        self.assertEqual(lib.ranks([10, 30, 20, 20]), [1.0, 4.0, 2.5, 2.5])
        self.assertAlmostEqual(lib.spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1.0, places=12)
        self.assertAlmostEqual(lib.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0, places=12)
        # d = (0, 1, -1, 0): rho = 1 - 6*2/(4*15) = 0.8 (no ties).
        self.assertAlmostEqual(lib.spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8, places=12)
        self.assertTrue(math.isnan(lib.spearman([1, 2], [1, 2])))
        self.assertTrue(math.isnan(lib.spearman([1, 2, 3], [5, 5, 5])))

    def test_group_scores_and_summary(self):
        pts = [  # two GPUs; family f on g1 ranks right, family f on g2 ranks backwards
            {"gpu": "g1", "family": "f", "source": "s", "predicted_us": 2.0, "measured_us": 1.0},
            {"gpu": "g1", "family": "f", "source": "s", "predicted_us": 4.0, "measured_us": 4.0},
            {"gpu": "g1", "family": "f", "source": "s", "predicted_us": 9.0, "measured_us": 6.0},
            {"gpu": "g2", "family": "f", "source": "t", "predicted_us": 3.0, "measured_us": 1.0},
            {"gpu": "g2", "family": "f", "source": "t", "predicted_us": 2.0, "measured_us": 2.0},
            {"gpu": "g2", "family": "f", "source": "t", "predicted_us": 1.0, "measured_us": 4.0},
        ]
        s = lib.group_scores(pts, lambda p: p["source"])
        self.assertEqual(s["s"]["rows"], 3)
        self.assertAlmostEqual(s["s"]["mean_error_pct"], (100 + 0 + 50) / 3, places=9)
        self.assertAlmostEqual(s["s"]["median_ratio"], 1.5, places=12)
        self.assertAlmostEqual(s["s"]["rank_correlation"], 1.0, places=12)
        self.assertAlmostEqual(s["t"]["rank_correlation"], -1.0, places=12)
        self.assertAlmostEqual(s["t"]["min_ratio"], 0.25, places=12)
        both = lib.group_scores(pts, lambda p: "all")["all"]
        self.assertAlmostEqual(both["rank_correlation"], 0.0, places=12)  # mean of +1 and -1
        self.assertEqual(both["gpus"], 2)
        # mean error = (100 + 0 + 50 + 200 + 0 + 75) / 6 = 70.8333
        self.assertEqual(lib.summary_line(pts),
                         "public measurements: 6 rows, 2 GPUs, mean error 70.8%, rank correlation 0.00")
        self.assertEqual(lib.summary_line([]), "public measurements: 0 rows, 0 GPUs, mean error -, rank correlation -")

    def test_markdown_table(self):
        t = lib.markdown_table("T", ["gpu", "arch"], {("g", "sm_75"): {
            "rows": 2, "mean_error_pct": 12.345, "median_ratio": 1.0, "min_ratio": 0.5, "max_ratio": 2.0,
            "rank_correlation": math.nan}})
        self.assertEqual(t[2], "| gpu | arch | rows | mean error % | median ratio | min ratio | max ratio | rank corr. |")
        self.assertEqual(t[4], "| g | sm_75 | 2 | 12.3 | 1.000 | 0.500 | 2.000 | - |")


class Recipes(unittest.TestCase):
    def test_fixture_recipes(self):
        r = rec.load_recipes(FIXTURE / "recipes.toml")
        self.assertEqual(r.gpus, {"Test GPU A": "t4", "Test GPU B": "a100"})
        (s,) = r.sources
        self.assertEqual([k.rows for k in s.kernels], ["scale<float>", "copy_kernel", "fma_kernel"])
        self.assertEqual(s.kernels[1].file, "stream.cu")  # from the kernel set
        self.assertEqual(s.kernels[2].params, {2: "n", 3: "reps"})

    def test_planning(self):
        r = rec.load_recipes(FIXTURE / "recipes.toml")
        rows = rec.read_rows(FIXTURE / "rows.csv")
        for row in rows:
            row["commit"] = "c" * 40 + " (x)" if row["commit"].startswith("COMMIT") else row["commit"]
        plans = [rec.plan_row(row, r, f"rows.csv:{row['line']}") for row in rows]
        reasons = [p.reason for p in plans]
        self.assertEqual(reasons[:5], [None] * 5)
        self.assertEqual(reasons[5], "no profile for GPU 'Test GPU C' in [gpus]")
        self.assertEqual(reasons[6], "compound: several kernels in one timed region")
        self.assertEqual(reasons[7], "no recipe for source example/other")
        self.assertEqual(plans[0].params, {2: 1048576})
        self.assertAlmostEqual(plans[0].measured_us, 2 * 1048576 * 4 / 400000, places=9)
        self.assertEqual(plans[1].params, {2: 4194304})
        self.assertAlmostEqual(plans[2].measured_us, 2 * 1048576 * 64 / 0.30e12 * 1e6, places=6)
        self.assertEqual(plans[3].params, {2: 1048576, 3: 256})
        self.assertEqual(plans[4].measured_us, 50.0)
        self.assertEqual(plans[0].commit, "c" * 40)
        self.assertEqual(plans[0].grid, (4096, 1, 1))

    def test_errors_name_the_place(self):
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "recipes.toml"
            bad.write_text((FIXTURE / "recipes.toml").read_text().replace('rows = "copy_kernel"',
                                                                          'rows = "copy_kernel"\ncolour = "red"'))
            with self.assertRaisesRegex(lib.Fail, r"recipes.toml: \[\[source\]\] fixture, kernel 'copy_kernel': unknown key\(s\) colour"):
                rec.load_recipes(bad)
            bad.write_text((FIXTURE / "recipes.toml").read_text().replace('"2 * n * 4"', '"2 * size * 4"'))
            r = rec.load_recipes(bad)
            row = rec.read_rows(FIXTURE / "rows.csv")[0]
            row["commit"] = "c" * 40
            with self.assertRaisesRegex(lib.Fail, r"^rows.csv:2: expression '2 \* size \* 4': 'size' is not a size"):
                rec.plan_row(row, r, "rows.csv:2")

    def test_committed_recipes_cover_the_data(self):
        """Every GPU of ../shared/data/public has a profile in [gpus]; every row has a source."""
        r = rec.load_recipes(ROOT / "scripts" / "validate-public" / "recipes.toml")
        data = ROOT.parent / "shared" / "data" / "public" / "rows.csv"
        if not data.is_file():
            self.skipTest(f"{data} is not beside the repository")
        rows = rec.read_rows(data)
        self.assertEqual(sorted({row["gpu"] for row in rows} - set(r.gpus)), [])
        plans = [rec.plan_row(row, r, f"{data}:{row['line']}") for row in rows]
        self.assertEqual([p.reason for p in plans if p.reason and not p.reason.startswith("compound")], [])

    @unittest.skipUnless(WARPSIM, "needs the warpsim binary (argument 1)")
    def test_every_mapped_profile_is_built_in(self):
        r = rec.load_recipes(ROOT / "scripts" / "validate-public" / "recipes.toml")
        facts = vp.gpu_facts(WARPSIM, set(r.gpus.values()))
        self.assertEqual(sorted(set(r.gpus.values()) - set(facts)), [])


@unittest.skipUnless(WARPSIM and shutil.which("nvcc") and shutil.which("git"), "needs warpsim, nvcc and git")
class Pipeline(unittest.TestCase):
    """validate_public.main on the fixture: each prediction is what `warpsim simulate` says for
    the row's launch, and the last line is the lib's summary of results.csv."""

    def test_fixture_end_to_end(self):
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            repo = d / "repos" / "example" / "stream"
            shutil.copytree(FIXTURE / "repo", repo)
            git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "fixture"], check=True)
            commit = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
            data = d / "data"
            data.mkdir()
            (data / "rows.csv").write_text((FIXTURE / "rows.csv").read_text().replace("COMMIT", commit))
            out = d / "out"
            stdout, stderr = io.StringIO(), io.StringIO()
            with redirect_stdout(stdout), redirect_stderr(stderr):
                rc = vp.main(["--data", str(data), "--recipes", str(FIXTURE / "recipes.toml"), "--repos",
                              str(d / "repos"), "--out", str(out), "--warpsim", WARPSIM, "-j", "2"])
            self.assertEqual(rc, 0, stderr.getvalue())
            with (out / "results.csv").open(newline="") as f:
                results = list(csv.DictReader(f))
            self.assertEqual(len(results), 8)
            predicted = [r for r in results if r["predicted_us"]]
            self.assertEqual(len(predicted), 5, [r["left_out"] for r in results])
            launches = {2: ("4096", "256", ["2=1048576"]), 3: ("16384", "256", ["2=4194304"]),
                        4: ("4096", "256", ["2=1048576", "3=64"]), 5: ("8192", "128", ["2=1048576", "3=256"]),
                        6: ("2048", "1024", ["2=2097152"])}
            for r in predicted:
                grid, block, params = launches[int(r["line"])]
                ptx = next((out / "build").rglob("scale.cuh.ptx" if "scale" in r["kernel_name"] else "stream.cu.ptx"))
                entry = {"copy_kernel": "_Z11copy_kernelPKfPfi", "fma_kernel": "_Z10fma_kernelPKfPfii",
                         "scale<float>": "_Z5scaleIfEvPT_S0_i"}[r["kernel_name"]]
                cmd = [WARPSIM, "simulate", str(ptx), "--gpu", r["profile"], "--grid", grid, "--block", block,
                       "--kernel", entry, "--format", "json"] + [a for p in params for a in ("--param", p)]
                sim = subprocess.run(cmd, capture_output=True, text=True)
                self.assertEqual(sim.returncode, 0, sim.stderr)
                self.assertEqual(float(r["predicted_us"]), json.loads(sim.stdout)["time_us"], r)
                self.assertEqual(r["arch"], "sm_75" if r["profile"] == "t4" else "sm_80")
            pts = [{"gpu": r["profile"], "family": r["family"], "predicted_us": float(r["predicted_us"]),
                    "measured_us": float(r["measured_us"])} for r in predicted]
            lines = stdout.getvalue().strip().splitlines()
            self.assertEqual(lines[-1], lib.summary_line(pts))
            self.assertIn("| 1 | compound: several kernels in one timed region |", lines)
            self.assertTrue((out / "tables.md").read_text().endswith(lines[-1] + "\n"))
            self.assertTrue(any((out / "charts").iterdir()))
            self.assertFalse(any(p.suffix == ".ptx" for p in ROOT.rglob("public_fixture/**/*")))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
