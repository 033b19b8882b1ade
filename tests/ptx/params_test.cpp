// Binding --param values to PTX kernel parameters (kernel_params.hpp): by position, PTX name or
// the C++ name of a -G build, the errors that list the parameters, range checks by type, and
// which scalars need a value at all (relevance.hpp).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "warpsim/ptx/debug_names.hpp"
#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/ptx/relevance.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

Module load(const std::string& file) { return load_ptx_file(kSource + "/" + file); }

BoundParameters bind(const Module& module, const ParameterEntries& entries, const std::string& kernel = "") {
  return bind_parameters(module, decode_module(module), select_kernel(module, kernel), entries);
}

std::string bind_error(const Module& module, const ParameterEntries& entries, const std::string& kernel = "") {
  try {
    bind(module, entries, kernel);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Global loads of one warp of dwt.ptx's mtx(int K, int N, float*, float*, float*, int total):
// 2 per tap.
std::int64_t mtx_loads(const ParameterEntries& entries) {
  LoweringOptions options;
  options.kernel = "mtx";
  options.grid = {1, 1, 1};
  options.block = {32, 1, 1};
  options.parameters = entries;
  return lower_kernel(load("workloads/dwt/dwt.ptx"), options).programs.at(0).program.dynamic_counts().loads;
}

TEST(PtxParameters, BindByPositionOrPtxName) {
  EXPECT_EQ(
      mtx_loads(
          {{"_Z3mtxiiPfS_S_i_param_0", "3"}, {"_Z3mtxiiPfS_S_i_param_1", "64"}, {"_Z3mtxiiPfS_S_i_param_5", "64"}}),
      6);
  EXPECT_EQ(mtx_loads({{"0", "5"}, {"1", "64"}, {"5", "64"}}), 10);
  EXPECT_EQ(mtx_loads({{"5", "64"}, {"_Z3mtxiiPfS_S_i_param_0", "2"}, {"1", "64"}}), 4);
  const BoundParameters b = bind(load("workloads/dwt/dwt.ptx"), {{"5", "64"}, {"0", "-2"}, {"1", "0x40"}}, "mtx");
  ASSERT_EQ(b.given.size(), 6u);
  EXPECT_EQ(b.given[0], ParameterNumber(std::int64_t{-2}));  // an int, though PTX declares it .u32
  EXPECT_EQ(b.values[0], 0xFFFFFFFEu);
  EXPECT_EQ(b.given[1], ParameterNumber(std::int64_t{64}));
  EXPECT_EQ(b.given[2], std::nullopt);
  EXPECT_EQ(b.values[2], kPointerParamBase * 3);  // parameter i at (i+1) * 2^36
  EXPECT_EQ(b.values[5], 64u);
}

// The issue's example: on saxpy(int n, float a, const float* x, float* y), `a=2 n=4096` once bound
// n = 2 (names took the next scalar in order). A name the PTX does not have is now an error.
TEST(PtxParameters, UnknownNameListsTheParametersWithTheirTypes) {
  const Module saxpy = load("workloads/saxpy/saxpy.ptx");
  const std::string listing =
      "0: _Z5saxpyifPKfPf_param_0 (int); 1: _Z5saxpyifPKfPf_param_1 (float); 2: _Z5saxpyifPKfPf_param_2 (float "
      "const*); 3: _Z5saxpyifPKfPf_param_3 (float*)";
  EXPECT_EQ(bind_error(saxpy, {{"a", "2"}, {"n", "4096"}}),
            "--param a: kernel saxpy has no parameter 'a'; name one by position or PTX name (this PTX keeps no C++ "
            "names; nvcc -G builds do): " +
                listing);
  EXPECT_EQ(bind_error(saxpy, {{"4", "1"}}),
            "--param 4: kernel saxpy has no parameter '4'; name one by position or PTX name (this PTX keeps no C++ "
            "names; nvcc -G builds do): " +
                listing);
  // extern "C": no demangled types, so the PTX types.
  EXPECT_EQ(bind_error(load("tests/ptx/cases/nested_loops.ptx"), {{"M", "3"}}),
            "--param M: kernel nested_loops has no parameter 'M'; name one by position or PTX name (this PTX keeps no "
            "C++ names; nvcc -G builds do): 0: nested_loops_param_0 (.u32); 1: nested_loops_param_1 (.u32); 2: "
            "nested_loops_param_2 (.u64); 3: nested_loops_param_3 (.u64)");
  EXPECT_EQ(bind_error(saxpy, {{"0", "8"}, {"_Z5saxpyifPKfPf_param_0", "9"}}),
            "--param _Z5saxpyifPKfPf_param_0: parameter 0 (_Z5saxpyifPKfPf_param_0) is given twice");
}

TEST(PtxParameters, CxxNamesComeFromDashGDebugInformation) {
  const Module debug = load("workloads/saxpy/saxpy.G.ptx");
  const BoundParameters b = bind(debug, {{"a", "2"}, {"n", "4096"}});
  EXPECT_EQ(b.given[0], ParameterNumber(std::int64_t{4096}));
  EXPECT_EQ(b.given[1], ParameterNumber(2.0));
  EXPECT_EQ(b.values[1], 0x40000000u);  // 2.0f
  EXPECT_EQ(bind_error(debug, {{"alpha", "2"}}),
            "--param alpha: kernel saxpy has no parameter 'alpha'; name one by position, PTX name or C++ name: 0: "
            "_Z5saxpyifPKfPf_param_0 (int n); 1: _Z5saxpyifPKfPf_param_1 (float a); 2: _Z5saxpyifPKfPf_param_2 (float "
            "const* x); 3: _Z5saxpyifPKfPf_param_3 (float* y)");
  const Module reduce = load("workloads/reduce/reduce.G.ptx");
  const std::vector<std::string> kernel_names{"n", "in", "out"};
  EXPECT_EQ(cxx_parameter_names(reduce, "_Z11reduce_smemiPKfPf", 3), kernel_names);
  EXPECT_EQ(cxx_parameter_names(reduce, "_Z14reduce_shuffleiPKfPf", 3), kernel_names);
  EXPECT_EQ(cxx_parameter_names(reduce, "_Z14reduce_shuffleiPKfPf", 4), std::vector<std::string>{});
  EXPECT_EQ(cxx_parameter_names(reduce, "_ZN39_INTERNAL_37222dad_9_reduce_cu_38c9ed8116__shfl_down_syncEjfji", 4),
            (std::vector<std::string>{"mask", "var", "delta", "width"}));
  // Optimised and -lineinfo builds keep none.
  EXPECT_EQ(cxx_parameter_names(load("workloads/saxpy/saxpy.ptx"), "_Z5saxpyifPKfPf", 4), std::vector<std::string>{});
  EXPECT_EQ(cxx_parameter_names(load("workloads/mtx_mul_vec/mtx_mul_vec.lineinfo.ptx"), "_Z11mtx_mul_veciPfS_S_", 4),
            std::vector<std::string>{});
}

// A hand-made -G style module whose names live in .debug_str, reached through labels
// (DW_FORM_strp, 0x0e): the other place DWARF keeps names. `form` replaces that form.
std::string dwarf_with_string_table(int form) {
  std::string text = R"(.version 7.0
.target sm_75, debug
.address_size 64
.visible .entry _Z1kif(.param .u32 _Z1kif_param_0, .param .f32 _Z1kif_param_1)
{
 ret;
}
.section .debug_abbrev
{
.b8 1, 17, 1, 0, 0
.b8 2, 46, 1, 135, 64, FORM, 3, FORM, 0, 0
.b8 3, 5, 0, 3, FORM, 73, 19, 0, 0
.b8 0
}
.section .debug_info
{
.b32 37
.b8 2, 0
.b32 .debug_abbrev
.b8 8
.b8 1
.b8 2
.b32 $L__info_string0
.b32 $L__info_string1
.b8 3
.b32 $L__info_string2
.b32 0
.b8 3
.b32 $L__info_string3
.b32 0
.b8 0
.b8 0
}
.section .debug_str
{
$L__info_string0:
.b8 95,90,49,107,105,102,0
$L__info_string1:
.b8 107,0
$L__info_string2:
.b8 99,111,117,110,116,0
$L__info_string3:
.b8 115,99,97,108,101,0
}
)";
  for (std::size_t at = text.find("FORM"); at != std::string::npos; at = text.find("FORM")) {
    text.replace(at, 4, std::to_string(form));
  }
  return text;
}

TEST(PtxParameters, CxxNamesFromTheStringTable) {
  const Module module = parse_ptx(dwarf_with_string_table(0x0e), "strp.ptx");
  EXPECT_EQ(cxx_parameter_names(module, "_Z1kif", 2), (std::vector<std::string>{"count", "scale"}));
  EXPECT_EQ(bind(module, {{"scale", "0.5"}, {"count", "3"}}).given[1], ParameterNumber(0.5));
  // A form this reader does not know: no names, no crash.
  EXPECT_EQ(cxx_parameter_names(parse_ptx(dwarf_with_string_table(0x7f), "odd.ptx"), "_Z1kif", 2),
            std::vector<std::string>{});
}

// Kernels with parameters of every width; _Z1kjPf is k(unsigned int, float*), `s` is extern "C".
const char* const kTypedKernels = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry _Z1kjPf(.param .u32 _Z1kjPf_param_0, .param .u64 _Z1kjPf_param_1) { ret; }
.visible .entry s(.param .s32 s_param_0, .param .f32 s_param_1, .param .f64 s_param_2, .param .u8 s_param_3,
                  .param .s64 s_param_4, .param .u32 s_param_5, .param .b16 s_param_6) { ret; }
)";

