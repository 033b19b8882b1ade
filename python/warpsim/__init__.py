"""warpsim from Python: every command of the CLI as a function (docs/library.md).

The results are what the CLI writes: each function returns a frozen dataclass (warpsim._results)
built from the command's ``--format json``, its fields named by the JSON keys and the whole object
kept in ``.json``; ``sweep`` returns a pandas DataFrame of the CSV and ``plot`` the SVG text.
Bad input raises :class:`warpsim.Error`; Ctrl-C (SIGINT) stops any call with KeyboardInterrupt.
"""

from __future__ import annotations

import decimal
import json
import operator
import os
import warnings
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Union

from . import _warpsim
from ._error import Error
from ._results import _read_csv
from ._results import (AppResult, Assumption, BlockCandidate, BlockSizeSearch, CalibrateResult, CalibrationValues,
                       CoreResult, EvaluateResult, Experiment, FittedParameter, GpuProfile, GridPlan, ImportResult,
                       LaunchPlan, Limits, LowerResult, OccupancyResult, PredictResult, PtxReport, SimulateResult,
                       WarpProgram, Explanation, ExplainResult, BaselineComparison, Svg, FigureChange, WhatIfResult, GpuTime, GpuComparison)

if TYPE_CHECKING:
    import pandas

__version__ = "0.1.0"  # the CMake project's version (pyproject.toml says the same)
__all__ = ["DEFAULT_MODEL", "Error", "app", "calibrate", "compare_gpus", "core", "evaluate", "explain", "gpu", "what_if", "gpus", "import_profile", "launch", "lower",
           "occupancy", "plot", "predict", "search_block_size", "simulate", "sweep", "__version__",
           "AppResult", "Assumption", "BlockCandidate", "BlockSizeSearch", "CalibrateResult", "CalibrationValues",
           "CoreResult", "EvaluateResult", "Experiment", "FittedParameter", "GpuProfile", "GridPlan", "ImportResult",
           "LaunchPlan", "Limits", "LowerResult", "OccupancyResult", "PredictResult", "PtxReport", "SimulateResult",
           "WarpProgram", "Explanation", "ExplainResult", "BaselineComparison", "Svg", "FigureChange", "WhatIfResult", "GpuTime", "GpuComparison"]

# The timing model of every ``model`` default ("pipes"): the C++ library's kDefaultModel, as the CLI's.
DEFAULT_MODEL: str = _warpsim.DEFAULT_MODEL
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


def _name_values(mapping: Optional[Mapping[Any, Any]], what: str, text: Any) -> list[tuple[str, str]]:
    """NAME=VALUE pairs of a CLI flag (--param, --input), in the mapping's order; int keys are
    positions; ``text(name, value)`` gives a value's text."""
    if mapping is None:
        return []
    if not isinstance(mapping, Mapping):
        raise TypeError(f"{what}: expected a dict, got {type(mapping).__name__}")
    return [(name if isinstance(name, str) else str(_integer(name, f"{what} key")), text(name, value))
            for name, value in mapping.items()]


def _params(params: Optional[Mapping[Any, Any]]) -> list[tuple[str, str]]:
    """NAME=VALUE pairs of the CLI's --param: strings pass through as the CLI reads them (decimal
    or 0x hex); ints become decimal."""
    return _name_values(params, "params", lambda name, value: value if isinstance(value, str)
                        else str(_integer(value, f"params[{name!r}]")))


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


def _optional_count(value: Any, what: str) -> Optional[int]:
    """A non-negative int, or None for the default."""
    if value is None:
        return None
    number = _integer(value, what)
    if number < 0:
        raise Error(f"{what} {number}: expected a non-negative whole number")
    return number


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a str, got {type(value).__name__}")
    return value


def _optional_text(value: Any, what: str) -> Optional[str]:
    return None if value is None else _text(value, what)


def _cycles_text(value: Any, what: str) -> Optional[str]:
    """Cycles as the CLI's text (the facade's parse_cycles checks it: exact, at most three decimals)."""
    if value is None or isinstance(value, str):
        return value
    number = _number(value, what)
    return format(decimal.Decimal(repr(number)), "f")  # 1e-05 -> "0.00001", which parse_cycles refuses


