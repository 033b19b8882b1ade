"""The typed results of the warpsim functions: frozen dataclasses built from the JSON the C++
facade writes (the CLI's ``--format json``), so every value is the CLI's.

A field's name is its JSON key; a nested JSON object or list of objects is a nested dataclass (a
tuple of them for a list); a list of names is a tuple. Each result keeps the whole JSON object in
``.json`` for anything not modelled. ``SimulateResult`` groups the launch plan's keys in ``.plan``
and a PTX kernel's report in ``.ptx``, as the C++ ``SimulateResult`` does.
"""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional

if TYPE_CHECKING:
    import pandas

__all__ = [
    "AppResult", "Assumption", "BlockCandidate", "BlockSizeSearch", "CalibrateResult", "CalibrationValues",
    "CoreResult", "EvaluateResult", "Experiment", "FittedParameter", "GpuProfile", "GridPlan", "ImportResult",
    "LaunchPlan", "Limits", "LowerResult", "OccupancyResult", "PredictResult", "PtxReport", "SimulateResult",
    "WarpProgram", "Explanation", "ExplainResult", "Svg", "FigureChange", "WhatIfResult", "GpuTime", "GpuComparison",
]


def _kwargs(cls: type, data: Mapping[str, Any], **built: Any) -> dict[str, Any]:
    """The keys of ``data`` that are fields of ``cls`` (lists as tuples), then ``built`` over them."""
    names = {f.name for f in dataclasses.fields(cls)}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in names}
    values.update(built)
    return values


def _read_csv(text: str) -> "pandas.DataFrame":
    """A CSV the facade wrote, read as the CLI's file would be: exact doubles, only empty cells missing."""
    import pandas  # only the DataFrames need it: keep `import warpsim` light

    # The CSV's shortest decimals must read back as the exact doubles the CLI computed: pandas 3
    # parses them exactly by default (and deprecates float_precision); older pandas needs round_trip.
    exact = {"float_precision": "round_trip"} if int(pandas.__version__.split(".")[0]) < 3 else {}
    # Only empty cells are missing values, so a name like "NA" stays text; gpu and workload are
    # text even when a name looks like a number.
    return pandas.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""],
                           dtype={"gpu": str, "workload": str, "kernel": str}, **exact)


# ---- core ----

@dataclass(frozen=True)
class CoreResult:
    """T_c of one core package: ``warpsim core --format json``."""
    kernel: str
    warps: int
    tm: float
    cycles: float
    timeline_svg: Optional[str] = field(default=None, repr=False)  # with timeline=True
    trace_json: Optional[str] = field(default=None, repr=False)    # with trace=True
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], timeline_svg: Optional[str] = None,
                  trace_json: Optional[str] = None) -> "CoreResult":
        return cls(**_kwargs(cls, data, timeline_svg=timeline_svg, trace_json=trace_json, json=data))


# ---- simulate ----

@dataclass(frozen=True)
class GridPlan:
    """Algorithm 1's plan of the launch (MODEL.md section 5)."""
    blocks_per_sm: int
    warps_per_block: int
    core_packages_per_sm: int
    active_blocks_per_sm: int
    warps_per_core_package: int
    full_runs: int
    remaining_blocks: int
    remaining_warps_per_core_package: int


@dataclass(frozen=True)
class Limits:
    """What limits a prediction under the pipes model (docs/model.md, "What limits it")."""
    package_cycles: float
    utilisation: dict[str, float]  # busy time over T_c, by resource, in the JSON's order
    launch_overhead_share: float
    tail_share: float
    limiter: str
    reason: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Limits":
        return cls(**_kwargs(cls, data))


@dataclass(frozen=True)
class Assumption:
    """What a PTX lowering assumed, where, and how often."""
    kind: str
    message: str
    file: str
    line: int
    column: int
    count: int


def _assumptions(data: Mapping[str, Any]) -> tuple[Assumption, ...]:
    return tuple(Assumption(**_kwargs(Assumption, a)) for a in data.get("assumptions", ()))


