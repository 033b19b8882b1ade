# Type stubs of the public API (python/warpsim/__init__.py has the docs; the results are the
# dataclasses of python/warpsim/_results.py).
import os
from typing import Any, Mapping, Optional, Sequence, Union

import pandas

from ._error import Error as Error
from ._results import AppResult as AppResult
from ._results import Assumption as Assumption
from ._results import BlockCandidate as BlockCandidate
from ._results import BlockSizeSearch as BlockSizeSearch
from ._results import CalibrateResult as CalibrateResult
from ._results import CalibrationValues as CalibrationValues
from ._results import CoreResult as CoreResult
from ._results import EvaluateResult as EvaluateResult
from ._results import Experiment as Experiment
from ._results import FittedParameter as FittedParameter
from ._results import GpuProfile as GpuProfile
from ._results import GridPlan as GridPlan
from ._results import ImportResult as ImportResult
from ._results import LaunchPlan as LaunchPlan
from ._results import Limits as Limits
from ._results import LowerResult as LowerResult
from ._results import OccupancyResult as OccupancyResult
from ._results import PredictResult as PredictResult
from ._results import PtxReport as PtxReport
from ._results import SimulateResult as SimulateResult
from ._results import WarpProgram as WarpProgram
from ._results import Explanation as Explanation
from ._results import ExplainResult as ExplainResult
from ._results import BaselineComparison as BaselineComparison
from ._results import Svg as Svg
from ._results import FigureChange as FigureChange
from ._results import WhatIfResult as WhatIfResult
from ._results import GpuTime as GpuTime
from ._results import GpuComparison as GpuComparison

__version__: str
DEFAULT_MODEL: str
__all__: list[str]

PathLike = Union[str, os.PathLike[str]]
Dims = Union[int, str, Sequence[int]]
Params = Optional[Mapping[Union[str, int], Union[int, str]]]

def core(path: PathLike, warps: int, tm: Optional[float], params: Optional[Mapping[str, Union[int, str]]] = None,
         *, gpu: Optional[str] = None, block_warps: Optional[int] = None, model: Optional[str] = None,
         max_instructions: Optional[int] = None, timeline: bool = False, trace: bool = False) -> CoreResult: ...
def simulate(path: PathLike, gpu: str, grid: Dims, block: Dims, params: Params = None, kernel: Optional[str] = None,
             tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = DEFAULT_MODEL,
             regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
             unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
             load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
             max_instructions: Optional[int] = None, timeline: bool = False, trace: bool = False,
             nvcc_flags: str = "", dynamic_smem: int = 0, nvdisasm: str = "nvdisasm",
             inputs: Optional[Mapping[Union[str, int], str]] = None) -> SimulateResult: ...
def explain(path: PathLike, gpu: str, grid: Dims, block: Dims, params: Params = None, kernel: Optional[str] = None,
            tp: Optional[float] = None, tm: Optional[float] = None, *, model: str = "pipes",
            regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True, emulate_all: bool = False,
            unknown_trips: int = 1, unknown_branch: str = "fallthrough", max_steps: Optional[int] = None,
            load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
            max_instructions: Optional[int] = None, nvcc_flags: str = "", dynamic_smem: int = 0,
            inputs: Optional[Mapping[Union[str, int], str]] = None, baseline: Optional[PathLike] = None,
            baseline_kernel: Optional[str] = None) -> ExplainResult: ...
def what_if(path: PathLike, gpu: str, grid: Dims, block: Dims, changes: Union[Sequence[str], Mapping[str, Any]],
            params: Params = None, kernel: Optional[str] = None, tp: Optional[float] = None, tm: Optional[float] = None,
            *, model: str = DEFAULT_MODEL, regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True,
            emulate_all: bool = False, unknown_trips: int = 1, unknown_branch: str = "fallthrough",
            max_steps: Optional[int] = None, load_cycles: Optional[float] = None, store_cycles: Optional[float] = None,
            max_instructions: Optional[int] = None, nvcc_flags: str = "", dynamic_smem: int = 0) -> WhatIfResult: ...
