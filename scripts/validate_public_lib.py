"""Reading, converting and scoring for scripts/validate_public.py (docs/validation.md).

Standard library only, so that the unit test (tests/validation/validate_public_test.py) runs
anywhere Python 3 does. Nothing here runs nvcc or warpsim.
"""

from __future__ import annotations

import ast
import fnmatch
import math
import re
import statistics
from typing import Iterable, Sequence


class Fail(Exception):
    """A user-facing error: printed as one line, exit status 2."""


class TimedOut(Fail):
    """A command that ran past its time limit (a row it was predicting is left out, not an error)."""


# --- The rows' text fields ----------------------------------------------------------------------

def parse_shape(text: str) -> tuple[int, int, int]:
    """The first "(X,Y,Z)" in a grid or block cell: "(64,64,1)", "(1024,1,1) per source"."""
    m = re.search(r"\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)
    if not m:
        raise ValueError(f"no (X,Y,Z) shape in {text!r}")
    shape = tuple(int(g) for g in m.groups())
    if min(shape) < 1:
        raise ValueError(f"a shape component below 1 in {text!r}")
    return shape  # type: ignore[return-value]


def leading_commit(text: str) -> str:
    """The commit cell's own commit: its first 40-hex-digit word ("913851bc... (results file); ...")."""
    m = re.match(r"\s*([0-9a-f]{40})\b", text)
    if not m:
        raise ValueError(f"commit cell {text!r} does not start with a 40-digit commit")
    return m.group(1)


def normalise_key(key: str) -> str:
    """A size name as recipes write it: "Num Cols 1 / Rows 2" -> "num_cols_1_rows_2"."""
    return re.sub(r"[^a-z0-9]+", "_", key.strip().lower()).strip("_")


def parse_size(text: str) -> dict[str, int]:
    """The size cell as named whole numbers. Parts are separated by ';'; a part is one or more
    names and a value, "M=N=K=16384" (each name gets the value); the value is the leading
    product of whole numbers, "32*1024*1024 fp32 (...)" -> 33554432, "1111490560 doubles"."""
    out: dict[str, int] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        names = part.split("=")
        value_text = names.pop()
        if not names:
            raise ValueError(f"size part {part!r} has no NAME=VALUE")
        m = re.match(r"\s*(\d+(?:\s*\*\s*\d+)*)", value_text)
        if not m:
            raise ValueError(f"size part {part!r}: no whole number after '='")
        value = math.prod(int(f) for f in m.group(1).split("*"))
        for name in names:
            if not normalise_key(name):
                raise ValueError(f"size part {part!r} has an empty name")
            out[normalise_key(name)] = value
    return out


# --- Recipe expressions -------------------------------------------------------------------------

_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
           ast.Mod: lambda a, b: a % b}


