#include "frontends/ptx/kernel_params.hpp"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

#include "isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

std::string demangle(const std::string& name) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : std::string();
}

// Where the parameter list of a demangled signature opens: the '(' matching its final ')'.
// (Names can hold parentheses themselves: "apply<launch(float*)::{lambda(float)#1}>(...)".)
std::size_t parameter_list_start(const std::string& signature) {
  if (signature.empty() || signature.back() != ')') return std::string::npos;
  int depth = 0;
  for (std::size_t i = signature.size(); i-- > 0;) {
    if (signature[i] == ')') ++depth;
    if (signature[i] == '(' && --depth == 0) return i;
  }
  return std::string::npos;
}

// The top-level argument types of a demangled "name(int, float*, Foo<a, b>, int (*) [4])".
std::vector<std::string> argument_types(const std::string& signature) {
  std::vector<std::string> types;
  const std::size_t open = parameter_list_start(signature);
  if (open == std::string::npos) return types;
  int depth = 0;
  std::string current;
  for (std::size_t i = open + 1; i < signature.size(); ++i) {
    const char c = signature[i];
    if ((c == ',' || i + 1 == signature.size()) && depth == 0) {
      const std::size_t first = current.find_first_not_of(' ');
      if (first != std::string::npos) types.push_back(current.substr(first));
      current.clear();
      continue;
    }
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    current += c;
  }
  if (types.size() == 1 && types[0] == "void") types.clear();
  return types;
}

// A pointer, a reference (passed as a pointer), a pointer to an array (int (*) [4]) or a function
// pointer (float (*)(float)).
bool is_pointer_type(const std::string& type) {
  return (!type.empty() && (type.back() == '*' || type.back() == '&')) || type.find("(*)") != std::string::npos ||
         type.find("*)") != std::string::npos;
}

ScalarType type_of(const Declaration& d) {
  const std::string& t = d.type;
  ScalarType type{TypeKind::b, 32};
  if (t.size() >= 2) {
    type.kind = t[0] == 'u' ? TypeKind::u : t[0] == 's' ? TypeKind::s : t[0] == 'f' ? TypeKind::f : TypeKind::b;
    int bits = 0;
    std::from_chars(t.data() + 1, t.data() + t.size(), bits);
    type.bits = static_cast<std::uint8_t>(bits == 0 ? 32 : bits);
  }
  return type;
}

std::uint64_t parse_value(const KernelParameter& p, const std::string& name, const std::string& text) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (p.type.is_float()) {
    double d = 0;
    const auto r = std::from_chars(begin, end, d);
    if (r.ec != std::errc() || r.ptr != end) throw InputError("--param " + name + "=" + quote_for_message(text) + ": expected a number");
    return p.type.bits == 32 ? std::bit_cast<std::uint32_t>(static_cast<float>(d)) : std::bit_cast<std::uint64_t>(d);
  }
  std::int64_t v = 0;
  std::from_chars_result r{};
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint64_t u = 0;
    r = std::from_chars(begin + 2, end, u, 16);
    v = static_cast<std::int64_t>(u);
  } else {
    r = std::from_chars(begin, end, v);
  }
  if (r.ec != std::errc() || r.ptr != end) {
    throw InputError("--param " + name + "=" + quote_for_message(text) + ": expected a whole number");
  }
  const int bits = p.type.bits;
  if (bits < 64) {
    const std::int64_t lo = p.type.is_signed() ? -(std::int64_t{1} << (bits - 1)) : 0;
    const std::int64_t hi = p.type.is_signed() ? (std::int64_t{1} << (bits - 1)) - 1 : (std::int64_t{1} << bits) - 1;
    const bool untyped_negative = !p.type.is_signed() && v < 0 && v >= -(std::int64_t{1} << (bits - 1));
    if ((v < lo || v > hi) && !untyped_negative) {
      throw InputError("--param " + name + "=" + text + " does not fit the parameter's " + std::to_string(bits) + "-bit type");
    }
    return static_cast<std::uint64_t>(v) & ((std::uint64_t{1} << bits) - 1);
  }
  return static_cast<std::uint64_t>(v);
}

}  // namespace

