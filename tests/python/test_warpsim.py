"""Tests of the Python module (scripts/python-test.sh runs them in a venv with `pip install .`).

The results must be the CLI's: with WARPSIM_BINARY naming a built `warpsim`, each call is
compared with the command's output; without it those comparisons are skipped.
"""

import json
import os
import pickle
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas
import pytest

import warpsim

ROOT = Path(__file__).resolve().parents[2]  # tests/python/ -> the repository root
BINARY = os.environ.get("WARPSIM_BINARY")
BINARY = os.path.abspath(BINARY) if BINARY else None  # before the chdir below
LISTING1 = "workloads/examples/listing1_load.kp"
MTX_KP = "workloads/mtx_mul_vec/mtx_mul_vec.kp"
MTX_PTX = "workloads/mtx_mul_vec/mtx_mul_vec.ptx"
SUITE = "workloads/suites/mtx-mul-vec.toml"  # 48 points, about a second


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    # Relative paths, as a CLI user types them: the messages and reports name the same files.
    monkeypatch.chdir(ROOT)


def cli(*args):
    """The CLI's stdout for ARGS, or skip the test when no binary was given."""
    if not BINARY:
        pytest.skip("set WARPSIM_BINARY to a built warpsim to compare with the CLI")
    done = subprocess.run([BINARY, *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


def test_core_listing1_is_112_cycles():
    # The paper's Listing 1 with three warps and t_m = 2.
    result = warpsim.core(LISTING1, warps=3, tm=2)
    assert result["cycles"] == 112
    assert list(result.items()) == [("kernel", "listing1_load"), ("warps", 3), ("tm", 2), ("cycles", 112)]


def test_core_tm_none_reads_the_program():
    assert warpsim.core(LISTING1, 3, None) == warpsim.core(LISTING1, 3, 2)


def test_core_matches_cli():
    result = warpsim.core(MTX_KP, warps=4, tm=None, params={"N": 16})
    expected = json.loads(cli("core", MTX_KP, "--warps", "4", "--param", "N=16", "--format", "json"))
    assert list(result.items()) == list(expected.items())


def test_simulate_kp_matches_cli():
    result = warpsim.simulate(MTX_KP, "rtx2060", grid=4, block=128, params={"N": 512})
    assert result["kernel"] == "mtx_mul_vec" and result["blocks"] == 4 and result["threads"] == 128
    expected = json.loads(cli("simulate", MTX_KP, "--gpu", "rtx2060", "--grid", "4", "--block", "128",
                              "--param", "N=512", "--format", "json"))
    assert list(result.items()) == list(expected.items())  # same keys, order and values


def test_simulate_ptx_matches_cli():
    result = warpsim.simulate(MTX_PTX, "rtx2060", grid="2", block=(256,), params={0: 512}, tp=5.2, tm=31)
    assert result["kernel"] == "mtx_mul_vec" and "parameters" in result
    expected = json.loads(cli("simulate", MTX_PTX, "--gpu", "rtx2060", "--grid", "2", "--block", "256",
                              "--param", "0=512", "--tp", "5.2", "--tm", "31", "--format", "json"))
    assert list(result.items()) == list(expected.items())


def test_simulate_ptx_kernel_by_name_matches_cli():
    # A file of two kernels: `kernel` is --kernel; a parameter by its position as a str key.
    path = "workloads/histogram/histogram.ptx"
    result = warpsim.simulate(path, "rtx2060", 2, 64, params={"0": "0x400"}, kernel="histogram_global")
    assert result["kernel"] == "histogram_global"
    expected = json.loads(cli("simulate", path, "--kernel", "histogram_global", "--gpu", "rtx2060", "--grid", "2",
                              "--block", "64", "--param", "0=0x400", "--format", "json"))
    assert list(result.items()) == list(expected.items())


def test_simulate_lowering_warnings_are_python_warnings():
    # The CLI prints these on stderr; data-dependent branches cannot be decided statically.
    with pytest.warns(UserWarning, match="branch decisions"):
        warpsim.simulate("workloads/branchy/branchy.ptx", "rtx2060", 2, 64, params={0: 100})


@pytest.mark.parametrize("grid", [4, "4", "4,1,1", (4,), [4, 1], (2, 2, 1)])
def test_simulate_grid_forms(grid):
    # Every spelling of four blocks is the same launch.
    base = warpsim.simulate(MTX_KP, "rtx2060", 4, 64, params={"N": 64})
    assert warpsim.simulate(MTX_KP, "rtx2060", grid, "64", params={"N": 64}) == base


def test_sweep_has_cli_columns_and_values(tmp_path):
    frame = warpsim.sweep(SUITE, jobs=2)
    # The suite's axes N and block between the names and the results (docs/formats.md, Sweep output).
    assert list(frame.columns) == [
        "gpu", "workload", "N", "block", "blocks", "threads", "time_us", "launches", "launch_time_us",
        "cycles_per_launch", "elements", "total_threads", "blocks_per_sm", "active_blocks_per_sm",
        "warps_per_core_package", "full_runs", "remaining_blocks", "full_run_cycles", "remaining_run_cycles",
        "tp_us", "tm"]
    assert len(frame) == 48
    assert all(isinstance(v, str) for v in frame["gpu"]) and all(isinstance(v, str) for v in frame["workload"])
    cli("sweep", SUITE, "-o", str(tmp_path / "x.csv"), "--quiet")
    exact = {"float_precision": "round_trip"} if int(pandas.__version__.split(".")[0]) < 3 else {}
    expected = pandas.read_csv(tmp_path / "x.csv", keep_default_na=False, na_values=[""],
                               dtype={"gpu": str, "workload": str}, **exact)
    pandas.testing.assert_frame_equal(frame, expected, check_exact=True)


def test_calls_from_threads():
    # The C++ runs without the GIL; calls from several threads must still each be right.
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda w: warpsim.core(LISTING1, w, 2)["cycles"], [3] * 8))
    assert results == [112] * 8