TEST(PtxParameters, ValuesMustFitTheirType) {
  const Module module = parse_ptx(kTypedKernels, "typed.ptx");
  const auto error = [&](const std::string& kernel, const std::string& position, const std::string& value) {
    return bind_error(module, {{position, value}}, kernel);
  };
  using Given = std::pair<ParameterNumber, std::uint64_t>;  // as parsed, as the kernel gets it
  const auto given = [&](const std::string& kernel, const std::string& position, const std::string& value) {
    const BoundParameters b = bind(module, {{position, value}}, kernel);
    const auto i = static_cast<std::size_t>(std::stoi(position));
    return Given{*b.given[i], *b.values[i]};
  };
  EXPECT_EQ(error("_Z1kjPf", "0", "-4096"),
            "--param 0='-4096': out of range: _Z1kjPf_param_0 is unsigned int, which holds 0 to 4294967295");
  EXPECT_EQ(error("_Z1kjPf", "0", "4294967296"),
            "--param 0='4294967296': out of range: _Z1kjPf_param_0 is unsigned int, which holds 0 to 4294967295");
  EXPECT_EQ(given("_Z1kjPf", "0", "0xFFFFFFFF"), (Given{ParameterNumber(std::uint64_t{4294967295}), 0xFFFFFFFF}));
  EXPECT_EQ(error("s", "0", "2147483648"),
            "--param 0='2147483648': out of range: s_param_0 is .s32, which holds -2147483648 to 2147483647");
  EXPECT_EQ(given("s", "0", "-2147483648"), (Given{ParameterNumber(std::int64_t{-2147483648}), 0x80000000}));
  EXPECT_EQ(
      error("s", "1", "1e40"),
      "--param 1='1e40': out of range: s_param_1 is .f32, which holds finite values up to 3.40282e+38 in magnitude");
  EXPECT_EQ(
      error("s", "1", "-1e39"),
      "--param 1='-1e39': out of range: s_param_1 is .f32, which holds finite values up to 3.40282e+38 in magnitude");
  EXPECT_EQ(given("s", "1", "1.5"), (Given{ParameterNumber(1.5), 0x3FC00000}));
  EXPECT_EQ(given("s", "2", "1e40"), (Given{ParameterNumber(1e40), std::bit_cast<std::uint64_t>(1e40)}));
  EXPECT_EQ(
      error("s", "2", "1e400"),
      "--param 2='1e400': out of range: s_param_2 is .f64, which holds finite values up to 1.79769e+308 in magnitude");
  EXPECT_EQ(given("s", "2", "1e-400"), (Given{ParameterNumber(0.0), 0}));  // underflows to 0
  EXPECT_EQ(given("s", "1", "inf"), (Given{ParameterNumber(HUGE_VAL), 0x7F800000}));
  EXPECT_EQ(error("s", "3", "256"), "--param 3='256': out of range: s_param_3 is .u8, which holds 0 to 255");
  EXPECT_EQ(given("s", "3", "255"), (Given{ParameterNumber(std::uint64_t{255}), 0xFF}));
  EXPECT_EQ(given("s", "4", "-9223372036854775808"),
            (Given{ParameterNumber(std::int64_t{INT64_MIN}), 0x8000000000000000}));
  EXPECT_EQ(error("s", "4", "9223372036854775808"),
            "--param 4='9223372036854775808': out of range: s_param_4 is .s64, which holds -9223372036854775808 to "
            "9223372036854775807");
  EXPECT_EQ(error("s", "5", "-1"), "--param 5='-1': out of range: s_param_5 is .u32, which holds 0 to 4294967295");
  EXPECT_EQ(error("s", "5", "99999999999999999999999"),
            "--param 5='99999999999999999999999': out of range: s_param_5 is .u32, which holds 0 to 4294967295");
  EXPECT_EQ(error("s", "6", "65536"), "--param 6='65536': out of range: s_param_6 is .b16, which holds 0 to 65535");
  EXPECT_EQ(error("s", "5", "4x"), "--param 5='4x': expected a whole number");
  EXPECT_EQ(error("s", "5", ""), "--param 5='': expected a whole number");
  EXPECT_EQ(error("s", "5", "1.5"), "--param 5='1.5': expected a whole number");
  EXPECT_EQ(error("s", "1", "fast"), "--param 1='fast': expected a number");
}

