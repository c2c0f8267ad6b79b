// The task document walker (step-dialect §4, §10.1, §11.2, §15.9): every section of a task document read from
// its located tree with the value rules and their diagnostics (document_tree.hpp).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/step/document_tree.hpp"
#include "core/step/lexer.hpp"  // is_reserved_word
#include "core/step/primitives.hpp"

namespace sf::step::detail {
namespace {

struct NameUse {
  std::string name, kind;
  Location loc;
};

class TaskWalker : public Walker {
 public:
  using Walker::Walker;
  TaskDoc doc;
  std::vector<NameUse> names;
  bool sizes_ok = false;

  void dims_of(const YNode& n, const std::string& where, Dims& out, const YNode* key) {
    if (n.kind != YNode::Kind::Seq) {
      error("D-TYPE", "dims of " + where + " must be a list of dims, not a " + kind_name(n), vloc(n, key));
      return;
    }
    if (n.items.empty()) {
      error("D-VALUE", "dims of " + where + " must list at least one dim", vloc(n, key));
      return;
    }
    for (const YNode& d : n.items) {
      if (d.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "a dim of " + where + " must be a dim expression, not a " + kind_name(d), loc_of(d.mark));
        continue;
      }
      std::string err;
      auto dim = parse_dim(d.value, err);
      if (!dim) {
        error("D-DIM", "bad dim '" + d.value + "' in " + where + ": " + err, loc_of(d.mark));
        continue;
      }
      check_bound(*dim, where, loc_of(d.mark));
      out.push_back(*dim);
    }
  }

  void check_bound(const Dim& d, const std::string& where, Location l) {
    if (!sizes_ok) return;
    for (const auto& [sym, e] : d.exponents())
      if (!doc.sizes.count(sym))
        error("D-UNBOUND", "size symbol '" + sym + "' used in " + where + " is not bound in sizes", l);
  }

  std::optional<DType> dtype_of(const YNode& n, const std::string& where, const YNode* key) {
    std::string err;
    auto one = [&](const YNode& s) -> std::optional<DType> {
      if (s.kind != YNode::Kind::Scalar) {
        error("D-TYPE", "dtype of " + where + " must be a string or a list of strings, not a " + kind_name(s),
              vloc(s, key));
        return std::nullopt;
      }
      auto t = parse_dtype(s.value, err);
      if (!t) {
        error("D-DTYPE", "bad dtype '" + s.value + "' in " + where + ": " + err, loc_of(s.mark));
        return std::nullopt;
      }
      for (const auto& f : t->fields) {
        check_bound(f.lanes, where, loc_of(s.mark));
        for (const auto& b : f.buffer) check_bound(b, where, loc_of(s.mark));
      }
      return t;
    };
    if (n.kind != YNode::Kind::Seq) return one(n);
    DType out;
    for (const YNode& item : n.items) {
      auto t = one(item);
      if (!t) return std::nullopt;
      if (t->is_tuple()) {
        error("D-DTYPE", "tuples do not nest: each entry of the dtype of " + where + " must be one type",
              loc_of(item.mark));
        return std::nullopt;
      }
      out = concat(out, *t);
    }
    if (out.fields.size() < 2) {
      error("D-DTYPE", "a tuple dtype of " + where + " needs at least 2 fields", loc_of(n.mark));
      return std::nullopt;
    }
    return out;
  }

  std::optional<DataGen> data_gen_of(const YNode& n, const std::string& where, const YNode* key) {
    static const std::vector<std::string> gens{"rand", "randn", "ones", "binary", "multihot"};
    if (n.kind != YNode::Kind::Scalar) {
      error("D-TYPE", "data_gen of " + where + " must be a string, not a " + kind_name(n), vloc(n, key));
      return std::nullopt;
    }
    for (std::size_t i = 0; i < gens.size(); ++i)
      if (n.value == gens[i]) return static_cast<DataGen>(i);
    std::string hint = did_you_mean(n.value, gens);
    error("D-VALUE",
          "unknown data_gen '" + n.value + "' in " + where +
              (hint.empty() ? " (one of rand, randn, ones, binary, multihot)" : "; did you mean '" + hint + "'?"),
          loc_of(n.mark));
    return std::nullopt;
  }

