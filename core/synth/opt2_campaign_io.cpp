// The text and JSON edges of a STeP-25 optimisation campaign (opt2_campaign.hpp): the moves an answer says it
// made, read back into move keys, and the rule bank as JSON (the workspace's opt2_bank.json, the opt2_bank
// event, a frozen bank transferred to another campaign). Both read untrusted text: bounded and defensive.
#include <algorithm>
#include <cstdlib>

#include "core/synth/opt2_campaign.hpp"

namespace sf::synth::opt2 {

namespace {

constexpr std::size_t kIoMaxMoves = 8;
constexpr std::size_t kIoMaxRules = 4096;
constexpr std::size_t kIoMaxString = 4096;
constexpr std::size_t kIoMaxText = 256 * 1024;

std::vector<std::string> io_words(const std::string& s) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (p < s.size() && out.size() < 64) {
    while (p < s.size() && s[p] == ' ') ++p;
    std::size_t e = s.find(' ', p);
    if (e == std::string::npos) e = s.size();
    if (e > p) out.push_back(s.substr(p, e - p));
    p = e;
  }
  return out;
}

bool io_starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string io_key(MoveKind k, const std::string& param) { return move_key(k, param); }

// "compute_bw 64 -> 128 on y": the factor the move applied (x2, x1.5; anything else is the halving).
std::optional<std::string> io_compute_bw_param(const std::vector<std::string>& w) {
  if (w.size() < 4 || w[2] != "->") return std::nullopt;
  const long long old = std::atoll(w[1].c_str()), now = std::atoll(w[3].c_str());
  if (old <= 0 || now <= 0) return std::nullopt;
  if (now == old * 2) return "x2";
  if (now == old * 3 / 2) return "x1.5";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> move_key_of_line(const std::string& raw) {
  std::string line = raw.substr(0, 512);
  while (!line.empty() && (line.front() == ' ' || line.front() == '-' || line.front() == '*')) line.erase(0, 1);
  if (auto f = line.find(" (from "); f != std::string::npos) line.resize(f);
  const auto w = io_words(line);
  if (w.empty()) return std::nullopt;
  // A key as the prompt shows it ("tile N*2", "drop_const_input") or `name=value` ("par_dispatch=16 on ...").
  std::string first = w[0];
  std::string param;
  if (auto eq = first.find('='); eq != std::string::npos) {
    param = first.substr(eq + 1);
    first.resize(eq);
  }
  if (auto k = move_from_name(first)) {
    switch (*k) {
      case MoveKind::ComputeBw:
        if (auto p = io_compute_bw_param(w)) return io_key(*k, *p);
        if (w.size() >= 2 && (w[1] == "x2" || w[1] == "x1.5")) return io_key(*k, w[1]);
        return std::nullopt;
      case MoveKind::Tile:
        return w.size() >= 2 ? std::optional(io_key(*k, w[1])) : std::nullopt;
      case MoveKind::ParDispatch:
      case MoveKind::WriteBackMu:
        if (param.empty() && w.size() >= 2) param = w[1];
        return param.empty() ? std::nullopt : std::optional(io_key(*k, param));
      default:
        return io_key(*k, w.size() >= 2 && param.empty() ? w[1] : param);
    }
  }
  // The builtin optimiser's sentences (opt2_moves.cpp MoveOutcome::what).
  if (io_starts(line, "constant input ") && w.size() >= 3) return io_key(MoveKind::DropConstInput, w[2]);
  if (io_starts(line, "re-load ") && line.find(" -> Bufferize(rank=") != std::string::npos) {
    const auto p = line.find("(rank=") + 6;
    const auto e = line.find(')', p);
    const auto kind = move_from_name("bufferize_reload");
    if (!kind || e == std::string::npos) return std::nullopt;
    return io_key(*kind, line.substr(p, e - p));
  }
  if (io_starts(line, "re-load ") && w.size() >= 4 && w[2] == "of") return io_key(MoveKind::ReuseLoad, w[3]);
  if (io_starts(line, "parallel split of ") && w.size() >= 6 && w[4] == "into") return io_key(MoveKind::ParallelSplit, w[5]);
  if (io_starts(line, "reduction of ") && line.find(" split in two halves") != std::string::npos)
    return io_key(MoveKind::AddTreeSplit, "2");
  if (io_starts(line, "elementwise ") && line.find(" merged into one scale (c=") != std::string::npos) {
    const auto c = line.rfind("(c=");
    const auto close = line.find(')', c);
    if (close == std::string::npos) return std::nullopt;
    return io_key(MoveKind::MergeElementwise, line.substr(c + 3, close - c - 3));
  }
  return std::nullopt;
}

std::vector<AppliedMove> answer_moves(const std::string& raw) {
  const std::string text = raw.substr(0, kIoMaxText);
  std::vector<std::string> lines;
  for (std::size_t p = 0; p < text.size() && lines.size() < 20000;) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string l = text.substr(p, e - p);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
    p = e + 1;
  }
  std::vector<AppliedMove> out;
  for (const auto& l : lines) {  // an explicit `moves: [..]` line wins
    if (!io_starts(l, "moves:")) continue;
    const auto open = l.find('['), close = l.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close < open) break;
    std::string cur;
    for (std::size_t i = open + 1; i <= close && out.size() < kIoMaxMoves; ++i) {
      if (l[i] == ',' || i == close) {
        if (auto k = move_key_of_line(cur)) out.push_back({*k, *k, ""});
        cur.clear();
      } else if (l[i] != '"' && l[i] != '\'' && l[i] != '`') {
        cur.push_back(l[i]);
      }
    }
    return out;
  }
  for (const auto& l : lines) {
    if (io_starts(l, "```")) break;  // the moves come before the program
    if (!io_starts(l, "- ") || out.size() >= kIoMaxMoves) continue;
    auto k = move_key_of_line(l);
    if (!k) continue;
    AppliedMove m{*k, l.substr(2), ""};
    if (auto f = m.what.find(" (from "); f != std::string::npos) {
      const auto close = m.what.find(')', f);
      if (close != std::string::npos) m.rule_id = m.what.substr(f + 7, std::min<std::size_t>(close - f - 7, 64));
      m.what.resize(f);
    }
    out.push_back(std::move(m));
  }
  return out;
}

