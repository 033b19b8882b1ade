"""Which warpsim binary the validation scripts run (validate_public.py, validate_pipes.py,
validate_h100_dwt.py): --warpsim, else the newer of build/release/warpsim and build/ci/warpsim,
else PATH's. Python 3.11 standard library only."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_warpsim(given: str | None) -> str | None:
    """The binary to run, or None when there is none (`given` not an executable file, or nothing built)."""
    if given:
        return given if Path(given).is_file() and os.access(given, os.X_OK) else None
    built = [p for p in (ROOT / "build/release/warpsim", ROOT / "build/ci/warpsim") if p.is_file() and os.access(p, os.X_OK)]
    if built:
        return str(max(built, key=lambda p: p.stat().st_mtime))
    return shutil.which("warpsim")


def missing_message(given: str | None) -> str:
    return (f"no warpsim binary{' at ' + given if given else ''}: build it (cmake --preset release && "
            "cmake --build --preset release) or pass --warpsim PATH")


def default_model(warpsim: str) -> str:
    """The timing model `warpsim` uses when --model is not given (its `--model arg (=NAME)` help line,
    the C++ kDefaultModel), so that a script which passes no --model can say which model it ran."""
    text = subprocess.run([warpsim, "predict", "--help"], capture_output=True, text=True).stdout
    found = re.search(r"--model arg \(=(\w+)\)", text)
    return found.group(1) if found else "default"
