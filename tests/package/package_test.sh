#!/usr/bin/env bash
# The installed package as a user gets it (docs/library.md): installs BUILD_DIR into a fresh
# prefix, builds the C++ example of docs/library.md (its ```cpp and ```cmake blocks, copied out of
# the page) with find_package(warpsim) against that prefix, and checks that it prints Listing 1's
# 112 cycles. Usage: tests/package/package_test.sh BUILD_DIR
set -euo pipefail
build_dir="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
mkdir -p "$work/example"
# The first ```cpp block and the first ```cmake block of the page, as written.
awk '/^```cpp$/ && !seen++ {on=1; next} on && /^```$/ {exit} on' docs/library.md >"$work/example/listing1.cpp"
awk '/^```cmake$/ && !seen++ {on=1; next} on && /^```$/ {exit} on' docs/library.md >"$work/example/CMakeLists.txt"
[[ -s "$work/example/listing1.cpp" && -s "$work/example/CMakeLists.txt" ]] || { echo "no example in docs/library.md"; exit 1; }
cmake -S "$work/example" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
output="$("$work/build/listing1" workloads/examples/listing1_load.kp)"
echo "$output"
grep -qx "112 cycles" <<<"$output" || { echo "FAIL: expected '112 cycles'"; exit 1; }
# The installed CLI runs too.
"$work/prefix/bin/warpsim" core workloads/examples/listing1_load.kp --warps 3 --tm 2 --format text | grep -q "T_c = 112 cycles"
echo "package test passed"