@dataclass(frozen=True)
class PtxReport:
    """What a PTX kernel's lowering found and assumed (the PTX keys of ``simulate``'s JSON)."""
    warp_programs: int
    unknown_branches: int
    emulated_instructions: int
    emulated_classes: int
    parameters: dict[str, Any]  # PTX name -> the value given, "pointer", or None (unknown)
    assumptions: tuple[Assumption, ...]
    registers_per_thread: Optional[int] = None  # memory-aware models: what occupancy used
    registers_source: Optional[str] = None      # "--regs", "ptxas -v (sm_75)", "default", ...
    static_shared_bytes: Optional[int] = None   # memory-aware models
    # The pipes model: which instruction stream was timed, "sass" or "ptx", with the tools and
    # how much the SASS covered (docs/sass.md, "The timed stream")
    instruction_stream: Optional[dict[str, Any]] = None
    # A launch lowered from a sample of its blocks (docs/ptx.md, "Sampling"): "blocks" of "of_blocks",
    # "time_us_low" .. "time_us_high" (95%), "unseen_block_ratio" (above 1: in one wave the upper
    # end allows for blocks costlier than any sampled), "reason", "seed", "sampled_blocks"; None when exact
    sampled: Optional[dict[str, Any]] = None
    # A launch whose distinct runs were sampled (docs/ptx.md, "Sampling"): "runs" of "of_runs"
    # simulated, "time_us_low" .. "time_us_high" (95%), "packages" of "of_packages", "projected_ops",
    # "budget", "seed"; None when every run was simulated
    sampled_runs: Optional[dict[str, Any]] = None


@dataclass(frozen=True)
class SimulateResult:
    """T_k of a launch: ``warpsim simulate --format json``."""
    gpu: str
    kernel: str
    time_us: float
    cycles: float
    tp_us: float
    tm: float
    clock_mhz: float
    blocks: int
    threads: int
    plan: GridPlan
    full_run_cycles: float
    remaining_run_cycles: float
    model: Optional[str] = None      # "paper" or "pipes"; the JSON of the memory model has no key
    limits: Optional[Limits] = None  # under the pipes model
    ptx: Optional[PtxReport] = None  # for a .ptx kernel
    warnings: tuple[str, ...] = ()   # the lowering's (also given as Python warnings)
    timeline_svg: Optional[str] = field(default=None, repr=False)  # with timeline=True
    trace_json: Optional[str] = field(default=None, repr=False)    # with trace=True
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], warnings: tuple[str, ...] = (), timeline_svg: Optional[str] = None,
                  trace_json: Optional[str] = None) -> "SimulateResult":
        ptx = None
        if "warp_programs" in data:
            ptx = PtxReport(**_kwargs(PtxReport, data, assumptions=_assumptions(data)))
        limits = Limits.from_json(data["limits"]) if "limits" in data else None
        return cls(**_kwargs(cls, data, plan=GridPlan(**_kwargs(GridPlan, data)), limits=limits, ptx=ptx,
                             warnings=tuple(warnings), timeline_svg=timeline_svg, trace_json=trace_json, json=data))


# ---- explain ----

class Svg(str):
    """An SVG drawing (the text); Jupyter shows it as the drawing."""

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Explanation:
    """Why a prediction takes that long: the ``explain`` object of ``warpsim explain --format json``.

    ``findings`` (what to change: each with its ``kind``, ``message``, place, ``evidence`` and the
    ``speedup`` of the launch re-simulated without the cause, most first), ``speed_of_light``,
    ``hot_lines`` (``{"ptx": [...], "source": [...]}``), ``occupancy`` (with its ``curves``) and
    ``roofline`` are the JSON's lists and objects; ``waits`` maps each cause to its share of the
    warps' time and cycles per warp.
    """
    package_cycles: float
    warps: int
    limiter: str
    reason: str
    sentence: str
    findings: tuple[dict[str, Any], ...]
    speed_of_light: tuple[dict[str, Any], ...]
    waits: dict[str, dict[str, float]]
    hot_lines: dict[str, tuple[dict[str, Any], ...]]
    occupancy: dict[str, Any]
    roofline: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Explanation":
        lines = {k: tuple(v) for k, v in data["hot_lines"].items()}
        return cls(**_kwargs(cls, data, hot_lines=lines))


