#include "core/step2/tile_fn.hpp"

#include <cmath>

namespace sf::step2::detail {

ValuePtr make_tile(const MatF& m) {
  auto v = std::make_shared<Value>();
  v->shape = {m.rows(), m.cols()};
  v->data.assign(m.data(), m.data() + m.size());
  return v;
}

ValuePtr apply_unary(Fn fn, const Value& x, double c) {
  auto a = view(x).array();
  const float cf = static_cast<float>(c);
  switch (fn) {
    case Fn::Silu: return make_tile((a / (1.0f + (-a).exp())).matrix());
    case Fn::Exp: return make_tile(a.exp().matrix());
    case Fn::Tanh: return make_tile(a.tanh().matrix());
    case Fn::Rsqrt: return make_tile(a.rsqrt().matrix());
    case Fn::Square: return make_tile(a.square().matrix());
    case Fn::Sigmoid: return make_tile((1.0f / (1.0f + (-a).exp())).matrix());
    case Fn::Gelu:
      return make_tile((0.5f * a * (1.0f + (a * static_cast<float>(M_SQRT1_2)).unaryExpr([](float v) { return std::erf(v); })))
                           .matrix());
    case Fn::Relu: return make_tile(a.max(0.0f).matrix());
    case Fn::Scale: return make_tile((a * cf).matrix());
    case Fn::Shift: return make_tile((a + cf).matrix());
    case Fn::RowSum: return make_tile(view(x).cast<double>().rowwise().sum().cast<float>());
    case Fn::RowMax: return make_tile(view(x).rowwise().maxCoeff());
    default: return make_tile(view(x));
  }
}

ValuePtr apply_binary(Fn fn, const Value& a, const Value& b) {
  if (fn == Fn::Matmul || fn == Fn::MatmulT) {
    MatD acc = MatD::Zero(a.shape.rows, fn == Fn::Matmul ? b.shape.cols : b.shape.rows);
    accumulate_matmul(fn, a, b, acc);
    return make_tile(acc.cast<float>());
  }
  const Eigen::Index R = std::max(a.shape.rows, b.shape.rows), C = std::max(a.shape.cols, b.shape.cols);
  MatF x = view(a).replicate(R / a.shape.rows, C / a.shape.cols);
  MatF y = view(b).replicate(R / b.shape.rows, C / b.shape.cols);
  switch (fn) {
    case Fn::Add: return make_tile(x + y);
    case Fn::Sub: return make_tile(x - y);
    case Fn::Mul: return make_tile(x.cwiseProduct(y));
    case Fn::Div: return make_tile(x.cwiseQuotient(y));
    case Fn::Max: return make_tile(x.cwiseMax(y));
    default: return make_tile(x);
  }
}

void accumulate_matmul(Fn fn, const Value& a, const Value& b, MatD& acc) {
  if (fn == Fn::Matmul) acc.noalias() += view(a).cast<double>() * view(b).cast<double>();
  else acc.noalias() += view(a).cast<double>() * view(b).cast<double>().transpose();
}

}  // namespace sf::step2::detail