def compare_gpus(path: PathLike, gpus: Union[str, Sequence[str]], grid: Dims, block: Dims, params: Params = None,
                 kernel: Optional[str] = None, tp: Optional[float] = None, tm: Optional[float] = None, *,
                 model: str = DEFAULT_MODEL, regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True,
                 emulate_all: bool = False, unknown_trips: int = 1, unknown_branch: str = "fallthrough",
                 max_steps: Optional[int] = None, load_cycles: Optional[float] = None,
                 store_cycles: Optional[float] = None, max_instructions: Optional[int] = None, nvcc_flags: str = "",
                 dynamic_smem: int = 0) -> GpuComparison: ...
def lower(path: PathLike, grid: Dims, block: Dims, params: Params = None, kernel: Optional[str] = None, *,
          emulate_all: bool = False, unknown_trips: int = 1, unknown_branch: str = "fallthrough",
          max_steps: Optional[int] = None, load_cycles: Optional[float] = None,
          store_cycles: Optional[float] = None, nvcc_flags: str = "", use_cache: bool = True,
          inputs: Optional[Mapping[Union[str, int], str]] = None) -> LowerResult: ...
def launch(gpu: str, threads: int) -> LaunchPlan: ...
def search_block_size(gpu: str, threads: int, program: Optional[PathLike] = None, params: Params = None,
                      kernel: Optional[str] = None, tp: Optional[float] = None, tm: Optional[float] = None, *,
                      model: str = DEFAULT_MODEL, regs: Optional[int] = None, ptxas: str = "ptxas", use_cache: bool = True,
                      emulate_all: bool = False, unknown_trips: int = 1, unknown_branch: str = "fallthrough",
                      max_steps: Optional[int] = None, load_cycles: Optional[float] = None,
                      store_cycles: Optional[float] = None, max_instructions: Optional[int] = None
                      ) -> BlockSizeSearch: ...
def predict(workload: str, gpu: str, K: int, N: int, tp: Optional[float] = None, tm: Optional[float] = None,
            model: str = DEFAULT_MODEL) -> PredictResult: ...
def calibrate(measured: Optional[PathLike], gpu: str, workload: Optional[PathLike] = None, *,
              points: Optional[PathLike] = None, fit: Union[None, str, Sequence[str]] = None,
              bounds: Union[None, str, Mapping[str, tuple[float, float]]] = None, tp: Optional[float] = None,
              tm: Optional[float] = None, threads: Union[None, int, str] = None, grid: Union[None, int, str] = None,
              block: Union[None, int, str] = None, kernel: Optional[str] = None,
              params: Union[None, str, Sequence[str], Mapping[str, Union[int, str]]] = None,
              label: Optional[str] = None, section: Optional[str] = None, max_evaluations: int = 3000,
              model: str = DEFAULT_MODEL) -> CalibrateResult: ...
def evaluate(predicted: PathLike, measured: PathLike, keys: Union[None, str, Sequence[str]] = None, x: str = "N",
             ratio: Union[None, str, tuple[str, str]] = None, allow_missing: bool = False,
             charts: bool = False) -> EvaluateResult: ...
def sweep(suite: Optional[PathLike] = None, jobs: Optional[int] = None, *, points: Optional[PathLike] = None,
          model: Optional[str] = None) -> pandas.DataFrame: ...
def app(path: PathLike, jobs: Optional[int] = None, *, model: Optional[str] = None) -> AppResult: ...
def occupancy(gpu: str, block: Dims, regs: Optional[int] = None, smem: Optional[int] = None, dynamic_smem: int = 0,
              ptx: Optional[PathLike] = None, kernel: Optional[str] = None, ptxas: str = "ptxas",
              nvcc_flags: str = "") -> OccupancyResult: ...
def gpus() -> list[GpuProfile]: ...
def gpu(id_or_path: PathLike) -> GpuProfile: ...
def plot(results: PathLike, x: str = "N", y: str = "time_us", by: Union[str, Sequence[str]] = ("gpu", "workload"),
         where: Optional[Mapping[str, Any]] = None, title: Optional[str] = None, linear_x: bool = False,
         linear_y: bool = False) -> str: ...
def import_profile(profile: PathLike, profiler: str, gpu: str, workload: str,
                   params: Optional[Mapping[str, Union[int, str]]] = None, kernel: Optional[str] = None,
                   launches: int = 1) -> ImportResult: ...
