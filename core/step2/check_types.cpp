// The step-v2 checker's typing pass under one size binding (check.hpp): the task tensors' shapes, then every
// statement's kwargs and output types in program order through the operator rules (check_ops.cpp). A
// statement whose argument did not type is skipped silently (its error is already reported), so every type
// this pass gives is a true type; the checker keeps those before the first error for the editor.
#include <algorithm>

#include "core/step2/check_internal.hpp"

namespace sf::step2::detail {

bool resolve_tensors(Ctx& c, const std::string& note, Graph& g, TensorShapes& tshape) {
  const auto& task = c.task;
  const auto& sizes = c.sizes;
  const auto& opt = c.opt;
  const std::size_t before = c.diags.size();
  for (const auto* list : {&task.tensor_inputs, &task.tensor_outputs})
    for (const auto& t : *list) {
      std::string why;
      auto s = tensor_shape(t, sizes, why);
      if (!s) {
        c.err("X-DIM", t.loc, why + note);
        continue;
      }
      std::int64_t n = 1;
      for (auto d : *s) n = d > 0 && n > INT64_MAX / d ? INT64_MAX : n * d;
      if (n > opt.max_tensor_scalars) {
        c.err("L-ELEMENTS", t.loc, "tensor " + t.name + " " + shape_text(*s) + " has " + std::to_string(n) +
                                       " elements; the limit is " + std::to_string(opt.max_tensor_scalars) + note);
        continue;
      }
      tshape[t.name] = *s;
      g.tensors.push_back({t.name, *s, list == &task.tensor_outputs});
    }
  return c.diags.size() == before;
}

Typing type_statements(Ctx& c, const Program& p, const std::vector<Resolved>& res, const TensorShapes& tshape,
                       const std::string& note) {
  const auto& opt = c.opt;
  Typing ty;
  auto& outs = ty.outs;
  auto& kws = ty.kws;
  auto& args = ty.args;
  auto& typed = ty.typed;
  outs.resize(p.stmts.size());
  kws.resize(p.stmts.size());
  args.resize(p.stmts.size());
  typed.assign(p.stmts.size(), false);
  std::int64_t total = 0;
  for (std::size_t i = 0; i < p.stmts.size(); ++i) {
    const Statement& s = p.stmts[i];
    const Resolved& r = res[i];
    if (!r.info) continue;  // an unknown operator (the name pass reported it)
    detail::StmtIn in;
    in.st = &s;
    in.info = r.info;
    bool ok = true;
    const Op op = r.info->op;
    if (op == Op::OffChipLoad || op == Op::OffChipStore) {
      if (op == Op::OffChipLoad ? s.args.empty() : s.targets.empty()) continue;
      auto ts = tshape.find(op == Op::OffChipLoad ? s.args[0].name : s.targets[0]);
      if (ts == tshape.end()) continue;  // not a task tensor (the name pass reported it)
      in.tensor_shape = ts->second;
    }
    // Arity and argument ports.
    std::size_t want = r.info->arity == Arity::Two ? 2 : 1;
    bool list_form = r.info->arity == Arity::List;
    if (!list_form && (s.args.size() != want || (want == 1 && s.form != Statement::ArgForm::One))) {
      c.err("T2-ARG", s.args[0].loc, "step." + s.op + " takes " +
                                         (want == 2 ? "two streams, written .apply((x, y))" : "one stream, written .apply(x)") +
                                         ", but " + std::to_string(s.args.size()) + " were given");
      continue;
    }
    if (op != Op::OffChipLoad) {
      for (std::size_t a = 0; a < s.args.size(); ++a) {
        const Ref& ref = s.args[a];
        int d = r.arg_stmt[a];
        if (d < 0 || !typed[static_cast<std::size_t>(d)]) {
          ok = false;
          continue;
        }
        const auto& dst = p.stmts[static_cast<std::size_t>(d)];
        int nports = static_cast<int>(outs[static_cast<std::size_t>(d)].size());
        // Which ports does this ref name?
        std::vector<int> ports;
        if (dst.targets.size() > 1) {
          auto k = std::find(dst.targets.begin(), dst.targets.end(), ref.name) - dst.targets.begin();
          if (ref.index >= 0) {
            c.err("T2-ARG", ref.loc, "'" + ref.name + "' is one stream; fix: drop the index [" + std::to_string(ref.index) + "]");
            ok = false;
            continue;
          }
          ports.push_back(static_cast<int>(k));
        } else if (ref.index >= 0) {
          if (ref.index >= nports) {
            c.err("T2-ARG", ref.loc, "'" + ref.text() + "' is out of range: '" + ref.name + "' has " +
                                         std::to_string(nports) + " stream(s); fix: an index in [0, " +
                                         std::to_string(nports - 1) + "]" + note);
            ok = false;
            continue;
          }
          ports.push_back(ref.index);
        } else if (nports == 1) {
          ports.push_back(0);
        } else if (list_form && s.args.size() == 1) {
          for (int k = 0; k < nports; ++k) ports.push_back(k);
        } else {
          c.err("T2-ARG", ref.loc, "'" + ref.name + "' names " + std::to_string(nports) + " streams; fix: pick one with " +
                                       ref.name + "[i]" + note);
          ok = false;
          continue;
        }
        for (int k : ports) {
          args[i].push_back({d, k});
          in.ins.push_back(outs[static_cast<std::size_t>(d)][static_cast<std::size_t>(k)]);
          in.in_locs.push_back(ref.loc);
        }
      }
    }
    if (!ok) continue;
    std::vector<StreamType> o;
    if (!detail::type_statement(c, in, kws[i], o)) continue;
    // Targets: one per port, or one name for a multi-port op.
    if (op != Op::OffChipStore && s.targets.size() != 1 && s.targets.size() != o.size()) {
      c.err("T2-ARG", s.loc, "step." + s.op + " gives " + std::to_string(o.size()) + " stream(s) but the statement has " +
                                 std::to_string(s.targets.size()) + " targets; fix: " + std::to_string(o.size()) +
                                 " targets or one name (then use NAME[i])" + note);
      continue;
    }
    bool lim = true;
    for (const auto& t : o) {
      std::int64_t tokens = t.elements();
      std::int64_t per = t.elem.bytes() / 4;
      std::int64_t scalars = per > 0 && tokens > INT64_MAX / per ? INT64_MAX : tokens * per;
      if (tokens > opt.max_stream_tokens || scalars > opt.max_stream_scalars) {
        c.err("L-ELEMENTS", s.loc, "step." + s.op + " gives " + type_text(t) + ": " + std::to_string(tokens) +
                                       " elements, " + std::to_string(scalars) + " values; the limits are " +
                                       std::to_string(opt.max_stream_tokens) + " elements and " +
                                       std::to_string(opt.max_stream_scalars) + " values per stream" + note);
        lim = false;
        break;
      }
      total = scalars > INT64_MAX - total ? INT64_MAX : total + scalars;
    }
    if (lim && total > opt.max_total_scalars) {
      c.err("L-ELEMENTS", s.loc, "the streams up to this statement hold " + std::to_string(total) +
                                     " values; the limit is " + std::to_string(opt.max_total_scalars) + note);
      lim = false;
    }
    if (!lim) break;
    outs[i] = std::move(o);
    typed[i] = true;
  }
  return ty;
}

}  // namespace sf::step2::detail
