#include "core/llm/price_table.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    ModelPrice p{v["input_per_mtok"].get<double>(), v["output_per_mtok"].get<double>(), std::nullopt, std::nullopt};
    for (const char* k : {"cached_input_per_mtok", "cache_write_per_mtok"}) {
      if (!v.contains(k)) continue;
      if (!v[k].is_number()) {
        error = "price table: model '" + name + "': " + k + " must be a number";
        return std::nullopt;
      }
      (std::string(k) == "cached_input_per_mtok" ? p.cached_input_per_mtok : p.cache_write_per_mtok) =
          v[k].get<double>();
    }
    auto bad = [](std::optional<double> x) { return x && (!(*x >= 0.0) || !std::isfinite(*x)); };
    if (!(p.input_per_mtok >= 0.0) || !(p.output_per_mtok >= 0.0) || !std::isfinite(p.input_per_mtok) ||
        !std::isfinite(p.output_per_mtok) || bad(p.cached_input_per_mtok) || bad(p.cache_write_per_mtok)) {
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
  // input_tokens counts every prompt token; the cached and cache-written parts are priced at their own rates.
  std::int64_t cached = std::clamp<std::int64_t>(usage.cached_input_tokens, 0, usage.input_tokens);
  std::int64_t written = std::clamp<std::int64_t>(usage.cache_write_input_tokens, 0, usage.input_tokens - cached);
  std::int64_t plain = usage.input_tokens - cached - written;
  return (static_cast<double>(plain) * p->input_per_mtok +
          static_cast<double>(cached) * p->cached_input_per_mtok.value_or(p->input_per_mtok) +
          static_cast<double>(written) * p->cache_write_per_mtok.value_or(p->input_per_mtok) +
          static_cast<double>(usage.output_tokens) * p->output_per_mtok) /
         1e6;
}

}  // namespace sf::llm
