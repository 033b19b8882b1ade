#!/usr/bin/env python3
"""The measurement kit's parser and reporting (scripts/measure/parse.py, docs/measuring.md) on
the synthetic raw output in tests/measure/samples/raw/ (made-up round numbers, not a
measurement): the CSVs and summary it writes, checked exactly, and its one-line errors (exit
status 2) on malformed output. Needs no GPU and no nvcc."""

import csv
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARSE = ROOT / "scripts" / "measure" / "parse.py"
SAMPLES = Path(__file__).resolve().parent / "samples" / "raw"


def run(raw: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PARSE), str(raw), "--out", str(out), *extra],
                          capture_output=True, text=True)


def rows(path: Path) -> list[dict]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


class Parse(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="measure-kit-"))
        cls.out = cls.tmp / "out"
        p = run(SAMPLES, cls.out, "--gpu", "example")
        assert p.returncode == 0, p.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_latency(self):
        lat = {(r["level"], r["op"], r["footprint_bytes"]): r for r in rows(self.out / "latency.csv")}
        self.assertEqual(lat[("shared", "ld.shared", "16384")]["cycles_per_load"], "30.000")
        self.assertEqual(lat[("shared", "ld.shared", "16384")]["cycles_per_load_min"], "29.000")
        self.assertEqual(lat[("dram", "ld.global.cg", "268435456")]["cycles_per_load"], "500.000")
        self.assertEqual(lat[("dram", "ld.global.cg", "268435456")]["reps"], "3")
        self.assertEqual(lat[("sweep", "ld.const", "4096")]["cycles_per_load"], "80.000")
        self.assertEqual(len(lat), 8)
        self.assertTrue(all(r["gpu"] == "example" for r in lat.values()))

    def test_bandwidth_instructions_launch(self):
        bw = {(r["level"], r["op"]): r for r in rows(self.out / "bandwidth.csv")}
        self.assertEqual(bw[("dram", "read")]["gbs"], "2250.000")  # median of 2000 and 2500
        self.assertEqual(bw[("dram", "copy")]["gbs_min"], "1600.000")
        ins = {r["class"]: r for r in rows(self.out / "instructions.csv")}
        self.assertEqual(ins["fp32"]["latency_cycles"], "4.002")  # median of 4.0 and 4.00390625
        self.assertEqual(ins["fp32"]["lane_ops_per_clk_sm"], "128.000")
        self.assertEqual(ins["fp32"]["flops_per_clk_sm"], "256.000")
        self.assertEqual(ins["int_add"]["flops_per_clk_sm"], "")
        self.assertEqual(ins["tensor_mma"]["flops_per_clk_sm"], "4096.000")
        self.assertEqual(ins["tensor_mma"]["sms_used"], "99")
        la = {r["kind"]: r for r in rows(self.out / "launch.csv")}
        self.assertEqual(la["sync"]["us"], "5.500")
        self.assertEqual(la["back_to_back"]["us_max"], "1.700")

    def test_validation_and_dwt(self):
        val = rows(self.out / "validation.csv")
        # The cut-off last record of the timed-out benchmark is dropped, the rest kept.
        self.assertEqual([r["status"] for r in val], ["ok", "wrong_result", "skipped_budget"])
        self.assertEqual(val[0]["time_us"], "7.250")
        self.assertEqual((val[0]["grid_x"], val[0]["block_x"]), ("512", "256"))
        self.assertEqual(val[2]["time_us"], "")
        self.assertEqual(val[2]["n_samples"], "0")
        dwt = rows(self.out / "dwt.csv")
        self.assertEqual([r["gpu"] for r in dwt], ["example", "example"])  # not the harness's h100
        self.assertEqual(dwt[1]["time_us"], "20.500")

    def test_device_and_summary(self):
        dev = {r["key"]: r["value"] for r in rows(self.out / "device.csv")}
        self.assertEqual(dev["name"], "Example GPU 1000, synthetic")
        self.assertEqual(dev["smi_before.clocks.current.sm"], "450 MHz")
        self.assertEqual(dev["smi_after.clocks.current.sm"], "2000 MHz")
        self.assertEqual(dev["smi_after.driver_version"], "999.99.01")
        self.assertEqual(dev["status.validation"], "timeout exit=124 240.0 s")
        self.assertIn("nvcc -O3 -arch=sm_90", dev["command.1"])
        s = (self.out / "summary.txt").read_text().splitlines()
        for line in [
            "clock_mhz = 2000.0 (busy SM clock: clock64 cycles / cudaEvent time of a 20000000-cycle spin, median of 3; nvidia-smi max 2000 MHz)",
            "launch_overhead_us = 5.50 (host time of an empty launch + cudaDeviceSynchronize, median of 3 rounds of 200 calls; launch.csv has the other definitions)",
            "dram_latency_cycles = 500.0 (pointer chase, ld.global.cg, 256 MiB footprint, stride 128 B, median of 3)",
            "l2_latency_cycles = 250.0 (pointer chase, ld.global.cg, 8 MiB footprint, stride 128 B, median of 3)",
            "l1_latency_cycles = 40.0 (pointer chase, ld.global, 16 KiB footprint, stride 128 B, median of 3)",
            "shared_latency_cycles = 30.0 (pointer chase, ld.shared, 16 KiB footprint, stride 128 B, median of 3)",
            "constant_latency_cycles = 48.0 (pointer chase, ld.const, 1 KiB footprint, stride 64 B, median of 2)",
            "sm_count = 100 (cudaGetDeviceProperties)",
            "l2_cache_kib = 32768 (cudaGetDeviceProperties)",
            "validation points: ok 1, skipped_budget 1, wrong_result 1",
        ]:
            self.assertIn(line, s)
        self.assertTrue(any(l.startswith("memory_bandwidth_gbs: measured DRAM copy 1800.0 GB/s") and
                            l.endswith("= 2560 GB/s)") for l in s))
        self.assertIn("validation timeout (240.0 s)", s[2])