// A kernel whose parameters each reach the warp's instruction stream one way, or not at all:
// 0 a loop bound through arithmetic, 1 arithmetic only, 2 a shfl lane, 3 a call argument the
// callee branches on, 4 its address taken, 5 a store's guard, 6 a store's address, 7 nothing (an
// argument of a function that returns it to a caller which never reads the result).
const char* const kReaches = R"(.version 8.0
.target sm_75
.address_size 64
.func f(.param .b32 f_param_0)
{
 .reg .pred %q<2>;
 .reg .b32 %a<2>;
 ld.param.b32 %a1, [f_param_0];
 setp.eq.s32 %q1, %a1, 0;
 @%q1 bra $L__f_done;
$L__f_done:
 ret;
}
.func (.param .b32 g_retval) g(.param .b32 g_param_0)
{
 .reg .b32 %a<2>;
 ld.param.b32 %a1, [g_param_0];
 st.param.b32 [g_retval], %a1;
 ret;
}
.visible .entry k(.param .u32 k_param_0, .param .f32 k_param_1, .param .u32 k_param_2, .param .u32 k_param_3,
                  .param .u32 k_param_4, .param .u32 k_param_5, .param .u32 k_param_6, .param .u32 k_param_7)
{
 .reg .pred %p<3>;
 .reg .b32 %r<12>;
 .reg .f32 %f<4>;
 .reg .b64 %rd<6>;
 ld.param.u32 %r1, [k_param_0];
 ld.param.f32 %f1, [k_param_1];
 ld.param.u32 %r2, [k_param_2];
 ld.param.u32 %r3, [k_param_3];
 mov.u64 %rd1, k_param_4;
 ld.param.u32 %r4, [k_param_5];
 ld.param.u32 %r5, [k_param_6];
 ld.param.u32 %r10, [k_param_7];
 mov.u32 %r6, 0;
 add.s32 %r7, %r1, 1;
$L__loop:
 add.s32 %r6, %r6, 1;
 setp.lt.s32 %p1, %r6, %r7;
 @%p1 bra $L__loop;
 mov.u32 %r8, %tid.x;
 cvt.rn.f32.u32 %f2, %r8;
 mul.f32 %f3, %f2, %f1;
 shfl.sync.idx.b32 %r9, %r8, %r2, 31, -1;
 setp.ne.s32 %p2, %r4, 0;
 mul.wide.u32 %rd2, %r5, 4;
 add.s64 %rd3, %rd2, 65536;
 @%p2 st.global.f32 [%rd3], %f3;
 {
 .param .b32 param0;
 st.param.b32 [param0], %r3;
 call.uni f, (param0);
 }
 {
 .param .b32 param0;
 .param .b32 retval0;
 st.param.b32 [param0], %r10;
 call.uni (retval0), g, (param0);
 ld.param.b32 %r11, [retval0];
 }
 ret;
}
)";

