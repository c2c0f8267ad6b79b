#include "core/step2/graph.hpp"

#include <algorithm>

namespace sf::step2 {

namespace {
std::int64_t sat_product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (std::int64_t x : v) {
    if (x <= 0) return 0;
    if (p > INT64_MAX / x) return INT64_MAX;
    p *= x;
  }
  return p;
}
}  // namespace

std::int64_t ElemType::bytes() const {
  if (!is_buffer) return tile.bytes();
  std::int64_t n = sat_product(buffer_shape);
  return n > INT64_MAX / std::max<std::int64_t>(1, tile.bytes()) ? INT64_MAX : n * tile.bytes();
}

std::int64_t StreamType::elements() const { return sat_product(shape); }

bool Node::is_compute() const {
  return op == Op::UnaryMap || op == Op::BinaryMap || op == Op::BinaryMapAccum || op == Op::Accum;
}

bool Node::is_memory() const { return op == Op::OffChipLoad || op == Op::OffChipStore; }

int Graph::compute_nodes() const {
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.is_compute(); }));
}

}  // namespace sf::step2