@dataclass(frozen=True)
class BaselineComparison:
    """``warpsim explain AFTER --baseline BEFORE --format json``: the two kernels side by side.

    ``speedup`` is the baseline's time over the kernel's; ``resources`` and ``lines`` are the
    JSON's lists (busy shares, and each line's time in microseconds, matched by its code);
    ``baseline`` is the kernel before the change, simulated and explained.
    """
    baseline_kernel: str
    baseline_time_us: float
    time_us: float
    speedup: float
    baseline_limiter: str
    limiter: str
    moved_most: str
    resources: tuple[dict[str, Any], ...]
    lines: tuple[dict[str, Any], ...]
    baseline: SimulateResult
    baseline_explanation: Explanation
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "BaselineComparison":
        return cls(**_kwargs(cls, data, baseline=SimulateResult.from_json(data["baseline"]),
                             baseline_explanation=Explanation.from_json(data["baseline"]["explain"]), json=data))


@dataclass(frozen=True)
class ExplainResult:
    """``warpsim explain``: the prediction, its explanation, the HTML report and the charts.

    In Jupyter the result shows as its HTML report; each chart (``charts["roofline.svg"]``, ...)
    shows as its drawing. ``comparison``: with ``baseline`` or ``baseline_kernel``, the kernel
    before the change beside this one (else None).
    """
    simulation: SimulateResult
    explanation: Explanation
    html: str = field(repr=False)
    charts: dict[str, Svg] = field(repr=False)
    comparison: Optional[BaselineComparison] = None

    def _repr_html_(self) -> str:
        return self.html


# ---- what if, GPUs side by side ----

@dataclass(frozen=True)
class FigureChange:
    """One ``--set FIGURE=VALUE``: the figure, the VALUE given, and the figure before and after."""
    figure: str
    given: str
    baseline: float
    value: float


@dataclass(frozen=True)
class WhatIfResult:
    """``warpsim simulate --set ...``: the baseline run and the run with the figures changed."""
    gpu: str
    kernel: str
    changes: tuple[FigureChange, ...]
    baseline_time_us: float
    what_if_time_us: float
    speedup: float  # the baseline's time over the what-if's (above 1: the change is faster)
    baseline: SimulateResult
    what_if: SimulateResult
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], warnings: tuple[str, ...] = ()) -> "WhatIfResult":
        return cls(**_kwargs(cls, data, changes=tuple(FigureChange(**c) for c in data["changes"]),
                             baseline=SimulateResult.from_json(data["baseline"], warnings),
                             what_if=SimulateResult.from_json(data["what_if"]), json=data))


@dataclass(frozen=True)
class GpuTime:
    """One GPU's row of a comparison."""
    gpu: str
    time_us: float
    cycles: float
    speedup: float                  # the first GPU's time over this one's
    limiter: Optional[str] = None   # under the pipes model


@dataclass(frozen=True)
class GpuComparison:
    """``warpsim simulate --gpu a,b,...``: one kernel on several GPUs; ``chart`` is ``--chart``'s SVG."""
    kernel: str
    model: str
    gpus: tuple[GpuTime, ...]
    csv: str = field(repr=False)
    chart: Svg = field(repr=False)
    warnings: tuple[str, ...] = ()
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], csv: str, chart: str, warnings: tuple[str, ...] = ()) -> "GpuComparison":
        return cls(**_kwargs(cls, data, gpus=tuple(GpuTime(**g) for g in data["gpus"]), csv=csv, chart=Svg(chart),
                             warnings=tuple(warnings), json=data))

    def to_dataframe(self) -> "pandas.DataFrame":
        """The ``--format csv`` table."""
        return _read_csv(self.csv)