def eval_expr(expr: str | int, env: dict[str, int]) -> int:
    """A recipe's integer expression over size names: whole numbers, names, + - * // %,
    parentheses, unary minus. Anything else is an error (no calls, no attribute access)."""
    if isinstance(expr, int):
        return expr

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise ValueError(f"expression {expr!r}: '{node.id}' is not a size of the row "
                                 f"(it has {', '.join(sorted(env)) or 'none'})")
            return env[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise ValueError(f"expression {expr!r}: only whole numbers, size names, + - * // % and "
                         "parentheses are allowed")

    try:
        tree = ast.parse(str(expr), mode="eval")
    except SyntaxError as e:
        raise ValueError(f"expression {expr!r}: {e.msg}") from None
    return ev(tree)


def matches(pattern: str, text: str) -> bool:
    """A recipe's row selector: an exact name, or a shell pattern ("reduction*")."""
    return fnmatch.fnmatchcase(text, pattern)


# --- Measured values ----------------------------------------------------------------------------

def parse_value(text: str) -> float:
    """A measured_value cell: a number, or a published range "10.1-10.2" (its midpoint)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(?:-\s*(\d+(?:\.\d*)?)\s*)?", text)
    if not m:
        raise ValueError(f"measured value {text!r} is not a number or a range A-B")
    return float(m.group(1)) if m.group(2) is None else (float(m.group(1)) + float(m.group(2))) / 2

def measured_us(value: float, unit: str, bytes_moved: int | None = None,
                flops: int | None = None) -> float:
    """The row's time in microseconds. Times convert by unit; a bandwidth (MB/s = 1e6 B/s, GB/s)
    needs the bytes the kernel moves and a rate (GFLOP/s, TFLOP/s) the flops it does, as the
    source computed them."""
    u = unit.strip().split()[0] if unit.strip() else ""
    if not value > 0 or math.isinf(value):
        raise ValueError(f"measured value {value} is not a positive number")
    times = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    if u in times:
        return value * times[u]
    rates = {"MB/s": 1e6, "GB/s": 1e9}
    if u in rates:
        if bytes_moved is None:
            raise ValueError(f"a {u} row needs the recipe's `bytes`")
        return bytes_moved / (value * rates[u]) * 1e6
    flop_rates = {"GFLOP/s": 1e9, "TFLOP/s": 1e12}
    if u in flop_rates:
        if flops is None:
            raise ValueError(f"a {u} row needs the recipe's `flops`")
        return flops / (value * flop_rates[u]) * 1e6
    raise ValueError(f"unit {unit!r} is not a time (ns, us, ms, s), a bandwidth (MB/s, GB/s) "
                     "or a rate (GFLOP/s, TFLOP/s)")


# --- Scores -------------------------------------------------------------------------------------

def ranks(xs: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's on tie-averaged ranks); NaN with fewer than three
    points or when either side is constant."""
    if len(xs) != len(ys):
        raise ValueError("spearman: sequences of different lengths")
    if len(xs) < 3:
        return math.nan
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


def abs_error_pct(predicted: float, measured: float) -> float:
    return abs(predicted - measured) / measured * 100.0


def group_scores(points: Iterable[dict], key) -> dict:
    """Per group (key(point)): rows, mean |error| %, median ratio predicted/measured, and the
    rank correlation: the mean over the group's (GPU, family) sets of Spearman's correlation
    between predicted and measured times across the set's rows (sets of fewer than three rows,
    or constant on one side, have none). Points carry predicted_us, measured_us, gpu, family."""
    groups: dict = {}
    for p in points:
        groups.setdefault(key(p), []).append(p)
    out = {}
    for k, ps in sorted(groups.items()):
        ratios = [p["predicted_us"] / p["measured_us"] for p in ps]
        out[k] = {"rows": len(ps),
                  "gpus": len({p["gpu"] for p in ps}),
                  "mean_error_pct": statistics.fmean(abs_error_pct(p["predicted_us"], p["measured_us"]) for p in ps),
                  "median_ratio": statistics.median(ratios),
                  "min_ratio": min(ratios), "max_ratio": max(ratios),
                  "rank_correlation": family_rank_correlation(ps)}
    return out


def family_rank_correlation(points: Sequence[dict]) -> float:
    """Mean over (GPU, family) sets of Spearman's rho of predicted vs measured; NaN if no set has one."""
    sets: dict = {}
    for p in points:
        sets.setdefault((p["gpu"], p["family"]), []).append(p)
    rhos = [spearman([p["predicted_us"] for p in s], [p["measured_us"] for p in s]) for s in sets.values()]
    rhos = [r for r in rhos if not math.isnan(r)]
    return statistics.fmean(rhos) if rhos else math.nan


def summary_line(points: Sequence[dict]) -> str:
    """The script's last line."""
    if not points:
        return "public measurements: 0 rows, 0 GPUs, mean error -, rank correlation -"
    s = group_scores(points, key=lambda p: "all")["all"]
    return (f"public measurements: {s['rows']} rows, {s['gpus']} GPUs, "
            f"mean error {fmt(s['mean_error_pct'], 1)}%, rank correlation {fmt(s['rank_correlation'], 2)}")


def fmt(v: float, digits: int) -> str:
    return "-" if isinstance(v, float) and math.isnan(v) else f"{v:.{digits}f}"


def markdown_table(title: str, key_names: Sequence[str], scores: dict) -> list[str]:
    """One table: a row per group, keys first (a tuple key spreads over several columns)."""
    head = list(key_names) + ["rows", "mean error %", "median ratio", "min ratio", "max ratio", "rank corr."]
    lines = [f"#### {title}", "", "| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] * len(key_names) + ["---:"] * 6) + "|"]
    for k, s in scores.items():
        keys = list(k) if isinstance(k, tuple) else [k]
        lines.append("| " + " | ".join(str(x) for x in keys) + f" | {s['rows']} | {fmt(s['mean_error_pct'], 1)} | "
                     f"{fmt(s['median_ratio'], 3)} | {fmt(s['min_ratio'], 3)} | {fmt(s['max_ratio'], 3)} | "
                     f"{fmt(s['rank_correlation'], 2)} |")
    return lines + [""]


def arch_for(compute_capability: str, oldest: int = 75) -> tuple[str, bool]:
    """The nvcc architecture to build for a GPU of this compute capability, and whether it stands
    in for an older one (nvcc 13 builds sm_75 and newer: Pascal and Volta take sm_75's PTX)."""
    m = re.fullmatch(r"\s*(\d+)\.(\d+)\s*", compute_capability)
    if not m:
        raise ValueError(f"compute capability {compute_capability!r} is not MAJOR.MINOR")
    cc = int(m.group(1)) * 10 + int(m.group(2))
    return (f"sm_{max(cc, oldest)}", cc < oldest)
