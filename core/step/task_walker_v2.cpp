// The step-v2 task document walker (docs/step25.md, "Task documents"): the same located tree, Walker and D-*
// codes as step-v1 (document_tree.hpp), with the v2 keys: tensors with outermost-first `shape` and a
// `data_gen` string or one-key map, `chip`, `baseline`, `verify.input_sets`. A v1 key in a v2 document
// (dims, dtype, parameters, fns, perf_sizes, general_sizes) gives D-KEY naming what v2 uses instead.
#include <map>
#include <set>

#include "core/step/document_tree.hpp"
#include "core/step/lexer.hpp"  // is_reserved_word

namespace sf::step::detail {
namespace {

// v1 keys and what a v2 document says instead.
const std::map<std::string, std::string, std::less<>>& v1_key_hints() {
  static const std::map<std::string, std::string, std::less<>> m{
      {"dims", "use `shape: [...]` (outermost-first) in step-v2"},
      {"dtype", "step-v2 tensors are fp32: remove `dtype`"},
      {"parameters", "in step-v2 weights are off-chip tensors: list them under `inputs` (with `shape`)"},
      {"fns", "step-v2 has a fixed tile-function library (the `fn=` kwarg): remove `fns`"},
      {"perf_sizes", "in step-v2 `sizes` is the measured binding: remove `perf_sizes`"},
      {"general_sizes", "step-v2 verifies under `sizes` and `verify.alt_sizes` only"},
      {"min", "data_gen multihot is phase 2 of step-v2"},
      {"max", "data_gen multihot is phase 2 of step-v2"},
  };
  return m;
}

class V2Walker : public Walker {
 public:
  using Walker::Walker;
  TaskDoc doc;
  struct NameUse {
    std::string name, kind;
    Location loc;
  };
  std::vector<NameUse> names;
  bool sizes_ok = false;

  // Fields with the v1 keys reported first as D-KEY naming the v2 key (they are then left out).
  std::optional<Fields> fields2(const YNode& n, const std::string& where, std::vector<std::string> allowed,
                                std::vector<std::string> required, const YNode* key = nullptr) {
    if (n.kind == YNode::Kind::Map) {
      YNode copy;
      copy.kind = n.kind;
      copy.mark = n.mark;
      copy.flow = n.flow;
      bool dropped = false;
      for (std::size_t i = 0; i + 1 < n.items.size(); i += 2) {
        const YNode& k = n.items[i];
        auto it = k.kind == YNode::Kind::Scalar ? v1_key_hints().find(k.value) : v1_key_hints().end();
        if (it != v1_key_hints().end() &&
            std::find(allowed.begin(), allowed.end(), k.value) == allowed.end()) {
          error("D-KEY", "key '" + k.value + "' in " + where + " is a step-v1 key: " + it->second, loc_of(k.mark));
          dropped = true;
          if (k.value == "dims") std::erase(required, std::string("shape"));
          continue;
        }
        copy.items.push_back(k);
        copy.items.push_back(n.items[i + 1]);
      }
      if (dropped) {
        // `fields` keeps pointers into the node: keep the filtered copy alive with the walker.
        kept_.push_back(std::make_unique<YNode>(std::move(copy)));
        return fields(*kept_.back(), where, allowed, required, key);
      }
    }
    return fields(n, where, allowed, required, key);
  }

  void check_bound(const Dim& d, const std::string& where, Location l) {
    if (!sizes_ok) return;
    for (const auto& [sym, e] : d.exponents())
      if (!doc.sizes.count(sym))
        error("D-UNBOUND", "size symbol '" + sym + "' used in " + where + " is not bound in sizes", l);
  }

  std::optional<Dim> dim_of(const YNode& d, const std::string& where) {
    if (d.kind != YNode::Kind::Scalar) {
      error("D-TYPE", "a dim of " + where + " must be a dim expression, not a " + kind_name(d), loc_of(d.mark));
      return std::nullopt;
    }
    std::string err;
    auto dim = parse_dim(d.value, err);
    if (!dim) {
      error("D-DIM", "bad dim '" + d.value + "' in " + where + ": " + err, loc_of(d.mark));
      return std::nullopt;
    }
    check_bound(*dim, where, loc_of(d.mark));
    return dim;
  }

