#!/usr/bin/env bash
# `warpsim sweep --mpi` on 2 local ranks against one process (docs/cluster.md): the same bytes in
# CSV, JSON and text, for a suite and a point list; and a failing point: exit status 2, the same
# message as one process, no output file. Registered by tests/CMakeLists.txt with -DWARPSIM_MPI=ON.
# Usage: mpi_sweep_test.sh WARPSIM MPIEXEC (run from the source root)
set -euo pipefail
warpsim=$1
mpiexec=$2
# Open MPI refuses root unless told (CI containers run as root); no ptrace single-copy in containers.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun=("$mpiexec" -np 2 --oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

same_output() {  # NAME OUT ARGS...: one process vs 2 ranks, -j 1 each
  local name=$1 out=$2
  shift 2
  "$warpsim" sweep "$@" -j 1 -q -o "$work/one.$out" || fail "$name: one process"
  "${mpirun[@]}" "$warpsim" sweep "$@" --mpi -j 1 -q -o "$work/mpi.$out" || fail "$name: mpirun"
  cmp "$work/one.$out" "$work/mpi.$out" || fail "$name: outputs differ"
  echo "ok: $name ($(wc -l < "$work/one.$out") lines)"
}
same_output "suite csv" csv workloads/suites/mtx-mul-vec.toml
same_output "suite json" json workloads/suites/mtx-mul-vec.toml
same_output "points csv" csv --points tests/cli/points/points.csv
same_output "points json" json --points tests/cli/points/points.csv
# Text goes to stdout, whole, from rank 0 only.
"$warpsim" sweep workloads/suites/mtx-mul-vec.toml -j 1 > "$work/one.txt"
"${mpirun[@]}" "$warpsim" sweep workloads/suites/mtx-mul-vec.toml --mpi -j 1 > "$work/mpi.txt"
cmp "$work/one.txt" "$work/mpi.txt" && echo "ok: suite text" || fail "suite text: outputs differ"

# Warnings: once per workload, from the first point in order that had any, whichever rank ran it.
cat > "$work/branchy.toml" <<TOML
gpus = ["rtx2080"]
[[workload]]
ptx = "$PWD/workloads/branchy/branchy.ptx"
params = ["n"]
param_names = { n = 0 }
launch = { threads = "n" }
calibration = { tp_us = 5, tm = 10 }
axes = { n = [64, 128, 256, 512] }
TOML
"$warpsim" sweep "$work/branchy.toml" -j 1 -q -o "$work/one-branchy.csv" 2> "$work/one-branchy.err"
"${mpirun[@]}" "$warpsim" sweep "$work/branchy.toml" --mpi -j 1 -q -o "$work/mpi-branchy.csv" 2> "$work/mpi-branchy.err"
cmp "$work/one-branchy.csv" "$work/mpi-branchy.csv" || fail "warnings: outputs differ"
grep -q "^warpsim: warning: branchy n=64: " "$work/one-branchy.err" || fail "warnings: none: $(cat "$work/one-branchy.err")"
cmp "$work/one-branchy.err" "$work/mpi-branchy.err" || fail "warnings differ: $(cat "$work/mpi-branchy.err")"
echo "ok: warnings"

# Points that fail when predicted (N = 2048 divides by 0, N = 4096 gives a negative block), the
# first of them in rank 1's chunk (from = 6) or rank 0's (from = 5): exit status 2, the message of
# one process (the first failing point in order), no output file.
for from in 5 6; do
  failing=$work/failing-$from.toml
  cat > "$failing" <<TOML
name = "failing"
gpus = ["rtx2060"]
[axes]
N = { powers_of = 2, from = $from, to = 12 }
[[workload]]
name = "grows"
kp = "$PWD/workloads/mtx_mul_vec/mtx_mul_vec.kp"
launch = { threads = "N", block = "65536 / (2048 - N)" }
calibration = { tp_us = 5.2 }
TOML
  status=0
  "$warpsim" sweep "$failing" -j 1 -q -o "$work/fail-one.csv" 2> "$work/fail-one.err" || status=$?
  [[ $status == 2 ]] || fail "failing suite $from: one process exited $status, not 2"
  status=0
  "${mpirun[@]}" "$warpsim" sweep "$failing" --mpi -j 1 -q -o "$work/fail-mpi.csv" 2> "$work/fail-mpi.err" || status=$?
  [[ $status == 2 ]] || fail "failing suite $from: mpirun exited $status, not 2"
  grep -q "^warpsim: error: .*N=2048" "$work/fail-one.err" || fail "failing suite $from: one process: $(cat "$work/fail-one.err")"
  grep -qxF "$(cat "$work/fail-one.err")" "$work/fail-mpi.err" || fail "failing suite $from: mpirun's message differs: $(cat "$work/fail-mpi.err")"
  [[ $(grep -c "^warpsim: " "$work/fail-mpi.err") == 1 ]] || fail "failing suite $from: more than one warpsim message"
  ls "$work"/fail-mpi.csv* > /dev/null 2>&1 && fail "failing suite $from: mpirun left an output file"
  echo "ok: failing suite $from ($(cat "$work/fail-one.err"))"
done

# A rank that cannot read the suite stops every rank before any point, and rank 0 names it.
status=0
"${mpirun[@]}" "$warpsim" sweep "$work/missing.toml" --mpi -q -o "$work/missing.csv" 2> "$work/missing.err" || status=$?
[[ $status == 2 ]] || fail "missing suite: mpirun exited $status, not 2"
[[ $(grep -c "^warpsim: error: .*missing.toml" "$work/missing.err") == 1 ]] || fail "missing suite: $(cat "$work/missing.err")"
echo "ok: missing suite"

exit $((failures > 0))
