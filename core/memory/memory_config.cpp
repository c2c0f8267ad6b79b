#include "core/memory/memory_config.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace sf::memory {

std::string_view credit_mode_name(CreditMode m) {
  return m == CreditMode::Atu ? "atu" : "uniform";
}
std::string_view ranking_mode_name(RankingMode m) {
  return m == RankingMode::Utility ? "utility" : "relevance";
}
std::string_view ugc_mode_name(UgcMode m) {
  switch (m) {
    case UgcMode::On:
      return "on";
    case UgcMode::Off:
      return "off";
    case UgcMode::Random:
      return "random";
  }
  return "on";
}

std::optional<CreditMode> parse_credit_mode(std::string_view s) {
  if (s == "atu") return CreditMode::Atu;
  if (s == "uniform") return CreditMode::Uniform;
  return std::nullopt;
}
std::optional<RankingMode> parse_ranking_mode(std::string_view s) {
  if (s == "utility") return RankingMode::Utility;
  if (s == "relevance") return RankingMode::Relevance;
  return std::nullopt;
}
std::optional<UgcMode> parse_ugc_mode(std::string_view s) {
  if (s == "on") return UgcMode::On;
  if (s == "off") return UgcMode::Off;
  if (s == "random") return UgcMode::Random;
  return std::nullopt;
}

nlohmann::json config_to_json(const MemoryConfig& c) {
  return nlohmann::json{{"k", c.k},
                        {"rounds", c.rounds},
                        {"delta", c.delta},
                        {"beta", c.beta},
                        {"eta_min", c.eta_min},
                        {"gamma", c.gamma},
                        {"k_ado", c.k_ado},
                        {"k_op", c.k_op},
                        {"mu", c.mu},
                        {"budget", c.budget},
                        {"credit", credit_mode_name(c.credit)},
                        {"ranking", ranking_mode_name(c.ranking)},
                        {"ugc", ugc_mode_name(c.ugc)},
                        {"frozen", c.frozen},
                        {"seed", c.seed}};
}

namespace {

Diagnostic config_error(const std::string& field, const std::string& what) {
  return make_error("M-CONFIG", "memory config: field '" + field + "' " + what);
}

std::optional<Diagnostic> get_int(const nlohmann::json& v, const std::string& f, int lo, int hi, int& out) {
  if (!v.is_number_integer()) return config_error(f, "must be an integer");
  const auto x = v.get<std::int64_t>();
  if (x < lo || x > hi) {
    return config_error(f, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  }
  out = static_cast<int>(x);
  return std::nullopt;
}

std::optional<Diagnostic> get_real(const nlohmann::json& v, const std::string& f, double lo, double hi,
                                   double& out) {
  if (!v.is_number()) return config_error(f, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) return config_error(f, "is out of range");
  out = x;
  return std::nullopt;
}

template <class E, class Parse>
std::optional<Diagnostic> get_enum(const nlohmann::json& v, const std::string& f, Parse parse,
                                   const char* allowed, E& out) {
  if (!v.is_string()) return config_error(f, std::string("must be a string (") + allowed + ")");
  auto e = parse(v.get<std::string>());
  if (!e)
    return config_error(f, "has unknown value '" + v.get<std::string>() + "' (expected " + allowed + ")");
  out = *e;
  return std::nullopt;
}

}  // namespace

std::optional<Diagnostic> config_from_json(const nlohmann::json& j, MemoryConfig& out) {
  if (!j.is_object()) return make_error("M-CONFIG", "memory config: expected a JSON object");
  MemoryConfig c;
  for (const auto& [key, v] : j.items()) {
    std::optional<Diagnostic> e;
    if (key == "k")
      e = get_int(v, key, 1, 1000, c.k);
    else if (key == "rounds")
      e = get_int(v, key, 1, 100000, c.rounds);
    else if (key == "delta")
      e = get_real(v, key, 0.0, 1.0, c.delta);
    else if (key == "beta")
      e = get_real(v, key, 0.0, 1.0, c.beta);
    else if (key == "eta_min")
      e = get_real(v, key, 0.0, 1.0, c.eta_min);
    else if (key == "gamma")
      e = get_real(v, key, 0.0, 10.0, c.gamma);
    else if (key == "k_ado")
      e = get_int(v, key, 0, 1000000, c.k_ado);
    else if (key == "k_op")
      e = get_int(v, key, 0, 1000000, c.k_op);
    else if (key == "mu")
      e = get_real(v, key, 0.0, 1.0, c.mu);
    else if (key == "budget")
      e = get_int(v, key, 0, 100000000, c.budget);
    else if (key == "credit")
      e = get_enum(v, key, parse_credit_mode, "atu, uniform", c.credit);
    else if (key == "ranking")
      e = get_enum(v, key, parse_ranking_mode, "utility, relevance", c.ranking);
    else if (key == "ugc")
      e = get_enum(v, key, parse_ugc_mode, "on, off, random", c.ugc);
    else if (key == "frozen") {
      if (!v.is_boolean())
        e = config_error(key, "must be true or false");
      else
        c.frozen = v.get<bool>();
    } else if (key == "seed") {
      if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
        e = config_error(key, "must be a non-negative integer");
      } else {
        c.seed = v.get<std::uint64_t>();
      }
    } else {
      e = config_error(key, "is not a memory setting");
    }
    if (e) return e;
  }
  out = c;
  return std::nullopt;
}

}  // namespace sf::memory
