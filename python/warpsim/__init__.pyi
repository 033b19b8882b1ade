# Type stubs of the public API (python/warpsim/__init__.py has the docs).
import os
from typing import Any, Mapping, Optional, Sequence, Union

import pandas

from ._error import Error as Error

__version__: str
__all__: list[str]

PathLike = Union[str, os.PathLike[str]]
Dims = Union[int, str, Sequence[int]]

def core(path: PathLike, warps: int, tm: Optional[float],
         params: Optional[Mapping[str, Union[int, str]]] = None) -> dict[str, Any]: ...
def simulate(path: PathLike, gpu: str, grid: Dims, block: Dims,
             params: Optional[Mapping[Union[str, int], Union[int, str]]] = None, kernel: Optional[str] = None,
             tp: Optional[float] = None, tm: Optional[float] = None) -> dict[str, Any]: ...
def sweep(suite: PathLike, jobs: Optional[int] = None) -> pandas.DataFrame: ...
def app(path: PathLike, jobs: Optional[int] = None) -> dict[str, Any]: ...
def occupancy(gpu: str, block: Dims, regs: Optional[int] = None, smem: Optional[int] = None, dynamic_smem: int = 0,
              ptx: Optional[PathLike] = None, kernel: Optional[str] = None, ptxas: str = "ptxas") -> dict[str, Any]: ...
def gpus() -> list[dict[str, Any]]: ...
def gpu(id_or_path: PathLike) -> dict[str, Any]: ...
def plot(results: PathLike, x: str = "N", y: str = "time_us", by: Union[str, Sequence[str]] = ("gpu", "workload"),
         where: Optional[Mapping[str, Any]] = None, title: Optional[str] = None, linear_x: bool = False,
         linear_y: bool = False) -> str: ...
def import_profile(profile: PathLike, profiler: str, gpu: str, workload: str,
                   params: Optional[Mapping[str, Union[int, str]]] = None, kernel: Optional[str] = None,
                   launches: int = 1) -> dict[str, Any]: ...