  void shape_of(const YNode& n, const std::string& where, Dims& out, const YNode* key) {
    if (n.kind != YNode::Kind::Seq) {
      error("D-TYPE", "shape of " + where + " must be a list of dims (outermost-first), not a " + kind_name(n),
            vloc(n, key));
      return;
    }
    if (n.items.empty()) {
      error("D-VALUE", "shape of " + where + " must list at least one dim", vloc(n, key));
      return;
    }
    if (n.items.size() > 8) {
      error("D-VALUE", "shape of " + where + " has " + std::to_string(n.items.size()) +
                           " dims; a step-v2 tensor has at most 8", vloc(n, key));
      return;
    }
    for (const YNode& d : n.items)
      if (auto dim = dim_of(d, where)) out.push_back(*dim);
  }

  void name_of(const Fields& f, const std::string& where, const std::string& kind, std::string& out, Location& loc) {
    auto s = str(f, "name", where);
    if (!s) return;
    out = *s;
    loc = loc_of(f.get("name")->mark);
    if (!is_identifier(out, false)) {
      error("D-NAME", kind + " name '" + out + "' must match [A-Za-z][A-Za-z0-9_]*", loc);
      return;
    }
    if (is_reserved_word(out)) {
      error("D-NAME", kind + " name '" + out + "' is a reserved word", loc);
      return;
    }
    names.push_back({out, kind, loc});
  }

  void sizes(const YNode& n, const YNode* key) {
    if (n.kind != YNode::Kind::Map) {
      error("D-TYPE", "sizes must be a mapping of size symbols to positive integers, not a " + kind_name(n),
            vloc(n, key));
      return;
    }
    bool ok = true;
    for (std::size_t i = 0; i + 1 < n.items.size(); i += 2) {
      const YNode& k = n.items[i];
      if (k.kind != YNode::Kind::Scalar || !is_size_symbol_name(k.value) || is_reserved_word(k.value)) {
        error("D-NAME", "size symbol '" + k.value + "' must match [A-Z][A-Za-z0-9]* and not be a reserved word",
              loc_of(k.mark));
        ok = false;
        continue;
      }
      if (doc.sizes.count(k.value)) {
        error("D-KEY", "duplicate key '" + k.value + "' in sizes", loc_of(k.mark));
        continue;
      }
      auto x = integer(n.items[i + 1], "size " + k.value, 1, 2147483647, &k);
      if (!x) {
        ok = false;
        continue;
      }
      doc.sizes[k.value] = *x;
      names.push_back({k.value, "size symbol", loc_of(k.mark)});
    }
    sizes_ok = ok;
  }

  void data_gen(const YNode& n, const std::string& where, TensorDecl& t, const YNode* key) {
    if (n.kind == YNode::Kind::Scalar) {
      if (n.value == "randn") t.gen = TensorDecl::Gen::Randn;
      else if (n.value == "rand") t.gen = TensorDecl::Gen::Rand;
      else {
        std::string hint = did_you_mean(n.value, {"randn", "rand"});
        error("D-VALUE", "unknown data_gen '" + n.value + "' in " + where +
                             (hint.empty() ? " (randn, rand, {uniform_fan_in: DIM} or {full: X})"
                                           : "; did you mean '" + hint + "'?"),
              loc_of(n.mark));
      }
      return;
    }
    if (n.kind != YNode::Kind::Map || n.items.size() != 2 || n.items[0].kind != YNode::Kind::Scalar) {
      error("D-TYPE", "data_gen of " + where + " must be randn, rand, {uniform_fan_in: DIM} or {full: X}, not a " +
                          kind_name(n), vloc(n, key));
      return;
    }
    const YNode& k = n.items[0];
    const YNode& v = n.items[1];
    if (k.value == "uniform_fan_in") {
      t.gen = TensorDecl::Gen::UniformFanIn;
      if (auto d = dim_of(v, "data_gen uniform_fan_in of " + where)) t.fan_in = *d;
    } else if (k.value == "full") {
      t.gen = TensorDecl::Gen::Full;
      if (auto x = number(v, "data_gen full of " + where, false)) t.full = *x;
    } else {
      std::string hint = did_you_mean(k.value, {"uniform_fan_in", "full"});
      error("D-KEY", "unknown data_gen '" + k.value + "' in " + where +
                         (hint.empty() ? " (uniform_fan_in or full)" : "; did you mean '" + hint + "'?"),
            loc_of(k.mark));
    }
  }

