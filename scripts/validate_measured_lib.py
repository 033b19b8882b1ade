"""Fitting and scoring for scripts/validate_measured.py (docs/validation.md).

Standard library only, so that the unit test (tests/validation/validate_measured_lib_test.py)
runs anywhere Python 3 does.

Both the model and the straight-line baseline are two-constant lines in one variable x:

    T = a + b * x

model:    x = cycles of one launch (warpsim), a = t_p (us), b = 1 / F_eff (us per cycle)
baseline: x = work (N^3 matrix multiply, N^2 matrix add, N vectorAdd / dotProd)

fitted by least squares on relative error, i.e. minimising sum(((a + b x) - m) / m)^2 over the
measured times m, with a >= 0 (and b >= 0).
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence


def fit_line_relative(xs: Sequence[float], ms: Sequence[float]) -> tuple[float, float]:
    """(a, b) minimising sum(((a + b*x) - m) / m)^2 with a >= 0 and b >= 0.

    The residual (a + b x - m)/m = a*u + b*x*u - 1 with u = 1/m is linear in (a, b): the 2x2
    normal equations give the unconstrained optimum. If it has a < 0 the problem is refit with
    a = 0 (the convex problem's optimum on that edge); if b < 0, with b = 0. Needs at least one
    point; with one point (or all x equal) the line goes through the origin when it can.
    """
    if len(xs) != len(ms) or not xs:
        raise ValueError("fit_line_relative: needs equally long, non-empty xs and ms")
    suu = sxuu = sxxuu = su = sxu = 0.0
    for x, m in zip(xs, ms):
        if not m > 0:
            raise ValueError(f"fit_line_relative: measured time {m} is not positive")
        u = 1.0 / m
        suu += u * u
        sxuu += x * u * u
        sxxuu += x * x * u * u
        su += u
        sxu += x * u
    det = suu * sxxuu - sxuu * sxuu
    # Relative tolerance: a singular system (one distinct x) falls through to the edges.
    if det > 1e-12 * suu * sxxuu:
        a = (su * sxxuu - sxu * sxuu) / det
        b = (suu * sxu - sxuu * su) / det
        if a >= 0.0 and b >= 0.0:
            return a, b
    # Edge a = 0: b = sum(x u) / sum(x^2 u^2).
    candidates = []
    if sxxuu > 0.0:
        b0 = max(0.0, sxu / sxxuu)
        candidates.append((0.0, b0))
    # Edge b = 0: a = sum(u) / sum(u^2).
    candidates.append((max(0.0, su / suu), 0.0))
    return min(candidates, key=lambda ab: sum_squared_relative(xs, ms, *ab))


def sum_squared_relative(xs: Sequence[float], ms: Sequence[float], a: float, b: float) -> float:
    """sum(((a + b*x) - m) / m)^2: what fit_line_relative minimises."""
    return sum(((a + b * x) - m) / m * (((a + b * x) - m) / m) for x, m in zip(xs, ms))


def predict_line(a: float, b: float, xs: Iterable[float]) -> list[float]:
    return [a + b * x for x in xs]


def mape(predicted: Sequence[float], measured: Sequence[float]) -> float:
    """Mean absolute percentage error, 100 * mean(|p - m| / m); NaN for no points."""
    if len(predicted) != len(measured):
        raise ValueError("mape: predicted and measured differ in length")
    if not measured:
        return math.nan
    return 100.0 * sum(abs(p - m) / m for p, m in zip(predicted, measured)) / len(measured)


def alternate_split(items: Sequence, key=None) -> tuple[list, list]:
    """Sorts by key (default: the item) and returns (even positions, odd positions): the
    calibration half and the held-out half of the held-out-sizes experiment."""
    ordered = sorted(items, key=key)
    return ordered[0::2], ordered[1::2]


def work_of(kernel: str, n: int) -> float:
    """The straight-line baseline's work: N^3 for the matrix multiplies, N^2 for the matrix
    additions, N for vectorAdd and dotProd."""
    if kernel.startswith("matMul"):
        return float(n) ** 3
    if kernel.startswith("matrix_sum"):
        return float(n) ** 2
    return float(n)


def expected_launch(kernel: str, tile: int, n: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(grid, block) by the dataset README's launch formulas: block (T, T) and grid
    ceil(N/T)^2 for the 2-D kernels; block T^2 and grid ceil(N/T^2) for vectorAdd, dotProd."""
    if kernel.startswith("matMul") or kernel.startswith("matrix_sum"):
        g = -(-n // tile)
        return (g, g, 1), (tile, tile, 1)
    t2 = tile * tile
    return (-(-n // t2), 1, 1), (t2, 1, 1)
