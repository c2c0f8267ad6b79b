// STeP-25 tile functions on fp32 tiles with Eigen (internal to the simulator): map fns in fp32, matmul and row
// reductions in double rounded to fp32, and the double accumulators of BinaryMapAccum / Accum.
#pragma once

#include <Eigen/Dense>

#include "core/step2/graph.hpp"
#include "core/step2/sim.hpp"

namespace sf::step2::detail {

using MatF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

inline Eigen::Map<const MatF> view(const Value& v) {
  return Eigen::Map<const MatF>(v.data.data(), v.shape.rows, v.shape.cols);
}
ValuePtr make_tile(const MatF& m);

// One-tile and two-tile map fns (UnaryMap, BinaryMap); `c` for scale/shift.
ValuePtr apply_unary(Fn fn, const Value& x, double c);
ValuePtr apply_binary(Fn fn, const Value& a, const Value& b);
// matmul / matmul_t accumulated into `acc` (double).
void accumulate_matmul(Fn fn, const Value& a, const Value& b, MatD& acc);

}  // namespace sf::step2::detail