class Malformed(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="measure-kit-"))
        self.raw = self.tmp / "raw"
        shutil.copytree(SAMPLES, self.raw)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, name: str, line: int, text: str) -> Path:
        p = self.raw / name
        lines = p.read_text().split("\n")
        lines[line - 1] = text
        p.write_text("\n".join(lines))
        return p

    def expect_error(self, message: str):
        r = run(self.raw, self.tmp / "out")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertEqual(r.stderr.strip(), "parse.py: " + message)

    def test_not_a_number(self):
        p = self.edit("mem_latency.txt", 5, "lat,shared,ld.shared,16384,128,1,2048,abc")
        self.expect_error(f"{p}:5: cycles is 'abc', not a number")

    def test_field_count(self):
        p = self.edit("inst.txt", 6, "ilat,fp32,fma.rn.f32,0,2048")
        self.expect_error(f"{p}:6: ilat record has 4 fields, expected 5 (cls,instr,rep,ops,cycles)")

    def test_unknown_record(self):
        p = self.edit("launch.txt", 3, "lat,shared,ld.shared,16384,128,0,2048,61440")
        self.expect_error(f"{p}:3: unknown record 'lat' (expected launch)")

    def test_truncated_line_of_a_benchmark_that_finished(self):
        st = self.raw / "status.csv"
        st.write_text(st.read_text().replace("validation,timeout,124", "validation,ok,0"))
        self.expect_error(f"{self.raw / 'validation.txt'}:6: val record has 5 fields, expected 18 "
                          "(kernel,entry,source,compile_defines,N,grid_x,grid_y,grid_z,block_x,block_y,"
                          "block_z,regs_per_thread,static_smem_bytes,status,n_samples,time_us,time_us_min,time_us_sd)")

    def test_ok_point_without_time(self):
        p = self.edit("validation.txt", 3, "val,vectorAdd,vectorAdd,workloads/measured/vectorAdd.cu,"
                      "Tile_Width=16,131072,512,1,1,256,1,1,16,0,ok,20,,,")
        self.expect_error(f"{p}:3: val record with status ok has no time")

    def test_dwt_header(self):
        p = self.edit("dwt.txt", 1, "gpu,workload")
        self.expect_error(f"{p}:1: expected the DWT harness header "
                          "gpu,workload,K,N,blocks,threads,launches,time_us,time_us_min,time_us_sd,samples,launch_us")

    def test_status_missing(self):
        (self.raw / "status.csv").unlink()
        self.expect_error(f"{self.raw / 'status.csv'}: not found (run scripts/measure/run.sh, which writes it)")

    def test_failed_benchmark_is_left_out(self):
        st = self.raw / "status.csv"
        st.write_text(st.read_text().replace("mem_bandwidth,ok,0", "mem_bandwidth,failed,1"))
        (self.raw / "mem_bandwidth.txt").write_text("# warpsim-measure mem_bandwidth\n")
        r = run(self.raw, self.tmp / "out")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse((self.tmp / "out" / "bandwidth.csv").exists())
        self.assertIn("mem_bandwidth failed", (self.tmp / "out" / "summary.txt").read_text())


class Driver(unittest.TestCase):
    def test_help_and_syntax(self):
        sh = ROOT / "scripts" / "measure" / "run.sh"
        self.assertEqual(subprocess.run(["bash", "-n", str(sh)]).returncode, 0)
        h = subprocess.run(["bash", str(sh), "--help"], capture_output=True, text=True)
        self.assertEqual(h.returncode, 0)
        self.assertIn("--quick", h.stdout)
        bad = subprocess.run(["bash", str(sh), "--bogus"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2)


if __name__ == "__main__":
    unittest.main()
