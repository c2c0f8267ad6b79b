#include "core/step2/prepare.hpp"

#include <cmath>
#include <cstdio>

#include "core/fnlang/fnlang.hpp"
#include "core/sim/datagen.hpp"
#include "core/step2/check.hpp"

namespace sf::step2 {

std::shared_ptr<const Prepared> prepare(const step::TaskDoc& task, const step::SizeBinding& sizes, std::uint64_t seed,
                                        const ScaleOverrides* scales, Diagnostics& diags) {
  auto p = std::make_shared<Prepared>();
  fnlang::CompileOptions ropt;
  ropt.fn_name = "reference";
  ropt.mode = fnlang::Mode::Reference;
  ropt.line_starts = task.reference_line_starts;
  ropt.sizes = std::map<std::string, std::int64_t>(sizes.begin(), sizes.end());
  for (const auto& t : task.tensor_inputs) {
    std::string why;
    auto shape = tensor_shape(t, sizes, why);
    if (!shape) {
      diags.push_back(make_error("X-DIM", why, t.loc));
      return nullptr;
    }
    std::int64_t count = 1;
    for (auto d : *shape) count = d > 0 && count > (std::int64_t{1} << 40) / d ? (std::int64_t{1} << 40) : count * d;
    double scale = t.scale;
    if (scales)
      if (auto it = scales->find(t.name); it != scales->end()) scale = it->second;
    HostTensor h;
    h.shape = *shape;
    using G = step::TensorDecl::Gen;
    if (t.gen == G::Full) {
      if (count > (std::int64_t{1} << 27)) {
        diags.push_back(make_error("X-DATAGEN", "input " + t.name + " has more than 2^27 values", t.loc));
        return nullptr;
      }
      h.data.assign(static_cast<std::size_t>(count), static_cast<float>(t.full * scale));
    } else {
      sim::Status st = sim::generate(t.gen == G::Randn ? sim::Gen::Randn : sim::Gen::Rand, seed, t.name, count, 1,
                                     t.gen == G::UniformFanIn ? 1.0 : scale, 0, 0, h.data);
      if (!st.ok()) {
        diags.push_back(make_error(st.code, "input " + t.name + ": " + st.message, t.loc));
        return nullptr;
      }
      if (t.gen == G::UniformFanIn) {
        std::string w;
        auto d = t.fan_in.eval(sizes, &w);
        if (!d) {
          diags.push_back(make_error("X-DIM", "uniform_fan_in of input " + t.name + ": " + w, t.loc));
          return nullptr;
        }
        const double bound = 1.0 / std::sqrt(static_cast<double>(*d));
        for (float& v : h.data) v = static_cast<float>((2.0 * static_cast<double>(v) - 1.0) * bound * scale);
      }
    }
    ropt.args.push_back({t.name, *shape});
    p->inputs[t.name] = std::move(h);
  }
  for (const auto& o : task.tensor_outputs) {
    std::string why;
    auto shape = tensor_shape(o, sizes, why);
    if (!shape) {
      diags.push_back(make_error("X-DIM", why, o.loc));
      return nullptr;
    }
    ropt.expected_outputs.push_back(*shape);
  }
  auto prog = fnlang::compile(task.reference, ropt, diags);
  if (!prog) return nullptr;
  std::vector<std::vector<double>> args;
  for (const auto& t : task.tensor_inputs) {
    const auto& f = p->inputs.at(t.name).data;
    args.emplace_back(f.begin(), f.end());
  }
  std::vector<const double*> argp;
  for (const auto& a : args) argp.push_back(a.data());
  for (const auto& s : prog->output_shapes()) {
    std::int64_t n = 1;
    for (auto d : s) n *= d;
    p->reference.emplace_back(static_cast<std::size_t>(n));
  }
  std::vector<double*> outp;
  for (auto& f : p->reference) outp.push_back(f.data());
  fnlang::Workspace<double> ws(*prog);
  fnlang::EvalReport rep;
  if (!prog->eval<double>(argp.data(), outp.data(), ws, &rep)) {
    if (rep.error) diags.push_back(*rep.error);
    return nullptr;
  }
  for (const auto& g : rep.fragile) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "a gap of %.3g (below %.3g)", g.gap, 1e-5 * std::max(1.0, g.scale));
    p->warnings.push_back(make_warning("X-FRAGILE", "the reference is fragile under seed " + std::to_string(seed) +
                                                        " and sizes " + step::binding_text(sizes) + ": " + g.what +
                                                        " has " + buf,
                                       g.loc));
  }
  for (std::size_t k = 0; k < p->reference.size(); ++k)
    for (double v : p->reference[k])
      if (std::isnan(v)) {
        diags.push_back(make_error("X-REF-NAN", "the reference computes NaN for output " + task.tensor_outputs[k].name +
                                                    " under seed " + std::to_string(seed),
                                   task.reference_line_starts.empty() ? Location{} : task.reference_line_starts[0]));
        return nullptr;
      }
  return p;
}

}  // namespace sf::step2
