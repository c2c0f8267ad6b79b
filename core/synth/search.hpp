// Internal to core/synth: the enumerative search behind Synthesizer::run (docs/synth.md). Not installed and
// not included outside core/synth. The search's candidate space (ops, composites, macros, applying one op) is in
// search_space.cpp, finishing (matching outputs, emitting, the spread pick) and the main loop in search.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/common/hash.hpp"
#include "core/step/primitives.hpp"
#include "core/synth/op.hpp"
#include "core/synth/synthesizer.hpp"

namespace sf::synth::detail {

using step::Prim;
using step::StreamType;
using Clock = std::chrono::steady_clock;

struct Node {
  Op op;                  // prim Identity + empty args: a task input
  std::string input;      // task input name
  std::vector<int> args;  // node ids
  StreamType type;
  sim::StreamValue value;
  int cost = 0, depth = 0;
  std::uint64_t mask = 0;  // task inputs used
};

constexpr std::size_t kMaxMacros = 16;
// Temperature spread: cost levels per unit of temperature in the pick's weights (an op costs 2-5 levels,
// so at temperature 1 a program one statement longer is about e^-1 as likely as the cheapest one).
constexpr double kSpreadCostScale = 3.0;
constexpr std::int64_t kSpreadMinEvaluations = 4000;
constexpr double kDefaultWallLimitS = 60.0;  // safety net when there is no CPU limit

struct WeightedOp {
  Op op;
  int cost = 1;
};

struct Macro {
  const Fragment* frag = nullptr;
  bool relative = false;
  int cost = 1;
};

// A memory pattern (retrieved experience or resident rule) as a macro: the chain of primitives with every
// parameter taken from the search's own candidate sets (the unary ops of that primitive).
struct PatternMacro {
  std::vector<Prim> prims;
  int cost = 1;
};

// CPU time of the calling thread: the per-sample limit does not shrink when other processes share the cores.
double thread_cpu_seconds();
// The sizes candidates are evaluated under: about half of each size above 4 (parity kept, values kept
// distinct), so that a candidate costs a fraction of the main sizes' work. Matches are confirmed by the
// verifier under the task's own sizes.
step::SizeBinding search_sizes(const step::SizeBinding& sizes);
// Hash of a value (type and data): the search keeps one node per distinct value.
std::uint64_t hash_value(const StreamType& t, const sim::StreamValue& v);
// Canonical key of an impl text under sizes ("" when it does not parse).
std::string synth_program_key(const std::string& impl, const step::SizeBinding& sizes);

class Search {
 public:
  Search(verify::Verifier& ver, cost::CostModel& model, const step::TaskDoc& task, const Guidance& g,
         const SynthOptions& opt)
      : ver_(ver),
        model_(model),
        task_(task),
        g_(g),
        opt_(opt),
        rng_(opt.seed * kGolden64 + 1),
        spread_(!opt.optimise && opt.temperature > 0),
        avoid_(opt.avoid_keys.begin(), opt.avoid_keys.end()) {}
  PerfKey best_key() const { return best_key_; }
  int correct_programs() const { return correct_; }

  SynthResult run();

