#include "core/agent/guardian.hpp"

#include "core/common/text_diff.hpp"
#include "core/step/copy_insert.hpp"
#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/verifier.hpp"

#include <set>

namespace sf::agent {

namespace {

bool has_multi(const Diagnostics& ds) {
  for (const auto& d : ds)
    if (d.is_error() && d.code == "A-MULTI") return true;
  return false;
}

// The LLM's fix is kept when it leaves no affine error and adds no error code the input did not have
// (a fix of multiple consumption must not break names, types or shapes).
bool acceptable_fix(const Diagnostics& before, const Diagnostics& after) {
  std::multiset<std::string> old_codes;
  for (const auto& d : before)
    if (d.is_error() && d.stage() != Stage::Affine) old_codes.insert(d.code);
  for (const auto& d : after) {
    if (!d.is_error()) continue;
    if (d.stage() == Stage::Affine) return false;
    auto it = old_codes.find(d.code);
    if (it == old_codes.end()) return false;
    old_codes.erase(it);
  }
  return true;
}

}  // namespace

std::optional<GuardianMode> parse_guardian_mode(const std::string& s) {
  if (s == "rewrite") return GuardianMode::Rewrite;
  if (s == "llm") return GuardianMode::Llm;
  return std::nullopt;
}

std::string line_diff(const std::string& before, const std::string& after) {
  return sf::text::compact_diff(before, after);
}

std::optional<std::string> copy_rewrite(const step::TaskDoc& task, const std::string& impl) {
  Diagnostics ds;
  auto prog = step::parse_impl(impl, step::ParseOptions{}, ds);
  if (!prog) return std::nullopt;
  step::TaskNames names = step::task_names(task);
  if (!step::check_names(*prog, names, ds, &task.sizes)) return std::nullopt;
  return step::print_program(step::insert_copies(*prog, names));
}

std::vector<llm::ChatMessage> Guardian::llm_prompt(const std::string& impl, const Diagnostics& affine_errors) {
  std::string sys =
      "You are the guardian of StepForge. STeP streams are affine: every stream may be consumed at most once. "
      "To use a stream x twice, split it first with `x_0, x_r1 = step.Copy().apply(x)` right after its "
      "definition and give each consumer its own copy (a chain of Copies for more uses). Fix only multiple "
      "consumption: insert Copy statements and rename consumers. Never change shapes, primitives, arguments or "
      "semantics.";
  std::string user = "This program consumes some streams more than once:\n\n";
  for (const auto& d : affine_errors)
    if (d.is_error() && d.code == "A-MULTI")
      user += "- line " + std::to_string(d.loc.line) + ": " + d.message + "\n";
  user += "\n```\n" + impl + (impl.empty() || impl.back() != '\n' ? "\n" : "") + "```\n\n";
  user += "Answer with one fenced YAML block holding the corrected program as `impl: |`.\n";
  return {{"system", sys}, {"user", user}};
}

std::shared_ptr<const verify::CheckResult> Guardian::check(const step::TaskDoc& task, const std::string& impl) const {
  if (checker_) return checker_->check(task, impl);
  return std::make_shared<const verify::CheckResult>(verify::check_program(task, impl, {}));
}

GuardResult Guardian::guard(const step::TaskDoc& task, const std::string& impl, GuardianMode mode,
                            int sample_index) {
  GuardResult g;
  g.impl = impl;
  const auto cr = check(task, impl);
  g.gate_diags = cr->diags;
  g.gate_fired = has_multi(cr->diags);

  TraceEvent ev;
  ev.role = "guardian";
  ev.task_id = ctx_.task_id;
  ev.iteration = ctx_.iteration;
  ev.round = ctx_.round;
  ev.sample_index = sample_index;

  // `after`: the static result of g.impl when already known (the input's, or the checked LLM fix).
  auto finish = [&](std::string action, std::shared_ptr<const verify::CheckResult> after = nullptr) {
    g.action = std::move(action);
    g.diff = line_diff(impl, g.impl);
    ev.guardian_action = g.action;
    ev.guardian_diff = g.diff;
    ev.impl = g.impl;
    if (!after) after = g.impl == impl ? cr : check(task, g.impl);
    g.checked = after;
    ev.pass = after->ok();
    ev.diagnostics = after->diags;
    if (auto st = verify::failing_stage(after->diags)) {
      ev.stage = std::string(stage_name(*st));
      for (const auto& d : after->diags)
        if (d.is_error()) {
          ev.code = d.code;
          break;
        }
    }
    if (ctx_.sink) ctx_.sink(ev);
    return g;
  };

  if (!cr->program) return finish("unparsable");
  if (!g.gate_fired) return finish("none");

  if (mode == GuardianMode::Llm && backend_) {
    auto r = call_role(*backend_, ctx_, "guardian", llm_prompt(impl, cr->diags), "", 0.0, std::nullopt, sample_index,
                       ev);
    g.usage = ev.usage;
    g.cost_usd = ev.cost_usd;
    if (r.ok()) {
      auto parsed = parse_response(r.response->text, {});
      if (parsed.impl) {
        auto fixed = check(task, *parsed.impl);
        if (acceptable_fix(cr->diags, fixed->diags)) {
          g.impl = *parsed.impl;
          return finish("llm", fixed);
        }
      }
    }
    if (auto fixed = copy_rewrite(task, impl)) g.impl = *fixed;
    return finish("llm-fallback-rewrite");
  }
  if (auto fixed = copy_rewrite(task, impl)) g.impl = *fixed;
  return finish("rewrite");
}

}  // namespace sf::agent
