// libFuzzer: the fn language compiler on arbitrary bodies. Invariants: no crash/hang; failure <=> a diagnostic.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/fnlang/fnlang.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  sf::fnlang::CompileOptions opt;
  opt.fn_name = "fn_fuzz";
  opt.sizes = {{"D", 16}, {"E", 3}, {"K", 9}, {"M", 5}, {"N", 7}};
  opt.args = {{"in0", {16}}, {"in1", {}}, {"in2", {7, 16}}, {"state0", {16}}, {"W", {16, 3}}};
  opt.line_starts = {{10, 7}};
  sf::Diagnostics diags;
  auto prog = sf::fnlang::compile(body, opt, diags);
  if (!prog && diags.empty()) std::abort();
  return 0;
}