  void name_of(const Fields& f, const std::string& where, const std::string& kind, std::string& out, Location& loc,
               bool identifier_underscore) {
    auto s = str(f, "name", where);
    if (!s) return;
    out = *s;
    loc = loc_of(f.get("name")->mark);
    if (!is_identifier(out, identifier_underscore)) {
      error("D-NAME",
            kind + " name '" + out + "' must match " +
                (identifier_underscore ? "[A-Za-z_][A-Za-z0-9_]*" : "[A-Za-z][A-Za-z0-9_]*"),
            loc);
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
      const YNode& v = n.items[i + 1];
      if (k.kind != YNode::Kind::Scalar || !is_size_symbol_name(k.value)) {
        error("D-NAME", "size symbol '" + k.value + "' must match [A-Z][A-Za-z0-9]*", loc_of(k.mark));
        ok = false;
        continue;
      }
      if (doc.sizes.count(k.value)) {
        error("D-KEY", "duplicate key '" + k.value + "' in sizes", loc_of(k.mark));
        continue;
      }
      auto x = integer(v, "size " + k.value, 1, 2147483647, &k);
      if (!x) {
        ok = false;
        continue;
      }
      if (is_reserved_word(k.value)) {
        error("D-NAME", "size symbol '" + k.value + "' is a reserved word", loc_of(k.mark));
        ok = false;
        continue;
      }
      doc.sizes[k.value] = *x;
      names.push_back({k.value, "size symbol", loc_of(k.mark)});
    }
    sizes_ok = ok;
  }

