#include "core/learn/events_opt2.hpp"

#include "core/store/json_fields.hpp"

namespace sf::learn {

using nlohmann::json;

namespace {

namespace jf = store::json_fields;

json judgement_json(const Opt2Judgement& g) {
  return {{"verdict", g.verdict},      {"detail", g.detail},   {"cycles", g.cycles},      {"pct_of_peak", g.pct_of_peak},
          {"bottleneck", g.bottleneck}, {"busiest", g.busiest}, {"perf_text", g.perf_text}};
}

bool strs(const json& j, const char* k, std::vector<std::string>& out, std::string& err) {
  auto it = j.find(k);
  if (it == j.end()) return true;
  if (!it->is_array() || it->size() > 4096) return err = std::string(k) + ": expected an array", false;
  for (const auto& s : *it) {
    if (!s.is_string()) return err = std::string(k) + ": expected strings", false;
    out.push_back(s.get<std::string>());
  }
  return true;
}

bool judgement_of(const json& j, const char* k, Opt2Judgement& g, std::string& err) {
  auto it = j.find(k);
  if (it == j.end()) return true;
  if (!it->is_object()) return err = std::string(k) + ": expected an object", false;
  const json& o = *it;
  return jf::opt(jf::get_str, o, "verdict", g.verdict, err) && jf::opt(jf::get_str, o, "detail", g.detail, err) &&
         jf::opt(jf::get_signed<std::int64_t>, o, "cycles", g.cycles, err) &&
         jf::opt(jf::get_num, o, "pct_of_peak", g.pct_of_peak, err) &&
         jf::opt(jf::get_str, o, "bottleneck", g.bottleneck, err) && strs(o, "busiest", g.busiest, err) &&
         jf::opt(jf::get_str, o, "perf_text", g.perf_text, err);
}

}  // namespace

void encode_opt2(const Opt2Bank& e, json& j) {
  j["source"] = e.source;
  j["frozen"] = e.frozen;
  j["bank"] = e.bank;
}

void encode_opt2(const Opt2TaskStarted& e, json& j) {
  j["task"] = e.task;
  j["sizes"] = e.sizes;
  j["baseline"] = judgement_json(e.baseline);
}

void encode_opt2(const Opt2Round& e, json& j) {
  j["task"] = e.task;
  j["round"] = e.round;
  j["retrieved"] = e.retrieved;
  j["adopted"] = e.adopted;
  json moves = json::array();
  for (const auto& m : e.moves) moves.push_back({{"key", m.key}, {"what", m.what}, {"rule", m.rule}});
  j["moves"] = moves;
  j["judgement"] = judgement_json(e.judgement);
  j["impl"] = e.impl;
  j["best_cycles"] = e.best_cycles;
  j["best_speedup"] = e.best_speedup;
}

std::optional<EventBody> decode_opt2(const std::string& type, const json& j, std::string& err, bool& known) {
  known = true;
  if (type == "opt2_bank") {
    Opt2Bank e;
    if (!jf::opt(jf::get_str, j, "source", e.source, err) || !jf::opt(jf::get_bool, j, "frozen", e.frozen, err))
      return std::nullopt;
    e.bank = j.value("bank", json::object());
    return e;
  }
  if (type == "opt2_task") {
    Opt2TaskStarted e;
    if (!jf::get_str(j, "task", e.task, err) || !jf::opt(jf::get_str, j, "sizes", e.sizes, err) ||
        !judgement_of(j, "baseline", e.baseline, err))
      return std::nullopt;
    return e;
  }
  if (type == "opt2_round") {
    Opt2Round e;
    if (!jf::get_str(j, "task", e.task, err) || !jf::get_signed(j, "round", e.round, err) ||
        !strs(j, "retrieved", e.retrieved, err) || !strs(j, "adopted", e.adopted, err) ||
        !judgement_of(j, "judgement", e.judgement, err) || !jf::opt(jf::get_str, j, "impl", e.impl, err) ||
        !jf::opt(jf::get_signed<std::int64_t>, j, "best_cycles", e.best_cycles, err) ||
        !jf::opt(jf::get_num, j, "best_speedup", e.best_speedup, err))
      return std::nullopt;
    if (auto it = j.find("moves"); it != j.end()) {
      if (!it->is_array() || it->size() > 64) return err = "moves: expected an array", std::nullopt;
      for (const auto& m : *it) {
        if (!m.is_object()) return err = "moves: expected objects {key, what, rule}", std::nullopt;
        Opt2Move mv;
        if (!jf::opt(jf::get_str, m, "key", mv.key, err) || !jf::opt(jf::get_str, m, "what", mv.what, err) ||
            !jf::opt(jf::get_str, m, "rule", mv.rule, err))
          return std::nullopt;
        e.moves.push_back(std::move(mv));
      }
    }
    return e;
  }
  known = false;
  return std::nullopt;
}

}  // namespace sf::learn