 private:
  // `prim`: the primitive the op applies (its name from the primitive table keys the guidance counts);
  // nullopt for a macro.
  int weight(int base, std::optional<Prim> p, const std::string& param_key = "") {
    const std::string prim = p ? std::string(step::prim_name(*p)) : std::string();
    double w = base;
    if (g_.statements > 0) {
      auto it = g_.prim_counts.find(prim);
      double share = it == g_.prim_counts.end() ? 0.0 : double(it->second) / g_.statements;
      w -= std::round(3.0 * share);
      if (!param_key.empty()) {
        auto pit = g_.param_counts.find(param_key);
        if (pit != g_.param_counts.end() && it != g_.prim_counts.end() && 2 * pit->second >= it->second)
          w -= 1;
      }
    }
    if (!prim.empty() && pattern_prims_.contains(prim)) w -= 1;  // memory patterns steer toward their prims
    if (opt_.temperature > 0) {
      double u = std::uniform_real_distribution<double>(1e-12, 1.0)(rng_);
      w += opt_.temperature * -std::log(-std::log(u));  // Gumbel(0, 1) noise
    }
    return std::max(1, static_cast<int>(std::lround(w)));
  }
  void build_ops();
  bool budget_left() {
    if (timed_out_ || stats_.candidates >= opt_.max_evaluations) return false;
    if (result_.found) {  // optimising or spreading: only evaluation counts (and the wall safety net) end it now
      if (spread_) {
        if (static_cast<int>(spread_found_.size()) >= spread_pool(opt_.temperature) ||
            stats_.candidates >= found_at_ + spread_evaluations(opt_.temperature, found_at_))
          return false;
      } else if (!opt_.optimise) {
        return false;
      } else if (opt_.optimise_evaluations >= 0 && stats_.candidates >= found_at_ + opt_.optimise_evaluations) {
        return false;
      }
    }
    if ((stats_.candidates & 15) == 0) {
      if (Clock::now() >= deadline_) {
        timed_out_ = wall_timed_out_ = true;  // the safety net: reported, never a silent difference
      } else if (!result_.found && opt_.time_limit_s > 0 && thread_cpu_seconds() >= cpu_deadline_) {
        timed_out_ = true;
      }
    }
    return !timed_out_;
  }
  bool wall_timed_out() const { return wall_timed_out_; }
  // Stop at the first correct program (neither optimising nor spreading).
  bool stop_at_first() const { return !opt_.optimise && !spread_; }
  // Temperature spread: the pick among the correct programs collected (deterministic for the seed).
  void pick_spread();
  // Types, evaluates and keeps one application; returns the node id or -1. hidden: not added to the pool.
  int try_apply(const Op& op, const std::vector<int>& args, int cost, bool hidden = false);
  void check_outputs(int id);
  // Goal-directed completion: the one- and two-step chains (Streamify, Map of a stateless fn, and both
  // orders) from a new value whose typed result is exactly an output's type are evaluated at no cost.
  void finish_toward_outputs(int id);
  bool is_output_type(const StreamType& t) const;
  // Shape plausibility (a search heuristic): no size symbol twice among a value's dims and buffer dims
  // (unless an input or output has that), and at most one dim more than the largest input or output.
  bool plausible(const StreamType& t) const;
  static int total_dims(const StreamType& t, bool& dup);
  int max_dims_ = 0;
  bool allow_dups_ = false;
  bool finishing_ = false;
  bool try_finish();
  std::string emit(const std::vector<int>& outs);  // with Copies; the Copy-free text goes to last_raw_
  std::string last_raw_;
  void apply_macro(const Macro& m, int v, int cost);
  void apply_pattern(const PatternMacro& m, int v, int cost);
  std::vector<PatternMacro> pmacros_;
  std::set<std::string> pattern_prims_;

  verify::Verifier& ver_;
  cost::CostModel& model_;
  PerfKey best_key_;
  std::int64_t found_at_ = 0;
  int correct_ = 0;
  std::size_t match_cap_ = 4;
  const step::TaskDoc& task_;
  const Guidance& g_;
  SynthOptions opt_;
  std::mt19937_64 rng_;
  std::shared_ptr<const verify::Verifier::Prepared> prep_;
  std::map<std::string, std::unique_ptr<sim::ElementFn>> fns_;
  std::vector<Node> nodes_;
  std::vector<std::vector<int>> by_cost_;
  std::unordered_set<std::uint64_t> seen_;
  std::vector<WeightedOp> unary_, multi_, composite_;
  void build_composites();
  // Calls f(args) for every list of kept nodes (at most max_parts) whose fields concatenate to `want`
  // from field `pos` on and whose costs sum to `cost`.
  void field_combos(const std::vector<step::ScalarType>& want, std::size_t pos, int cost, int max_parts,
                    std::vector<int>& cur, const std::function<void(const std::vector<int>&)>& f);
  void enumerate_composites(int c);
  std::vector<Macro> macros_;
  std::vector<std::vector<int>> matches_;  // per output
  std::set<std::string> tried_;
  std::uint64_t all_inputs_ = 0;
  std::int64_t pool_scalars_ = 0;
  sim::Budget budget_;
  Clock::time_point deadline_;  // wall-clock safety cap (10 x the limit + 1 s)
  double cpu_deadline_ = 0;     // thread CPU seconds: the per-sample limit
  bool timed_out_ = false;
  bool wall_timed_out_ = false;
  SynthStats stats_;
  SynthResult result_;
  struct SpreadFound {
    std::string impl, raw;
    int cost = 0;  // the summed cost levels of the output values (the enumeration's own score)
  };
  const bool spread_;
  std::vector<SpreadFound> spread_found_;
  std::set<std::string> avoid_;
  bool avoided(const std::string& impl);
};

}  // namespace sf::synth::detail