  void inputs(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "inputs[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dtype", "dims", "data_gen", "min", "max", "scale"},
                      {"name", "dtype", "dims", "data_gen"});
      if (!f) continue;
      InputDecl in;
      in.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "input", in.name, in.loc, false);
      if (!in.name.empty()) where = "input " + in.name;
      std::optional<DType> t;
      if (auto* v = f->get("dtype")) {
        t = dtype_of(*v, where, f->key("dtype"));
        if (t && t->is_tuple()) {
          error("D-DTYPE", "the dtype of " + where + " must not be a tuple (declare one input per field)",
                vloc(*v, f->key("dtype")));
          t.reset();
        }
        if (t) in.dtype = *t;
      }
      if (auto* v = f->get("dims")) dims_of(*v, where, in.dims, f->key("dims"));
      std::optional<DataGen> g;
      if (auto* v = f->get("data_gen")) g = data_gen_of(*v, where, f->key("data_gen"));
      if (g) in.gen = *g;
      if (auto* v = f->get("scale")) {
        if (auto x = number(*v, "scale of " + where, false, f->key("scale"))) in.scale = *x;
      }
      bool mh_type = t && t->scalar().multihot && !t->scalar().is_buffer();
      if (t && g) {
        if (*g == DataGen::Multihot && !mh_type)
          error("D-VALUE", "data_gen multihot needs dtype Multihot(fp32, L), but " + where + " has dtype " + t->str(),
                vloc(*f->get("data_gen"), f->key("data_gen")));
        else if (*g != DataGen::Multihot && t->scalar().multihot)
          error("D-VALUE", where + " has dtype " + t->str() + ", which needs data_gen: multihot",
                vloc(*f->get("data_gen"), f->key("data_gen")));
      }
      for (const char* k : {"min", "max"}) {
        const YNode* v = f->get(k);
        if (g && *g != DataGen::Multihot && v)
          error("D-KEY", std::string("key '") + k + "' in " + where + " applies only to data_gen: multihot",
                loc_of(f->key(k)->mark));
        if (g && *g == DataGen::Multihot && !v)
          error("D-MISSING", std::string("missing required key '") + k + "' in " + where + " (data_gen: multihot)",
                loc_of(list.items[i].mark));
      }
      if (g && *g == DataGen::Multihot && mh_type && f->get("min") && f->get("max")) {
        auto lo = integer(*f->get("min"), "min of " + where, 0, 2147483647, f->key("min"));
        auto hi = integer(*f->get("max"), "max of " + where, 0, 2147483647, f->key("max"));
        if (lo && hi) {
          in.mh_min = static_cast<int>(*lo);
          in.mh_max = static_cast<int>(*hi);
          multihot_range(in, *f);
        }
      }
      doc.inputs.push_back(std::move(in));
    }
  }

  void multihot_range(const InputDecl& in, const Fields& f) {
    if (in.mh_min > in.mh_max) {
      error("D-VALUE", "min " + std::to_string(in.mh_min) + " of input " + in.name + " exceeds max " +
                           std::to_string(in.mh_max),
            loc_of(f.get("min")->mark));
      return;
    }
    pending_multihot.push_back({doc.inputs.size(), loc_of(f.get("max")->mark)});  // `in` is pushed next
  }
  // Multihot inputs (by index in doc.inputs: names may repeat in a bad document) whose max is checked against the
  // lane count once alt_sizes is known.
  std::vector<std::pair<std::size_t, Location>> pending_multihot;

  void check_multihot_lanes() {
    for (const auto& [index, l] : pending_multihot) {
      if (index >= doc.inputs.size() || doc.inputs[index].dtype.fields.size() != 1) continue;
      const InputDecl* in = &doc.inputs[index];
      const std::string& name = in->name;
      for (const auto& [bname, b] : doc.static_bindings()) {
        auto lanes = in->dtype.scalar().lanes.eval(b);
        if (lanes && in->mh_max > *lanes) {
          error("D-VALUE", "max " + std::to_string(in->mh_max) + " of input " + name + " exceeds the lane count " +
                               in->dtype.scalar().lanes.str() + " = " + std::to_string(*lanes),
                l);
          break;
        }
      }
    }
  }

  void parameters(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "parameters[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dims", "data_gen", "scale"}, {"name", "dims", "data_gen"});
      if (!f) continue;
      ParamDecl p;
      p.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "parameter", p.name, p.loc, false);
      if (!p.name.empty()) where = "parameter " + p.name;
      if (auto* v = f->get("dims")) dims_of(*v, where, p.dims, f->key("dims"));
      if (auto* v = f->get("data_gen")) {
        if (auto g = data_gen_of(*v, where, f->key("data_gen"))) {
          if (*g == DataGen::Multihot)
            error("D-VALUE", "parameters are fp32 tensors; data_gen multihot is not allowed for " + where,
                  loc_of(v->mark));
          p.gen = *g;
        }
      }
      if (auto* v = f->get("scale")) {
        if (auto x = number(*v, "scale of " + where, false, f->key("scale"))) p.scale = *x;
      }
      doc.parameters.push_back(std::move(p));
    }
  }

  void fns(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "fns[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"func_name", "name", "input_dtype", "output_dtype", "init", "body"},
                      {"func_name", "name", "input_dtype", "output_dtype", "body"});
      if (!f) continue;
      FnDecl fn;
      fn.loc = loc_of(list.items[i].mark);
      if (auto s = str(*f, "func_name", where)) {
        fn.func_name = *s;
        fn.loc = loc_of(f->get("func_name")->mark);
        if (!is_identifier(*s, true))
          error("D-NAME", "func_name '" + *s + "' must match [A-Za-z_][A-Za-z0-9_]*", fn.loc);
        else if (is_reserved_word(*s))
          error("D-NAME", "func_name '" + *s + "' is a reserved word", fn.loc);
        else
          names.push_back({*s, "fn", fn.loc});
        where = "fn " + *s;
      }
      if (auto s = str(*f, "name", where)) fn.display_name = *s;
      if (auto* v = f->get("input_dtype"))
        if (auto t = dtype_of(*v, where, f->key("input_dtype"))) fn.input = *t;
      bool out_ok = false;
      if (auto* v = f->get("output_dtype"))
        if (auto t = dtype_of(*v, where, f->key("output_dtype"))) fn.output = *t, out_ok = true;
      if (const YNode* v = f->get("init")) {
        std::vector<double> init;
        bool ok = true;
        auto lit = [&](const YNode& x) {
          auto d = number(x, "init value of " + where, true, f->key("init"));
          if (d) init.push_back(*d);
          else ok = false;
        };
        if (v->kind == YNode::Kind::Seq) {
          for (const YNode& x : v->items) lit(x);
        } else {
          lit(*v);
        }
        if (ok && out_ok && init.size() != fn.output.fields.size()) {
          error("D-VALUE", "init of " + where + " has " + std::to_string(init.size()) + " value(s) but output_dtype " +
                               fn.output.str() + " has " + std::to_string(fn.output.fields.size()) + " field(s)",
                vloc(*v, f->key("init")));
        } else if (ok && out_ok) {
          // A Multihot state starts as a selector too: every entry exactly 0 or 1.
          for (std::size_t j = 0; j < init.size(); ++j) {
            if (!fn.output.fields[j].multihot || init[j] == 0.0 || init[j] == 1.0) continue;
            const YNode& at = v->kind == YNode::Kind::Seq ? v->items[j] : *v;
            error("D-VALUE", "init value " + std::to_string(j) + " of " + where + " is for the Multihot field " +
                                 fn.output.fields[j].str() + ", so it must be 0 or 1",
                  vloc(at, f->key("init")));
          }
        }
        fn.init = std::move(init);
      }
      if (auto s = body(*f, "body", where, fn.body_line_starts)) fn.body = *s;
      doc.fns.push_back(std::move(fn));
    }
  }

  void outputs(const YNode& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      std::string where = "outputs[" + std::to_string(i) + "]";
      auto f = fields(list.items[i], where, {"name", "dtype", "dims"}, {"name", "dtype", "dims"});
      if (!f) continue;
      OutputDecl o;
      o.loc = loc_of(list.items[i].mark);
      name_of(*f, where, "output", o.name, o.loc, false);
      if (!o.name.empty()) where = "output " + o.name;
      if (auto* v = f->get("dtype"))
        if (auto t = dtype_of(*v, where, f->key("dtype"))) o.dtype = *t;
      if (auto* v = f->get("dims")) dims_of(*v, where, o.dims, f->key("dims"));
      doc.outputs.push_back(std::move(o));
    }
  }

  void verify(const YNode& n, const YNode* key) {
    auto f = fields(n, "verify", {"seeds", "atol", "rtol", "alt_sizes", "general_sizes"}, {}, key);
    if (!f) return;
    if (const YNode* s = seq(*f, "seeds", "verify")) {
      std::vector<std::uint64_t> seeds;
      for (const YNode& x : s->items) {
        if (x.kind == YNode::Kind::Scalar && !x.value.empty() && x.value.size() <= 20 &&
            std::all_of(x.value.begin(), x.value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          errno = 0;
          unsigned long long v = std::strtoull(x.value.c_str(), nullptr, 10);
          if (errno == 0) {
            seeds.push_back(v);
            continue;
          }
        }
        error("D-TYPE", "a seed must be a non-negative integer, not " + (x.kind == YNode::Kind::Scalar ? "'" + x.value + "'" : "a " + kind_name(x)),
              loc_of(x.mark));
      }
      if (s->items.empty()) error("D-VALUE", "verify.seeds must list at least one seed", loc_of(s->mark));
      doc.verify.seeds = seeds;
    }
    for (const char* k : {"atol", "rtol"}) {
      if (const YNode* v = f->get(k)) {
        auto x = number(*v, std::string("verify.") + k, false, f->key(k));
        if (x && *x < 0) error("D-VALUE", std::string("verify.") + k + " must not be negative", loc_of(v->mark));
        else if (x) (k[0] == 'a' ? doc.verify.atol : doc.verify.rtol) = *x;
      }
    }
    if (const YNode* a = f->get("alt_sizes"))
      if (auto alt = size_binding(*a, f->key("alt_sizes"), doc.sizes, "verify.alt_sizes", "alt size"))
        doc.verify.alt_sizes = alt;
    if (const YNode* a = f->get("general_sizes"))
      if (auto g = size_binding(*a, f->key("general_sizes"), doc.sizes, "verify.general_sizes", "general size"))
        doc.verify.general_sizes = g;
  }

  void meta(const YNode& n, const YNode* key) {
    auto f = fields(n, "meta", {"origin", "copies", "paper_affine", "attr", "needs", "len"}, {}, key);
    if (!f) return;
    doc.meta.present = true;
    if (auto s = str(*f, "origin", "meta")) doc.meta.origin = *s;
    if (auto s = str(*f, "attr", "meta")) {
      if (*s != "C" && *s != "CS") error("D-VALUE", "meta.attr must be C or CS, not '" + *s + "'", loc_of(f->get("attr")->mark));
      doc.meta.attr = *s;
    }
    auto int_field = [&](const char* k, int& out, int lo) {
      if (const YNode* v = f->get(k))
        if (auto x = integer(*v, std::string("meta.") + k, lo, 1000000, f->key(k))) out = static_cast<int>(*x);
    };
    int_field("copies", doc.meta.copies, 0);
    int_field("paper_affine", doc.meta.paper_affine, 0);
    int_field("len", doc.meta.len, 1);
    if (const YNode* v = f->get("needs")) {
      if (v->kind != YNode::Kind::Map) {
        error("D-TYPE", "meta.needs must be a mapping of primitive names to counts, not a " + kind_name(*v),
              vloc(*v, f->key("needs")));
        return;
      }
      static const std::vector<std::string> prims = [] {
        std::vector<std::string> names;
        for (const auto& e : primitives()) names.emplace_back(e.name);
        return names;
      }();
      for (std::size_t i = 0; i + 1 < v->items.size(); i += 2) {
        const YNode& k = v->items[i];
        if (k.kind != YNode::Kind::Scalar || std::find(prims.begin(), prims.end(), k.value) == prims.end()) {
          std::string hint = did_you_mean(k.value, prims);
          error("D-KEY", "unknown key '" + k.value + "' in meta.needs: not a primitive" +
                             (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                loc_of(k.mark));
          continue;
        }
        if (doc.meta.needs.count(k.value)) {
          error("D-KEY", "duplicate key '" + k.value + "' in meta.needs", loc_of(k.mark));
          continue;
        }
        if (auto x = integer(v->items[i + 1], "meta.needs." + k.value, 1, 1000000, &k))
          doc.meta.needs[k.value] = static_cast<int>(*x);
      }
    }
  }

  void check_namespace() {
    std::stable_sort(names.begin(), names.end(), [](const NameUse& a, const NameUse& b) {
      return std::pair(a.loc.line, a.loc.column) < std::pair(b.loc.line, b.loc.column);
    });
    std::map<std::string, const NameUse*, std::less<>> seen;
    for (const NameUse& u : names) {
      auto it = seen.find(u.name);
      const NameUse* prev = it != seen.end() ? it->second : nullptr;
      if (!prev && u.name.size() > 6 && u.name.ends_with("_value")) {
        auto s = seen.find(std::string_view(u.name).substr(0, u.name.size() - 6));
        if (s != seen.end() && s->second->kind == "size symbol") prev = s->second;
      }
      if (!prev && u.kind == "size symbol") {
        auto s = seen.find(u.name + "_value");
        if (s != seen.end()) prev = s->second;
      }
      if (prev) {
        error("D-DUP",
              u.kind + " name '" + u.name + "' clashes with " + prev->kind + " '" + prev->name + "' (line " +
                  std::to_string(prev->loc.line) + "): inputs, parameters, fns, outputs and sizes share one namespace",
              u.loc);
        continue;
      }
      seen[u.name] = &u;
    }
  }
};


}  // namespace

