// Price table: USD per million input / output tokens, per model; turns Usage into cost.
// JSON format: {"version": 1, "currency": "USD", "models": {"gpt-4o": {"input_per_mtok": 2.5,
// "output_per_mtok": 10.0, "cached_input_per_mtok": 1.25, "cache_write_per_mtok": 3.125}, ...}} (the two
// cache rates are optional and default to the input price). Lookup is by exact model name, then by the longest key that is a prefix
// of the model name (so "gpt-4o-2024-08-06" prices as "gpt-4o").
#pragma once

#include "core/llm/chat_types.hpp"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace sf::llm {

struct ModelPrice {
  double input_per_mtok = 0.0;
  double output_per_mtok = 0.0;
  std::optional<double> cached_input_per_mtok;  // tokens read from the provider's prompt cache; unset: input price
  std::optional<double> cache_write_per_mtok;   // tokens written to the prompt cache; unset: input price
};

class PriceTable {
 public:
  static std::optional<PriceTable> from_json(const nlohmann::json& j, std::string& error);
  static std::optional<PriceTable> load(const std::filesystem::path& file, std::string& error);

  void set(const std::string& model, ModelPrice p) { prices_[model] = p; }
  std::optional<ModelPrice> find(const std::string& model) const;
  // Cost in USD, or nullopt for a model without a price.
  std::optional<double> cost(const std::string& model, const Usage& usage) const;
  std::size_t size() const { return prices_.size(); }

 private:
  std::map<std::string, ModelPrice> prices_;
};

}  // namespace sf::llm
