#!/usr/bin/env python3
"""A plain reference implementation of ../shared/MODEL.md, written for clarity, not speed.

It exists to measure warpsim's speed side by side and to cross-check warpsim's results
(tests/reference/). It never fast-forwards, memoises or shares work: every instruction of every
warp is simulated one by one, as Algorithm 2 reads. Times are integer thousandths of a cycle, as
in warpsim, so results compare exactly.

  warpsim_ref.py core PROGRAM.kp --warps N [--tm C] [--param NAME=VALUE]...
  warpsim_ref.py sweep SUITE.toml [--time] (CSV: gpu,workload,K,N,blocks,threads,time_us; --time:
                                            the predictions' own time, in process, on stderr)
"""
import argparse
import functools
import math
import pathlib
import sys
import time
import tomllib
from decimal import Decimal

ROOT = pathlib.Path(__file__).resolve().parents[2]


def millicycles(text):
    value = Decimal(str(text)) * 1000
    if value != value.to_integral_value():
        raise ValueError(f"{text}: more than three decimals")
    return int(value)


# ---- kernel programs (.kp) -------------------------------------------------------------

@functools.cache  # read each file once: the comparison is about predicting, not parsing
def read_kp(path):
    """Returns (name, default_tm, body); body is a list of ('calc'|'load'|'store', mc) and
    ('repeat', count_or_name, body) items."""
    name, tm = pathlib.Path(path).stem, None
    stack = [[]]
    for line in pathlib.Path(path).read_text().splitlines():
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        if words[0] == 'kernel':
            name = words[1]
        elif words[0] == 'tm':
            tm = millicycles(words[1])
        elif words[0] in ('calc', 'load', 'store'):
            stack[-1].append((words[0], millicycles(words[1])))
        elif words[0] == 'repeat':
            count = int(words[1]) if words[1].isdigit() else words[1]
            body = []
            stack[-1].append(('repeat', count, body))
            stack.append(body)
        elif words[0] == 'end':
            stack.pop()
        else:
            raise ValueError(f"{path}: unknown keyword {words[0]}")
    return name, tm, stack[0]


def expand(body, params):
    """The program as one flat list of instructions (the reference does not keep loops)."""
    flat = []
    for item in body:
        if item[0] == 'repeat':
            count = item[1] if isinstance(item[1], int) else params[item[1]]
            inner = expand(item[2], params)
            for _ in range(count):
                flat.extend(inner)
        else:
            flat.append(item)
    return flat


# ---- Algorithm 2: T_c ---------------------------------------------------------------------

def core_cycles(program, warps, tm):
    t = 0
    pc = [0] * warps
    loads_done = [0] * warps
    latest_transaction = 0
    n = len(program)
    while True:
        issued = False
        for w in range(warps):
            t = max(t, loads_done[w])  # wait for the warp's own loads, finished or not
            while pc[w] < n:
                issued = True
                kind, duration = program[pc[w]]
                pc[w] += 1
                if kind == 'calc':
                    t += duration
                    continue
                done = t + max(duration, tm)
                latest_transaction = max(latest_transaction, done)
                t += tm
                if kind == 'load':
                    loads_done[w] = max(loads_done[w], done)
                    if pc[w] < n and program[pc[w]][0] != 'load':
                        break  # yield to the next warp
        if not issued:
            return max(t, latest_transaction)


# ---- Algorithms 1 and 3 -------------------------------------------------------------------

