#include "core/inspect/dataflow_graph.hpp"

#include <algorithm>
#include <map>

#include "core/step/names.hpp"
#include "core/step/parser.hpp"
#include "core/step/primitives.hpp"
#include "core/step/printer.hpp"

namespace sf::inspect {

namespace {

using step::Program;
using step::Ref;
using step::Statement;
using step::StreamType;

std::string compact_scalar(const step::ScalarType& s) {
  std::string elem = s.multihot ? "MH(" + s.lanes.str() + ")" : "fp32";
  if (!s.is_buffer()) return elem;
  std::string out = s.multihot ? "B<" + elem + ">[" : "B[";
  for (std::size_t i = 0; i < s.buffer.size(); ++i) {
    if (i) out += ", ";
    out += s.buffer[i].str();
  }
  return out + "]";
}

std::string call_title(const step::PrimCall& c) {
  std::string s = c.prim + "(";
  for (std::size_t i = 0; i < c.kwargs.size(); ++i) {
    if (i) s += ", ";
    s += c.kwargs[i].key + "=" + step::kwval_text(c.kwargs[i].value);
  }
  return s + ")";
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += v[i];
  }
  return s + "]";
}

std::string comprehension_text(const step::Comprehension& c) {
  std::string list = c.list_literal.empty() ? c.list_name : join_names(c.list_literal);
  if (!c.zipped) return "for " + c.stream_var + " in " + list;
  std::string fns = c.fns_literal.empty() ? c.fns_name : join_names(c.fns_literal);
  std::string vars = c.fns_first ? c.fn_var + ", " + c.stream_var : c.stream_var + ", " + c.fn_var;
  std::string args = c.fns_first ? fns + ", " + list : list + ", " + fns;
  return "for " + vars + " in zip(" + args + ")";
}

// A defined stream value or stream list.
struct Def {
  int node = -1;
  bool list = false;
  std::vector<const StreamType*> types;  // stream: one (or none); list: one per item (when typed)
};

struct Use {
  std::string key;   // "X", "L" (whole list) or "L[i]"
  std::string base;  // "X" or "L"
  long long index = -1;
  int to = -1;
};

class Builder {
 public:
  Builder(const Program& prog, const step::TypedProgram* typed, const step::TaskDoc& task)
      : prog_(prog), typed_(typed), task_(task) {}

  DataflowGraph build() {
    for (const auto& in : task_.inputs) {
      GraphNode n;
      n.kind = GraphNode::Kind::Input;
      n.title = in.name;
      n.subtitle = "task input";
      Def d;
      d.node = add(std::move(n));
      input_types_.push_back(StreamType{in.dtype, in.dims});
      defs_[in.name] = d;
    }
    // Pointers into input_types_ are taken after it stops growing.
    for (std::size_t i = 0; i < task_.inputs.size(); ++i)
      defs_[task_.inputs[i].name].types = {&input_types_[i]};

    int out_index = 0;
    for (std::size_t si = 0; si < prog_.stmts.size(); ++si) {
      const Statement& st = prog_.stmts[si];
      const step::TypedStatement* ts = typed_ && si < typed_->stmts.size() ? &typed_->stmts[si] : nullptr;
      switch (st.kind) {
        case Statement::Kind::FnList:
          break;
        case Statement::Kind::Return:
          for (const Ref& r : st.returns) {
            GraphNode n;
            n.kind = GraphNode::Kind::Output;
            n.title = static_cast<std::size_t>(out_index) < task_.outputs.size()
                          ? task_.outputs[static_cast<std::size_t>(out_index)].name
                          : "out " + std::to_string(out_index);
            n.subtitle = "return, line " + std::to_string(st.loc.line);
            n.statement = static_cast<int>(si);
            n.line = st.loc.line;
            n.end_line = std::max(st.end_line, st.loc.line);
            ++out_index;
            use_ref(r, add(std::move(n)));
          }
          break;
        case Statement::Kind::Assign:
        case Statement::Kind::Comprehension: {
          GraphNode n;
          n.kind = GraphNode::Kind::Primitive;
          n.statement = static_cast<int>(si);
          n.line = st.loc.line;
          n.end_line = std::max(st.end_line, st.loc.line);
          n.subtitle = "line " + std::to_string(st.loc.line);
          if (st.kind == Statement::Kind::Assign) {
            n.title = call_title(st.call);
          } else {
            n.title = "[" + call_title(st.comp.body) + "]";
            n.subtitle += ": " + comprehension_text(st.comp);
          }
          int node = add(std::move(n));
          // Uses first (a statement cannot consume its own targets).
          if (st.kind == Statement::Kind::Assign) {
            for (const Ref& r : st.call.arg.refs) use_ref(r, node);
          } else {
            const auto& c = st.comp;
            if (c.list_literal.empty()) {
              use_name(c.list_name, node);
            } else {
              for (const auto& nm : c.list_literal) use_name(nm, node);
            }
            for (const Ref& r : c.body.arg.refs) use_body_ref(r, c.stream_var, node);
          }
          define(st, ts, node);
          break;
        }
      }
    }
    finish();
    return std::move(g_);
  }

