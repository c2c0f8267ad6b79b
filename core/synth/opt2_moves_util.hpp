// Helpers shared by the rewrite moves of the STeP-25 optimiser (opt2_moves.cpp: the registry, the text form
// and the node-local moves; opt2_moves_dataflow.cpp: the moves that restructure streams). Internal to
// core/synth; not part of the optimiser's API.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/step/task.hpp"
#include "core/synth/opt2_moves.hpp"

namespace sf::synth::opt2::detail {

bool is_load(const Line& l);
std::optional<long long> to_int(const std::string& s);
// "[a, b, c]" -> {"a", "b", "c"} (empty when not a list); the inverse.
std::vector<std::string> list_items(const std::string& text);
std::string list_text(const std::vector<std::string>& items);
bool ident_char(char c);
const step::TensorDecl* input_decl(const step::TaskDoc& task, const std::string& name);
std::set<std::string> all_names(const std::vector<Line>& lines);
std::string fresh(std::set<std::string>& used, const std::string& base);
int index_of_target(const std::vector<Line>& lines, const std::string& name);
int uses(const std::vector<Line>& lines, const std::string& name);

// The values of a dim expression ("M/128", "NB*M/64", "8") under every binding the program is checked and
// timed under (sizes, alt_sizes, general_sizes, perf_sizes); nullopt when it is not a positive integer under
// one of them. This is the arithmetic a careful author does before choosing a tile or a lane count.
std::optional<std::vector<long long>> dim_values(const step::TaskDoc& task, const std::string& expr);
// True when `n` divides the expression's value under every binding.
bool divides_everywhere(const step::TaskDoc& task, const std::string& expr, long long n);
// "a*b" of two dim expressions ("1" is the neutral element).
std::string dim_product(const std::string& a, const std::string& b);

// The limit the perf report gives for node `name` ("" when the report does not list it).
std::string limit_of(const MoveRequest& req, const std::string& name);
// Whether any of the report's busiest nodes has this limit.
bool any_limit(const MoveRequest& req, const std::string& limit);

template <class T>
const T& pick(const std::vector<T>& v, Rng& rng) {
  return v[rng.below(v.size())];
}

// The moves that restructure streams (opt2_moves_dataflow.cpp).
MoveOutcome move_tile(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req, Rng& rng);
MoveOutcome move_reuse_load(std::vector<Line>& lines, Rng& rng);
MoveOutcome move_bufferize_reload(std::vector<Line>& lines, const MoveRequest& req, Rng& rng);
MoveOutcome move_parallel_split(const step::TaskDoc& task, std::vector<Line>& lines, const MoveRequest& req,
                                Rng& rng);
MoveOutcome move_add_tree(const step::TaskDoc& task, std::vector<Line>& lines, Rng& rng);

}  // namespace sf::synth::opt2::detail
