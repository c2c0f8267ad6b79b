#include "core/step/task_compile.hpp"

#include <cmath>
#include <cstdio>

namespace sf::step {
namespace {

// The (possibly non-integer) value of a dim, for the X-DIM message.
std::string dim_value_text(const Dim& d, const SizeBinding& b) {
  double v = static_cast<double>(d.num()) / static_cast<double>(d.den());
  for (const auto& [s, e] : d.exponents()) {
    auto it = b.find(s);
    if (it == b.end()) return "nothing (size symbol '" + s + "' is not bound)";
    v *= std::pow(static_cast<double>(it->second), e);
  }
  char buf[64];
  if (std::floor(v) == v && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::optional<sf::fnlang::Shape> eval_esh(const ScalarType& t, const SizeBinding& b, Location loc, Diagnostics& diags) {
  return eval_dims(t.esh(), b, loc, diags);
}

}  // namespace

std::optional<sf::fnlang::Shape> eval_dims(const Dims& dims, const SizeBinding& b, Location loc, Diagnostics& diags) {
  sf::fnlang::Shape out;
  bool ok = true;
  for (const Dim& d : dims) {
    auto v = d.eval(b);
    if (!v) {
      diags.push_back(make_error("X-DIM",
                                 "dim " + d.str() + " evaluates to " + dim_value_text(d, b) +
                                     ", which is not a positive integer",
                                 loc));
      ok = false;
      continue;
    }
    out.push_back(*v);
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<sf::fnlang::Shape> full_tensor_shape(const Dims& dims, const ScalarType& field, const SizeBinding& b,
                                                   Location loc, Diagnostics& diags) {
  Dims all(dims.rbegin(), dims.rend());
  Dims e = field.esh();
  all.insert(all.end(), e.begin(), e.end());
  return eval_dims(all, b, loc, diags);
}

std::optional<CompiledTask> compile_task(const TaskDoc& doc, const SizeBinding& sizes, Diagnostics& diags) {
  CompiledTask ct;
  ct.doc = &doc;
  ct.sizes = sizes;
  bool ok = true;
  std::map<std::string, std::int64_t> size_map(sizes.begin(), sizes.end());

  std::vector<sf::fnlang::Arg> param_args;
  for (const ParamDecl& p : doc.parameters) {
    auto shape = eval_dims(Dims(p.dims.rbegin(), p.dims.rend()), sizes, p.loc, diags);
    if (!shape) {
      ok = false;
      continue;
    }
    ct.param_shapes[p.name] = *shape;
    param_args.push_back({p.name, *shape});
  }

  for (const FnDecl& fn : doc.fns) {
    CompiledFn cf;
    cf.decl = &fn;
    bool fn_ok = true;
    for (const ScalarType& f : fn.input.fields) {
      auto s = eval_esh(f, sizes, fn.loc, diags);
      if (!s) fn_ok = false;
      else cf.in_esh.push_back(*s);
    }
    for (const ScalarType& f : fn.output.fields) {
      auto s = eval_esh(f, sizes, fn.loc, diags);
      if (!s) fn_ok = false;
      else cf.out_esh.push_back(*s);
    }
    if (!fn_ok) {
      ok = false;
      continue;
    }
    sf::fnlang::CompileOptions opt;
    opt.fn_name = fn.func_name;
    opt.mode = sf::fnlang::Mode::Fn;
    opt.line_starts = fn.body_line_starts;
    opt.sizes = size_map;
    for (std::size_t i = 0; i < cf.in_esh.size(); ++i) opt.args.push_back({"in" + std::to_string(i), cf.in_esh[i]});
    if (fn.stateful())
      for (std::size_t j = 0; j < cf.out_esh.size(); ++j)
        opt.args.push_back({"state" + std::to_string(j), cf.out_esh[j]});
    opt.args.insert(opt.args.end(), param_args.begin(), param_args.end());
    opt.expected_outputs = cf.out_esh;
    cf.program = sf::fnlang::compile(fn.body, opt, diags);
    if (!cf.program) {
      ok = false;
      continue;
    }
    ct.fns[fn.func_name] = std::move(cf);
  }

  sf::fnlang::CompileOptions ropt;
  ropt.fn_name = "reference";
  ropt.mode = sf::fnlang::Mode::Reference;
  ropt.line_starts = doc.reference_line_starts;
  ropt.sizes = size_map;
  bool ref_ok = true;
  for (const InputDecl& in : doc.inputs) {
    auto s = full_tensor_shape(in.dims, in.dtype.scalar(), sizes, in.loc, diags);
    if (!s) ref_ok = false;
    else ropt.args.push_back({in.name, *s});
  }
  ropt.args.insert(ropt.args.end(), param_args.begin(), param_args.end());
  for (const OutputDecl& o : doc.outputs) {
    for (const ScalarType& f : o.dtype.fields) {
      auto s = full_tensor_shape(o.dims, f, sizes, o.loc, diags);
      if (!s) ref_ok = false;
      else ropt.expected_outputs.push_back(*s);
    }
  }
  if (ref_ok) {
    ct.reference = sf::fnlang::compile(doc.reference, ropt, diags);
    if (!ct.reference) ok = false;
  } else {
    ok = false;
  }
  if (!ok) return std::nullopt;
  return ct;
}

}  // namespace sf::step
