// The rewrite moves of the fallible STeP-25 optimiser (docs/synth.md, "STeP-25 optimiser"): each move edits
// the TEXT of a step-v2 program the way an LLM would (tile shape with the matching stride/shape edits,
// par_dispatch, write_back_mu, compute_bw reallocation, dropping a constant input, reusing a re-load, replacing
// a re-load with Bufferize/Streamify, a parallel split with Parallelize/StaticReassemble, a K split with an add
// tree, merging elementwise nodes). Parameters are chosen the way a careful author chooses them: lane counts
// and tile extents from the divisors of the actual dims, compute moved to the node the perf report names.
// Nothing here checks, verifies or times the result: a move may produce a program the checker, the verifier
// or the cost model rejects (a tile that does not divide, a compute budget exceeded, a broken reduction).
// That is on purpose; the campaign judges the answer as it judges an LLM's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/step/task.hpp"

namespace sf::synth::opt2 {

enum class MoveKind {
  Tile,              // param "X*2" / "X/2": the tile extent along size symbol X, with every X/t in shape/stride
  ParDispatch,       // param "8" / "16" / "32": par_dispatch of every OffChipLoad/OffChipStore
  WriteBackMu,       // param "0" / "1": write_back_mu of one node
  ComputeBw,         // param "x2" / "x1.5": compute_bw of one node up, the largest other node pays
  DropConstInput,    // a full-valued input tensor multiplied in -> UnaryMap(fn=scale, c=…), its load dropped
  ReuseLoad,         // a second identical OffChipLoad of the same tensor -> the first load's stream
  BufferizeReload,   // param "b": a re-load -> Bufferize(rank=b) of the first load + Streamify (repeat / Promote)
  ParallelSplit,     // param "2" / "4": Flatten + Parallelize + per-lane accumulators + StaticReassemble
  AddTreeSplit,      // param "2": the reduction split in two halves (Parallelize + Reshape) joined by an add
  MergeElementwise,  // add(scale(y, c), y) -> scale(y, c+1); scale(scale(y, a), b) -> scale(y, a*b)
};
inline constexpr int kMoveKinds = 10;

std::string_view move_name(MoveKind k);
std::optional<MoveKind> move_from_name(std::string_view name);
const std::vector<MoveKind>& all_moves();

// One line of a program, as editable text.
struct Line {
  std::vector<std::string> targets;
  std::string op;
  std::vector<std::pair<std::string, std::string>> kwargs;  // name, value text
  char form = '1';                                         // '1' apply(x), 't' apply((a, b)), 'l' apply([..])
  std::vector<std::string> args;

  const std::string* kw(std::string_view name) const;
  void set_kw(const std::string& name, const std::string& value);  // appends when absent
};

// Parses `impl` with the step2 parser (no checking); nullopt when it does not parse.
std::optional<std::vector<Line>> read_lines(std::string_view impl);
std::string print_lines(const std::vector<Line>& lines);

// A small deterministic generator (splitmix64): the same seed gives the same moves on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next();
  std::size_t below(std::size_t n);  // 0 when n == 0
  double unit();                     // [0, 1)
 private:
  std::uint64_t s_;
};

struct MoveRequest {
  MoveKind kind = MoveKind::Tile;
  std::string param;                 // "" = the move picks one at random
  std::vector<std::string> busiest;  // node names of the perf report, busiest first (may be empty)
  std::vector<std::string> limits;   // their limits (pmu_read, compute, write_back, hbm, waiting), when known
};

struct MoveOutcome {
  bool applied = false;  // false: the move found nothing to edit (the text is unchanged)
  std::string param;     // the parameter used
  std::string what;      // one line: "tile N*2 on b (shape/stride N/128 -> N/256)"
};

// Applies one move to `lines` in place. Never checks the result.
MoveOutcome apply_move(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req, Rng& rng);

}  // namespace sf::synth::opt2
