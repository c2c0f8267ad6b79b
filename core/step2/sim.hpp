// STeP-25 functional simulator (docs/step25.md, "Token rules" and "Functional semantics"): runs a resolved
// step2::Graph on real fp32 tiles, token by token in Kahn order (each node over its whole input, in program
// order), with Eigen for every tile function (matmul and reductions accumulated in double, rounded to fp32).
// Deterministic. Run-time errors (R2-STOPS, R2-STORE) are located at the node's statement.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.hpp"
#include "core/step2/graph.hpp"

namespace sf::step2 {

// A stream element's value: a tile (row-major fp32) or a Buffer of tiles (shape outermost-first).
struct Value {
  TileShape shape;
  std::vector<float> data;  // tile: rows * cols floats
  bool is_buffer = false;
  std::vector<std::shared_ptr<const Value>> tiles;  // buffer: its tiles in row-major order
  std::vector<std::int64_t> buffer_shape;
};
using ValuePtr = std::shared_ptr<const Value>;

struct Token {
  ValuePtr v;
  int lev = 0;  // stop level: 0 = none
};

// An off-chip tensor's data (row-major, shape outermost-first).
struct HostTensor {
  std::vector<std::int64_t> shape;
  std::vector<float> data;
};

struct SimOptions {
  bool keep_streams = false;  // keep every stream's tokens (run --show, the golden tests)
};

struct SimResult {
  std::map<std::string, HostTensor, std::less<>> outputs;  // every stored output, flattened as assembled
  std::vector<std::vector<Token>> streams;                 // keep_streams: by stream id
  std::optional<Diagnostic> error;                         // R2-*
};

// Runs `g` on `inputs` (one per input tensor of g). Never throws for a checked graph.
SimResult simulate(const Graph& g, const std::map<std::string, HostTensor, std::less<>>& inputs,
                   const SimOptions& opt = {});

// "Tile[128, 128] #1a2b3c4d" or "Buffer[2 x Tile[..]] #..": a token's value summarised (shape + checksum), and
// the token view of a stream: "(Tile[..] #.., 0) (.., 2) ... D", at most `max_tokens` tokens.
std::string value_summary(const Value& v);
std::string token_view(const std::vector<Token>& tokens, std::size_t max_tokens = 200);

}  // namespace sf::step2
