// Task documents (step-dialect §4): the YAML loader with located diagnostics, and the solution and mutant
// files of the benchmark (see docs/task-documents.md for the D-* codes and the resolved ambiguities).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step/dim.hpp"
#include "core/step/dtype.hpp"
#include "core/step/names.hpp"

namespace sf::step {

enum class DataGen { Rand, Randn, Ones, Binary, Multihot };
std::string_view data_gen_name(DataGen g);

struct InputDecl {
  std::string name;
  DType dtype;
  Dims dims;  // innermost-first
  DataGen gen = DataGen::Rand;
  double scale = 1.0;
  int mh_min = 0, mh_max = 0;  // data_gen multihot only
  Location loc;
};

struct ParamDecl {
  std::string name;
  Dims dims;  // innermost-first; the tensor shape is the reversed list
  DataGen gen = DataGen::Randn;
  double scale = 1.0;
  Location loc;
};

struct FnDecl {
  std::string func_name, display_name;
  DType input, output;
  std::optional<std::vector<double>> init;  // one value per output field; present => stateful
  std::string body;
  std::vector<Location> body_line_starts;  // file location of the first character of each body line
  Location loc;
  bool stateful() const { return init.has_value(); }
};

struct OutputDecl {
  std::string name;
  DType dtype;
  Dims dims;
  Location loc;
};

// STeP-25 (dialect step-v2, docs/step25.md): an off-chip tensor, shape outermost-first.
struct TensorDecl {
  enum class Gen { Randn, Rand, UniformFanIn, Full };
  std::string name;
  Dims shape;  // outermost-first
  Gen gen = Gen::Randn;
  Dim fan_in;        // UniformFanIn: U(-1/sqrt(d), 1/sqrt(d))
  double full = 0;   // Full: every value
  double scale = 1;  // multiplies the generated values
  Location loc;
};

struct VerifyConfig {
  std::vector<std::uint64_t> seeds{42, 43};
  double atol = 1e-5, rtol = 1.3e-6;
  std::optional<SizeBinding> alt_sizes;  // complete binding: the task's sizes with the listed symbols replaced
  // §15.11: a third binding chosen to be unfriendly to literal factors (complete, like alt_sizes). Every static
  // check runs under it; `tasks validate` runs every reference solution on it; `verify` does not simulate it.
  std::optional<SizeBinding> general_sizes;
  // step-v2: extra input sets, each a map input name -> scale override, verified on every seed.
  std::vector<std::map<std::string, double, std::less<>>> input_sets;
};

// A size binding with the name diagnostics use for it ("sizes", "verify.alt_sizes", ...).
struct NamedBinding {
  std::string name;
  SizeBinding sizes;
};
// "M=4, N=6": a binding as messages print it.
std::string binding_text(const SizeBinding& b);

struct TaskMeta {
  bool present = false;
  std::string origin;
  int copies = -1, paper_affine = -1;
  std::string attr;
  std::map<std::string, int> needs;
  int len = -1;
};

struct TaskDoc {
  std::string path;  // file it came from (for diagnostics), may be empty
  std::string dialect, id, group, title, description;
  SizeBinding sizes;
  // perf_sizes: the realistic binding the cost model runs under; a complete binding like alt_sizes (the
  // task's sizes with the listed symbols replaced). Not a verification binding: bindings() leaves it out.
  std::optional<SizeBinding> perf_sizes;
  std::vector<InputDecl> inputs;
  std::vector<ParamDecl> parameters;
  std::vector<FnDecl> fns;
  std::vector<OutputDecl> outputs;
  std::string reference;
  std::vector<Location> reference_line_starts;
  VerifyConfig verify;
  TaskMeta meta;
  std::optional<std::string> impl;
  std::vector<Location> impl_line_starts;
  Location impl_loc;
  std::string raw_text_without_impl;  // the document as agents see it: everything but impl, meta, verify

  // step-v2 only (dialect == "step-v2"; see docs/step25.md). `inputs`, `parameters`, `fns` and `outputs` above
  // stay empty for a v2 document; its off-chip tensors are here.
  std::vector<TensorDecl> tensor_inputs, tensor_outputs;
  std::string chip;      // chip profile name (default accelopt-step)
  std::string baseline;  // file name of the baseline solution, "" when none
  std::map<std::string, std::string> meta_v2;  // meta's scalar entries (origin, calibration, ...)
  bool is_v2() const { return dialect == "step-v2"; }

  const FnDecl* find_fn(std::string_view func_name) const;
  // The size bindings a program is verified under: sizes, then alt_sizes if present.
  std::vector<SizeBinding> bindings() const;
  // Every binding the static checks run under (§15.2, §15.11): sizes, verify.alt_sizes, verify.general_sizes,
  // perf_sizes, each when present (a binding equal to an earlier one is left out).
  std::vector<NamedBinding> static_bindings() const;
  // The same bindings by reference (no copies; valid while this TaskDoc lives unchanged).
  struct BindingRef {
    const char* name;
    const SizeBinding* sizes;
  };
  std::vector<BindingRef> static_binding_refs() const;
  // The binding for performance estimates: perf_sizes if present, else sizes.
  SizeBinding perf_binding() const;
};

// A file is one of: a task document (with or without impl), a solution (`task:` id + `impl:`), or a mutant list.
struct SolutionDoc {
  std::string task_id;
  std::string impl;
  std::vector<Location> impl_line_starts;
  Location loc;  // location of the impl value
};

struct MutantDoc {
  std::string name, what, stage, code;
  std::string impl;
  std::vector<Location> impl_line_starts;
  Location loc;  // location of the mutant's mapping
};

struct MutantFile {
  std::string task_id;
  std::vector<MutantDoc> mutants;
};

// Hard limits on documents (§15.9).
inline constexpr std::size_t kMaxDocumentBytes = 1024 * 1024;
inline constexpr int kMaxDocumentDepth = 64;

std::optional<TaskDoc> load_task_text(std::string_view text, std::string path, Diagnostics& diags);
std::optional<TaskDoc> load_task_file(const std::string& path, Diagnostics& diags);

// Detects the kind by its keys; exactly one of the outputs is set on success.
struct AnyDoc {
  std::optional<TaskDoc> task;
  std::optional<SolutionDoc> solution;
  std::optional<MutantFile> mutants;
};
AnyDoc load_any_text(std::string_view text, std::string path, Diagnostics& diags);
AnyDoc load_any_file(const std::string& path, Diagnostics& diags);

// Reads a whole file (at most kMaxDocumentBytes + 1 bytes are kept); D-IO on failure.
std::optional<std::string> read_document_file(const std::string& path, Diagnostics& diags);

// TaskNames for the name checker (inputs, parameters, fns, outputs, sizes).
TaskNames task_names(const TaskDoc&);

}  // namespace sf::step