def _ptx_options(kernel: Optional[str], emulate_all: bool, unknown_trips: int, unknown_branch: str,
                 max_steps: Optional[int], load_cycles: Optional[float], store_cycles: Optional[float]
                 ) -> dict[str, Any]:
    """The PTX frontend's options (the CLI's --kernel, --emulate-all, --unknown-trips, ...)."""
    return {"kernel": _optional_text(kernel, "kernel"), "emulate_all": bool(emulate_all),
            "unknown_trips": _optional_count(unknown_trips, "unknown_trips"),
            "unknown_branch": _text(unknown_branch, "unknown_branch"),
            "max_steps": _optional_count(max_steps, "max_steps"),
            "load_cycles": _cycles_text(load_cycles, "load_cycles"),
            "store_cycles": _cycles_text(store_cycles, "store_cycles")}


def _inputs(inputs: Optional[Mapping[Any, str]]) -> list[tuple[str, str]]:
    """What pointer parameters' buffers hold (the CLI's --input PARAM=SPEC), as (name, spec) pairs."""
    return _name_values(inputs, "inputs", lambda name, spec: _text(spec, f"inputs[{name!r}]"))


def core(path: PathLike, warps: int, tm: Optional[float], params: Optional[Mapping[str, Union[int, str]]] = None,
         *, gpu: Optional[str] = None, block_warps: Optional[int] = None, model: Optional[str] = None,
         max_instructions: Optional[int] = None, timeline: bool = False, trace: bool = False) -> CoreResult:
    """T_c of one core package: ``warpsim core PATH --warps WARPS [--tm TM] --format json``.

    ``tm`` None takes the program's ``tm`` line; ``gpu`` prices annotated accesses; ``block_warps``
    warps per block for barriers; ``timeline``/``trace`` fill ``timeline_svg``/``trace_json``.
    ``model`` None is DEFAULT_MODEL with a ``gpu``, else "memory" (pipes prices per GPU), which
    times a program without annotations as Algorithm 2, as the CLI.
    """
    options = {"gpu": None if gpu is None else os.fspath(gpu), "block_warps": _optional_count(block_warps, "block_warps"),
               "model": _optional_text(model, "model"),
               "max_instructions": _optional_count(max_instructions, "max_instructions"), "timeline": bool(timeline), "trace": bool(trace)}
    text, svg, events = _warpsim.core(os.fspath(path), _integer(warps, "warps"), _number(tm, "tm"), _params(params),
                                      options)
    return CoreResult.from_json(json.loads(text), svg or None, events or None)


def _simulation(gpu: str, params: Any, kernel: Optional[str], tp: Optional[float], tm: Optional[float], model: str,
                regs: Optional[int], ptxas: str, use_cache: bool, emulate_all: bool, unknown_trips: int,
                unknown_branch: str, max_steps: Optional[int], load_cycles: Optional[float],
                store_cycles: Optional[float], max_instructions: Optional[int], nvcc_flags: str = "",
                dynamic_smem: int = 0, nvdisasm: str = "nvdisasm") -> dict[str, Any]:
    """The options ``simulate`` and ``search_block_size`` share (the CLI's simulation_request)."""
    return {"gpu": os.fspath(gpu), "params": _params(params), "tp_us": _number(tp, "tp"), "tm": _number(tm, "tm"),
            "nvcc_flags": _text(nvcc_flags, "nvcc_flags"),
            "dynamic_shared_bytes": _optional_count(dynamic_smem, "dynamic_smem"),
            "model": _text(model, "model"), "registers": _optional_count(regs, "regs"),
            "ptxas": _text(ptxas, "ptxas"), "nvdisasm": _text(nvdisasm, "nvdisasm"), "use_cache": bool(use_cache),
            "max_instructions": _optional_count(max_instructions, "max_instructions"),
            **_ptx_options(kernel, emulate_all, unknown_trips, unknown_branch, max_steps, load_cycles, store_cycles)}