std::string cut_keys(const Text& t, const YNode& root, const std::set<std::string>& drop);

std::optional<TaskDoc> walk_task(const Text& t, const YNode& root, std::string path, Diagnostics& diags) {
  // The dialect decides the walker (the one place a document's dialect is read).
  if (root.kind == YNode::Kind::Map)
    for (std::size_t i = 0; i + 1 < root.items.size(); i += 2)
      if (root.items[i].value == "dialect" && root.items[i + 1].kind == YNode::Kind::Scalar &&
          root.items[i + 1].value == "step-v2")
        return walk_task_v2(t, root, std::move(path), diags);
      else if (root.items[i].value == "dialect" && root.items[i + 1].kind == YNode::Kind::Scalar &&
               root.items[i + 1].value != "step-v1") {
        // Neither walker can read a document of another dialect: that is the one diagnostic.
        diags.push_back(make_error("D-DIALECT",
                                   "unsupported dialect '" + root.items[i + 1].value + "' (expected step-v1 or step-v2)",
                                   loc_of(root.items[i + 1].mark)));
        return std::nullopt;
      }
  TaskWalker w(t, diags);
  w.doc.path = std::move(path);
  if (root.kind == YNode::Kind::Null) {
    w.error("D-MISSING", "the document is empty: missing required key 'dialect' (expected a task document)", {1, 1});
    return std::nullopt;
  }
  static const std::vector<std::string> keys{"dialect", "id", "group", "title", "description", "sizes",
                                             "perf_sizes", "inputs", "parameters", "fns", "outputs",
                                             "reference", "verify", "meta", "impl"};
  auto f = w.fields(root, "the task document", keys,
                    {"dialect", "id", "group", "title", "description", "sizes", "inputs", "outputs", "reference"});
  if (!f) return std::nullopt;
  if (auto s = w.str(*f, "dialect", "the task document")) {
    w.doc.dialect = *s;
    if (*s != "step-v1")
      w.error("D-DIALECT", "unsupported dialect '" + *s + "' (expected step-v1 or step-v2)", loc_of(f->get("dialect")->mark));
  }
  for (auto [k, out] : {std::pair<const char*, std::string*>{"id", &w.doc.id}, {"group", &w.doc.group},
                        {"title", &w.doc.title}, {"description", &w.doc.description}})
    if (auto s = w.str(*f, k, "the task document")) *out = *s;
  if (f->get("id") && f->get("group") && !w.doc.id.empty()) {
    auto slash = w.doc.id.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == w.doc.id.size() ||
        w.doc.id.find('/', slash + 1) != std::string::npos || w.doc.id.substr(0, slash) != w.doc.group)
      w.error("D-VALUE", "id '" + w.doc.id + "' must have the form " + w.doc.group + "/<name> (group/name)",
              loc_of(f->get("id")->mark));
  }
  if (const YNode* v = f->get("sizes")) w.sizes(*v, f->key("sizes"));
  if (const YNode* v = f->get("perf_sizes"))
    if (auto p = w.size_binding(*v, f->key("perf_sizes"), w.doc.sizes, "perf_sizes", "perf size")) w.doc.perf_sizes = p;
  if (const YNode* v = w.seq(*f, "inputs", "the task document")) w.inputs(*v);
  if (const YNode* v = w.seq(*f, "parameters", "the task document")) w.parameters(*v);
  if (const YNode* v = w.seq(*f, "fns", "the task document")) w.fns(*v);
  if (const YNode* v = w.seq(*f, "outputs", "the task document")) {
    w.outputs(*v);
    if (v->items.empty()) w.error("D-VALUE", "a task needs at least one output", loc_of(v->mark));
  }
  if (const YNode* v = f->get("inputs"); v && v->kind == YNode::Kind::Seq && v->items.empty())
    w.error("D-VALUE", "a task needs at least one input", loc_of(v->mark));
  if (auto s = w.body(*f, "reference", "the task document", w.doc.reference_line_starts)) w.doc.reference = *s;
  if (const YNode* v = f->get("verify")) w.verify(*v, f->key("verify"));
  if (const YNode* v = f->get("meta")) w.meta(*v, f->key("meta"));
  if (f->get("impl")) {
    if (auto s = w.body(*f, "impl", "the task document", w.doc.impl_line_starts, &w.doc.impl_loc)) w.doc.impl = *s;
  }
  w.check_namespace();
  w.check_multihot_lanes();
  if (w.failed) return std::nullopt;
  w.doc.raw_text_without_impl = cut_keys(t, root, {"impl", "meta", "verify"});
  return std::move(w.doc);
}

