#include "core/inspect/checked_program.hpp"

#include <algorithm>
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

namespace {

// step-v2: "[1, 2, 2] of Tile[128, 128]" (stream shape, then the element, both outermost-first), as v1's
// "[N] of fp32"; a statement with one name for several ports: "2 streams × …" or "streams [a; b]".
std::vector<StreamAnnotation> stream_annotations_v2(const step2::CheckResult& r) {
  std::vector<StreamAnnotation> out;
  if (!r.program) return out;
  auto text = [](const step2::StreamType& t) { return step2::shape_text(t.shape) + " of " + step2::elem_type_text(t.elem); };
  for (std::size_t i = 0; i < r.program->stmts.size() && i < r.types.size(); ++i) {
    const step2::Statement& st = r.program->stmts[i];
    const auto& outs = r.types[i];
    if (outs.empty() || st.targets.empty()) continue;
    if (st.targets.size() == outs.size()) {
      for (std::size_t j = 0; j < outs.size(); ++j) out.push_back({st.targets[j], st.loc.line, text(outs[j])});
      continue;
    }
    bool same = std::all_of(outs.begin(), outs.end(), [&](const auto& t) { return t == outs.front(); });
    std::string type = same ? std::to_string(outs.size()) + " streams × " + text(outs.front()) : "streams [";
    for (std::size_t j = 0; !same && j < outs.size(); ++j) type += (j ? "; " : "") + text(outs[j]);
    out.push_back({st.targets.front(), st.loc.line, same ? type : type + "]"});
  }
  return out;
}

}  // namespace

int types_stop_line(const CheckedProgram& p) {
  std::vector<int> lines;
  if (p.task.is_v2()) {
    if (!p.result.v2 || !p.result.v2->program || p.result.v2->types.empty()) return 0;
    for (const auto& s : p.result.v2->program->stmts) lines.push_back(s.loc.line);
  } else {
    if (!p.result.program || p.result.typed || !p.result.partial) return 0;
    for (const auto& s : p.result.program->stmts) lines.push_back(s.loc.line);
  }
  const std::size_t k = step::statements_before_error(lines, p.result.diags);
  return k < lines.size() ? lines[k] : 0;
}

std::vector<StreamAnnotation> stream_annotations(const CheckedProgram& p) {
  if (p.task.is_v2()) return p.result.v2 ? stream_annotations_v2(*p.result.v2) : std::vector<StreamAnnotation>{};
  std::vector<StreamAnnotation> out;
  const auto& typed = p.result.typed ? p.result.typed : p.result.partial;  // partial: up to the first error
  if (!p.result.program || !typed) return out;
  for (const auto& ts : typed->stmts) {
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