TEST(PtxParameters, OnlyParametersThatSteerTheWarpNeedAValue) {
  const Module module = parse_ptx(kReaches, "reaches.ptx");
  const DecodedModule decoded = decode_module(module);
  const std::uint32_t entry = select_kernel(module, "k");
  EXPECT_EQ(needed_parameters(decoded, entry), (std::vector<bool>{true, false, true, true, true, true, true, false}));
  const DecodedFunction& k = decoded.functions[entry];
  const std::vector<bool> relevant = relevant_registers(k);
  const auto destination_relevant = [&](const std::string& text) {
    for (const DecodedInstruction& in : k.code) {
      if (in.text == text) return static_cast<bool>(relevant.at(in.dsts.at(0).reg));
    }
    ADD_FAILURE() << "no " << text;
    return false;
  };
  EXPECT_TRUE(destination_relevant("add.s64"));             // an address
  EXPECT_TRUE(destination_relevant("mul.wide.u32"));        // part of one
  EXPECT_TRUE(destination_relevant("setp.ne.s32"));         // a guard
  EXPECT_FALSE(destination_relevant("mul.f32"));            // a stored value
  EXPECT_FALSE(destination_relevant("cvt.rn.f32.u32"));     // that value's input
  EXPECT_FALSE(destination_relevant("shfl.sync.idx.b32"));  // its result is unused; its operands count

  // Across calls: f branches on its argument, g hands its argument back to a caller that drops it.
  const std::vector<std::vector<bool>> across = relevant_registers(decoded);
  const auto loaded_argument_relevant = [&](const std::string& name) {
    for (std::size_t f = 0; f < decoded.functions.size(); ++f) {
      if (decoded.functions[f].name != name) continue;
      for (const DecodedInstruction& in : decoded.functions[f].code) {
        if (in.text == "ld.param.b32") return static_cast<bool>(across[f].at(in.dsts.at(0).reg));
      }
    }
    ADD_FAILURE() << "no argument load in " << name;
    return false;
  };
  EXPECT_TRUE(loaded_argument_relevant("f"));
  EXPECT_FALSE(loaded_argument_relevant("g"));
  EXPECT_TRUE(relevant_registers(decoded.functions[1])[1]);  // one function alone: a return value counts

  const ParameterEntries all_needed{{"0", "3"}, {"2", "1"}, {"3", "1"}, {"4", "1"}, {"5", "1"}, {"6", "1"}};
  const BoundParameters b = bind_parameters(module, decoded, entry, all_needed);
  EXPECT_EQ(b.values[1], std::nullopt);
  EXPECT_EQ(b.given[7], std::nullopt);
  ParameterEntries missing = all_needed;
  missing.erase(missing.begin() + 5);
  EXPECT_EQ(bind_error(module, missing, "k"),
            "kernel k parameter 6 (k_param_6, .u32) has no value, and a branch, an address or a call depends on it: "
            "give it with --param 6=VALUE");
}