# ---- lower ----

@dataclass(frozen=True)
class WarpProgram:
    """One distinct per-warp program of a lowering."""
    id: int
    warps: int
    first_warp: int
    loads: int
    stores: int
    calc_cycles: float
    kp: str = field(repr=False)


@dataclass(frozen=True)
class LowerResult:
    """PTX lowered to per-warp kernel programs: ``warpsim lower --format json``; ``kp`` is the
    annotated .kp text ``warpsim lower`` writes."""
    file: str
    kernel: str
    ptx_name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    parameters: dict[str, Any]
    warps: int
    emulated_instructions: int
    emulated_classes: int
    unknown_branches: int
    assumptions: tuple[Assumption, ...]
    programs: tuple[WarpProgram, ...]
    kp: str = field(default="", repr=False)
    warnings: tuple[str, ...] = ()
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], kp: str = "", warnings: tuple[str, ...] = ()) -> "LowerResult":
        programs = tuple(WarpProgram(**_kwargs(WarpProgram, p)) for p in data["programs"])
        return cls(**_kwargs(cls, data, assumptions=_assumptions(data), programs=programs, kp=kp,
                             warnings=tuple(warnings), json=data))


# ---- launch ----

@dataclass(frozen=True)
class LaunchPlan:
    """The paper's launch heuristic (Algorithm 3): ``warpsim launch --format json``."""
    gpu: str
    total_threads: int
    blocks: int
    threads: int  # per block
    rule: int     # which of Algorithm 3's rules chose it
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "LaunchPlan":
        return cls(**_kwargs(cls, data, json=data))


@dataclass(frozen=True)
class BlockCandidate:
    """One block size of a search: its time, or why the launch cannot run."""
    threads: int
    blocks: int
    best: bool
    time_us: Optional[float] = None  # None when the launch cannot run (reason)
    cycles: Optional[float] = None
    active_blocks_per_sm: Optional[int] = None
    active_warps_per_sm: Optional[int] = None
    reason: Optional[str] = None
    rule: Optional[int] = None  # Algorithm 3's candidate: the rule that chose it


@dataclass(frozen=True)
class BlockSizeSearch:
    """The block size of least predicted time: ``warpsim launch --search --format json``."""
    gpu: str
    kernel: str
    total_threads: int
    model: str
    best: BlockCandidate        # the JSON's summary of the fastest (threads, blocks, time_us)
    algorithm3: BlockCandidate  # Algorithm 3's launch, timed alike
    candidates: tuple[BlockCandidate, ...]
    registers_per_thread: Optional[int] = None
    registers_source: Optional[str] = None
    static_shared_bytes: Optional[int] = None
    warnings: tuple[str, ...] = ()
    csv: str = field(default="", repr=False)  # `--format csv`: one row per candidate, full precision
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], csv: str = "", warnings: tuple[str, ...] = ()) -> "BlockSizeSearch":
        def candidate(c: Mapping[str, Any], best: bool) -> BlockCandidate:
            return BlockCandidate(**_kwargs(BlockCandidate, {"best": best, **c}))
        return cls(**_kwargs(cls, data, best=candidate(data["best"], True),
                             algorithm3=candidate(data["algorithm3"], False),
                             candidates=tuple(candidate(c, c["best"]) for c in data["candidates"]),
                             warnings=tuple(warnings), csv=csv, json=data))

    def to_dataframe(self) -> "pandas.DataFrame":
        """The candidates as ``warpsim launch --search --format csv`` writes them, one row each."""
        return _read_csv(self.csv)


# ---- predict ----