def simulate(path: PathLike, gpu: str, grid: Dims, block: Dims,
             params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
             tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = DEFAULT_MODEL,
             regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
             unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
             load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
             max_instructions: Optional[int] = None, timeline: bool = False, trace: bool = False,
             nvcc_flags: str = "", dynamic_smem: int = 0, nvdisasm: str = "nvdisasm",
             inputs: Optional[Mapping[Union[str, int], str]] = None, exact: bool = False,
             sample_budget: Optional[int] = None, sample_seed: Optional[int] = None) -> SimulateResult:
    """T_k of a .kp program, .ptx kernel or .cu file: ``warpsim simulate PATH --gpu GPU --grid G --block B``.

    ``tp`` is t_p in microseconds and ``tm`` t_m in cycles (None: the profile's calibration, as
    the CLI); ``kernel`` picks the PTX entry; ``model`` is "pipes" (DEFAULT_MODEL), "memory" or "paper"; the other
    keywords are the CLI's flags of the same names (``regs`` is --regs, ``use_cache=False``
    --no-cache, ``nvcc_flags`` --nvcc-flags for a .cu, ``dynamic_smem`` the launch's dynamic shared
    bytes, ``nvdisasm`` --nvdisasm: "none" times the PTX in PTX order, ``inputs`` --input: a dict
    PARAM -> "zeros" | "const:V" | "uniform:LOW:HIGH" | "file:PATH"). ``timeline``/``trace`` fill
    ``timeline_svg``/``trace_json``; ``result.ptx.instruction_stream`` says which stream was timed.
    ``exact``/``sample_budget``/``sample_seed`` are --exact, --sample-budget and --sample-seed: a launch
    whose blocks each follow their own path is sampled past the budget, and ``result.ptx.sampled``
    then says which blocks, why, and the 95% interval of the time (docs/ptx.md, "Sampling"); one whose
    core packages never repeat has a sample of its runs simulated past the budget, and
    ``result.ptx.sampled_runs`` says how many and the 95% interval.
    """
    options = _simulation(gpu, params, kernel, tp, tm, model, regs, ptxas, use_cache, emulate_all, unknown_trips,
                          unknown_branch, max_steps, load_cycles, store_cycles, max_instructions, nvcc_flags, dynamic_smem,
                          nvdisasm)
    options.update(program=os.fspath(path), grid=_dims(grid, "grid"), block=_dims(block, "block"),
                   timeline=bool(timeline), trace=bool(trace), inputs=_inputs(inputs), exact=bool(exact),
                   sample_budget=_optional_count(sample_budget, "sample_budget"),
                   sample_seed=_optional_count(sample_seed, "sample_seed"))
    text, notes, svg, events = _warpsim.simulate(options)
    _warn(notes)
    return SimulateResult.from_json(json.loads(text), tuple(notes), svg or None, events or None)


def explain(path: PathLike, gpu: str, grid: Dims, block: Dims,
            params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
            tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = "pipes",
            regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
            unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
            load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
            max_instructions: Optional[int] = None, nvcc_flags: str = "", dynamic_smem: int = 0,
            inputs: Optional[Mapping[Union[str, int], str]] = None, baseline: Optional[PathLike] = None,
            baseline_kernel: Optional[str] = None) -> ExplainResult:
    """Why the prediction takes that long and what to change: ``warpsim explain PATH --gpu GPU --grid G --block B``.

    ``simulate``'s arguments (the pipes model unless ``model`` says otherwise: only it can
    explain). The result holds the prediction, its ``explanation`` (with its ``findings``), the
    HTML report and the charts; Jupyter shows the report. ``baseline`` (a kernel file; default
    ``path``) or ``baseline_kernel`` (its entry; default ``kernel``): ``--baseline``, the kernel
    before the change on the same launch and GPU, in ``comparison``.
    """
    options = _simulation(gpu, params, kernel, tp, tm, model, regs, ptxas, use_cache, emulate_all, unknown_trips,
                          unknown_branch, max_steps, load_cycles, store_cycles, max_instructions, nvcc_flags, dynamic_smem)
    options.update(program=os.fspath(path), grid=_dims(grid, "grid"), block=_dims(block, "block"), inputs=_inputs(inputs))
    if baseline is None and baseline_kernel is None:
        text, notes, html, charts = _warpsim.explain(options)
        _warn(notes)
        data = json.loads(text)
        return ExplainResult(SimulateResult.from_json(data, tuple(notes)), Explanation.from_json(data["explain"]), html,
                             {name: Svg(svg) for name, svg in charts})
    before = dict(options)
    if baseline is not None:
        before["program"] = os.fspath(baseline)
    if baseline_kernel is not None:
        before["kernel"] = _text(baseline_kernel, "baseline_kernel")
    text, notes, html, charts = _warpsim.compare_baseline(options, before)
    _warn(notes)
    data = json.loads(text)
    return ExplainResult(SimulateResult.from_json(data["after"], tuple(notes)), Explanation.from_json(data["after"]["explain"]), html,
                         {name: Svg(svg) for name, svg in charts}, BaselineComparison.from_json(data))


