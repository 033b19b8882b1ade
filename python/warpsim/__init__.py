"""warpsim from Python: the ``core``, ``simulate``, ``sweep``, ``app``, ``occupancy``, ``gpus``, ``plot``
and ``import`` commands as functions.

The results are what the CLI writes: ``core``, ``simulate``, ``occupancy`` and ``gpus`` return the dict
of ``--format json`` key for key, ``sweep`` a pandas DataFrame of the CSV, ``app`` the dict of
``warpsim app --format json``, ``plot`` the SVG text and ``import_profile`` the measurements row.
Bad input raises :class:`warpsim.Error`.
"""

from __future__ import annotations

import io
import json
import operator
import os
import warnings
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Union

from . import _warpsim
from ._error import Error

if TYPE_CHECKING:
    import pandas

__version__ = "0.1.0"  # the CMake project's version (pyproject.toml says the same)
__all__ = ["Error", "app", "core", "gpu", "gpus", "import_profile", "occupancy", "plot", "simulate", "sweep",
           "__version__"]

PathLike = Union[str, "os.PathLike[str]"]
Dims = Union[int, str, Sequence[int]]
_INT64_MAX = 2**63 - 1


def _integer(value: Any, what: str) -> int:
    """An int (or numpy integer) that fits the C++ int64; bools are refused as a likely mistake."""
    if isinstance(value, bool):
        raise TypeError(f"{what}: expected an int, got a bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: expected an int, got {type(value).__name__}") from None
    if not -_INT64_MAX - 1 <= number <= _INT64_MAX:
        raise Error(f"{what} {number}: out of range")
    return number


def _number(value: Any, what: str) -> Optional[float]:
    """Cycles or microseconds: any real number, or None for the default."""
    if value is None:
        return None
    if isinstance(value, (bool, str)) or not hasattr(value, "__float__"):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__}")
    return float(value)


def _dims(value: Dims, what: str) -> tuple[int, int, int]:
    """A launch dimension as the CLI's --grid/--block take it: N, "X,Y,Z", or up to three ints."""
    if isinstance(value, str):
        parts = value.split(",")
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise Error(f"{what} {value!r}: expected a positive whole number or X,Y,Z")
        numbers = [int(p) for p in parts]
    elif isinstance(value, (list, tuple)):
        numbers = [_integer(v, what) for v in value]
    else:
        numbers = [_integer(value, what)]
    if not 1 <= len(numbers) <= 3:
        raise Error(f"{what} {value!r}: expected one to three dimensions")
    if any(n < 1 or n > _INT64_MAX for n in numbers):
        raise Error(f"{what} {value!r}: expected positive whole numbers")
    return tuple(numbers + [1] * (3 - len(numbers)))  # type: ignore[return-value]


def _params(params: Optional[Mapping[Any, Any]]) -> list[tuple[str, str]]:
    """NAME=VALUE pairs of the CLI's --param, in the mapping's order; int keys are positions."""
    if params is None:
        return []
    if not isinstance(params, Mapping):
        raise TypeError(f"params: expected a dict, got {type(params).__name__}")
    pairs = []
    for name, value in params.items():
        key = name if isinstance(name, str) else str(_integer(name, "params key"))
        # Strings pass through as the CLI reads them (decimal or 0x hex); ints become decimal.
        text = value if isinstance(value, str) else str(_integer(value, f"params[{name!r}]"))
        pairs.append((key, text))
    return pairs


def _jobs(jobs: Optional[int]) -> int:
    """Worker threads as the CLI's -j takes them: None (0) for every core, else 1 .. 4096."""
    count = 0 if jobs is None else _integer(jobs, "jobs")
    if not 0 <= count <= 4096:
        raise Error(f"jobs {count}: give None or 0 (every core) .. 4096")
    return count


def _warn(lines: Sequence[str]) -> None:
    """What the CLI prints as "warpsim: warning: ..." on stderr, as Python warnings."""
    for line in lines:
        warnings.warn(line, UserWarning, stacklevel=3)


def core(path: PathLike, warps: int, tm: Optional[float], params: Optional[Mapping[str, Union[int, str]]] = None
         ) -> dict[str, Any]:
    """T_c of one core package: ``warpsim core PATH --warps WARPS [--tm TM] --format json``.

    ``tm`` None takes the program's ``tm`` line. Returns {"kernel", "warps", "tm", "cycles"}.
    """
    text = _warpsim.core(os.fspath(path), _integer(warps, "warps"), _number(tm, "tm"), _params(params))
    return json.loads(text)


def simulate(path: PathLike, gpu: str, grid: Dims, block: Dims,
             params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
             tp: Optional[float] = None, tm: Optional[float] = None) -> dict[str, Any]:
    """T_k of a .kp program or .ptx kernel: ``warpsim simulate PATH --gpu GPU --grid G --block B``.

    ``tp`` is t_p in microseconds and ``tm`` t_m in cycles (None: the profile's calibration, as
    the CLI); ``kernel`` picks the PTX entry. Returns the dict of ``--format json``.
    """
    text, notes = _warpsim.simulate(os.fspath(path), os.fspath(gpu), _dims(grid, "grid"), _dims(block, "block"),
                                    _params(params), kernel or "", _number(tp, "tp"), _number(tm, "tm"))
    _warn(notes)
    return json.loads(text)