  void tensors(const YNode& list, bool outputs) {
    const std::string kind = outputs ? "output" : "input";
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = kind + "s[" + std::to_string(i) + "]";
      auto f = outputs ? fields2(list.items[i], where, {"name", "shape"}, {"name", "shape"})
                       : fields2(list.items[i], where, {"name", "shape", "data_gen", "scale"},
                                 {"name", "shape", "data_gen"});
      if (!f) continue;
      TensorDecl t;
      t.loc = loc_of(list.items[i].mark);
      name_of(*f, where, kind, t.name, t.loc);
      if (!t.name.empty()) where = kind + " " + t.name;
      if (auto* v = f->get("shape")) shape_of(*v, where, t.shape, f->key("shape"));
      if (auto* v = f->get("data_gen")) data_gen(*v, where, t, f->key("data_gen"));
      if (auto* v = f->get("scale"))
        if (auto x = number(*v, "scale of " + where, false, f->key("scale"))) t.scale = *x;
      (outputs ? doc.tensor_outputs : doc.tensor_inputs).push_back(std::move(t));
    }
  }

  void verify(const YNode& n, const YNode* key) {
    doc.verify.atol = doc.verify.rtol = 1e-3;
    auto f = fields2(n, "verify", {"seeds", "atol", "rtol", "alt_sizes", "input_sets"}, {}, key);
    if (!f) return;
    if (const YNode* s = seq(*f, "seeds", "verify")) {
      std::vector<std::uint64_t> seeds;
      for (const YNode& x : s->items)
        if (auto v = integer(x, "a seed", 0, 4294967295LL)) seeds.push_back(static_cast<std::uint64_t>(*v));
      if (s->items.empty()) error("D-VALUE", "verify.seeds must list at least one seed", loc_of(s->mark));
      if (s->items.size() > 64) error("D-VALUE", "verify.seeds lists more than 64 seeds", loc_of(s->mark));
      doc.verify.seeds = seeds;
    }
    for (const char* k : {"atol", "rtol"})
      if (const YNode* v = f->get(k)) {
        auto x = number(*v, std::string("verify.") + k, false, f->key(k));
        if (x && *x < 0) error("D-VALUE", std::string("verify.") + k + " must not be negative", loc_of(v->mark));
        else if (x) (k[0] == 'a' ? doc.verify.atol : doc.verify.rtol) = *x;
      }
    if (const YNode* a = f->get("alt_sizes"))
      if (auto alt = size_binding(*a, f->key("alt_sizes"), doc.sizes, "verify.alt_sizes", "alt size")) doc.verify.alt_sizes = alt;
    if (const YNode* l = seq(*f, "input_sets", "verify")) {
      if (l->items.size() > 16) error("D-VALUE", "verify.input_sets lists more than 16 sets", loc_of(l->mark));
      for (std::size_t i = 0; i < l->items.size() && i < 16; ++i) {
        const YNode& m = l->items[i];
        std::string where = "verify.input_sets[" + std::to_string(i) + "]";
        if (m.kind != YNode::Kind::Map) {
          error("D-TYPE", where + " must be a mapping of input names to scales, not a " + kind_name(m), loc_of(m.mark));
          continue;
        }
        std::map<std::string, double, std::less<>> set;
        for (std::size_t j = 0; j + 1 < m.items.size(); j += 2) {
          const YNode& k = m.items[j];
          bool known = std::any_of(doc.tensor_inputs.begin(), doc.tensor_inputs.end(),
                                   [&](const TensorDecl& t) { return t.name == k.value; });
          if (k.kind != YNode::Kind::Scalar || !known) {
            error("D-KEY", "unknown key '" + k.value + "' in " + where + ": not an input of the task", loc_of(k.mark));
            continue;
          }
          if (set.count(k.value)) {
            error("D-KEY", "duplicate key '" + k.value + "' in " + where, loc_of(k.mark));
            continue;
          }
          if (auto x = number(m.items[j + 1], "scale of " + k.value + " in " + where, false, &k)) set[k.value] = *x;
        }
        doc.verify.input_sets.push_back(std::move(set));
      }
    }
  }

