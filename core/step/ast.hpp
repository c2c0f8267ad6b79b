// The impl program's syntax tree (step-dialect §5.2). Produced by the parser, consumed by the name/affine
// checker, the type checker, the simulator, the printer and the canonical form.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"

namespace sf::step {

// A keyword argument value: INT | NAME | int_list.
struct KwVal {
  enum class Kind { Int, Name, IntList } kind = Kind::Int;
  std::int64_t integer = 0;          // Kind::Int
  std::string name;                  // Kind::Name
  std::vector<std::int64_t> list;    // Kind::IntList (from [..] or (..))
  Location loc;
};

struct Kwarg {
  std::string key;  // fn a b n L S N (others are reported by the type checker as T-PARAM-UNKNOWN)
  KwVal value;
  Location loc;     // location of the key
};

// ref = NAME | NAME "[" INT "]" | "[" ref {"," ref} "]"  (list literal: Merge only)
struct Ref {
  enum class Kind { Name, Index, List } kind = Kind::Name;
  std::string name;        // Name, Index
  std::int64_t index = 0;  // Index
  std::vector<Ref> items;  // List
  Location loc;
};

// apply_arg: one ref, or a parenthesised tuple of >= 2 refs.
struct ApplyArg {
  std::vector<Ref> refs;  // size 1 for a single ref (also for "(ref)"), >= 2 for a tuple
  bool tuple = false;     // true iff written as a tuple of >= 2 refs
  Location loc;
};

struct PrimCall {
  std::string prim;  // as written after "step." (unknown names are kept; the checker reports P-PRIM)
  Location prim_loc;
  std::vector<Kwarg> kwargs;
  ApplyArg arg;
  Location loc;      // location of "step"
};

// [ prim_call for loop_vars in loop_iter ]
struct Comprehension {
  PrimCall body;
  std::string stream_var;               // the loop stream variable
  Location stream_var_loc;
  std::string fn_var;                   // empty when the form is `for s in LIST`
  Location fn_var_loc;
  bool fns_first = true;                // zip(FNS, LIST) (true) or zip(LIST, FNS) (false)
  bool zipped = false;                  // zip(...) form
  // The stream list iterated over: a NAME or, inside zip, a NAME or a literal list of NAMEs
  // (a literal list of streams is parsed but the checker reports it where the grammar allows only names).
  std::string list_name;
  std::vector<std::string> list_literal;  // when the stream side is written as [A, B, ...]
  std::vector<Location> list_literal_locs;
  Location list_loc;
  // The fn side of zip: a fn-list NAME or a literal list of fn names.
  std::string fns_name;
  std::vector<std::string> fns_literal;
  std::vector<Location> fns_literal_locs;
  Location fns_loc;
};

struct Statement {
  enum class Kind { Assign, FnList, Comprehension, Return } kind = Kind::Assign;
  std::vector<std::string> targets;  // Assign / FnList / Comprehension
  std::vector<Location> target_locs;
  PrimCall call;                     // Assign
  Comprehension comp;                // Comprehension
  std::vector<std::string> fn_names; // FnList
  std::vector<Location> fn_name_locs;
  std::vector<Ref> returns;          // Return
  Location loc;                      // first token of the statement (file-relative)
  int end_line = 0;                  // last file line of the statement (bracketed statements span lines)
};

struct Program {
  std::vector<Statement> stmts;
  int last_line = 0;  // file line of the impl's last line (O-RETURN location when there is no return)
};

}  // namespace sf::step
