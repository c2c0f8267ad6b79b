// Task document loader (step-dialect §4, §10.1, §11.2, §15.9). Three phases:
//  1. raw checks before any YAML parsing: size (D-SIZE), UTF-8 (D-UTF8);
//  2. yaml-cpp's event parser builds a small located tree; anchors/aliases (D-ALIAS), nesting (D-DEPTH) and
//     syntax errors (D-YAML) abort it at the offending token, so no alias is ever expanded;
//  3. the tree is walked with located diagnostics (D-KEY, D-MISSING, D-TYPE and the value rules).
// Phases 1-2 and the generic walker are in document_tree.{hpp,cpp}, the task document's sections in
// task_walker.cpp; this file has the solution and mutant files and the public entry points.
#include <fstream>
#include <sstream>

#include "core/step/document_tree.hpp"
#include "core/step/task.hpp"

namespace sf::step {
namespace {

using detail::Walker;
using detail::loc_of;
using detail::parse_yaml;
using detail::Text;
using detail::walk_task;
using detail::YNode;

// ------------------------------------------------------------------------------------ solutions, mutants
std::optional<SolutionDoc> walk_solution(const Text& t, const YNode& root, Diagnostics& diags) {
  Walker w(t, diags);
  auto f = w.fields(root, "the solution file", {"task", "impl"}, {"task", "impl"});
  if (!f) return std::nullopt;
  SolutionDoc s;
  if (auto id = w.str(*f, "task", "the solution file")) s.task_id = *id;
  if (auto b = w.body(*f, "impl", "the solution file", s.impl_line_starts, &s.loc)) s.impl = *b;
  if (w.failed) return std::nullopt;
  return s;
}

std::optional<MutantFile> walk_mutants(const Text& t, const YNode& root, Diagnostics& diags) {
  Walker w(t, diags);
  auto f = w.fields(root, "the mutant file", {"task", "mutants"}, {"task", "mutants"});
  if (!f) return std::nullopt;
  MutantFile mf;
  if (auto id = w.str(*f, "task", "the mutant file")) mf.task_id = *id;
  if (const YNode* list = w.seq(*f, "mutants", "the mutant file")) {
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      std::string where = "mutants[" + std::to_string(i) + "]";
      auto mfields = w.fields(list->items[i], where, {"name", "what", "stage", "code", "impl"},
                              {"name", "stage", "code", "impl"});
      if (!mfields) continue;
      MutantDoc m;
      m.loc = loc_of(list->items[i].mark);
      if (auto s = w.str(*mfields, "name", where)) m.name = *s;
      if (auto s = w.str(*mfields, "what", where)) m.what = *s;
      if (auto s = w.str(*mfields, "stage", where)) {
        Stage st;
        if (!parse_stage(*s, st)) w.error("D-VALUE", "unknown stage '" + *s + "' in " + where, loc_of(mfields->get("stage")->mark));
        m.stage = *s;
      }
      if (auto s = w.str(*mfields, "code", where)) m.code = *s;
      if (auto b = w.body(*mfields, "impl", where, m.impl_line_starts)) m.impl = *b;
      mf.mutants.push_back(std::move(m));
    }
  }
  if (w.failed) return std::nullopt;
  return mf;
}


}  // namespace


// ------------------------------------------------------------------------------------------- public API
std::string_view data_gen_name(DataGen g) {
  switch (g) {
    case DataGen::Rand: return "rand";
    case DataGen::Randn: return "randn";
    case DataGen::Ones: return "ones";
    case DataGen::Binary: return "binary";
    case DataGen::Multihot: return "multihot";
  }
  return "rand";
}

const FnDecl* TaskDoc::find_fn(std::string_view func_name) const {
  for (const auto& f : fns)
    if (f.func_name == func_name) return &f;
  return nullptr;
}

std::vector<SizeBinding> TaskDoc::bindings() const {
  std::vector<SizeBinding> out{sizes};
  if (verify.alt_sizes) out.push_back(*verify.alt_sizes);
  return out;
}

std::vector<TaskDoc::BindingRef> TaskDoc::static_binding_refs() const {
  std::vector<BindingRef> out{{"sizes", &sizes}};
  auto add = [&](const char* name, const std::optional<SizeBinding>& b) {
    if (!b) return;
    for (const auto& o : out)
      if (*o.sizes == *b) return;
    out.push_back({name, &*b});
  };
  add("verify.alt_sizes", verify.alt_sizes);
  add("verify.general_sizes", verify.general_sizes);
  add("perf_sizes", perf_sizes);
  return out;
}

std::vector<NamedBinding> TaskDoc::static_bindings() const {
  std::vector<NamedBinding> out;
  for (const auto& r : static_binding_refs()) out.push_back({r.name, *r.sizes});
  return out;
}

std::string binding_text(const SizeBinding& b) {
  std::string s;
  for (const auto& [k, v] : b) s += (s.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  return s;
}

SizeBinding TaskDoc::perf_binding() const { return perf_sizes ? *perf_sizes : sizes; }

TaskNames task_names(const TaskDoc& d) {
  TaskNames n;
  for (const auto& x : d.inputs) n.inputs.insert(x.name);
  for (const auto& x : d.parameters) n.parameters.insert(x.name);
  for (const auto& x : d.fns) n.fns.insert(x.func_name);
  for (const auto& x : d.outputs) n.outputs.insert(x.name);
  for (const auto& [s, v] : d.sizes) n.sizes.insert(s);
  return n;
}

std::optional<TaskDoc> load_task_text(std::string_view text, std::string path, Diagnostics& diags) {
  Text t(text);
  auto root = parse_yaml(t, diags);
  if (!root) return std::nullopt;
  return walk_task(t, *root, std::move(path), diags);
}

AnyDoc load_any_text(std::string_view text, std::string path, Diagnostics& diags) {
  AnyDoc out;
  Text t(text);
  auto root = parse_yaml(t, diags);
  if (!root) return out;
  bool has_task_key = false, has_mutants = false;
  if (root->kind == YNode::Kind::Map)
    for (std::size_t i = 0; i < root->items.size(); i += 2) {
      has_task_key |= root->items[i].value == "task";
      has_mutants |= root->items[i].value == "mutants";
    }
  if (has_task_key && has_mutants) out.mutants = walk_mutants(t, *root, diags);
  else if (has_task_key) out.solution = walk_solution(t, *root, diags);
  else out.task = walk_task(t, *root, std::move(path), diags);
  return out;
}

std::optional<std::string> read_document_file(const std::string& path, Diagnostics& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.push_back(make_error("IO-READ", "cannot open '" + path + "'", {}));
    return std::nullopt;
  }
  std::string data;
  data.resize(kMaxDocumentBytes + 1);
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) {
    diags.push_back(make_error("IO-READ", "cannot read '" + path + "'", {}));
    return std::nullopt;
  }
  return data;
}

std::optional<TaskDoc> load_task_file(const std::string& path, Diagnostics& diags) {
  auto text = read_document_file(path, diags);
  if (!text) return std::nullopt;
  return load_task_text(*text, path, diags);
}

AnyDoc load_any_file(const std::string& path, Diagnostics& diags) {
  auto text = read_document_file(path, diags);
  if (!text) return {};
  return load_any_text(*text, path, diags);
}

}  // namespace sf::step