TEST(PtxParameters, AnUnneededScalarChangesNothing) {
  // saxpy's a only scales values on their way to memory; n bounds the work.
  LoweringOptions options;
  options.grid = {2, 1, 1};
  options.block = {64, 1, 1};
  const Module saxpy = load("workloads/saxpy/saxpy.ptx");
  options.parameters = {{"0", "96"}};
  const LoweredKernel without_a = lower_kernel(saxpy, options);
  options.parameters = {{"0", "96"}, {"1", "2.5"}};
  const LoweredKernel with_a = lower_kernel(saxpy, options);
  ASSERT_EQ(without_a.programs.size(), with_a.programs.size());
  for (std::size_t i = 0; i < with_a.programs.size(); ++i) {
    EXPECT_EQ(isa::to_kp(without_a.programs[i].program), isa::to_kp(with_a.programs[i].program));
  }
  EXPECT_EQ(without_a.warp_programs.expand(), with_a.warp_programs.expand());
  EXPECT_EQ(with_a.programs.size(), 2u);  // 96 of 128 threads: warp 3 skips the body
  EXPECT_EQ(bind_error(saxpy, {{"1", "2.5"}}),
            "kernel saxpy parameter 0 (_Z5saxpyifPKfPf_param_0, int) has no value, and a branch, an address or a call "
            "depends on it: give it with --param 0=VALUE");
}

}  // namespace
}  // namespace warpsim::ptx
