// One candidate primitive application of the synthesizer, its typing (the type checker's rules for the
// primitives the search uses, step-dialect §7) and its dense evaluation with the sim kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/sim/stream_value.hpp"
#include "core/step/task.hpp"
#include "core/step/typecheck.hpp"

namespace sf::synth {

// A primitive with its parameters. Zip-then-fn (`fn` consuming a tuple of the argument fields) is one op
// with several arguments: Map auto-zips, Accum/Scan are emitted after an explicit Zip.
struct Op {
  step::Prim prim = step::Prim::Identity;
  const step::FnDecl* fn = nullptr;
  int k = 0;           // Bufferize a, Accum/Scan/Promote b
  step::Dim n;         // Repeat n, Reshape S
  std::vector<int> L;  // Flatten lo..hi, Reshape indices
  // Prim::Merge is the composite Partition -> per-expert Map -> Merge(fn) move: the last argument is the
  // Multihot selector, the others are zipped into the routed data; experts[e] maps lane e's chunks.
  std::vector<const step::FnDecl*> experts;
  std::string key() const;  // "Bufferize(a=1)", "Map(fn=f)" (fns by name, dims by text)
};

// The result type of `op` on the argument types, or nullopt when the checker would reject it.
std::optional<step::StreamType> apply_type(const Op& op, const std::vector<const step::StreamType*>& args);

// Evaluates op on concrete values. fn: the ElementFn of op.fn (nullptr if none); expert_fns: those of
// op.experts (composite only). nullopt on any kernel error (e.g. a lane count that is not the list length).
std::optional<sim::StreamValue> apply_value(const Op& op, const std::vector<const sim::StreamValue*>& args,
                                            const step::StreamType& out_type, const step::SizeBinding& sizes,
                                            sim::ElementFn* fn, sim::Budget& budget,
                                            const std::vector<sim::ElementFn*>& expert_fns = {});

}  // namespace sf::synth
