"""The parts of the corpus test (scripts/corpus.py, docs/reliability.md) that need neither nvcc nor
warpsim: the kernels and parameters of a PTX file, the values the run gives them, how a run's
outcome is classified, and the summary. Python 3.11 standard library only."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Sequence

OUTCOMES = ("predicted", "refused", "failed")
# What the run gives a scalar parameter (the launch: 256 for integers, 1.0 for floats);
# 8-bit integers (bool, char) get 1, which every such type holds.
INTEGER_VALUE = "256"
SMALL_INTEGER_VALUE = "1"
FLOAT_VALUE = "1.0"


@dataclass
class Param:
    ptx_name: str
    ptx_type: str      # u32, s64, f32, b8 ...
    is_array: bool     # .b8 name[N]: a struct passed by value
    has_ptr_attr: bool  # .ptr: nvcc marks some pointers


@dataclass
class Entry:
    name: str  # the PTX (mangled) name
    params: list[Param] = field(default_factory=list)
    maxntid: tuple[int, ...] | None = None  # .maxntid X[, Y[, Z]]: the most threads a block may have
    reqntid: tuple[int, ...] | None = None  # .reqntid X[, Y[, Z]]: the block it must have


_ENTRY = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.entry\s+([A-Za-z_$%][\w$]*)\s*\(", re.M)
_TYPE = re.compile(r"^\.([usfb])(8|16|32|64)$")
_BOUND = re.compile(r"\.(maxntid|reqntid)\s+(\d+(?:\s*,\s*\d+){0,2})")


def ptx_entries(text: str) -> list[Entry]:
    """The kernels (.entry) of a PTX file with their parameter lists, in file order."""
    found = []
    for m in _ENTRY.finditer(text):
        close = text.find(")", m.end())
        if close < 0:
            break
        entry = Entry(m.group(1))
        for decl in text[m.end():close].split(","):
            tokens = decl.split()
            if not tokens or tokens[0] != ".param":
                continue
            types = [t for t in tokens if _TYPE.match(t)]
            name = tokens[-1]
            entry.params.append(Param(
                ptx_name=name.split("[", 1)[0],
                ptx_type=types[0][1:] if types else "b32",
                is_array="[" in name,
                has_ptr_attr=".ptr" in tokens))
        body = text.find("{", close)
        for kind, dims in _BOUND.findall(text[close:body if body >= 0 else len(text)]):
            setattr(entry, kind, tuple(int(d) for d in dims.split(",")))
        found.append(entry)
    return found


def block_for(entry: Entry, block: str) -> str:
    """The --block a kernel is launched with: `block` (X[,Y[,Z]]), unless the kernel declares its
    own bounds, as a program must then launch it: its .reqntid, or its .maxntid where `block`
    has more threads (CUDA refuses both launches otherwise)."""
    if entry.reqntid:
        return ",".join(map(str, entry.reqntid))
    if entry.maxntid:
        threads = math.prod(int(d) for d in block.split(","))
        if threads > math.prod(entry.maxntid):
            return ",".join(map(str, entry.maxntid))
    return block


def cxx_argument_types(demangled: str) -> list[str] | None:
    """The argument types of a demangled `name(T1, T2...)`, split at top-level commas; None when
    the name carries no argument list (extern "C" kernels)."""
    depth, start = 0, None
    for i, ch in enumerate(demangled):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            start = i
            break
    if start is None or not demangled.endswith(")"):
        return None
    inner = demangled[start + 1:-1].strip()
    if inner in ("", "void"):
        return []
    args, depth, begin = [], 0, 0
    for i, ch in enumerate(inner):
        depth += ch in "<(["
        depth -= ch in ">)]"
        if ch == "," and depth == 0:
            args.append(inner[begin:i].strip())
            begin = i + 1
    args.append(inner[begin:].strip())
    return args


def _top_level(cxx: str) -> str:
    """The type with template arguments removed: `Foo<int*>` is no pointer."""
    out, depth = [], 0
    for ch in cxx:
        depth += ch == "<"
        if depth == 0:
            out.append(ch)
        depth -= ch == ">"
    return "".join(out)


def parameter_values(entry: Entry, cxx_types: Sequence[str] | None) -> dict[int, str]:
    """position -> value for every scalar parameter the run gives a value: integers 256 (8-bit
    ones 1), float and double 1.0. Pointers, structs passed by value and 16-bit floats get none
    (warpsim needs no value for a pointer; it refuses, with a one-line error, a missing value
    that decides a branch)."""
    if cxx_types is not None and len(cxx_types) != len(entry.params):
        cxx_types = None
    values = {}
    for i, p in enumerate(entry.params):
        cxx = _top_level(cxx_types[i]) if cxx_types is not None else ""
        if p.is_array or p.has_ptr_attr or "*" in cxx or "&" in cxx:
            continue
        if cxx_types is None and p.ptx_type in ("u64", "b64"):
            continue  # no C++ types: an unsigned 64-bit parameter is taken for a pointer, as warpsim does
        if p.ptx_type in ("f32", "f64") or re.search(r"\b(float|double)\b", cxx):
            values[i] = FLOAT_VALUE
        elif "half" in cxx or "bfloat16" in cxx:
            continue
        elif p.ptx_type.endswith("8") and not p.ptx_type.endswith("128"):
            values[i] = SMALL_INTEGER_VALUE
        else:
            values[i] = INTEGER_VALUE
    return values


def classify(returncode: int | None, timed_out: bool) -> str:
    """predicted (exit 0), refused (exit 2: warpsim's one-line error on input it does not take),
    failed (anything else: an internal error, a crash, or still running at the time limit)."""
    if timed_out or returncode is None:
        return "failed"
    if returncode == 0:
        return "predicted"
    return "refused" if returncode == 2 else "failed"


def first_line(text: str, limit: int = 2000) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1][:limit] if lines else ""


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summary_line(results: Sequence[dict]) -> str:
    counts = {o: sum(r["outcome"] == o for r in results) for o in OUTCOMES}
    slowest = max((r["seconds"] for r in results), default=0.0)
    return (f"corpus: {len(results)} kernels, {counts['predicted']} predicted, {counts['refused']} refused, "
            f"{counts['failed']} failed, slowest {slowest:.2f} s")


def check_counts(results: Sequence[dict], column: str) -> str:
    """'E equal, D different, S skipped' of a fast-path check column (rows not checked left out)."""
    verdicts = [r.get(column, "") for r in results if r.get(column)]
    equal = sum(v == "equal" for v in verdicts)
    different = sum(v == "different" for v in verdicts)
    return f"{equal} equal, {different} different, {len(verdicts) - equal - different} skipped"


def markdown(results: Sequence[dict], not_built: int, timeout: float, slow: float = 1.0,
             listed: int = 25, checks: tuple | None = None) -> list[str]:
    """The tables of docs/reliability.md: outcomes per suite and build, the time distribution,
    every failure, the slowest kernels and the commonest refusals."""
    out = ["| suite | build | kernels | predicted | refused | failed |", "|---|---|---|---|---|---|"]
    keys = sorted({(r["suite"], r["build"]) for r in results})
    for suite, build in keys:
        rows = [r for r in results if r["suite"] == suite and r["build"] == build]
        counts = [sum(r["outcome"] == o for r in rows) for o in OUTCOMES]
        out.append(f"| {suite} | {build} | {len(rows)} | " + " | ".join(map(str, counts)) + " |")
    out += ["", f"Files that did not compile (not counted as kernels): {not_built}.", ""]
    times = [r["seconds"] for r in results if r["outcome"] == "predicted"]
    if times:
        out += ["Time per predicted kernel, whole process (s):", "",
                "| median | 90th | 99th | slowest | over 1 s | over 0.1 s |", "|---|---|---|---|---|---|",
                f"| {percentile(times, 50):.3f} | {percentile(times, 90):.3f} | {percentile(times, 99):.3f} | "
                f"{max(times):.3f} | {sum(t > 1 for t in times)} | {sum(t > 0.1 for t in times)} |", ""]
    failed = [r for r in results if r["outcome"] == "failed"]
    if failed:
        out += ["Failed (an internal error, a crash, or still running at the "
                f"{timeout:g} s limit):", "", "| suite | build | file | kernel | what |", "|---|---|---|---|---|"]
        out += [f"| {r['suite']} | {r['build']} | {r['file']} | `{r['kernel']}` | {r['message'] or '-'} |" for r in failed]
        out.append("")
    slowest = sorted((r for r in results if r["outcome"] == "predicted" and r["seconds"] > slow),
                     key=lambda r: -r["seconds"])[:listed]
    if slowest:
        out += [f"Predicted, but over {slow:g} s (the slowest {len(slowest)}):", "",
                "| suite | build | file | kernel | s |", "|---|---|---|---|---|"]
        out += [f"| {r['suite']} | {r['build']} | {r['file']} | `{r['kernel']}` | {r['seconds']:.2f} |" for r in slowest]
        out.append("")
    reasons: dict[str, int] = {}
    for r in results:
        if r["outcome"] == "refused":
            what = re.sub(r"^.*?error: (?:[^:]*:\d+(?::\d+)?: )?", "", r["message"])
            what = re.sub(r"^kernel .+? (declares|parameter|has) ", r"kernel K \1 ", what)  # C++ names run long
            key = re.sub(r"\d+", "N", what)[:110]
            reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        out += ["Refusals by message (numbers replaced by N):", "", "| kernels | message |", "|---|---|"]
        out += [f"| {n} | {m.replace('|', '/')} |" for m, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:listed]]
        out.append("")
    checked = [r for r in results if r.get("emulate_all")]
    if checked:
        verdicts: dict[str, int] = {}
        for r in checked:
            verdicts[r["emulate_all"]] = verdicts.get(r["emulate_all"], 0) + 1
        out += ["Fast path against `--emulate-all` (predicted kernels): " +
                ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) + ".", ""]
    if checks:
        shape, full, seed, limit = checks
        out += [f"Fast path (`--exact`) against `--emulate-all`, each run at most {limit:g} s (a run over it, or "
                f"refused, is skipped): every predicted kernel at {shape}: {check_counts(results, 'small_check')}; "
                f"a seeded sample of {full} at the full launch (seed {seed}): {check_counts(results, 'full_check')}.", ""]
    sampled = [r for r in results if r.get("sampled")]
    if sampled:
        out += [f"Sampled (each block its own path, over the work budget): {len(sampled)} kernels.", ""]
    out.append(summary_line(results))
    return out