nlohmann::json bank_to_json(const RuleBank& bank) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : bank.rules)
    rules.push_back({{"id", r.rule.id},
                     {"move", move_key(r.rule.kind, r.rule.param)},
                     {"statement", r.statement},
                     {"bottleneck", r.bottleneck},
                     {"op_pattern", r.op_pattern},
                     {"sizes", r.sizes},
                     {"best_speedup", r.best_speedup},
                     {"wins", r.wins},
                     {"losses", r.losses},
                     {"retrieved", r.retrieved},
                     {"u_wins", r.u_wins}});
  return {{"rules", rules}};
}

std::optional<RuleBank> bank_from_json(const nlohmann::json& j, std::string& error) {
  if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array())
    return error = "expected an object {\"rules\": [...]}", std::nullopt;
  if (j["rules"].size() > kIoMaxRules) return error = "more than 4096 rules", std::nullopt;
  RuleBank bank;
  for (std::size_t i = 0; i < j["rules"].size(); ++i) {
    const auto& r = j["rules"][i];
    const std::string at = "rules[" + std::to_string(i) + "]";
    if (!r.is_object()) return error = at + ": expected an object", std::nullopt;
    auto str = [&](const char* k, std::string& out) {
      auto it = r.find(k);
      if (it == r.end() || !it->is_string() || it->get_ref<const std::string&>().size() > kIoMaxString)
        return error = at + "." + k + ": expected a string of at most 4096 characters", false;
      out = it->get<std::string>();
      return true;
    };
    auto num = [&](const char* k, auto& out) {
      auto it = r.find(k);
      if (it == r.end()) return true;  // counts default to 0
      if (!it->is_number()) return error = at + "." + k + ": expected a number", false;
      const double v = it->get<double>();
      if (!(v >= 0 && v <= 1e9)) return error = at + "." + k + ": out of range", false;
      out = static_cast<std::remove_reference_t<decltype(out)>>(v);
      return true;
    };
    BankRule b;
    std::string id, move;
    if (!str("id", id) || !str("move", move) || !str("statement", b.statement) || !str("bottleneck", b.bottleneck) ||
        !str("op_pattern", b.op_pattern) || !str("sizes", b.sizes) || !num("best_speedup", b.best_speedup) ||
        !num("wins", b.wins) || !num("losses", b.losses) || !num("retrieved", b.retrieved) ||
        !num("u_wins", b.u_wins))
      return std::nullopt;
    auto rule = parse_rule_move(move, id);
    if (!rule || id.empty()) return error = at + ".move: '" + move + "' names no move", std::nullopt;
    b.rule = *rule;
    bank.rules.push_back(std::move(b));
  }
  return bank;
}

}  // namespace sf::synth::opt2
