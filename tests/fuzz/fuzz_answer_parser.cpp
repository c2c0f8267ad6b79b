// libFuzzer: the LLM answer parser (core/agent/response_parser) — the impl, the adoption list and the rules
// it says it used — and the impl parser on what it extracts. Invariants: no crash or hang; adoption entries are bounded by the limit and unique; every missing id was retrieved and every
// unknown id was not.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/agent/response_parser.hpp"
#include "core/step/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> retrieved{"exp-001", "rule-7", "exp-042"};
  sf::agent::ResponseParserLimits lim;
  lim.max_entries = 16;
  auto p = sf::agent::parse_response(text, retrieved, lim);
  if (p.adoption.size() > lim.max_entries) std::abort();
  for (std::size_t i = 0; i < p.adoption.size(); ++i)
    for (std::size_t j = i + 1; j < p.adoption.size(); ++j)
      if (p.adoption[i].id == p.adoption[j].id) std::abort();
  for (const auto& id : p.missing_ids)
    if (std::find(retrieved.begin(), retrieved.end(), id) == retrieved.end()) std::abort();
  for (const auto& id : p.unknown_ids)
    if (std::find(retrieved.begin(), retrieved.end(), id) != retrieved.end()) std::abort();
  for (const auto& id : retrieved) (void)p.adopted(id);
  if (p.impl) {
    sf::Diagnostics d;
    (void)sf::step::parse_impl(*p.impl, {}, d);
  }
  return 0;
}