def sweep(suite: PathLike, jobs: Optional[int] = None) -> "pandas.DataFrame":
    """Every point of a suite: ``warpsim sweep SUITE -o x.csv [-j JOBS]`` as a DataFrame.

    ``jobs`` None uses every core; the rows are the same for any value.
    """
    import pandas  # only sweep needs it: keep `import warpsim` light

    text, notes = _warpsim.sweep(os.fspath(suite), _jobs(jobs))
    _warn(notes)
    # The CSV's shortest decimals must read back as the exact doubles the CLI computed: pandas 3
    # parses them exactly by default (and deprecates float_precision); older pandas needs round_trip.
    exact = {"float_precision": "round_trip"} if int(pandas.__version__.split(".")[0]) < 3 else {}
    # Only empty cells are missing values, so a name like "NA" stays text; gpu and workload are
    # text even when a name looks like a number.
    return pandas.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""],
                           dtype={"gpu": str, "workload": str}, **exact)


def app(path: PathLike, jobs: Optional[int] = None) -> dict[str, Any]:
    """A whole application on 1..M GPUs: ``warpsim app PATH --format json [-j JOBS]`` (docs/apps.md).

    Returns {"app", "rows": [{"gpu", "gpus", <axes>..., "total_us", "speedup", "steps": [...]}]};
    ``jobs`` None uses every core for the kernel steps; the rows are the same for any value.
    """
    text, notes = _warpsim.app(os.fspath(path), _jobs(jobs))
    _warn(notes)
    return json.loads(text)


def _optional_count(value: Any, what: str) -> Optional[int]:
    """A non-negative int, or None for the default."""
    if value is None:
        return None
    number = _integer(value, what)
    if number < 0:
        raise Error(f"{what} {number}: expected a non-negative whole number")
    return number


def occupancy(gpu: str, block: Dims, regs: Optional[int] = None, smem: Optional[int] = None, dynamic_smem: int = 0,
              ptx: Optional[PathLike] = None, kernel: Optional[str] = None, ptxas: str = "ptxas") -> dict[str, Any]:
    """Active blocks per SM and what limits them: ``warpsim occupancy --gpu GPU --block B --format json``.

    ``regs`` registers per thread (None: ``ptxas -v`` on ``ptx`` when it runs, else 32 with a
    warning); ``smem`` static shared memory per block in bytes (None: the ``ptx`` kernel's .shared,
    else 0); ``kernel`` picks the PTX entry; ``ptxas`` "none" runs no ptxas.
    """
    text, notes = _warpsim.occupancy(os.fspath(gpu), _dims(block, "block"), _optional_count(regs, "regs"),
                                     _optional_count(smem, "smem"), _optional_count(dynamic_smem, "dynamic_smem") or 0,
                                     "" if ptx is None else os.fspath(ptx), kernel or "", ptxas)
    _warn(notes)
    return json.loads(text)


def gpus() -> list[dict[str, Any]]:
    """The built-in GPU profiles: ``warpsim gpus --format json``, one dict each, by id."""
    return json.loads(_warpsim.gpus(None))


def gpu(id_or_path: PathLike) -> dict[str, Any]:
    """One profile with the source of each figure: ``warpsim gpus ID --format json``."""
    return json.loads(_warpsim.gpus(os.fspath(id_or_path)))


def plot(results: PathLike, x: str = "N", y: str = "time_us", by: Union[str, Sequence[str]] = ("gpu", "workload"),
         where: Optional[Mapping[str, Any]] = None, title: Optional[str] = None, linear_x: bool = False,
         linear_y: bool = False) -> str:
    """A results CSV as an SVG line chart, one line per value of the ``by`` columns: ``warpsim plot``.

    ``where`` keeps the rows whose columns have these values; the axes are logarithmic unless
    ``linear_x`` or ``linear_y``. Returns the SVG text.
    """
    columns = by if isinstance(by, str) else ",".join(by)
    filters = [f"{column}={value}" for column, value in (where or {}).items()]
    return _warpsim.plot(os.fspath(results), x, y, columns, filters, title, bool(linear_x), bool(linear_y))


def import_profile(profile: PathLike, profiler: str, gpu: str, workload: str,
                   params: Optional[Mapping[str, Union[int, str]]] = None, kernel: Optional[str] = None,
                   launches: int = 1) -> dict[str, Any]:
    """A profiler's kernel time as a measurements row: ``warpsim import PROFILE --from PROFILER``.

    ``profiler`` is "nvprof" or "nsys"; ``params`` the key columns (e.g. {"K": 8}); ``kernel``
    picks the kernel whose name contains it; ``time_us`` is ``launches`` times the per-launch time.
    Returns {"gpu", "workload", "parameters", "time_us", "samples", "launch_us", "kernel", "median",
    "per_launch_us"}.
    """
    return json.loads(_warpsim.import_profile(os.fspath(profile), profiler, gpu, workload, _params(params),
                                              kernel or "", _integer(launches, "launches")))