@dataclass(frozen=True)
class PredictResult:
    """One point of a built-in DWT workload: ``warpsim predict --format json`` (the sweep row)."""
    gpu: str
    workload: str
    K: int
    N: int
    blocks: int
    threads: int
    time_us: float
    launches: int
    launch_time_us: float
    cycles_per_launch: float
    elements: int
    total_threads: int
    blocks_per_sm: int
    active_blocks_per_sm: int
    warps_per_core_package: int
    full_runs: int
    remaining_blocks: int
    full_run_cycles: float
    remaining_run_cycles: float
    tp_us: float
    tm: float
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "PredictResult":
        return cls(**_kwargs(cls, data, json=data))


# ---- calibrate ----

@dataclass(frozen=True)
class FittedParameter:
    """A fitted parameter and its bounds."""
    name: str
    lower: float
    upper: float
    unit: str


@dataclass(frozen=True)
class CalibrationValues:
    """t_p, t_m and the durations at the start or at the end of a fit, and the error E there."""
    tp_us: float
    tm: float
    durations: dict[str, float]
    mean_error: float
    max_error: float


@dataclass(frozen=True)
class CalibrateResult:
    """A fit of t_p, t_m and durations to measured times: ``warpsim calibrate --format json``;
    ``toml`` is the profile section ``--format toml`` writes. ``rows`` (each point, measured and
    predicted before and after) are in ``.json["rows"]`` and ``to_dataframe()``."""
    workload: str
    kernel: str
    section: str
    gpu: str
    points: int
    fitted: tuple[FittedParameter, ...]
    tp_origin: str
    before: CalibrationValues
    after: CalibrationValues
    evaluations: int
    distinct_evaluations: int
    simulations: int
    seconds: float
    method: str
    calibration: str
    measured: Optional[str] = None
    toml: str = field(default="", repr=False)
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], toml: str = "") -> "CalibrateResult":
        return cls(**_kwargs(cls, data, fitted=tuple(FittedParameter(**_kwargs(FittedParameter, f))
                                                     for f in data["fitted"]),
                             before=CalibrationValues(**_kwargs(CalibrationValues, data["before"])),
                             after=CalibrationValues(**_kwargs(CalibrationValues, data["after"])),
                             toml=toml, json=data))

    def to_dataframe(self) -> "pandas.DataFrame":
        """The ``rows``: each point's axes, measured time, and the times before and after the fit."""
        import pandas

        return pandas.DataFrame(self.json.get("rows", []))


# ---- evaluate ----

@dataclass(frozen=True)
class Experiment:
    """One experiment of an evaluation: a GPU, a workload and fixed keys, over x."""
    gpu: str
    workload: str
    keys: dict[str, str]
    points: int
    t_min_us: float
    t_max_us: float
    mean_error: float
    max_error: float
    data: tuple[dict[str, Any], ...] = field(repr=False)  # x, predicted_us, measured_us, ratio


@dataclass(frozen=True)
class EvaluateResult:
    """Accuracy of predictions against measurements (eq. 15-22): ``warpsim evaluate --format json``;
    ``csv`` is ``--format csv`` (the summary: a row per experiment, workload, ratio and overall; each
    point is in ``experiments[i].data``), ``charts`` the SVG charts of ``--charts`` by file name (with charts=True)."""
    predicted: str
    measured: str
    keys: tuple[str, ...]
    x: str
    experiments: tuple[Experiment, ...]
    workloads: tuple[dict[str, Any], ...]
    overall: dict[str, Any]
    skipped_lines: tuple[Any, ...]
    ratio: Optional[dict[str, Any]] = field(default=None, repr=False)
    csv: str = field(default="", repr=False)
    charts: dict[str, str] = field(default_factory=dict, repr=False)
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], csv: str = "",
                  charts: Optional[Mapping[str, str]] = None) -> "EvaluateResult":
        experiments = tuple(Experiment(**_kwargs(Experiment, e)) for e in data["experiments"])
        return cls(**_kwargs(cls, data, experiments=experiments, csv=csv, charts=dict(charts or {}), json=data))

    def to_dataframe(self) -> "pandas.DataFrame":
        """``warpsim evaluate --format csv``: the summary rows, with their ``level``."""
        return _read_csv(self.csv)