 private:
  int add(GraphNode n) {
    g_.nodes.push_back(std::move(n));
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  void define(const Statement& st, const step::TypedStatement* ts, int node) {
    const bool list = step::defines_stream_list(st);
    const bool typed_ok = ts && !ts->outs.empty();
    if (list && st.targets.size() == 1) {
      Def d;
      d.node = node;
      d.list = true;
      if (typed_ok)
        for (const auto& t : ts->outs) d.types.push_back(&t);
      defs_[st.targets[0]] = d;
      order_.push_back(st.targets[0]);
      return;
    }
    for (std::size_t k = 0; k < st.targets.size(); ++k) {
      Def d;
      d.node = node;
      if (typed_ok && ts->outs.size() == st.targets.size()) d.types.push_back(&ts->outs[k]);
      defs_[st.targets[k]] = d;
      order_.push_back(st.targets[k]);
    }
  }

  void use_name(const std::string& name, int to) {
    if (defs_.count(name)) uses_.push_back({name, name, -1, to});
  }

  void use_ref(const Ref& r, int to) {
    switch (r.kind) {
      case Ref::Kind::Name:
        use_name(r.name, to);
        break;
      case Ref::Kind::Index: {
        auto it = defs_.find(r.name);
        if (it == defs_.end() || !it->second.list) break;
        uses_.push_back({r.name + "[" + std::to_string(r.index) + "]", r.name, r.index, to});
        break;
      }
      case Ref::Kind::List:
        for (const Ref& item : r.items) use_ref(item, to);
        break;
    }
  }

  // Inside a comprehension the loop variable stands for the iterated list's elements (already counted);
  // any other stream is a real use (A-LOOP when it happens).
  void use_body_ref(const Ref& r, const std::string& loop_var, int to) {
    if (r.kind == Ref::Kind::Name && r.name == loop_var) return;
    if (r.kind == Ref::Kind::List) {
      for (const Ref& item : r.items) use_body_ref(item, loop_var, to);
      return;
    }
    use_ref(r, to);
  }

  const StreamType* type_of(const Def& d, long long index) const {
    if (index < 0) return d.types.empty() ? nullptr : d.types.front();
    if (static_cast<std::size_t>(index) < d.types.size()) return d.types[static_cast<std::size_t>(index)];
    return nullptr;
  }

  void set_type(GraphEdge& e, const Def& d, long long index) {
    if (d.list && index < 0) {
      if (d.types.empty()) return;
      std::string head = "list of " + std::to_string(d.types.size()) + " × ";
      e.type = head + compact_dtype(d.types.front()->dtype);
      e.full_type = head + d.types.front()->dtype.str();
      return;
    }
    if (const StreamType* t = type_of(d, index)) {
      e.type = stream_type_text(*t, true);
      e.full_type = stream_type_text(*t, false);
    }
  }

  void add_unused(const std::string& key, const Def& d, long long index) {
    GraphNode n;
    n.kind = GraphNode::Kind::Unused;
    n.title = "unused";
    n.subtitle = key;
    int node = add(std::move(n));
    GraphEdge e;
    e.from = d.node;
    e.to = node;
    e.stream = key;
    e.violation = true;
    set_type(e, d, index);
    g_.edges.push_back(std::move(e));
  }

  void finish() {
    std::map<std::string, int> count;         // uses per key
    std::map<std::string, int> whole, parts;  // per list: whole-list uses, element uses
    for (const Use& u : uses_) {
      ++count[u.key];
      if (defs_.at(u.base).list) (u.index < 0 ? whole : parts)[u.base]++;
    }
    for (const Use& u : uses_) {
      const Def& d = defs_.at(u.base);
      GraphEdge e;
      e.from = d.node;
      e.to = u.to;
      e.stream = u.key;
      set_type(e, d, u.index);
      e.violation = count[u.key] > 1 || (d.list && whole[u.base] > 0 && parts[u.base] > 0);
      g_.edges.push_back(std::move(e));
    }
    // Dead values: inputs in task order, then program definitions in order.
    std::vector<std::string> names;
    for (const auto& in : task_.inputs) names.push_back(in.name);
    names.insert(names.end(), order_.begin(), order_.end());
    for (const auto& name : names) {
      const Def& d = defs_.at(name);
      if (!d.list) {
        if (!count.count(name)) add_unused(name, d, -1);
        continue;
      }
      if (!whole.count(name) && !parts.count(name)) {
        add_unused(name, d, -1);
      } else if (!whole.count(name)) {
        for (std::size_t i = 0; i < d.types.size(); ++i) {
          std::string key = name + "[" + std::to_string(i) + "]";
          if (!count.count(key)) add_unused(key, d, static_cast<long long>(i));
        }
      }
    }
  }

  const Program& prog_;
  const step::TypedProgram* typed_;
  const step::TaskDoc& task_;
  DataflowGraph g_;
  std::vector<StreamType> input_types_;
  std::map<std::string, Def, std::less<>> defs_;
  std::vector<std::string> order_;
  std::vector<Use> uses_;
};

}  // namespace

std::string GraphEdge::label() const {
  return type.empty() ? stream : stream + ": " + type;
}

int DataflowGraph::violation_count() const {
  int n = 0;
  for (const auto& e : edges) n += e.violation ? 1 : 0;
  return n;
}

int DataflowGraph::node_at_line(int line) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (n.line > 0 && n.line <= line && line <= n.end_line) return static_cast<int>(i);
  }
  return -1;
}