std::string short_kernel_name(const std::string& ptx_name) {
  const std::string signature = demangle(ptx_name);
  if (signature.empty()) return ptx_name;
  const std::size_t open = parameter_list_start(signature);
  std::string name = signature.substr(0, open);
  int depth = 0;  // drop a template's return type: "void reduce<256>" -> "reduce<256>"
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<' || name[i] == '(') ++depth;
    if (name[i] == '>' || name[i] == ')') --depth;
    if (name[i] == ' ' && depth == 0) return name.substr(i + 1);
  }
  return name;
}

std::vector<KernelParameter> describe_parameters(const Function& function) {
  const std::vector<std::string> cxx = argument_types(demangle(function.name));
  std::vector<KernelParameter> params;
  for (std::size_t i = 0; i < function.params.size(); ++i) {
    const Declaration& d = function.params[i];
    KernelParameter p;
    p.ptx_name = d.name;
    p.type = type_of(d);
    p.is_aggregate = !d.array_dims.empty();
    if (cxx.size() == function.params.size()) {
      p.cxx_type = cxx[i];
      p.is_pointer = !p.is_aggregate && is_pointer_type(cxx[i]);
    } else {
      p.is_pointer = d.is_pointer || (!p.is_aggregate && p.type.bits == 64 && !p.type.is_float() && !p.type.is_signed());
    }
    params.push_back(std::move(p));
  }
  return params;
}

std::vector<std::optional<std::uint64_t>> bind_parameters(const Function& function, const ParameterEntries& entries) {
  const std::vector<KernelParameter> params = describe_parameters(function);
  std::vector<std::optional<std::uint64_t>> values(params.size());
  std::vector<bool> bound(params.size(), false);
  const auto bind = [&](std::size_t i, const std::string& name, const std::string& text) {
    if (bound[i]) throw InputError("--param " + name + ": parameter " + std::to_string(i) + " (" + params[i].ptx_name + ") is given twice");
    if (params[i].is_aggregate) throw InputError("--param " + name + ": parameter " + std::to_string(i) + " is a struct passed by value; it cannot be given a value");
    values[i] = parse_value(params[i], name, text);
    bound[i] = true;
  };
  std::vector<const std::pair<std::string, std::string>*> by_order;
  for (const auto& entry : entries) {
    const std::string& name = entry.first;
    std::size_t position = params.size();
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (params[i].ptx_name == name) position = i;
    }
    std::size_t number = 0;
    const auto r = std::from_chars(name.data(), name.data() + name.size(), number);
    if (position == params.size() && r.ec == std::errc() && r.ptr == name.data() + name.size()) {
      if (number >= params.size()) {
        throw InputError("--param " + name + ": kernel " + short_kernel_name(function.name) + " has " + std::to_string(params.size()) + " parameters (positions 0 to " + std::to_string(params.size() - 1) + ")");
      }
      position = number;
    }
    if (position < params.size()) {
      bind(position, name, entry.second);
    } else {
      by_order.push_back(&entry);
    }
  }
  std::size_t next = 0;
  for (const auto* entry : by_order) {
    while (next < params.size() && (bound[next] || params[next].is_pointer || params[next].is_aggregate)) ++next;
    if (next == params.size()) {
      throw InputError("--param " + entry->first + ": kernel " + short_kernel_name(function.name) + " has no unbound scalar parameter left for it");
    }
    bind(next, entry->first, entry->second);
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (bound[i] || params[i].is_aggregate) continue;
    if (params[i].is_pointer) {
      values[i] = kPointerParamBase * (i + 1);
      continue;
    }
    throw InputError("kernel " + short_kernel_name(function.name) + " parameter " + std::to_string(i) + " (" + params[i].ptx_name +
                     (params[i].cxx_type.empty() ? "" : ", " + params[i].cxx_type) + ") has no value: give it with --param " +
                     std::to_string(i) + "=VALUE");
  }
  return values;
}

}  // namespace warpsim::ptx
