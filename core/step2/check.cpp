// The step-v2 checker driver: names (v1's rules: every name assigned once, no task names or reserved words as
// targets, uses after definitions), stores (T2-STORE), then per size binding the operator rules
// (check_ops.cpp), the stream limits, the unused-stream rule, the implicit-Broadcast pass and the Graph.
#include "core/step2/check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/step/lexer.hpp"  // is_reserved_word
#include "core/step/typecheck.hpp"  // statements_before_error
#include "core/step2/check_internal.hpp"

namespace sf::step2 {

using detail::Ctx;
using detail::Port;
using detail::Resolved;

std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

std::string elem_type_text(const ElemType& e) { return detail::elem_text(e); }

std::string type_text(const StreamType& t) { return "Stream[" + detail::elem_text(t.elem) + ", " + shape_text(t.shape) + "]"; }

std::vector<std::pair<std::string, step::SizeBinding>> bindings_of(const step::TaskDoc& task) {
  std::vector<std::pair<std::string, step::SizeBinding>> out{{"sizes", task.sizes}};
  if (task.verify.alt_sizes && *task.verify.alt_sizes != task.sizes)
    out.emplace_back("verify.alt_sizes", *task.verify.alt_sizes);
  return out;
}

std::optional<std::vector<std::int64_t>> tensor_shape(const step::TensorDecl& t, const step::SizeBinding& sizes,
                                                      std::string& why) {
  std::vector<std::int64_t> s;
  for (const auto& d : t.shape) {
    std::string w;
    auto v = d.eval(sizes, &w);
    if (!v) {
      why = "dim " + d.str() + " of tensor " + t.name + " is not a positive integer (" + w + ")";
      return std::nullopt;
    }
    s.push_back(*v);
  }
  return s;
}

const Graph* CheckResult::graph_for(const step::SizeBinding& sizes) const {
  for (const auto& g : graphs)
    if (g.sizes == sizes) return &g.graph;
  return nullptr;
}

namespace {

const step::TensorDecl* find_tensor(const std::vector<step::TensorDecl>& v, std::string_view n) {
  for (const auto& t : v)
    if (t.name == n) return &t;
  return nullptr;
}

// The name pass (once for all bindings). Returns false on any error.
bool check_names(const Program& p, const step::TaskDoc& task, Diagnostics& diags, std::vector<Resolved>& res) {
  bool ok = true;
  auto err = [&](const char* code, Location loc, const std::string& msg) {
    ok = false;
    diags.push_back(make_error(code, "line " + std::to_string(loc.line) + ": " + msg, loc));
  };
  std::map<std::string, int> defined;  // name -> statement
  std::map<std::string, int> stored;   // output -> statement line
  std::set<std::string> sizes;
  for (const auto& [k, v] : task.sizes) sizes.insert(k);
  res.resize(p.stmts.size());
  for (std::size_t i = 0; i < p.stmts.size(); ++i) {
    const Statement& s = p.stmts[i];
    Resolved& r = res[i];
    r.info = find_op(s.op);
    if (!r.info) {
      std::string all;
      for (const auto& o : op_table()) all += (all.empty() ? "" : ", ") + std::string(o.name);
      err("T2-ARG", s.op_loc, "unknown operator step." + s.op + "; expected one of " + all +
                                  "; fix: use one of those operators");
    }
    const bool load = r.info && r.info->op == Op::OffChipLoad;
    const bool store = r.info && r.info->op == Op::OffChipStore;
    for (const Ref& a : s.args) {
      int def = -1;
      auto it = defined.find(a.name);
      if (it != defined.end()) def = it->second;
      if (load) {
        if (def >= 0 || !find_tensor(task.tensor_inputs, a.name) || a.index >= 0) {
          err(def >= 0 ? "T2-ARG" : "N-UNDEF", a.loc,
              "step.OffChipLoad reads an input tensor, but '" + a.text() + "' is " +
                  (def >= 0 ? "a stream" : "not an input of the task") + "; fix: apply it to one of the task's inputs");
        }
      } else if (def < 0) {
        if (find_tensor(task.tensor_inputs, a.name))
          err("N-UNDEF", a.loc, "'" + a.name + "' is a task input tensor, not a stream; fix: load it with "
                                "step.OffChipLoad(...).apply(" + a.name + ") and use that stream");
        else if (stored.count(a.name))
          err("T2-STORE", a.loc, "'" + a.name + "' is an output tensor written by the store on line " +
                                     std::to_string(stored[a.name]) + "; a store target is not a stream; fix: use the "
                                     "stream that was stored (or a copy of it)");
        else
          err("N-UNDEF", a.loc, "'" + a.name + "' is not defined" +
                                    (find_tensor(task.tensor_outputs, a.name) ? " (it is an output tensor; stores are sinks)" : "") +
                                    "; fix: define it on an earlier line");
      }
      r.arg_stmt.push_back(def);
    }
    if (store) {
      if (s.targets.size() != 1) {
        err("T2-STORE", s.target_locs[1], "step.OffChipStore writes one output tensor, but the statement has " +
                                              std::to_string(s.targets.size()) + " targets; fix: one store per output");
        continue;
      }
      const std::string& t = s.targets[0];
      if (!find_tensor(task.tensor_outputs, t)) {
        err("T2-STORE", s.loc, "step.OffChipStore target '" + t + "' is not an output of the task; expected one of" +
                                   [&] {
                                     std::string o;
                                     for (const auto& x : task.tensor_outputs) o += " " + x.name;
                                     return o;
                                   }() + "; fix: store into an output tensor");
      } else if (stored.count(t)) {
        err("T2-STORE", s.loc, "output '" + t + "' is stored twice (first on line " + std::to_string(stored[t]) +
                                   "); every output is stored exactly once; fix: remove one store");
      } else {
        stored[t] = s.loc.line;
      }
      continue;
    }
    for (std::size_t k = 0; k < s.targets.size(); ++k) {
      const std::string& t = s.targets[k];
      const Location l = s.target_locs[k];
      if (step::is_reserved_word(t) || t == "Tile" || sizes.count(t) || find_tensor(task.tensor_inputs, t) ||
          find_tensor(task.tensor_outputs, t)) {
        bool out = find_tensor(task.tensor_outputs, t) != nullptr;
        err(out ? "T2-STORE" : "N-RESERVED", l,
            "'" + t + "' cannot be assigned: it is " +
                (out ? "an output tensor, written only by step.OffChipStore"
                     : find_tensor(task.tensor_inputs, t) ? "a task input tensor"
                     : sizes.count(t)                      ? "a size symbol"
                                                           : "a reserved word") +
                "; fix: choose another name" + (out ? " (or use step.OffChipStore)" : ""));
        continue;
      }
      auto it = defined.find(t);
      if (it != defined.end()) {
        err("N-REDEF", l, "'" + t + "' is already defined on line " + std::to_string(p.stmts[it->second].loc.line) +
                              "; every name is assigned exactly once");
        continue;
      }
      defined[t] = static_cast<int>(i);
    }
  }
  for (const auto& o : task.tensor_outputs)
    if (!stored.count(o.name)) {
      Location l = p.stmts.empty() ? Location{1, 1} : p.stmts.back().loc;
      err("T2-STORE", l, "output '" + o.name + "' is never stored; every output is stored exactly once; fix: add `" +
                             o.name + " = step.OffChipStore(par_dispatch=4).apply(<stream>)`");
    }
  return ok;
}

std::optional<Graph> build_graph_resolved(const Program& p, const std::vector<Resolved>& res, const step::TaskDoc& task,
                                          const step::SizeBinding& sizes, const CheckOptions& opt, Diagnostics& diags,
                                          std::vector<std::vector<StreamType>>* types = nullptr) {
  Ctx c{task, sizes, opt, diags};
  const std::string note = sizes == task.sizes ? "" : " (under " + step::binding_text(sizes) + ")";
  Graph g;
  detail::TensorShapes tshape;
  if (!detail::resolve_tensors(c, note, g, tshape)) return std::nullopt;
  detail::Typing ty = detail::type_statements(c, p, res, tshape, note);
  if (types) *types = ty.outs;
  const auto& outs = ty.outs;
  const auto& kws = ty.kws;
  const auto& args = ty.args;
  if (!c.ok) return std::nullopt;

  // Uses of every port, in order; unused streams are errors.
  std::map<Port, std::vector<std::pair<int, int>>> uses;  // port -> (stmt, arg index)
  for (std::size_t i = 0; i < p.stmts.size(); ++i)
    for (std::size_t a = 0; a < args[i].size(); ++a) uses[args[i][a]].emplace_back(static_cast<int>(i), static_cast<int>(a));
  for (std::size_t i = 0; i < p.stmts.size(); ++i)
    for (std::size_t k = 0; k < outs[i].size(); ++k)
      if (!uses.count({static_cast<int>(i), static_cast<int>(k)})) {
        const Statement& s = p.stmts[i];
        std::string name = s.targets.size() > 1 ? s.targets[k] : s.targets[0] + (outs[i].size() > 1 ? "[" + std::to_string(k) + "]" : "");
        c.err("T2-UNUSED", s.targets.size() > 1 ? s.target_locs[k] : s.loc,
              "stream '" + name + "' (" + type_text(outs[i][k]) + ") is never used; every stream has a consumer; "
              "fix: store it, use it, or remove the statement" + note);
      }
  if (!c.ok) return std::nullopt;

  // Emit nodes in program order; a port used k > 1 times gets an implicit Broadcast(n=k) right after.
  std::map<Port, std::vector<int>> use_stream;  // port -> stream id per use
  std::vector<std::vector<int>> in_streams(p.stmts.size());
  for (std::size_t i = 0; i < p.stmts.size(); ++i) {
    const Statement& s = p.stmts[i];
    Node n;
    n.op = res[i].info->op;
    n.kw = kws[i];
    n.loc = s.loc;
    for (std::size_t t = 0; t < s.targets.size(); ++t) n.target += (t ? ", " : "") + s.targets[t];
    if (n.op == Op::OffChipLoad) n.tensor = s.args[0].name;
    if (n.op == Op::OffChipStore) n.tensor = s.targets[0];
    const int id = static_cast<int>(g.nodes.size());
    // Inputs: the stream id reserved for this use.
    for (std::size_t a = 0; a < args[i].size(); ++a) {
      const Port pt = args[i][a];
      const auto& u = uses[pt];
      std::size_t which = static_cast<std::size_t>(std::find(u.begin(), u.end(), std::pair(static_cast<int>(i), static_cast<int>(a))) - u.begin());
      int sid = use_stream[pt][which];
      n.inputs.push_back(sid);
      g.streams[static_cast<std::size_t>(sid)].consumer = id;
      g.streams[static_cast<std::size_t>(sid)].consumer_arg = static_cast<int>(a);
    }
    g.nodes.push_back(n);
    for (std::size_t k = 0; k < outs[i].size(); ++k) {
      Stream st;
      st.type = outs[i][k];
      st.producer = id;
      st.port = static_cast<int>(k);
      st.name = s.targets.size() > 1 ? s.targets[k] : s.targets[0] + (outs[i].size() > 1 ? "[" + std::to_string(k) + "]" : "");
      int sid = static_cast<int>(g.streams.size());
      g.streams.push_back(st);
      g.nodes[static_cast<std::size_t>(id)].outputs.push_back(sid);
      const Port pt{static_cast<int>(i), static_cast<int>(k)};
      const std::size_t k_uses = uses[pt].size();
      if (k_uses == 1) {
        use_stream[pt] = {sid};
        continue;
      }
      Node b;
      b.op = Op::Broadcast;
      b.kw.n = static_cast<int>(k_uses);
      b.loc = s.loc;
      b.implicit = true;
      b.inputs = {sid};
      const int bid = static_cast<int>(g.nodes.size());
      g.streams[static_cast<std::size_t>(sid)].consumer = bid;
      for (std::size_t u = 0; u < k_uses; ++u) {
        Stream c2;
        c2.type = st.type;
        c2.producer = bid;
        c2.port = static_cast<int>(u);
        int cid = static_cast<int>(g.streams.size());
        g.streams.push_back(c2);
        b.outputs.push_back(cid);
        use_stream[pt].push_back(cid);
      }
      g.nodes.push_back(std::move(b));
    }
  }
  return g;
}

// With errors, the statements from the first one an error is located in keep no types (step::types_kept).
void keep_types_before_first_error(CheckResult& r) {
  if (!r.program) return;
  r.types.resize(r.program->stmts.size());
  std::vector<int> lines;
  for (const auto& s : r.program->stmts) lines.push_back(s.loc.line);
  for (std::size_t i = step::statements_before_error(lines, r.diags); i < r.types.size(); ++i) r.types[i].clear();
}

}  // namespace

std::optional<Graph> build_graph(const Program& prog, const step::TaskDoc& task, const step::SizeBinding& sizes,
                                 const CheckOptions& opt, Diagnostics& diags) {
  std::vector<Resolved> res;
  if (!check_names(prog, task, diags, res)) return std::nullopt;
  return build_graph_resolved(prog, res, task, sizes, opt, diags);
}

CheckResult check(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                  const CheckOptions& opt) {
  CheckResult r;
  ParseOptions po;
  po.line_starts = line_starts;
  po.max_statements = opt.max_statements;
  po.max_bytes = opt.max_bytes;
  r.program = parse_program(impl, po, r.diags);
  if (!r.program) return r;
  std::vector<Resolved> res;
  if (!check_names(*r.program, task, r.diags, res)) {
    sort_and_cap(r.diags);
    // The types the statements before the first error have anyway (their diagnostics were reported above or
    // belong to later statements): one quiet typing pass under `sizes`.
    Diagnostics quiet;
    Ctx c{task, task.sizes, opt, quiet};
    Graph g;
    detail::TensorShapes tshape;
    if (detail::resolve_tensors(c, "", g, tshape)) r.types = detail::type_statements(c, *r.program, res, tshape, "").outs;
    keep_types_before_first_error(r);
    return r;
  }
  // Every binding; a diagnostic repeated under another binding (same code and place) is kept once.
  std::vector<BoundGraph> graphs;
  std::set<std::pair<std::string, std::pair<int, int>>> seen;
  bool first = true;  // the types are those under `sizes`
  for (const auto& [name, sizes] : bindings_of(task)) {
    Diagnostics local;
    auto g = build_graph_resolved(*r.program, res, task, sizes, opt, local, first ? &r.types : nullptr);
    first = false;
    for (auto& d : local)
      if (seen.insert({d.code, {d.loc.line, d.loc.column}}).second) r.diags.push_back(std::move(d));
    if (g) graphs.push_back({name, sizes, std::move(*g)});
  }
  if (!has_errors(r.diags)) r.graphs = std::move(graphs);
  sort_and_cap(r.diags);
  keep_types_before_first_error(r);
  return r;
}

}  // namespace sf::step2