def what_if(path: PathLike, gpu: str, grid: Dims, block: Dims, changes: Union[Sequence[str], Mapping[str, Any]],
            params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
            tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = DEFAULT_MODEL,
            regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
            unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
            load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
            max_instructions: Optional[int] = None, nvcc_flags: str = "", dynamic_smem: int = 0) -> WhatIfResult:
    """What if a figure were another: ``warpsim simulate ... --set FIGURE=VALUE ...``.

    ``changes`` are "FIGURE=VALUE" strings, or a mapping FIGURE -> VALUE (VALUE a number, "x2" or
    "50%"), applied in order; the other arguments are ``simulate``'s. The result holds both runs.
    """
    if isinstance(changes, Mapping):
        changes = [f"{figure}={value}" for figure, value in changes.items()]
    elif isinstance(changes, str):
        changes = [changes]
    options = _simulation(gpu, params, kernel, tp, tm, model, regs, ptxas, use_cache, emulate_all, unknown_trips,
                          unknown_branch, max_steps, load_cycles, store_cycles, max_instructions, nvcc_flags, dynamic_smem)
    options.update(program=os.fspath(path), grid=_dims(grid, "grid"), block=_dims(block, "block"))
    text, notes = _warpsim.what_if(options, [_text(c, "changes") for c in changes])
    _warn(notes)
    return WhatIfResult.from_json(json.loads(text), tuple(notes))


def compare_gpus(path: PathLike, gpus: Union[str, Sequence[str]], grid: Dims, block: Dims,
                 params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
                 tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = DEFAULT_MODEL,
                 regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
                 unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
                 load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
                 max_instructions: Optional[int] = None, nvcc_flags: str = "", dynamic_smem: int = 0) -> GpuComparison:
    """One kernel on several GPUs side by side: ``warpsim simulate ... --gpu a100,h100,...`` (or "all").

    ``gpus`` is a list of ids or profile paths, or the CLI's "a,b,c" / "all"; the first is the
    baseline of the speed-ups. ``.to_dataframe()`` is the CSV table, ``.chart`` the bar chart.
    """
    listed = gpus if isinstance(gpus, str) else ",".join(os.fspath(g) for g in gpus)
    options = _simulation(listed, params, kernel, tp, tm, model, regs, ptxas, use_cache, emulate_all, unknown_trips,
                          unknown_branch, max_steps, load_cycles, store_cycles, max_instructions, nvcc_flags, dynamic_smem)
    options.update(program=os.fspath(path), grid=_dims(grid, "grid"), block=_dims(block, "block"))
    text, csv, svg, notes = _warpsim.compare_gpus(options, listed)
    _warn(notes)
    return GpuComparison.from_json(json.loads(text), csv, svg, tuple(notes))