  void meta(const YNode& n, const YNode* key) {
    if (n.kind != YNode::Kind::Map) {
      error("D-TYPE", "meta must be a mapping, not a " + kind_name(n), vloc(n, key));
      return;
    }
    doc.meta.present = true;
    for (std::size_t i = 0; i + 1 < n.items.size(); i += 2) {
      const YNode& k = n.items[i];
      const YNode& v = n.items[i + 1];
      if (k.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "keys in meta must be plain strings, not a " + kind_name(k), loc_of(k.mark));
        continue;
      }
      if (doc.meta_v2.count(k.value)) {
        error("D-KEY", "duplicate key '" + k.value + "' in meta", loc_of(k.mark));
        continue;
      }
      doc.meta_v2[k.value] = v.kind == YNode::Kind::Scalar ? v.value : "";
      if (k.value == "origin") doc.meta.origin = v.value;
    }
  }

  void check_namespace() {
    std::map<std::string, const NameUse*, std::less<>> seen;
    for (const NameUse& u : names) {
      auto [it, fresh] = seen.emplace(u.name, &u);
      if (!fresh)
        error("D-DUP", u.kind + " name '" + u.name + "' clashes with " + it->second->kind + " '" + u.name +
                           "' (line " + std::to_string(it->second->loc.line) +
                           "): inputs, outputs and sizes share one namespace",
              u.loc);
    }
  }

 private:
  std::vector<std::unique_ptr<YNode>> kept_;
};

}  // namespace

std::string cut_keys(const Text& t, const YNode& root, const std::set<std::string>& drop);

std::optional<TaskDoc> walk_task_v2(const Text& t, const YNode& root, std::string path, Diagnostics& diags) {
  V2Walker w(t, diags);
  w.doc.path = std::move(path);
  w.doc.chip = "accelopt-step";
  w.doc.verify.atol = w.doc.verify.rtol = 1e-3;
  static const std::vector<std::string> keys{"dialect", "id",     "group",  "title",    "description",
                                             "sizes",   "inputs", "outputs", "reference", "verify",
                                             "chip",    "baseline", "meta",  "impl"};
  auto f = w.fields2(root, "the task document", keys,
                     {"dialect", "id", "title", "description", "sizes", "inputs", "outputs", "reference"});
  if (!f) return std::nullopt;
  if (auto s = w.str(*f, "dialect", "the task document")) w.doc.dialect = *s;
  for (auto [k, out] : {std::pair<const char*, std::string*>{"id", &w.doc.id}, {"group", &w.doc.group},
                        {"title", &w.doc.title}, {"description", &w.doc.description}, {"chip", &w.doc.chip},
                        {"baseline", &w.doc.baseline}})
    if (auto s = w.str(*f, k, "the task document")) *out = *s;
  if (!w.doc.id.empty()) {
    auto slash = w.doc.id.find('/');
    std::string group = slash == std::string::npos ? "" : w.doc.id.substr(0, slash);
    if (slash == std::string::npos || slash == 0 || slash + 1 == w.doc.id.size() ||
        w.doc.id.find('/', slash + 1) != std::string::npos || (f->get("group") && group != w.doc.group))
      w.error("D-VALUE", "id '" + w.doc.id + "' must have the form <group>/<name>" +
                             (f->get("group") ? " with group " + w.doc.group : ""),
              loc_of(f->get("id")->mark));
    else if (!f->get("group"))
      w.doc.group = group;
  }
  if (const YNode* v = f->get("sizes")) w.sizes(*v, f->key("sizes"));
  if (const YNode* v = w.seq(*f, "inputs", "the task document")) {
    if (v->items.empty()) w.error("D-VALUE", "a task needs at least one input", loc_of(v->mark));
    w.tensors(*v, false);
  }
  if (const YNode* v = w.seq(*f, "outputs", "the task document")) {
    if (v->items.empty()) w.error("D-VALUE", "a task needs at least one output", loc_of(v->mark));
    w.tensors(*v, true);
  }
  if (auto s = w.body(*f, "reference", "the task document", w.doc.reference_line_starts)) w.doc.reference = *s;
  if (const YNode* v = f->get("verify")) w.verify(*v, f->key("verify"));
  if (const YNode* v = f->get("meta")) w.meta(*v, f->key("meta"));
  if (f->get("impl"))
    if (auto s = w.body(*f, "impl", "the task document", w.doc.impl_line_starts, &w.doc.impl_loc)) w.doc.impl = *s;
  w.check_namespace();
  if (w.failed) return std::nullopt;
  w.doc.raw_text_without_impl = cut_keys(t, root, {"impl", "meta", "verify", "baseline"});
  return std::move(w.doc);
}

}  // namespace sf::step::detail
