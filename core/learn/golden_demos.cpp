#include "core/learn/golden_demos.hpp"

#include <set>

namespace sf::learn {

PromoteResult promote_to_golden(const std::filesystem::path& file, const step::TaskDoc& task,
                                const PromoteRequest& req, verify::Verifier& verifier) {
  PromoteResult r;
  if (req.impl.find_first_not_of(" \t\r\n") == std::string::npos) {
    r.error = "refused: the program is empty";
    return r;
  }
  verify::Report rep = verifier.verify(task, req.impl);
  if (!rep.pass) {
    r.error = "refused: does not verify";
    for (const auto& d : rep.diags)
      if (d.is_error()) {
        r.error += ": " + d.code;
        if (d.loc.known()) r.error += " at " + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column);
        r.error += ": " + d.message;
        break;
      }
    if (r.error == "refused: does not verify" && !rep.code.empty()) r.error += ": " + rep.code;
    return r;
  }
  store::GoldenEntry e;
  e.task = task.id;
  e.task_text = task.raw_text_without_impl;
  e.impl = req.impl;
  e.canonical_key = rep.canonical_key;
  e.provenance = req.provenance;
  if (e.provenance.task.empty()) e.provenance.task = task.id;
  e.promoted_by = req.promoted_by;
  e.promoted_at = req.promoted_at;
  e.cycles = req.cycles;
  e.speedup = req.speedup;
  if (!store::add_golden_entry(file, std::move(e), r.entry, r.added, r.error)) return r;
  r.ok = true;
  return r;
}

std::vector<agent::Demonstration> golden_demonstrations(const store::GoldenSet& set, const std::string& task,
                                                        std::size_t max) {
  std::vector<agent::Demonstration> out;
  std::set<std::string> seen;
  for (const auto& e : set.entries) {
    if (out.size() >= max) break;
    if (e.task == task || !seen.insert(e.task).second) continue;
    out.push_back({e.task, e.task_text, e.impl});
  }
  return out;
}

}  // namespace sf::learn