def lower(path: PathLike, grid: Dims, block: Dims, params: Optional[Mapping[Union[str, int], Union[int, str]]] = None,
          kernel: Optional[str] = None, *, emulate_all: bool = False, unknown_trips: int = 1,
          unknown_branch: str = "fallthrough", max_steps: Optional[int] = None, load_cycles: Optional[float] = None,
          store_cycles: Optional[float] = None, nvcc_flags: str = "", use_cache: bool = True,
          inputs: Optional[Mapping[Union[str, int], str]] = None) -> LowerResult:
    """PTX to per-warp kernel programs: ``warpsim lower KERNEL.ptx --grid G --block B --format json``.

    ``kp`` of the result is the annotated .kp text ``warpsim lower`` writes. ``path`` may be a .cu
    (compiled with nvcc for sm_75; ``nvcc_flags`` its extra flags, ``use_cache=False`` compiles again).
    """
    options = _ptx_options(kernel, emulate_all, unknown_trips, unknown_branch, max_steps, load_cycles, store_cycles)
    options.update(nvcc_flags=_text(nvcc_flags, "nvcc_flags"), use_cache=bool(use_cache), inputs=_inputs(inputs))
    text, kp, notes = _warpsim.lower(os.fspath(path), _dims(grid, "grid"), _dims(block, "block"), _params(params),
                                     options)
    _warn(notes)
    return LowerResult.from_json(json.loads(text), kp, tuple(notes))


def launch(gpu: str, threads: int) -> LaunchPlan:
    """The paper's launch heuristic (Algorithm 3) for N threads: ``warpsim launch --gpu GPU --threads N``."""
    return LaunchPlan.from_json(json.loads(_warpsim.launch(os.fspath(gpu), _optional_count(threads, "threads"))))


def search_block_size(gpu: str, threads: int, program: Optional[PathLike] = None,
                      params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
                      tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = DEFAULT_MODEL,
                      regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True,
                      emulate_all: bool = False, unknown_trips: int = 1, unknown_branch: str = "fallthrough",
                      max_steps: Optional[int] = None, load_cycles: Optional[float] = None,
                      store_cycles: Optional[float] = None, max_instructions: Optional[int] = None
                      ) -> BlockSizeSearch:
    """The block size of least predicted time: ``warpsim launch --gpu GPU --threads N --search [PROGRAM]``.

    Without ``program`` the paper's matrix DWT (K = 8 unless ``params`` give K); the options are
    ``simulate``'s. ``.to_dataframe()`` of the result is the ``--format csv`` table.
    """
    options = _simulation(gpu, params, kernel, tp, tm, model, regs, ptxas, use_cache, emulate_all, unknown_trips,
                          unknown_branch, max_steps, load_cycles, store_cycles, max_instructions)
    options["program"] = None if program is None else os.fspath(program)
    text, csv, notes = _warpsim.search_block_size(_optional_count(threads, "threads"), options)
    _warn(notes)
    return BlockSizeSearch.from_json(json.loads(text), csv, tuple(notes))


def predict(workload: str, gpu: str, K: int, N: int, tp: Optional[float] = None, tm: Optional[float] = None,
            model: str = DEFAULT_MODEL) -> PredictResult:
    """One point of a built-in DWT workload: ``warpsim predict WORKLOAD --gpu GPU --param K=.. --param N=..``.

    ``workload`` is dwt_matrix, dwt_lattice, dwt2d_matrix or dwt2d_lattice; the result is its sweep row.
    """
    text = _warpsim.predict(_text(workload, "workload"), os.fspath(gpu), _optional_count(K, "K"),
                            _optional_count(N, "N"), _number(tp, "tp"), _number(tm, "tm"), _text(model, "model"))
    return PredictResult.from_json(json.loads(text))


