#!/usr/bin/env python3
"""Cross-checks warpsim against the plain reference implementation (bench/reference/).

Usage: cross_check.py WARPSIM_BINARY   (run from the repository root by ctest)
Every output must agree exactly: core cycles, and the sweep CSV's key and time columns. The
reference is the paper's model: the sweeps name --model paper (warpsim's default is pipes), and
`core` without --gpu times these unannotated programs as Algorithm 2.
"""
import json
import subprocess
import sys

warpsim = sys.argv[1]
reference = [sys.executable, 'bench/reference/warpsim_ref.py']
failures = 0


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def check(what, ours, theirs):
    global failures
    if ours != theirs:
        failures += 1
        print(f'MISMATCH {what}\n  warpsim:   {ours!r}\n  reference: {theirs!r}')


core_cases = [
    ['workloads/examples/listing1_load.kp', '--warps', '3', '--tm', '2'],
    ['workloads/examples/listing1_store.kp', '--warps', '3', '--tm', '2'],
    ['workloads/mtx_mul_vec/mtx_mul_vec.kp', '--warps', '32', '--param', 'N=300'],
    ['workloads/mtx_mul_vec/mtx_mul_vec.kp', '--warps', '7', '--tm', '0.125', '--param', 'N=61'],
    ['workloads/dwt/matrix.kp', '--warps', '16', '--tm', '18.5', '--param', 'K=14'],
    ['workloads/dwt/lattice.kp', '--warps', '48', '--tm', '33'],
]
for case in core_cases:
    ours = json.loads(run([warpsim, 'core', *case]))['cycles']
    theirs = json.loads(run([*reference, 'core', *case]))['cycles']
    check(' '.join(case), ours, theirs)

for suite in ['workloads/suites/paper-dwt.toml', 'workloads/suites/dwt2d.toml']:
    ours = [','.join(line.split(',')[:7]) for line in run([warpsim, 'sweep', suite, '--model', 'paper', '--format', 'csv']).splitlines()]
    theirs = run([*reference, 'sweep', suite]).splitlines()
    check(f'{suite}: row count', len(ours), len(theirs))
    for a, b in zip(ours, theirs):
        check(suite, a, b)

checked = len(core_cases) + 2
print(f'{checked - min(failures, checked)} passed, {min(failures, checked)} failed')
sys.exit(1 if failures else 0)
