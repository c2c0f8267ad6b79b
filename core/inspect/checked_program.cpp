#include "core/inspect/checked_program.hpp"

#include <chrono>
#include <tuple>

#include "core/inspect/dataflow_graph.hpp"
#include "core/verify/program_file.hpp"

namespace sf::inspect {

std::shared_ptr<CheckedProgram> load_and_check(std::string_view text, const std::string& path,
                                               const bench::Catalogue* cat, Diagnostics& diags) {
  auto pf = verify::load_program_text(text, path, cat, diags);
  if (!pf) return nullptr;
  auto p = std::make_shared<CheckedProgram>();
  p->task = std::move(pf->task);
  p->impl = std::move(pf->impl);
  p->impl_line_starts = std::move(pf->impl_line_starts);
  // `result` refers to p->task (fn declarations), so it is computed in place. The whole document, as `check`.
  p->result = verify::check_document(p->task, p->impl, p->impl_line_starts);
  return p;
}

std::vector<StreamAnnotation> stream_annotations(const CheckedProgram& p) {
  std::vector<StreamAnnotation> out;
  if (!p.result.program || !p.result.typed) return out;
  for (const auto& ts : p.result.typed->stmts) {
    if (!ts.stmt || ts.outs.empty()) continue;
    const step::Statement& st = *ts.stmt;
    if (st.kind != step::Statement::Kind::Assign && st.kind != step::Statement::Kind::Comprehension) continue;
    if (ts.list_result && !st.targets.empty()) {
      bool same = true;
      for (const auto& o : ts.outs) same = same && o == ts.outs.front();
      std::string type;
      if (same) {
        type = "list of " + std::to_string(ts.outs.size()) + " × " + stream_type_text(ts.outs[0], false);
      } else {
        type = "list [";
        for (std::size_t i = 0; i < ts.outs.size(); ++i)
          type += (i ? "; " : "") + stream_type_text(ts.outs[i], false);
        type += "]";
      }
      out.push_back({st.targets.front(), st.loc.line, std::move(type)});
      continue;
    }
    for (std::size_t j = 0; j < st.targets.size() && j < ts.outs.size(); ++j)
      out.push_back({st.targets[j], st.loc.line, stream_type_text(ts.outs[j], false)});
  }
  return out;
}

std::pair<step::SizeBinding, std::uint64_t> simulation_input(const step::TaskDoc& task) {
  return {task.bindings().front(), task.verify.seeds.empty() ? 42 : task.verify.seeds.front()};
}

std::optional<Simulation> simulate_once(const CheckedProgram& p, verify::Verifier& verifier,
                                        Diagnostics& diags, const std::function<bool(int phase)>& step) {
  Simulation s;
  std::tie(s.sizes, s.seed) = simulation_input(p.task);
  if (step && !step(1)) return std::nullopt;
  s.prepared = verifier.prepare(p.task, s.sizes, s.seed, diags);
  if (!s.prepared) return std::nullopt;
  if (step && !step(2)) return std::nullopt;
  sim::RunOptions ro;
  ro.keep_streams = true;
  const auto t0 = std::chrono::steady_clock::now();
  auto run = std::make_shared<sim::RunResult>(
      sim::run_program(*p.result.program, *p.result.typed, s.prepared->compiled, s.prepared->inputs, ro));
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (run->error) diags.push_back(*run->error);
  s.inspector = std::make_shared<const InspectorSnapshot>(
      make_inspector_snapshot(p.task, &*p.result.program, &*p.result.typed, *run, &s.prepared->reference));
  s.run = std::move(run);
  return s;
}

}  // namespace sf::inspect
