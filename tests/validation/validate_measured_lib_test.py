#!/usr/bin/env python3
"""Unit test of the fitting and scoring of scripts/validate_measured.py (docs/validation.md) on
tiny synthetic cases with known answers. Not the experiment itself (that needs the measured
data beside the repository and a few minutes): `scripts/validate-measured.sh` runs it."""

import math
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import validate_measured as vm  # noqa: E402
import validate_measured_lib as lib  # noqa: E402


class FitLineRelative(unittest.TestCase):
    def test_exact_line(self):
        a, b = lib.fit_line_relative([1, 2, 4], [5, 7, 11])  # T = 3 + 2x
        self.assertAlmostEqual(a, 3.0, places=12)
        self.assertAlmostEqual(b, 2.0, places=12)

    def test_weights_are_relative(self):
        # u = 1/m = (1, 1, 1/4): normal equations give a = 6/7, b = 3/7 (by hand).
        xs, ms = [0, 1, 2], [1, 1, 4]
        a, b = lib.fit_line_relative(xs, ms)
        self.assertAlmostEqual(a, 6 / 7, places=12)
        self.assertAlmostEqual(b, 3 / 7, places=12)
        best = lib.sum_squared_relative(xs, ms, a, b)
        for da, db in ((1e-3, 0), (-1e-3, 0), (0, 1e-3), (0, -1e-3)):
            self.assertGreater(lib.sum_squared_relative(xs, ms, a + da, b + db), best)

    def test_negative_intercept_refits_through_origin(self):
        # T = -1 + 2x fits exactly, but t_p < 0 is not allowed: a = 0 and
        # b = sum(x/m) / sum(x^2/m^2) = (34/15) / (406/225) = 255/203.
        a, b = lib.fit_line_relative([1, 2, 3], [1, 3, 5])
        self.assertEqual(a, 0.0)
        self.assertAlmostEqual(b, 255 / 203, places=12)
        # Two points: a + b = 1, a + 2b = 4 gives a = -2; refit: b = 1.5 / 1.25.
        a, b = lib.fit_line_relative([1, 2], [1, 4])
        self.assertEqual(a, 0.0)
        self.assertAlmostEqual(b, 1.2, places=12)

    def test_negative_slope_refits_constant(self):
        # Times that fall with x: b = 0 and a = sum(u) / sum(u^2), the relative-error mean.
        a, b = lib.fit_line_relative([1, 2], [4, 2])
        self.assertEqual(b, 0.0)
        self.assertAlmostEqual(a, (1 / 4 + 1 / 2) / (1 / 16 + 1 / 4), places=12)

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            lib.fit_line_relative([], [])
        with self.assertRaises(ValueError):
            lib.fit_line_relative([1], [0])


class Scoring(unittest.TestCase):
    def test_mape(self):
        self.assertAlmostEqual(lib.mape([110, 90], [100, 100]), 10.0)
        self.assertAlmostEqual(lib.mape([150, 2], [100, 1]), 75.0)
        self.assertTrue(math.isnan(lib.mape([], [])))

    def test_alternate_split(self):
        self.assertEqual(lib.alternate_split([5, 1, 4, 2, 3]), ([1, 3, 5], [2, 4]))
        fit, held = lib.alternate_split([{"N": 3}, {"N": 1}, {"N": 2}], key=lambda r: r["N"])
        self.assertEqual([r["N"] for r in fit], [1, 3])
        self.assertEqual([r["N"] for r in held], [2])

    def test_work_and_launch(self):
        self.assertEqual(lib.work_of("matMul_gpu_sharedmem", 4), 64.0)
        self.assertEqual(lib.work_of("matrix_sum_normal", 4), 16.0)
        self.assertEqual(lib.work_of("dotProd", 4), 4.0)
        self.assertEqual(lib.expected_launch("matMul_gpu", 16, 1000), ((63, 63, 1), (16, 16, 1)))
        self.assertEqual(lib.expected_launch("vectorAdd", 16, 131072), ((512, 1, 1), (256, 1, 1)))
        self.assertEqual(lib.expected_launch("dotProd", 8, 100), ((2, 1, 1), (64, 1, 1)))

    def test_summary_line(self):
        self.assertEqual(vm.SUMMARY_FORMAT.format(x=4.66, y=19.96),
                         "held-out sizes MAPE 4.7%, leave-one-kernel-out MAPE 20.0%")


class SizeParam(unittest.TestCase):
    def test_committed_and_reordered_ptx(self):
        root = Path(__file__).resolve().parents[2]
        self.assertEqual(vm.size_param(root / "workloads/measured/ptx/dotProd-T8.ptx", "dotProd"), 3)
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            ptx = Path(d) / "vectorAdd-T8.ptx"
            ptx.write_text(".visible .entry vectorAdd(\n\t.param .u32 vectorAdd_param_0,\n"
                           "\t.param .u64 vectorAdd_param_1\n)\n{\n\tret;\n}\n")
            self.assertEqual(vm.size_param(ptx, "vectorAdd"), 0)
            with self.assertRaises(vm.Fail):
                vm.size_param(ptx, "dotProd")


class Experiment(unittest.TestCase):
    """The two splits on rows whose times are exactly tp + cycles / F: every prediction exact."""

    def rows(self):
        out = []
        for gpu, tp, f in (("g1", 2.0, 1000.0), ("g2", 5.0, 700.0)):
            for k, scale in (("vectorAdd", 3.0), ("dotProd", 5.0), ("matMul_gpu", 7.0)):
                for n in (1, 2, 3, 4, 5):
                    cycles = scale * 1000 * n
                    out.append({"gpu_name": gpu, "kernel": k, "T": 16, "N": n, "cycles": cycles,
                                "time_us": tp + cycles / f})
        return out

    def test_held_out_sizes(self):
        rows = self.rows()
        vm.held_out_sizes(rows)
        held = [r for r in rows if r["role"] == "held-out"]
        self.assertEqual(sorted({r["N"] for r in held}), [2, 4])
        self.assertEqual(len(held), 2 * 3 * 2)
        self.assertAlmostEqual(vm.err(rows, "x_model")[0], 0.0, places=9)
        for r in rows:
            self.assertAlmostEqual(r["x_fit"][0], 2.0 if r["gpu_name"] == "g1" else 5.0, places=9)

    def test_leave_one_kernel_out(self):
        rows = self.rows()
        fits = vm.leave_one_kernel_out(rows)
        self.assertEqual(len(fits), 2 * 3)
        self.assertAlmostEqual(fits[("g2", "dotProd")][0], 5.0, places=9)
        self.assertAlmostEqual(fits[("g2", "dotProd")][1], 700.0, places=6)
        self.assertAlmostEqual(vm.err(rows, "y_model")[0], 0.0, places=9)
        self.assertEqual(vm.err(rows, "y_model")[1], len(rows))


if __name__ == "__main__":
    unittest.main()
