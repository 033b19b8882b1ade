"""The recipes of scripts/validate_public.py: reading scripts/validate-public/recipes.toml and
matching the published rows to them (docs/validation.md). Standard library only (tomllib)."""

from __future__ import annotations

import csv
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import validate_public_lib as lib
from validate_public_lib import Fail


@dataclass
class Kernel:
    rows: str
    family: str
    entry: str
    file: str
    include_dirs: list[str]
    prelude: list[str] = field(default_factory=list)
    instantiate: list[str] = field(default_factory=list)
    params: dict[int, str] = field(default_factory=dict)
    inputs: dict[int, str] = field(default_factory=dict)  # what a buffer holds (warpsim --input), by position
    bytes: str | None = None
    flops: str | None = None


@dataclass
class Source:
    id: str
    rows_from: list[str]
    repository: str
    commit: str
    why: str
    kernels: list[Kernel]
    leave_out: list[dict]


@dataclass
class Recipes:
    gpus: dict[str, str]
    sources: list[Source]


_KERNEL_KEYS = {"rows", "family", "entry", "file", "include_dirs", "prelude", "instantiate",
                "params", "inputs", "bytes", "flops"}
_SOURCE_KEYS = {"id", "rows_from", "repository", "commit", "why", "kernels", "file",
                "include_dirs", "kernel", "leave_out"}


def load_recipes(path: Path) -> Recipes:
    try:
        with path.open("rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise Fail(f"{path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise Fail(f"{path}: {e}") from None
    sets = {s.get("id"): s for s in doc.get("kernel_set", [])}
    sources = []
    for i, s in enumerate(doc.get("source", [])):
        where = f"{path}: [[source]] {s.get('id', i + 1)}"
        unknown = set(s) - _SOURCE_KEYS
        if unknown:
            raise Fail(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        for key in ("id", "repository", "commit", "why"):
            if not isinstance(s.get(key), str) or not s[key]:
                raise Fail(f"{where}: `{key}` must be a non-empty string")
        defaults = {"file": s.get("file"), "include_dirs": s.get("include_dirs", [])}
        tables = s.get("kernel", [])
        if "kernels" in s:
            if s["kernels"] not in sets:
                raise Fail(f"{where}: no [[kernel_set]] with id {s['kernels']!r}")
            ks = sets[s["kernels"]]
            defaults = {"file": s.get("file", ks.get("file")),
                        "include_dirs": s.get("include_dirs", ks.get("include_dirs", []))}
            tables = tables + ks.get("kernel", [])
        kernels = [kernel_from(t, defaults, f"{where}, kernel {t.get('rows', j + 1)!r}")
                   for j, t in enumerate(tables)]
        for rule in s.get("leave_out", []):
            if not isinstance(rule.get("rows"), str) or not isinstance(rule.get("reason"), str):
                raise Fail(f"{where}: a [[source.leave_out]] needs `rows` and `reason` strings")
        sources.append(Source(s["id"], list(s.get("rows_from", [])), s["repository"], s["commit"],
                              s["why"], kernels, list(s.get("leave_out", []))))
    gpus = doc.get("gpus", {})
    if not all(isinstance(v, str) for v in gpus.values()):
        raise Fail(f"{path}: [gpus] values must be profile ids or paths")
    return Recipes(dict(gpus), sources)


def kernel_from(t: dict, defaults: dict, where: str) -> Kernel:
    unknown = set(t) - _KERNEL_KEYS
    if unknown:
        raise Fail(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    file = t.get("file", defaults["file"])
    for key, value in (("rows", t.get("rows")), ("family", t.get("family")),
                       ("entry", t.get("entry")), ("file", file)):
        if not isinstance(value, str) or not value:
            raise Fail(f"{where}: `{key}` must be a non-empty string")
    params = {}
    for pos, expr in t.get("params", {}).items():
        if not pos.isdigit():
            raise Fail(f"{where}: params key {pos!r} is not a parameter position")
        params[int(pos)] = expr
    inputs = {}
    for pos, spec in t.get("inputs", {}).items():
        if not pos.isdigit() or not isinstance(spec, str):
            raise Fail(f"{where}: inputs key {pos!r} is not a parameter position with a spec string")
        inputs[int(pos)] = spec
    return Kernel(t["rows"], t["family"], t["entry"], file,
                  list(t.get("include_dirs", defaults["include_dirs"])),
                  list(t.get("prelude", [])), list(t.get("instantiate", [])), params, inputs,
                  t.get("bytes"), t.get("flops"))


# --- Rows ---------------------------------------------------------------------------------------

def read_rows(path: Path) -> list[dict]:
    """rows.csv with each row's line number (for messages)."""
    need = {"source_repo", "commit", "kernel_file", "kernel_name", "gpu", "size", "grid", "block",
            "measured_value", "unit", "notes"}
    try:
        with path.open(newline="") as f:
            reader = csv.DictReader(f)
            missing = need - set(reader.fieldnames or [])
            if missing:
                raise Fail(f"{path}:1: missing column(s) {', '.join(sorted(missing))}")
            rows = []
            for r in reader:
                r["line"] = reader.line_num
                rows.append(r)
            return rows
    except OSError as e:
        raise Fail(f"{path}: {e.strerror}") from None


@dataclass
class Planned:
    """A row the recipes can predict, or one they leave out (reason set)."""
    row: dict
    source: Source | None = None
    kernel: Kernel | None = None
    profile: str | None = None
    commit: str | None = None
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None
    params: dict[int, int] = field(default_factory=dict)
    measured_us: float | None = None
    arch: str | None = None            # set once the profile's compute capability is known
    predicted_us: float | None = None  # set by warpsim
    reason: str | None = None


def plan_row(row: dict, recipes: Recipes, where: str) -> Planned:
    """Matches one row to its source, kernel and profile and works out its launch, parameters
    and measured time; an unusable row comes back with the reason. A recipe that cannot be
    applied to a row it matched (a size it lacks, a bad expression) is an error at `where`."""
    p = Planned(row)
    p.source = next((s for s in recipes.sources if row["source_repo"] in s.rows_from), None)
    if p.source is None:
        p.reason = f"no recipe for source {row['source_repo']}"
        return p
    rule = next((r for r in p.source.leave_out
                 if lib.matches(r["rows"], row["kernel_name"]) and lib.matches(r.get("unit", "*"), row["unit"])), None)
    if rule is not None:
        p.reason = rule["reason"]
        return p
    p.kernel = next((k for k in p.source.kernels if lib.matches(k.rows, row["kernel_name"])), None)
    if p.kernel is None:
        p.reason = f"no recipe for kernel {row['kernel_name']} in source {p.source.id}"
        return p
    p.profile = recipes.gpus.get(row["gpu"])
    if p.profile is None:
        p.reason = f"no profile for GPU {row['gpu']!r} in [gpus]"
        return p
    try:
        p.commit = lib.leading_commit(row["commit"]) if p.source.commit == "row" else p.source.commit
        p.grid = lib.parse_shape(row["grid"])
        p.block = lib.parse_shape(row["block"])
        size = lib.parse_size(row["size"])
        p.params = {pos: lib.eval_expr(expr, size) for pos, expr in p.kernel.params.items()}
        p.measured_us = lib.measured_us(
            lib.parse_value(row["measured_value"]), row["unit"],
            bytes_moved=lib.eval_expr(p.kernel.bytes, size) if p.kernel.bytes else None,
            flops=lib.eval_expr(p.kernel.flops, size) if p.kernel.flops else None)
    except ValueError as e:
        raise Fail(f"{where}: {e}") from None
    return p
