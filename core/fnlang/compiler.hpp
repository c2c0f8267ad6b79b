// Compiles a parsed fn body for one size binding: name resolution, static ints vs tensors (§10.4),
// shape inference and emission of a flat op list over preallocated slots (ir::Module).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/fnlang/ast.hpp"
#include "core/fnlang/fnlang.hpp"
#include "core/fnlang/ir.hpp"

namespace sf::fnlang {

class Compiler {
 public:
  Compiler(const CompileOptions& opt, const Ast& ast) : opt_(opt), ast_(ast) {}
  // Throws FnError on any error.
  ir::Module run();

  // A tensor value: data lives in `slot` (row-major, contiguous) and has shape `shape`.
  struct TV {
    int slot = -1;
    Shape shape;
  };
  // A compile-time value.
  struct CV {
    enum class K { Int, Tensor, List, Tuple, Str, Bool, None } k = K::None;
    std::int64_t i = 0;
    TV t;
    std::vector<CV> items;
    std::string s;
  };

 private:
  // compiler.cpp: statements, names, operators, indexing
  CV eval(int node);
  CV eval_name(const Node& n);
  CV eval_binary(const Node& n);
  CV eval_subscript(const Node& n);
  void assign(const Stmt& s);
  void check_target(const std::string& name, BodyLoc at);
  // builtins.cpp
  CV call(const Node& n);
  CV call_shape_op(const std::string& f, std::vector<CV>& a, const std::vector<BodyLoc>& locs, BodyLoc at);
  // emit.cpp: helpers
  [[noreturn]] void fail(const char* sub, BodyLoc at, const std::string& msg) const;
  sf::Location file_loc(BodyLoc at) const;
  int new_slot(const Shape& shape, BodyLoc at);
  void check_shape(const Shape& s, BodyLoc at);
  TV constant(const Shape& shape, const std::vector<double>& values, BodyLoc at);
  TV scalar(double v, BodyLoc at) { return constant({}, {v}, at); }
  TV tensor(const CV& v, BodyLoc at, const char* what);
  std::int64_t need_int(const CV& v, BodyLoc at, const char* what) const;
  Shape need_shape(const CV& v, BodyLoc at, const char* what) const;
  int norm_axis(std::int64_t axis, std::size_t rank, BodyLoc at, bool inserting = false) const;
  void push(ir::Op op);
  TV unary(ir::UnFn f, const TV& x, BodyLoc at);
  TV binary(ir::BinFn f, const TV& a, const TV& b, BodyLoc at, const std::string& what);
  TV ternary(ir::TerFn f, const TV& a, const TV& b, const TV& c, BodyLoc at, const std::string& what);
  TV gather(const TV& src, const Shape& out, std::int64_t off, const ir::Dims& st, BodyLoc at);
  void copy_into(int dst, const ir::Dims& dst_st, std::int64_t dst_off, const TV& src, BodyLoc at);
  TV permute(const TV& x, const std::vector<int>& perm, BodyLoc at);
  TV broadcast_to(const TV& x, const Shape& to, BodyLoc at);
  TV reshape(const TV& x, Shape to) { return TV{x.slot, std::move(to)}; }
  TV axis_op(ir::OpKind kind, int fn, const TV& x, int axis, Shape out, BodyLoc at, std::int64_t k = 0,
             const std::string& what = {});
  TV reduce(ir::RedFn f, const TV& x, const CV& axis, bool keepdim, BodyLoc at);
  TV matmul(const TV& a, const TV& b, BodyLoc at);
  TV einsum(const std::string& spec, const std::vector<TV>& xs, BodyLoc at);
  TV concat(const std::vector<TV>& xs, int axis, BodyLoc at);

  const CompileOptions& opt_;
  const Ast& ast_;
  ir::Module m_;
  std::vector<bool> written_;
  std::map<std::string, CV> env_;
  std::map<std::string, int> arg_index_;
  std::int64_t total_elems_ = 0;
};

std::int64_t numel(const Shape& s);
// File location of a body position (CompileOptions::line_starts, or body line + 1 when empty).
sf::Location map_body_loc(const CompileOptions& opt, BodyLoc at);
ir::Dims contiguous_strides(const Shape& s);

}  // namespace sf::fnlang
