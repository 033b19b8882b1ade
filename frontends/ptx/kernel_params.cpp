#include "warpsim/ptx/kernel_params.hpp"

#include <charconv>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

#include "warpsim/ptx/debug_names.hpp"
#include "warpsim/ptx/parameter_value.hpp"
#include "warpsim/ptx/relevance.hpp"
#include "warpsim/isa/input_error.hpp"

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

// "int n": the type, and the C++ name where the PTX keeps it.
std::string declaration(const KernelParameter& p) {
  return type_name(p) + (p.cxx_name.empty() ? "" : " " + p.cxx_name);
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

std::vector<KernelParameter> describe_parameters(const Module& module, const Function& function) {
  std::vector<KernelParameter> params = describe_parameters(function);
  const std::vector<std::string> names = cxx_parameter_names(module, function.name, params.size());
  for (std::size_t i = 0; i < names.size(); ++i) params[i].cxx_name = names[i];
  return params;
}

std::string type_name(const KernelParameter& parameter) {
  if (!parameter.cxx_type.empty()) return parameter.cxx_type;
  const ScalarType t = parameter.type;
  const char kind = t.kind == TypeKind::u ? 'u' : t.kind == TypeKind::s ? 's' : t.kind == TypeKind::f ? 'f' : 'b';
  return std::string(".") + kind + std::to_string(t.bits) + (parameter.is_aggregate ? "[]" : "");
}

std::optional<std::size_t> find_parameter(const std::vector<KernelParameter>& parameters, const std::string& name) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i].ptx_name == name) return i;
  }
  std::size_t position = 0;
  const auto r = std::from_chars(name.data(), name.data() + name.size(), position);
  if (r.ec == std::errc() && r.ptr == name.data() + name.size()) {
    return position < parameters.size() ? std::optional(position) : std::nullopt;
  }
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (!parameters[i].cxx_name.empty() && parameters[i].cxx_name == name) return i;
  }
  return std::nullopt;
}

std::string no_such_parameter(const std::vector<KernelParameter>& parameters, const std::string& kernel,
                              const std::string& name) {
  if (parameters.empty()) return "kernel " + kernel + " has no parameters";
  bool has_cxx_names = false;
  std::string listing;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const KernelParameter& p = parameters[i];
    has_cxx_names = has_cxx_names || !p.cxx_name.empty();
    listing += (i == 0 ? "" : "; ") + std::to_string(i) + ": " + p.ptx_name + " (" + declaration(p) + ")";
  }
  const std::string ways = has_cxx_names ? "position, PTX name or C++ name"
                                         : "position or PTX name (this PTX keeps no C++ names; nvcc -G builds do)";
  return "kernel " + kernel + " has no parameter " + quote_for_message(name) + "; name one by " + ways + ": " + listing;
}

std::vector<std::optional<InputContents>> bind_inputs(const BoundParameters& bound, const std::string& kernel,
                                                      const InputEntries& entries) {
  std::vector<std::optional<InputContents>> contents(bound.parameters.size());
  for (const auto& [name, stated] : entries) {
    const std::optional<std::size_t> found = find_parameter(bound.parameters, name);
    if (!found) throw InputError("--input " + name + ": " + no_such_parameter(bound.parameters, kernel, name));
    const KernelParameter& p = bound.parameters[*found];
    const std::string which = "parameter " + std::to_string(*found) + " (" + p.ptx_name + ")";
    if (!p.is_pointer) throw InputError("--input " + name + ": " + which + " is not a pointer; only a buffer has contents");
    if (contents[*found]) throw InputError("--input " + name + ": " + which + " is given twice");
    contents[*found] = stated;
  }
  return contents;
}

BoundParameters bind_parameters(const Module& module, const DecodedModule& decoded, std::uint32_t entry,
                                const ParameterEntries& entries) {
  const Function& function = module.functions[entry];
  BoundParameters bound;
  bound.parameters = describe_parameters(module, function);
  const std::vector<KernelParameter>& params = bound.parameters;
  bound.values.resize(params.size());
  bound.given.resize(params.size());
  const std::string kernel = short_kernel_name(function.name);
  for (const auto& [name, text] : entries) {
    const std::optional<std::size_t> found = find_parameter(params, name);
    if (!found) throw InputError("--param " + name + ": " + no_such_parameter(params, kernel, name));
    const std::size_t i = *found;
    const std::string which = "parameter " + std::to_string(i) + " (" + params[i].ptx_name + ")";
    if (bound.given[i]) throw InputError("--param " + name + ": " + which + " is given twice");
    if (params[i].is_aggregate) {
      throw InputError("--param " + name + ": " + which + " is a struct passed by value; it cannot be given a value");
    }
    const ParsedValue value = parse_parameter_value(params[i], name, text);
    bound.values[i] = value.bits;
    bound.given[i] = value.number;
  }
  const std::vector<bool> needed = needed_parameters(decoded, entry);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const KernelParameter& p = params[i];
    if (bound.given[i] || p.is_aggregate) continue;
    if (p.is_pointer) {
      bound.values[i] = kPointerParamBase * (i + 1);
    } else if (needed[i]) {
      throw InputError("kernel " + kernel + " parameter " + std::to_string(i) + " (" + p.ptx_name + ", " +
                       declaration(p) + ") has no value, and a branch, an address or a call depends on it: " +
                       "give it with --param " + std::to_string(i) + "=VALUE");
    }
  }
  return bound;
}

}  // namespace warpsim::ptx
