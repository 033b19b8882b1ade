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
