#include "core/verify/task_audit.hpp"

#include <algorithm>
#include <cstdio>

#include "core/sim/simulator.hpp"
#include "core/verify/verifier.hpp"

namespace sf::verify {

namespace {

Location reference_loc(const step::TaskDoc& t) {
  return t.reference_line_starts.empty() ? Location{} : t.reference_line_starts[0];
}

std::string output_field_name(const step::TaskDoc& t, std::size_t k) {
  std::size_t i = 0;
  for (const auto& o : t.outputs)
    for (std::size_t j = 0; j < o.dtype.fields.size(); ++j, ++i)
      if (i == k) return o.dtype.fields.size() == 1 ? o.name : o.name + "." + std::to_string(j);
  return "field " + std::to_string(k);
}

// One seed that is not among the task's own.
std::uint64_t other_seed(const step::TaskDoc& t) { return derive_extra_seeds(0, t.id, -2, 1, t.verify.seeds)[0]; }

}  // namespace

bool audit_task(Verifier& v, const step::TaskDoc& task, Diagnostics& diags, const AuditOptions& opt) {
  const Location at = reference_loc(task);
  std::size_t before = diags.size();
  auto fail = [&](const char* code, const std::string& msg) { diags.push_back(make_error(code, msg, at)); };
  std::vector<std::shared_ptr<const Verifier::Prepared>> sets;
  for (std::uint64_t seed : task.verify.seeds) {
    auto p = v.prepare(task, task.sizes, seed, diags);
    if (!p) return false;
    sets.push_back(p);
  }
  const auto& ref0 = sets[0]->reference.fields;
  bool any_constant = false;
  for (std::size_t k = 0; k < ref0.size(); ++k) {
    const std::string name = output_field_name(task, k);
    // Constant and zero-dominated, over every seed.
    bool constant = true;
    std::size_t zeros = 0, total = 0;
    const double first = ref0[k].empty() ? 0.0 : ref0[k][0];
    for (const auto& s : sets) {
      for (double x : s->reference.fields[k]) {
        constant = constant && x == first;
        zeros += x == 0.0 ? 1 : 0;
        ++total;
      }
    }
    if (constant) {
      fail("X-AUDIT-CONSTANT", "the reference output " + name + " is the constant " + std::to_string(first) +
                                   " on every input set: a program can pass without computing it");
      any_constant = true;
      continue;
    }
    if (total > 0 && static_cast<double>(zeros) > opt.max_zero_share * static_cast<double>(total)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.0f%% of the values of the reference output ", 100.0 * zeros / total);
      fail("X-AUDIT-ZEROS", buf + name + " are 0 (more than " + std::to_string(int(opt.max_zero_share * 100)) +
                                "%): an all-zero output nearly passes; choose inputs that make it informative");
    }
  }
  if (any_constant) return false;  // the seed and input checks would only repeat it
  // The seed must matter: a second input set (the task's second seed, or a fresh one).
  std::shared_ptr<const Verifier::Prepared> other = sets.size() > 1 ? sets[1] : nullptr;
  if (!other) {
    other = v.prepare(task, task.sizes, other_seed(task), diags, false);
    if (!other) return false;
  }
  if (other->reference.fields == ref0) {
    fail("X-AUDIT-SEED", "the reference output is the same under seeds " + std::to_string(sets[0]->inputs.seed) +
                             " and " + std::to_string(other->inputs.seed) + ": it does not depend on the input data");
  }
  // Every single input and parameter must matter: replace its data by that of another seed, keep the rest.
  const std::uint64_t alt_seed = other_seed(task);
  Diagnostics local;
  auto fresh = sim::make_input_set(task, task.sizes, alt_seed, local);
  if (!fresh) {
    diags.insert(diags.end(), local.begin(), local.end());
    return false;
  }
  auto changed_without = [&](auto apply_change) {
    sim::InputSet in = sets[0]->inputs;
    apply_change(in);
    Diagnostics d;
    auto r = sim::eval_reference(sets[0]->compiled, in, d);
    return !r || r->fields != ref0;  // an evaluation error counts as a change (reported by validate_task)
  };
  // An input whose data does not depend on the seed (data_gen ones) cannot be changed, so it is skipped.
  for (const auto& decl : task.inputs) {
    const auto& a = fresh->inputs.at(decl.name).fields;
    const auto& b = sets[0]->inputs.inputs.at(decl.name).fields;
    if (std::equal(a.begin(), a.end(), b.begin(), b.end(),
                   [](const sim::Field& x, const sim::Field& y) { return x.data == y.data; }))
      continue;
    bool changes = changed_without([&](sim::InputSet& in) { in.inputs[decl.name] = fresh->inputs.at(decl.name); });
    if (!changes)
      fail("X-AUDIT-INPUT", "the reference output does not change when input " + decl.name +
                                " changes (seed " + std::to_string(alt_seed) +
                                " for it alone): a program can ignore it and pass");
  }
  for (const auto& decl : task.parameters) {
    if (fresh->params.at(decl.name) == sets[0]->inputs.params.at(decl.name)) continue;
    bool changes = changed_without([&](sim::InputSet& in) { in.params[decl.name] = fresh->params.at(decl.name); });
    if (!changes)
      fail("X-AUDIT-INPUT", "the reference output does not change when parameter " + decl.name +
                                " changes (seed " + std::to_string(alt_seed) +
                                " for it alone): a program can ignore it and pass");
  }
  return !std::any_of(diags.begin() + static_cast<std::ptrdiff_t>(before), diags.end(),
                      [](const Diagnostic& d) { return d.is_error(); });
}

}  // namespace sf::verify