def test_missing_file_raises_error_with_file():
    with pytest.raises(warpsim.Error) as caught:
        warpsim.core("workloads/no_such.kp", 1, 1)
    assert caught.value.file == "workloads/no_such.kp"
    assert str(caught.value).startswith("workloads/no_such.kp")
    assert isinstance(caught.value, ValueError)


def test_malformed_program_has_line():
    with pytest.raises(warpsim.Error) as caught:
        warpsim.core("tests/malformed/kp/extra_operand.kp", 1, 1)
    error = caught.value
    assert error.file == "tests/malformed/kp/extra_operand.kp" and error.line is not None
    assert str(error).startswith(f"{error.file}:{error.line}")
    copy = pickle.loads(pickle.dumps(error))  # the location survives multiprocessing
    assert (copy.file, copy.line, copy.column, str(copy)) == (error.file, error.line, error.column, str(error))


def test_unknown_gpu_raises_error():
    with pytest.raises(warpsim.Error, match="unknown GPU"):
        warpsim.simulate(MTX_KP, "no_such_gpu", 1, 32, params={"N": 8})


@pytest.mark.parametrize("grid", [0, "0", "x", "1,2,3,4", (), (1, -1)])
def test_bad_grid_raises_error(grid):
    with pytest.raises(warpsim.Error):
        warpsim.simulate(MTX_KP, "rtx2060", grid, 32, params={"N": 8})


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        warpsim.core(LISTING1, "3", 2)
    with pytest.raises(TypeError):
        warpsim.core(MTX_KP, 1, None, params={"N": 1.5})


def test_version():
    assert warpsim.__version__ == "0.1.0"


def test_app_is_the_cli_json(tmp_path):
    app = ROOT / "workloads/apps/dwt_scaling.toml"
    result = warpsim.app(app, jobs=2)
    assert result == json.loads(cli("app", str(app), "--format", "json"))
    assert [row["gpus"] for row in result["rows"]] == [1, 1, 2, 2, 4, 4, 8, 8]
    row = result["rows"][5]
    assert row["steps"][0]["time_us"] == 8.0 + 4194304.0 / 3000.0  # 16 MiB / 4 GPUs over 12/4 GB/s
    assert row["total_us"] == sum(step["time_us"] for step in row["steps"])


def test_app_errors_are_located(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('gpu = "rtx2080"\n[[step]]\ncpu_us = "2*Q"\n')
    with pytest.raises(warpsim.Error) as caught:
        warpsim.app(bad)
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(bad), 3, 11)
    with pytest.raises(warpsim.Error):
        warpsim.app(bad, jobs=-1)


def test_occupancy_is_the_cli_json():
    result = warpsim.occupancy("a100", block=(16, 16), regs=64)
    assert result["active_blocks_per_sm"] == 4 and result["registers_source"] == "--regs"
    expected = json.loads(cli("occupancy", "--gpu", "a100", "--block", "16,16", "--regs", "64", "--format", "json"))
    assert list(result.items()) == list(expected.items())


def test_occupancy_without_ptxas_warns_and_takes_32_registers():
    with pytest.warns(UserWarning):
        result = warpsim.occupancy("a100", 256, ptx="workloads/saxpy/saxpy.ptx", ptxas="none")
    assert result["registers_per_thread"] == 32 and result["static_smem_source"] == "ptx"
    with pytest.raises(warpsim.Error, match="--kernel needs --ptx"):
        warpsim.occupancy("a100", 256, kernel="saxpy")


def test_gpus_are_the_cli_json():
    profiles = warpsim.gpus()
    assert "h100" in [p["id"] for p in profiles]
    assert profiles == json.loads(cli("gpus", "--format", "json"))
    h100 = warpsim.gpu("h100")
    assert h100 == json.loads(cli("gpus", "h100", "--format", "json"))
    assert h100["id"] == "h100" and "sources" in h100
    with pytest.raises(warpsim.Error, match="nosuch"):
        warpsim.gpu("nosuch")


def test_plot_is_the_cli_svg(tmp_path):
    results = tmp_path / "mtx.csv"
    warpsim.sweep(SUITE, jobs=2).to_csv(results, index=False)
    svg = warpsim.plot(results, x="N", by=["gpu", "workload"], where={"gpu": "rtx2060"}, title="mtx")
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    out = tmp_path / "chart.svg"
    cli("plot", str(results), "--by", "gpu,workload", "--where", "gpu=rtx2060", "--title", "mtx", "-o", str(out))
    assert svg == out.read_text()
    with pytest.raises(warpsim.Error, match="nosuch"):
        warpsim.plot(results, x="nosuch")


def test_import_profile_is_the_cli_row():
    data = "tests/evaluate/data/nsys_kern_sum.csv"
    row = warpsim.import_profile(data, "nsys", "rtx2080", "dwt_lattice", params={"K": 8, "N": 1024}, kernel="ltt",
                                 launches=5)
    assert row["parameters"] == {"K": "8", "N": "1024"} and row["time_us"] == 5 * row["per_launch_us"]
    csv = cli("import", data, "--from", "nsys", "--gpu", "rtx2080", "--workload", "dwt_lattice", "--param", "K=8",
              "--param", "N=1024", "--kernel", "ltt", "--launches", "5")
    header, values = (line.split(",") for line in csv.splitlines())
    fields = dict(zip(header, values))
    assert float(fields["time_us"]) == row["time_us"] and int(fields["samples"]) == row["samples"]
    with pytest.raises(warpsim.Error):
        warpsim.import_profile(data, "nvvp", "rtx2080", "dwt_matrix")