// The document text without the given top-level keys (each key runs to the line before the next key).
std::string cut_keys(const Text& t, const YNode& root, const std::set<std::string>& drop) {
  if (root.flow) {
    // A flow-style root mapping: re-emit the kept entries one per line.
    std::string out;
    for (std::size_t i = 0; i + 1 < root.items.size(); i += 2) {
      if (drop.count(root.items[i].value)) continue;
      std::size_t b = t.offset(root.items[i].mark.line, root.items[i].mark.column);
      std::size_t e = i + 2 < root.items.size() ? t.offset(root.items[i + 2].mark.line, root.items[i + 2].mark.column)
                                                : t.s.size();
      std::string part(t.s.substr(b, e - b));
      while (!part.empty() && (part.back() == ',' || part.back() == '}' || std::isspace(static_cast<unsigned char>(part.back()))))
        part.pop_back();
      out += part + "\n";
    }
    return out;
  }
  std::vector<std::pair<int, bool>> starts;  // (line0, dropped)
  for (std::size_t i = 0; i + 1 < root.items.size(); i += 2)
    starts.emplace_back(root.items[i].mark.line, drop.count(root.items[i].value) > 0);
  std::string out;
  std::size_t first = starts.empty() ? t.line_off.size() : static_cast<std::size_t>(starts.front().first);
  out += std::string(t.s.substr(0, t.offset(static_cast<int>(first), 0)));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (starts[i].second) continue;
    std::size_t b = t.offset(starts[i].first, 0);
    std::size_t e = i + 1 < starts.size() ? t.offset(starts[i + 1].first, 0) : t.s.size();
    out += std::string(t.s.substr(b, e - b));
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}


}  // namespace sf::step::detail