def ceil_div(a, b):
    return -(-a // b)


def kernel_time_us(gpu, blocks, threads, tp_us, tc):
    n_sb = ceil_div(blocks, gpu['sm_count'])
    n_wb = ceil_div(threads, 32)
    n_cp = gpu['cores_per_sm'] // 32
    n_ab = min(n_sb, gpu['max_warps_per_sm'] // n_wb, gpu['max_blocks_per_sm'])
    t = tc(ceil_div(n_ab * n_wb, n_cp))
    remaining = n_sb % n_ab
    t_bar = tc(ceil_div(remaining * n_wb, n_cp)) if remaining else 0
    full_runs = n_sb // n_ab
    cycles = (full_runs * t + (1 if remaining else 0) * t_bar) / 1000
    return tp_us + cycles / gpu['clock_mhz']


def launch(gpu, total):
    even_sms = gpu['sm_count'] + gpu['sm_count'] % 2
    n_min, n_max = 32, gpu['max_threads_per_block']
    if total < n_min:
        return 1, total
    if total < n_min * even_sms:
        return ceil_div(total, n_min), n_min
    if total <= n_max * even_sms:
        return even_sms, ceil_div(total, even_sms)
    return ceil_div(total, n_max), n_max


# ---- the DWT workloads ----------------------------------------------------------------------

WORKLOADS = {  # name: (program file, calibration, lattice, two-dimensional)
    'dwt_matrix': ('dwt/matrix.kp', 'dwt_matrix', False, False),
    'dwt_lattice': ('dwt/lattice.kp', 'dwt_lattice', True, False),
    'dwt2d_matrix': ('dwt/matrix.kp', 'dwt_matrix', False, True),
    'dwt2d_lattice': ('dwt/lattice.kp', 'dwt_lattice', True, True),
}


def load_gpu(gpu_id):
    with open(ROOT / 'gpus' / f'{gpu_id}.toml', 'rb') as f:
        return tomllib.load(f)


def predict(gpu, workload, K, N):
    file, calibration_name, lattice, two_d = WORKLOADS[workload]
    _, _, body = read_kp(ROOT / 'workloads' / file)
    program = expand(body, {'K': K})
    calibration = gpu['calibration'][calibration_name]
    tm, tp = millicycles(calibration['tm']), calibration['tp_us']
    elements = N * (N + K - 2) if two_d else N
    threads = elements // 2 if lattice else elements
    launches = (2 if two_d else 1) * (K // 2 + 1 if lattice else 1)
    blocks, per_block = launch(gpu, threads)
    per_launch = kernel_time_us(gpu, blocks, per_block, tp, lambda w: core_cycles(program, w, tm))
    return blocks, per_block, launches * per_launch


def axis(spec):
    if isinstance(spec, list):
        return spec
    if 'powers_of' in spec:
        return [spec['powers_of'] ** e for e in range(spec['from'], spec['to'] + 1)]
    return list(range(spec['from'], spec['to'] + 1, spec.get('step', 1)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', required=True)
    core = sub.add_parser('core')
    core.add_argument('program')
    core.add_argument('--warps', type=int, required=True)
    core.add_argument('--tm')
    core.add_argument('--param', action='append', default=[])
    sweep = sub.add_parser('sweep')
    sweep.add_argument('suite')
    sweep.add_argument('--time', action='store_true')
    args = parser.parse_args()

    if args.command == 'core':
        name, default_tm, body = read_kp(args.program)
        params = {k: int(v) for k, v in (p.split('=', 1) for p in args.param)}
        tm = millicycles(args.tm) if args.tm is not None else default_tm
        cycles = core_cycles(expand(body, params), args.warps, tm)
        print(f'{{"kernel": "{name}", "warps": {args.warps}, "cycles": {Decimal(cycles) / 1000}}}')
    else:
        with open(args.suite, 'rb') as f:
            suite = tomllib.load(f)
        print('gpu,workload,K,N,blocks,threads,time_us')
        spent, predictions = 0.0, 0
        for gpu_id in suite['gpus']:
            gpu = load_gpu(gpu_id)
            for workload in suite['workloads']:
                for K in axis(suite['axes']['K']):
                    for N in axis(suite['axes']['N']):
                        start = time.perf_counter()
                        blocks, threads, time_us = predict(gpu, workload, K, N)
                        spent += time.perf_counter() - start
                        predictions += 1
                        print(f'{gpu_id},{workload},{K},{N},{blocks},{threads},{time_us!r}')
        if args.time:
            print(f'{predictions} predictions in {spent * 1e3:.1f} ms: {spent / predictions * 1e6:.1f} us per prediction',
                  file=sys.stderr)


if __name__ == '__main__':
    sys.exit(main())
