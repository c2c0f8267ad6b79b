#include "core/llm/price_table.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace sf::llm {

std::optional<PriceTable> PriceTable::from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object() || !j.contains("models") || !j["models"].is_object()) {
    error = "price table: expected an object with a 'models' object";
    return std::nullopt;
  }
  PriceTable t;
  for (const auto& [name, v] : j["models"].items()) {
    if (!v.is_object() || !v.contains("input_per_mtok") || !v.contains("output_per_mtok") ||
        !v["input_per_mtok"].is_number() || !v["output_per_mtok"].is_number()) {
      error = "price table: model '" + name + "' needs numeric input_per_mtok and output_per_mtok";
      return std::nullopt;
    }
    ModelPrice p{v["input_per_mtok"].get<double>(), v["output_per_mtok"].get<double>()};
    if (!(p.input_per_mtok >= 0.0) || !(p.output_per_mtok >= 0.0) || !std::isfinite(p.input_per_mtok) ||
        !std::isfinite(p.output_per_mtok)) {
      error = "price table: model '" + name + "' has a negative or non-finite price";
      return std::nullopt;
    }
    t.prices_[name] = p;
  }
  return t;
}

std::optional<PriceTable> PriceTable::load(const std::filesystem::path& file, std::string& error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = "price table: cannot open " + file.string();
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) {
    error = "price table: " + file.string() + " is not valid JSON";
    return std::nullopt;
  }
  return from_json(j, error);
}

std::optional<ModelPrice> PriceTable::find(const std::string& model) const {
  if (auto it = prices_.find(model); it != prices_.end()) return it->second;
  const ModelPrice* best = nullptr;
  std::size_t best_len = 0;
  for (const auto& [name, p] : prices_) {
    if (name.size() > best_len && model.rfind(name, 0) == 0) {
      best = &p;
      best_len = name.size();
    }
  }
  if (best) return *best;
  return std::nullopt;
}

std::optional<double> PriceTable::cost(const std::string& model, const Usage& usage) const {
  auto p = find(model);
  if (!p) return std::nullopt;
  return (static_cast<double>(usage.input_tokens) * p->input_per_mtok +
          static_cast<double>(usage.output_tokens) * p->output_per_mtok) /
         1e6;
}

}  // namespace sf::llm
