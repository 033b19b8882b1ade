#!/usr/bin/env python3
"""The measurement kit's parser (docs/measuring.md): raw benchmark output -> CSVs + summary.

    scripts/measure/parse.py RAW_DIR --out DIR [--gpu ID]

RAW_DIR holds what scripts/measure/run.sh wrote: BENCH.txt (each benchmark's stdout),
status.csv, devinfo.txt, nvidia-smi-{before,after}.csv, nvcc-version.txt, commands.txt,
elapsed.csv. Writes DIR/device.csv, latency.csv, bandwidth.csv, instructions.csv, launch.csv,
validation.csv, dwt.csv and summary.txt (the figures of a gpus/*.toml profile, each with how it
was measured). A malformed record is a one-line error `FILE:LINE: message`, exit status 2.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path


class Fail(Exception):
    """A user-facing error: printed as one line, exit status 2."""


# Record type -> field names after the type (all but the str ones are numbers).
RECORDS = {
    "dev": ["key", "value"],
    "lat": ["level", "op", "footprint_bytes", "stride_bytes", "rep", "loads", "cycles"],
    "bw": ["level", "op", "bytes", "rep", "ms"],
    "ilat": ["cls", "instr", "rep", "ops", "cycles"],
    "itput": ["cls", "instr", "rep", "blocks", "sms", "warp_instrs", "cycles", "flops_per_warp_instr"],
    "clk": ["rep", "cycles", "ms"],
    "launch": ["kind", "round", "calls", "us"],
    "val": ["kernel", "entry", "source", "compile_defines", "N", "grid_x", "grid_y", "grid_z",
            "block_x", "block_y", "block_z", "regs_per_thread", "static_smem_bytes", "status",
            "n_samples", "time_us", "time_us_min", "time_us_sd"],
}
TEXT = {"key", "value", "level", "op", "cls", "instr", "kind", "kernel", "entry", "source",
        "compile_defines", "status"}
OPTIONAL = {"time_us", "time_us_min", "time_us_sd"}  # empty for points not run
BENCH_RECORDS = {"mem_latency": {"lat"}, "mem_bandwidth": {"bw"}, "inst": {"ilat", "itput", "clk"},
                 "launch": {"launch"}, "validation": {"val"}}
DWT_HEADER = "gpu,workload,K,N,blocks,threads,launches,time_us,time_us_min,time_us_sd,samples,launch_us"
STATUSES = {"ok", "failed", "timeout", "not_built"}


def read_status(raw: Path) -> dict[str, dict]:
    path = raw / "status.csv"
    if not path.is_file():
        raise Fail(f"{path}: not found (run scripts/measure/run.sh, which writes it)")
    out = {}
    with path.open(newline="") as f:
        for i, r in enumerate(csv.DictReader(f), start=2):
            if r.get("status") not in STATUSES or not r.get("bench"):
                raise Fail(f"{path}:{i}: expected bench,status,exit_code,seconds,command with a status of {sorted(STATUSES)}")
            out[r["bench"]] = r
    return out


def number(text: str, path: Path, line: int, name: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise Fail(f"{path}:{line}: {name} is {text!r}, not a number") from None


def read_records(path: Path, allowed: set[str], complete: bool) -> list[dict]:
    """The records of one raw file. complete=False (the benchmark failed or timed out) forgives
    an unterminated last line, the trace of a kill in the middle of a write."""
    text = path.read_text(errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif not complete and lines:
        lines.pop()
    out = []
    for i, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        kind = fields[0]
        if kind not in allowed:
            raise Fail(f"{path}:{i}: unknown record {kind!r} (expected {', '.join(sorted(allowed))})")
        names = RECORDS[kind]
        if kind == "dev":  # the value may hold commas (a name)
            fields = [kind, fields[1], ",".join(fields[2:])] if len(fields) >= 3 else fields
        if len(fields) - 1 != len(names):
            raise Fail(f"{path}:{i}: {kind} record has {len(fields) - 1} fields, expected {len(names)} ({','.join(names)})")
        rec = {"_line": i, "_kind": kind}
        for name, value in zip(names, fields[1:]):
            if name in TEXT:
                rec[name] = value
            elif name in OPTIONAL and value == "":
                rec[name] = None
            else:
                rec[name] = number(value, path, i, name)
        if kind == "val" and rec["status"] in ("ok", "wrong_result") and rec["time_us"] is None:
            raise Fail(f"{path}:{i}: val record with status {rec['status']} has no time")
        out.append(rec)
    return out


def by(records: list[dict], *keys: str) -> dict[tuple, list[dict]]:
    """Groups in first-seen order."""
    out: dict[tuple, list[dict]] = {}
    for r in records:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def fmt(x: float) -> str:
    return f"{x:.3f}"


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


# --- One table per benchmark ------------------------------------------------------------------

def latency_rows(gpu: str, recs: list[dict]) -> list[list]:
    rows = []
    for (level, op, fp, stride), g in by(recs, "level", "op", "footprint_bytes", "stride_bytes").items():
        per = [r["cycles"] / r["loads"] for r in g]
        rows.append([gpu, level, op, int(fp), int(stride), int(g[0]["loads"]), len(per),
                     fmt(statistics.median(per)), fmt(min(per)), fmt(max(per))])
    return rows


def bandwidth_rows(gpu: str, recs: list[dict]) -> list[list]:
    rows = []
    for (level, op), g in by(recs, "level", "op").items():
        gbs = [r["bytes"] / (r["ms"] * 1e-3) / 1e9 for r in g]
        rows.append([gpu, level, op, int(g[0]["bytes"]), len(gbs), fmt(statistics.median(gbs)),
                     fmt(min(gbs)), fmt(max(gbs))])
    return rows


def instruction_rows(gpu: str, lat: list[dict], tput: list[dict]) -> list[list]:
    rows = []
    lat_by, tput_by = by(lat, "cls", "instr"), by(tput, "cls", "instr")
    for key in list(dict.fromkeys(list(lat_by) + list(tput_by))):
        cls, instr = key
        lg, tg = lat_by.get(key, []), tput_by.get(key, [])
        row = [gpu, cls, instr]
        row += [fmt(statistics.median(r["cycles"] / r["ops"] for r in lg)), len(lg)] if lg else ["", 0]
        if tg:
            ipc = statistics.median(r["warp_instrs"] / r["cycles"] for r in tg)
            flops = tg[0]["flops_per_warp_instr"]
            row += [fmt(ipc), fmt(32 * ipc), fmt(ipc * flops) if flops else "", len(tg),
                    int(min(r["sms"] for r in tg)), int(tg[0]["blocks"])]
        else:
            row += ["", "", "", 0, "", ""]
        rows.append(row)
    return rows


def launch_rows(gpu: str, recs: list[dict]) -> list[list]:
    return [[gpu, kind, len(g), int(g[0]["calls"]), fmt(statistics.median(r["us"] for r in g)),
             fmt(min(r["us"] for r in g)), fmt(max(r["us"] for r in g))]
            for (kind,), g in by(recs, "kind").items()]


def validation_rows(gpu: str, recs: list[dict]) -> list[list]:
    rows = []
    for r in recs:
        t = [fmt(r[k]) if r[k] is not None else "" for k in ("time_us", "time_us_min", "time_us_sd")]
        rows.append([gpu, r["kernel"], r["entry"], r["source"], r["compile_defines"], int(r["N"]),
                     *(int(r[k]) for k in ("grid_x", "grid_y", "grid_z", "block_x", "block_y",
                                           "block_z", "regs_per_thread", "static_smem_bytes")),
                     *t, int(r["n_samples"]), r["status"]])
    return rows


def dwt_rows(gpu: str, path: Path, complete: bool) -> list[list]:
    """The DWT harness's own CSV, its gpu column (written as h100) set to this GPU's id."""
    lines = [l for l in path.read_text().split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    elif not complete and lines:
        lines.pop()
    if not lines or lines[0] != DWT_HEADER:
        raise Fail(f"{path}:1: expected the DWT harness header {DWT_HEADER}")
    rows = []
    for i, line in enumerate(lines[1:], start=2):
        f = line.split(",")
        if len(f) != 12:
            raise Fail(f"{path}:{i}: {len(f)} fields, expected 12")
        for name, v in zip(DWT_HEADER.split(",")[2:], f[2:]):
            number(v, path, i, name)
        rows.append([gpu] + f[1:])
    return rows


# --- Device and summary -----------------------------------------------------------------------

def read_smi(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    rows = list(csv.reader(path.open()))
    if len(rows) < 2 or len(rows[0]) != len(rows[1]):
        return {"nvidia_smi": " ".join(" ".join(r) for r in rows)[:200]}
    return {h.strip().split(" [")[0]: v.strip() for h, v in zip(rows[0], rows[1])}


def median_of(recs: list[dict], **match) -> tuple[float, int] | None:
    vals = [r["cycles"] / r["loads"] for r in recs if all(r[k] == v for k, v in match.items())]
    return (statistics.median(vals), len(vals)) if vals else None


def kib(b: float) -> str:
    return f"{b / 1024:g} KiB" if b < (1 << 20) else f"{b / (1 << 20):g} MiB"


def summary(dev: dict[str, str], smi: dict[str, str], status: dict[str, dict], tables: dict,
            gpu: str) -> list[str]:
    out = [f"# warpsim measurement kit: {dev.get('name', '?')} (gpu id {gpu})",
           f"# driver {smi.get('driver_version', '?')}, CUDA driver {dev.get('cuda_driver_version', '?')}, "
           f"runtime {dev.get('cuda_runtime_version', '?')}, compute capability {dev.get('compute_capability', '?')}",
           "# benchmarks: " + ", ".join(f"{b} {s['status']} ({s['seconds']} s)" for b, s in status.items()),
           "", "# profile figures (gpus/*.toml keys); measured values with how, or not measured"]
    for key, dkey in (("sm_count", "sm_count"), ("memory_bus_bits", "memory_bus_bits")):
        if dkey in dev:
            out.append(f"{key} = {dev[dkey]} (cudaGetDeviceProperties)")
    if "l2_cache_bytes" in dev:
        out.append(f"l2_cache_kib = {int(dev['l2_cache_bytes']) // 1024} (cudaGetDeviceProperties)")
    clk = tables.get("clk")
    if clk:
        mhz = statistics.median(r["cycles"] / (r["ms"] * 1e3) for r in clk)
        out.append(f"clock_mhz = {mhz:.1f} (busy SM clock: clock64 cycles / cudaEvent time of a "
                   f"{int(clk[0]['cycles'])}-cycle spin, median of {len(clk)}; nvidia-smi max "
                   f"{smi.get('clocks.max.sm', '?')})")
    else:
        out.append("clock_mhz: not measured (inst did not run)")
    launch = tables.get("launch")
    if launch:
        sync = [r["us"] for r in launch if r["kind"] == "sync"]
        out.append(f"launch_overhead_us = {statistics.median(sync):.2f} (host time of an empty "
                   f"launch + cudaDeviceSynchronize, median of {len(sync)} rounds of "
                   f"{int(launch[0]['calls'])} calls; launch.csv has the other definitions)")
    else:
        out.append("launch_overhead_us: not measured (launch did not run)")
    lat = tables.get("lat") or []
    for key, level, how in (("dram_latency_cycles", "dram", "ld.global.cg"),
                            ("l2_latency_cycles", "l2", "ld.global.cg"),
                            ("l1_latency_cycles", "l1", "ld.global"),
                            ("shared_latency_cycles", "shared", "ld.shared"),
                            ("constant_latency_cycles", "constant", "ld.const")):
        pts = [r for r in lat if r["level"] == level]
        if not pts:
            out.append(f"{key}: not measured")
            continue
        m, n = median_of(pts)
        out.append(f"{key} = {m:.1f} (pointer chase, {how}, {kib(pts[0]['footprint_bytes'])} "
                   f"footprint, stride {int(pts[0]['stride_bytes'])} B, median of {n})")
    out.append("texture_latency_cycles: not measured (the kit has no texture chase; on sm_70+ "
               "texture and L1 are one cache, docs/profiles.md)")
    bw = tables.get("bw") or []
    dram = [r for r in bw if r["level"] == "dram" and r["op"] == "copy"]
    if dram:
        gbs = statistics.median(r["bytes"] / (r["ms"] * 1e-3) / 1e9 for r in dram)
        theo = ""
        if "mem_clock_attr_khz" in dev and "memory_bus_bits" in dev:
            peak = 2 * float(dev["mem_clock_attr_khz"]) * 1e3 * float(dev["memory_bus_bits"]) / 8 / 1e9
            theo = f"; 2 x memory clock x bus width = {peak:.0f} GB/s"
        out.append(f"memory_bandwidth_gbs: measured DRAM copy {gbs:.1f} GB/s (reads + writes, "
                   f"median of {len(dram)}; the profile key is the datasheet figure{theo})")
    out += ["", "# other measurements (bandwidth.csv, instructions.csv)"]
    for row in tables.get("bandwidth_rows", []):
        out.append(f"bandwidth {row[1]} {row[2]} = {row[5]} GB/s")
    for row in tables.get("instruction_rows", []):
        lat_s = f"latency {row[3]} cycles" if row[3] else "latency not measured"
        tp_s = f"throughput {row[6]} lane ops/clk/SM" if row[6] else "throughput not measured"
        if row[7]:
            tp_s += f" ({row[7]} flops/clk/SM)"
        out.append(f"{row[1]} ({row[2]}): {lat_s}, {tp_s}")
    val = tables.get("val") or []
    if val:
        counts: dict[str, int] = {}
        for r in val:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        out.append("validation points: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("raw", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--gpu", default=None, help="the gpu column (default: a slug of the name)")
    a = ap.parse_args(argv)
    try:
        status = read_status(a.raw)
        dev_recs = read_records(a.raw / "devinfo.txt", {"dev"}, True) if (a.raw / "devinfo.txt").is_file() else []
        dev = {r["key"]: r["value"] for r in dev_recs}
        gpu = a.gpu or "-".join("".join(c if c.isalnum() else " " for c in dev.get("name", "gpu").lower()).split())
        tables: dict = {}
        for bench, kinds in BENCH_RECORDS.items():
            st = status.get(bench)
            path = a.raw / f"{bench}.txt"
            if st is None or not path.is_file():
                continue
            recs = read_records(path, kinds, st["status"] == "ok")
            for k in kinds:
                tables[k] = [r for r in recs if r["_kind"] == k]
        a.out.mkdir(parents=True, exist_ok=True)
        gpu_col = ["gpu"]
        if tables.get("lat"):
            write_csv(a.out / "latency.csv", gpu_col + ["level", "op", "footprint_bytes", "stride_bytes", "loads", "reps",
                      "cycles_per_load", "cycles_per_load_min", "cycles_per_load_max"], latency_rows(gpu, tables["lat"]))
        if tables.get("bw"):
            tables["bandwidth_rows"] = bandwidth_rows(gpu, tables["bw"])
            write_csv(a.out / "bandwidth.csv", gpu_col + ["level", "op", "bytes", "reps", "gbs", "gbs_min", "gbs_max"],
                      tables["bandwidth_rows"])
        if tables.get("ilat") or tables.get("itput"):
            tables["instruction_rows"] = instruction_rows(gpu, tables.get("ilat") or [], tables.get("itput") or [])
            write_csv(a.out / "instructions.csv", gpu_col + ["class", "instr", "latency_cycles", "latency_reps",
                      "warp_instrs_per_clk_sm", "lane_ops_per_clk_sm", "flops_per_clk_sm", "throughput_reps",
                      "sms_used", "blocks"], tables["instruction_rows"])
        if tables.get("launch"):
            write_csv(a.out / "launch.csv", gpu_col + ["kind", "rounds", "calls", "us", "us_min", "us_max"],
                      launch_rows(gpu, tables["launch"]))
        if tables.get("val"):
            write_csv(a.out / "validation.csv", gpu_col + ["kernel", "entry", "source", "compile_defines", "N",
                      "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "regs_per_thread",
                      "static_smem_bytes", "time_us", "time_us_min", "time_us_sd", "n_samples", "status"],
                      validation_rows(gpu, tables["val"]))
        dwt = status.get("dwt")
        if dwt and (a.raw / "dwt.txt").is_file() and (a.raw / "dwt.txt").stat().st_size:
            write_csv(a.out / "dwt.csv", DWT_HEADER.split(","), dwt_rows(gpu, a.raw / "dwt.txt", dwt["status"] == "ok"))
        smi_before, smi_after = read_smi(a.raw / "nvidia-smi-before.csv"), read_smi(a.raw / "nvidia-smi-after.csv")
        device = [["gpu_id", gpu, "parse.py --gpu"]]
        device += [[k, v, "cudaGetDeviceProperties (devinfo.cu)"] for k, v in dev.items()]
        device += [[f"smi_before.{k}", v, "nvidia-smi before the run"] for k, v in smi_before.items()]
        device += [[f"smi_after.{k}", v, "nvidia-smi after the run"] for k, v in smi_after.items()]
        for name in ("nvcc-version.txt", "host.txt", "elapsed.csv"):
            p = a.raw / name
            if p.is_file():
                text = " | ".join(l.strip() for l in p.read_text().splitlines() if l.strip())
                device.append([name.split(".")[0], text, name])
        p = a.raw / "commands.txt"
        if p.is_file():
            device += [[f"command.{i}", l.strip(), "run.sh"] for i, l in enumerate(p.read_text().splitlines(), 1) if l.strip()]
        device += [[f"status.{b}", f"{s['status']} exit={s['exit_code']} {s['seconds']} s", "run.sh"] for b, s in status.items()]
        write_csv(a.out / "device.csv", ["key", "value", "source"], device)
        text = summary(dev, smi_after or smi_before, status, tables, gpu)
        (a.out / "summary.txt").write_text("\n".join(text) + "\n")
    except Fail as e:
        print(f"parse.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