std::string compact_dtype(const step::DType& t) {
  if (t.fields.size() == 1) return compact_scalar(t.fields[0]);
  std::string s = "[";
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    if (i) s += ", ";
    s += compact_scalar(t.fields[i]);
  }
  return s + "]";
}

std::string stream_type_text(const step::StreamType& t, bool compact) {
  return step::dims_str(t.dims) + " of " + (compact ? compact_dtype(t.dtype) : t.dtype.str());
}

DataflowGraph build_dataflow_graph(const step::Program& prog, const step::TypedProgram* typed,
                                   const step::TaskDoc& task) {
  return Builder(prog, typed, task).build();
}

DataflowGraph dataflow_graph_from_impl(const step::TaskDoc& task, std::string_view impl,
                                       const std::vector<Location>& line_starts, Diagnostics* diags) {
  Diagnostics local;
  Diagnostics& ds = diags ? *diags : local;
  step::ParseOptions po;
  po.line_starts = line_starts;
  auto prog = step::parse_impl(impl, po, ds);
  if (!prog) return {};
  step::TaskNames names = step::task_names(task);
  if (!step::check_names(*prog, names, ds, &task.sizes)) return {};
  auto typed = step::typecheck(*prog, task, ds);
  return build_dataflow_graph(*prog, typed ? &*typed : nullptr, task);
}

GraphCostOverlay graph_cost_overlay(const DataflowGraph& g, const cost::CostReport& r) {
  GraphCostOverlay o;
  const std::size_t nn = g.nodes.size();
  o.node_share.assign(nn, -1);
  o.node_utilisation.assign(nn, -1);
  o.node_busy.assign(nn, 0);
  o.edge_tokens.assign(g.edges.size(), -1);
  std::vector<std::vector<const cost::UnitReport*>> units(nn);
  std::vector<const cost::UnitReport*> stores;
  for (const auto& u : r.units)
    if (u.primitive == "Store") stores.push_back(&u);
  std::size_t out_k = 0;
  for (std::size_t n = 0; n < nn; ++n) {
    const GraphNode& node = g.nodes[n];
    switch (node.kind) {
      case GraphNode::Kind::Input:
        for (const auto& u : r.units)
          if (u.primitive == "Load" && u.name == node.title) units[n].push_back(&u);
        break;
      case GraphNode::Kind::Primitive:
        for (const auto& u : r.units)
          if (u.primitive != "Load" && u.primitive != "Store" && u.line >= node.line &&
              u.line <= std::max(node.line, node.end_line))
            units[n].push_back(&u);
        break;
      case GraphNode::Kind::Output:
        if (out_k < stores.size()) units[n].push_back(stores[out_k]);
        ++out_k;
        break;
      case GraphNode::Kind::Unused: break;
    }
  }
  std::int64_t total = 0;
  for (const auto& u : r.units) total += u.busy;
  for (std::size_t n = 0; n < nn; ++n) {
    if (units[n].empty()) continue;
    for (const auto* u : units[n]) o.node_busy[n] += u->busy;
    o.node_share[n] = total > 0 ? static_cast<double>(o.node_busy[n]) / static_cast<double>(total) : 0.0;
    o.max_share = std::max(o.max_share, o.node_share[n]);
    o.node_utilisation[n] =
        r.cycles > 0 ? std::min(1.0, static_cast<double>(o.node_busy[n]) /
                                         (static_cast<double>(r.cycles) * static_cast<double>(units[n].size())))
                     : 0.0;
  }
  std::vector<int> in_edges(nn, 0), out_edges(nn, 0);
  for (const auto& e : g.edges) {
    if (e.from < 0 || e.to < 0) continue;
    ++out_edges[static_cast<std::size_t>(e.from)];
    ++in_edges[static_cast<std::size_t>(e.to)];
  }
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    if (e.from < 0 || e.to < 0) continue;
    const auto f = static_cast<std::size_t>(e.from), t = static_cast<std::size_t>(e.to);
    if (g.nodes[t].kind == GraphNode::Kind::Unused) continue;
    const auto& cu = units[t];
    const auto& pu = units[f];
    if (cu.size() == 1 && in_edges[t] == 1) {
      o.edge_tokens[i] = cu[0]->tokens_in;  // the consumer's only input
    } else if (pu.size() == 1 && !step::is_prim(pu[0]->primitive, step::Prim::Partition) &&
               out_edges[f] > 0) {
      o.edge_tokens[i] = pu[0]->tokens_out / out_edges[f];  // every output gets every token (Copy)
    } else if (cu.size() == 1 && step::is_prim(cu[0]->primitive, step::Prim::Zip) && in_edges[t] > 0) {
      o.edge_tokens[i] = cu[0]->tokens_in / in_edges[t];  // one token of every input per step
    }
  }
  return o;
}

}  // namespace sf::inspect
