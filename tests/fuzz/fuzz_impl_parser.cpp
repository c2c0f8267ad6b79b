// libFuzzer: the impl parser and everything that runs on its result (names, affine, Copy rewrite, printing,
// canonical form). Invariants: no crash/hang; a parse error adds exactly one diagnostic with a location;
// printing round-trips to the same canonical text; the Copy rewrite yields a program without A-MULTI on streams.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/step/affine.hpp"
#include "core/step/copy_insert.hpp"
#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"

using namespace sf::step;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ParseOptions opt;
  opt.line_starts = {{3, 5}};
  sf::Diagnostics diags;
  auto prog = parse_impl(text, opt, diags);
  if (!prog) {
    if (diags.size() != 1 || !diags[0].loc.known()) std::abort();
    return 0;
  }
  if (!diags.empty()) std::abort();

  TaskNames names;
  names.inputs = {"E0", "E1", "E2"};
  names.parameters = {"W"};
  names.fns = {"fn_a", "fn_b", "fn_sum"};
  names.outputs = {"S0"};
  names.sizes = {"D", "E", "M"};
  SizeBinding sizes{{"D", 16}, {"E", 3}, {"M", 5}};

  const std::string canon = canonical_text(*prog, &sizes);
  (void)canonical_key(*prog);
  (void)program_length(*prog);
  (void)stream_uses(*prog, names);

  // print -> parse -> canonical round trip (the printed text may exceed the byte limit only if the input did).
  ParseOptions loose;
  loose.max_bytes = 1 << 24;
  loose.max_statements = 1 << 20;
  sf::Diagnostics d2;
  auto again = parse_impl(print_program(*prog), loose, d2);
  if (!again || canonical_text(*again, &sizes) != canon) std::abort();

  if (check_names(*prog, names, diags, &sizes)) {
    check_affine(*prog, names, diags, &sizes);
    Program fixed = insert_copies(*prog, names);
    sf::Diagnostics d3;
    if (check_names(fixed, names, d3, &sizes)) {
      check_affine(fixed, names, d3, &sizes);
      for (const auto& d : d3)
        if (d.code == "A-MULTI" && d.message.find("stream list") == std::string::npos) std::abort();
    } else {
      std::abort();  // the rewrite must not introduce name errors
    }
  }
  return 0;
}