def _names(value: Union[None, str, Sequence[str]], what: str) -> Optional[str]:
    """NAME,NAME,... as the CLI takes it, from a str or a sequence of str."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(_text(v, what) for v in value)


def calibrate(measured: Optional[PathLike], gpu: str, workload: Optional[PathLike] = None, *,
              points: Optional[PathLike] = None, fit: Union[None, str, Sequence[str]] = None,
              bounds: Union[None, str, Mapping[str, tuple[float, float]]] = None, tp: Optional[float] = None,
              tm: Optional[float] = None, threads: Union[None, int, str] = None, grid: Union[None, int, str] = None,
              block: Union[None, int, str] = None, kernel: Optional[str] = None,
              params: Union[None, str, Sequence[str], Mapping[str, Union[int, str]]] = None,
              label: Optional[str] = None, section: Optional[str] = None, max_evaluations: int = 3000,
              model: str = DEFAULT_MODEL) -> CalibrateResult:
    """Fit t_p, t_m and durations to measured times: ``warpsim calibrate MEASURED --gpu GPU --workload W``.

    ``measured`` a measurements CSV, or None with ``points`` (a point list with time_us).
    ``fit`` e.g. ("tm", "tp") or "tm,tp"; ``bounds`` {"tm": (0, 100)} or "tm=0:100"; ``params``
    the axes that give PTX parameters ({"N": 0} or "N=0"); the rest are the CLI's flags of the same
    names. ``toml`` of the result is the profile section ``--format toml`` writes.
    """
    if isinstance(bounds, Mapping):
        bounds = ",".join(f"{name}={_number(lo, 'bounds')!r}:{_number(hi, 'bounds')!r}"
                          for name, (lo, hi) in bounds.items())
    if isinstance(params, Mapping):
        axes = [(_text(axis, "params"), str(p)) for axis, p in params.items()]
    elif params is None:
        axes = []
    else:
        axes = []
        for entry in ([params] if isinstance(params, str) else list(params)):
            for item in _text(entry, "params").split(","):
                axis, equals, parameter = item.partition("=")
                if not axis or (equals and not parameter):
                    raise Error(f"params {item!r}: expected AXIS or AXIS=PARAMETER")
                axes.append((axis, parameter or axis))

    def launch_text(value: Union[None, int, str], what: str) -> Optional[str]:
        return value if value is None or isinstance(value, str) else str(_integer(value, what))

    fit_text = _names(fit, "fit")
    if fit_text is not None and not fit_text:
        raise Error("fit: an empty list (expected e.g. tm,tp,d1)")
    options = {"measured": None if measured is None else os.fspath(measured),
               "points": None if points is None else os.fspath(points), "gpu": os.fspath(gpu),
               "workload": None if workload is None else os.fspath(workload), "fit": fit_text,
               "bounds": _optional_text(bounds, "bounds"), "tp_us": _number(tp, "tp"), "tm": _number(tm, "tm"),
               "threads": launch_text(threads, "threads"), "grid": launch_text(grid, "grid"),
               "block": launch_text(block, "block"), "kernel": _optional_text(kernel, "kernel"),
               "parameter_axes": axes, "label": _optional_text(label, "label"),
               "section": _optional_text(section, "section"),
               "max_evaluations": _optional_count(max_evaluations, "max_evaluations"), "model": _text(model, "model")}
    text, toml = _warpsim.calibrate(options)
    return CalibrateResult.from_json(json.loads(text), toml)


def evaluate(predicted: PathLike, measured: PathLike, keys: Union[None, str, Sequence[str]] = None, x: str = "N",
             ratio: Union[None, str, tuple[str, str]] = None, allow_missing: bool = False,
             charts: bool = False) -> EvaluateResult:
    """Accuracy of predictions against measurements (eq. 15-22): ``warpsim evaluate PREDICTED MEASURED``.

    ``keys`` the join columns (default: the parameter columns both have); ``ratio`` ("A", "B") or
    "A/B"; ``charts`` fills ``.charts`` with the SVGs of ``--charts DIR`` by file name.
    """
    key_list = [] if keys is None else ([k for k in keys.split(",")] if isinstance(keys, str)
                                        else [_text(k, "keys") for k in keys])
    if any(not k for k in key_list):
        raise Error(f"keys {keys!r}: an empty name")
    pair = None
    if isinstance(ratio, str):
        a, slash, b = ratio.partition("/")
        if not slash:
            raise Error(f"ratio {ratio!r}: expected A/B, two different workloads")
        pair = (a, b)
    elif ratio is not None:
        a, b = ratio
        pair = (_text(a, "ratio"), _text(b, "ratio"))
    text, csv, svgs = _warpsim.evaluate(os.fspath(predicted), os.fspath(measured), key_list, _text(x, "x"), pair,
                                        bool(allow_missing), bool(charts))
    return EvaluateResult.from_json(json.loads(text), csv, dict(svgs))


def sweep(suite: Optional[PathLike] = None, jobs: Optional[int] = None, *, points: Optional[PathLike] = None,
          model: Optional[str] = None) -> "pandas.DataFrame":
    """Every point of a suite: ``warpsim sweep SUITE -o x.csv [-j JOBS]`` as a DataFrame; or with
    ``points`` (and no suite) the rows of a point list: ``warpsim sweep --points LIST``.

    ``jobs`` None uses every core; the rows are the same for any value. ``model`` puts every
    workload under that model (``--model``; None: each one's own).
    """
    text, notes = _warpsim.sweep("" if suite is None else os.fspath(suite),
                                 "" if points is None else os.fspath(points), _jobs(jobs),
                                 _optional_text(model, "model"))
    _warn(notes)
    return _read_csv(text)


def app(path: PathLike, jobs: Optional[int] = None, *, model: Optional[str] = None) -> AppResult:
    """A whole application on 1..M GPUs: ``warpsim app PATH --format json [-j JOBS]`` (docs/apps.md).

    The rows are {"gpu", "gpus", <axes>..., "total_us", "speedup", "steps": [...]}; ``jobs`` None
    uses every core for the kernel steps; the rows are the same for any value. ``model`` puts
    every kernel step under that model (``--model``; None: each step's own).
    """
    text, notes = _warpsim.app(os.fspath(path), _jobs(jobs), _optional_text(model, "model"))
    _warn(notes)
    return AppResult.from_json(json.loads(text), tuple(notes))


def occupancy(gpu: str, block: Dims, regs: Optional[int] = None, smem: Optional[int] = None, dynamic_smem: int = 0,
              ptx: Optional[PathLike] = None, kernel: Optional[str] = None, ptxas: str = "ptxas",
              nvcc_flags: str = "") -> OccupancyResult:
    """Active blocks per SM and what limits them: ``warpsim occupancy --gpu GPU --block B --format json``.

    ``regs`` registers per thread (None: ``ptxas -v`` on ``ptx`` when it runs, else 32 with a
    warning); ``smem`` static shared memory per block in bytes (None: the ``ptx`` kernel's .shared,
    else 0); ``kernel`` picks the PTX entry; ``ptxas`` "none" runs no ptxas; ``ptx`` may be a .cu
    (compiled with nvcc for the GPU, ``nvcc_flags`` its extra flags).
    """
    text, notes = _warpsim.occupancy(os.fspath(gpu), _dims(block, "block"), _optional_count(regs, "regs"),
                                     _optional_count(smem, "smem"), _optional_count(dynamic_smem, "dynamic_smem") or 0,
                                     "" if ptx is None else os.fspath(ptx), kernel or "", ptxas,
                                     _text(nvcc_flags, "nvcc_flags"))
    _warn(notes)
    return OccupancyResult.from_json(json.loads(text), tuple(notes))


def gpus() -> list[GpuProfile]:
    """The built-in GPU profiles: ``warpsim gpus --format json``, one each, by id."""
    return [GpuProfile.from_json(p) for p in json.loads(_warpsim.gpus(None))]


def gpu(id_or_path: PathLike) -> GpuProfile:
    """One profile with the source of each figure: ``warpsim gpus ID --format json``."""
    return GpuProfile.from_json(json.loads(_warpsim.gpus(os.fspath(id_or_path))))


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
                   launches: int = 1) -> ImportResult:
    """A profiler's kernel time as a measurements row: ``warpsim import PROFILE --from PROFILER``.

    ``profiler`` is "nvprof" or "nsys"; ``params`` the key columns (e.g. {"K": 8}); ``kernel``
    picks the kernel whose name contains it; ``time_us`` is ``launches`` times the per-launch time.
    """
    return ImportResult.from_json(json.loads(_warpsim.import_profile(
        os.fspath(profile), profiler, gpu, workload, _params(params), kernel or "", _integer(launches, "launches"))))