# ---- occupancy ----

@dataclass(frozen=True)
class OccupancyResult:
    """Active blocks per SM and what limits them: ``warpsim occupancy --format json``."""
    gpu: str
    compute_capability: str
    threads_per_block: int
    registers_per_thread: int
    registers_source: str
    static_smem_bytes: int
    static_smem_source: str
    dynamic_smem_bytes: int
    active_blocks_per_sm: int
    limited_by: str
    limiting_factors: tuple[str, ...]
    by_warps: int
    by_blocks: int
    warps_per_block: int
    registers_per_block: int
    shared_memory_per_block: int
    shared_memory_per_sm: int
    active_warps_per_sm: int
    max_warps_per_sm: int
    occupancy: float
    by_registers: Optional[int] = None      # None: no limit
    by_shared_memory: Optional[int] = None  # None: no limit
    warnings: tuple[str, ...] = ()          # why registers took the default (also Python warnings)
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], warnings: tuple[str, ...] = ()) -> "OccupancyResult":
        return cls(**_kwargs(cls, data, warnings=tuple(warnings), json=data))


# ---- gpus ----

_GPU_FIXED = ("id", "name", "architecture", "compute_capability", "clock_mhz", "sm_count", "cores_per_sm",
              "core_packages_per_sm", "max_blocks_per_sm", "max_warps_per_sm", "max_threads_per_block", "warp_size",
              "memory_type", "sources", "calibration", "host")


@dataclass(frozen=True)
class GpuProfile:
    """A GPU profile: ``warpsim gpus ID --format json`` (or one row of ``warpsim gpus``). The
    optional figures (``dram_latency_cycles``, ...) are in ``figures``, by TOML key."""
    id: str
    name: str
    architecture: str
    compute_capability: str
    clock_mhz: float
    sm_count: int
    cores_per_sm: int
    core_packages_per_sm: int
    max_blocks_per_sm: int
    max_warps_per_sm: int
    max_threads_per_block: int
    warp_size: int
    memory_type: Optional[str] = None
    figures: dict[str, float] = field(default_factory=dict, repr=False)
    sources: Optional[dict[str, str]] = field(default=None, repr=False)  # figure -> where it came from
    calibration: Optional[dict[str, Any]] = field(default=None, repr=False)  # kernel -> {tp_us, tm}
    host: Optional[dict[str, Any]] = field(default=None, repr=False)  # the profile's [host]
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GpuProfile":
        figures = {k: v for k, v in data.items() if k not in _GPU_FIXED}
        return cls(**_kwargs(cls, data, figures=figures, json=data))


# ---- import ----

@dataclass(frozen=True)
class ImportResult:
    """A profiler's kernel time as a measurements row: ``warpsim import``'s row and what was read."""
    gpu: str
    workload: str
    parameters: dict[str, str]
    time_us: float
    samples: int
    kernel: str
    median: bool
    per_launch_us: float
    launch_us: Optional[float] = None  # cudaLaunchKernel's, when the profile lists it
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ImportResult":
        return cls(**_kwargs(cls, data, json=data))


# ---- app ----

@dataclass(frozen=True)
class AppResult:
    """A whole application on 1..M GPUs: ``warpsim app --format json``. Each row has the GPU, M
    (``gpus``), the axes, ``total_us``, ``speedup`` and its ``steps``; ``to_dataframe()`` has one
    line per row without the steps."""
    app: str
    rows: tuple[dict[str, Any], ...] = field(repr=False)
    warnings: tuple[str, ...] = ()
    json: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: dict[str, Any], warnings: tuple[str, ...] = ()) -> "AppResult":
        return cls(**_kwargs(cls, data, warnings=tuple(warnings), json=data))

    def to_dataframe(self) -> "pandas.DataFrame":
        import pandas

        return pandas.DataFrame([{k: v for k, v in row.items() if k != "steps"} for row in self.rows])
