#include "core/synth/opt2_propose.hpp"

#include <algorithm>

namespace sf::synth::opt2 {

namespace {
constexpr int kMaxTries = 24;
}

std::optional<Rule> parse_rule_move(std::string_view text, std::string id) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '`')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '`' || text.back() == '\r')) text.remove_suffix(1);
  std::size_t sp = text.find(' ');
  auto kind = move_from_name(text.substr(0, sp));
  if (!kind) return std::nullopt;
  Rule r;
  r.id = std::move(id);
  r.kind = *kind;
  if (sp != std::string_view::npos) {
    std::string_view p = text.substr(sp + 1);
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    if (p.size() > 32) return std::nullopt;
    r.param = std::string(p);
  }
  return r;
}

PerfView read_perf(std::string_view text) {
  PerfView v;
  text = text.substr(0, 64 * 1024);
  while (!text.empty() && v.busiest.size() < 8) {
    std::size_t e = text.find('\n');
    std::string_view l = text.substr(0, e);
    text = e == std::string_view::npos ? std::string_view{} : text.substr(e + 1);
    if (l.rfind("  ", 0) != 0 || l.rfind("  violation", 0) == 0) continue;
    l.remove_prefix(2);
    std::size_t open = l.find(" ("), lim = l.rfind("limit ");
    if (open == std::string_view::npos || open == 0 || lim == std::string_view::npos || open > 64) continue;
    std::string_view word = l.substr(lim + 6);
    while (!word.empty() && (word.back() == '\r' || word.back() == ' ')) word.remove_suffix(1);
    if (word.empty() || word.size() > 16) continue;
    v.busiest.emplace_back(l.substr(0, open));
    v.limits.emplace_back(word);
  }
  return v;
}

std::string move_key(MoveKind k, const std::string& param) {
  return std::string(move_name(k)) + (param.empty() ? "" : " " + param);
}

Proposal propose(const step::TaskDoc& task, std::string_view impl, const std::vector<std::string>& busiest,
                 const std::vector<Rule>& rules, const ProposeOptions& opt) {
  Proposal p;
  auto lines = read_lines(impl);
  if (!lines) {
    p.error = "the program to improve does not parse";
    return p;
  }
  // The report's nodes and limits when the prompt has them, else the names the caller passed.
  PerfView perf = read_perf(opt.perf_text);
  if (perf.busiest.empty()) perf.busiest = busiest;
  Rng rng(opt.seed * 0x2545F4914F6CDD1Dull + 0x1234567ull);
  const int slots = rng.unit() < opt.two_moves ? 2 : 1;
  for (int slot = 0; slot < slots; ++slot) {
    bool done = false;
    if (!rules.empty() && rng.unit() < opt.follow_rule) {
      const Rule& r = rules[rng.below(rules.size())];
      MoveRequest req{r.kind, r.param, perf.busiest, perf.limits};
      auto out = apply_move(task, *lines, req, rng);
      if (out.applied) {
        p.moves.push_back({move_key(r.kind, out.param), out.what, r.id});
        if (!r.id.empty() && std::find(p.adopted.begin(), p.adopted.end(), r.id) == p.adopted.end())
          p.adopted.push_back(r.id);
        done = true;
      }
    }
    // Uniform over the move kinds; a kind that finds nothing to edit is drawn again.
    for (int t = 0; !done && t < kMaxTries; ++t) {
      MoveKind k = all_moves()[rng.below(all_moves().size())];
      MoveRequest req{k, "", perf.busiest, perf.limits};
      auto out = apply_move(task, *lines, req, rng);
      if (out.applied) {
        p.moves.push_back({move_key(k, out.param), out.what, ""});
        done = true;
      }
    }
  }
  if (p.moves.empty()) {
    p.error = "no rewrite move applies to this program";
    return p;
  }
  p.ok = true;
  p.impl = print_lines(*lines);
  return p;
}

}  // namespace sf::synth::opt2
