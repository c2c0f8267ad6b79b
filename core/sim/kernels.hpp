// Dense semantics of the STeP primitives (step-dialect §7) on concrete integer dims.
// All kernels return a Status; on error `out` is unspecified. Kernels that create new scalars take a
// Budget and reserve before allocating; kernels that call fns check the deadline periodically.
// Parameter checks repeat the static checks (the checker normally guarantees them) so that a kernel
// never reads out of bounds; their messages are shortened forms of the spec's T-* texts.
#pragma once

#include <concepts>
#include <string_view>
#include <vector>

#include "core/sim/stream_value.hpp"

namespace sf::sim {

// §7.1 Y(i) = f(X(i)) (a tuple X supplies one input pointer per field).
Status map(const StreamValue& x, ElementFn& f, Budget& budget, StreamValue& out);
// §7.2 fields of X1..Xn concatenated (tuples flattened); all dims equal.
Status zip(const std::vector<const StreamValue*>& xs, StreamValue& out);
Status zip_move(std::vector<StreamValue>&& xs, StreamValue& out);  // as zip, moving the fields
// zip(std::move(values), out): a template so that a braced list of pointers, zip({&a, &b}, out), is never
// ambiguous with vector<StreamValue>'s iterator-pair constructor.
template <class V>
  requires std::same_as<V, std::vector<StreamValue>>
Status zip(V&& xs, StreamValue& out) {
  return zip_move(std::move(xs), out);
}
// §7.3 reduce the b innermost dims; an empty inner range gives init.
Status accum(const StreamValue& x, int b, ElementFn& f, Budget& budget, StreamValue& out);
// §7.4 inclusive prefix over the b innermost dims, restarted for every outer position.
Status scan(const StreamValue& x, int b, ElementFn& f, Budget& budget, StreamValue& out);

// Data-preserving primitives (FT unchanged): only dims/esh change. The && overloads move the data.
Status bufferize(const StreamValue& x, int a, StreamValue& out);                  // §7.5
Status bufferize(StreamValue&& x, int a, StreamValue& out);
Status streamify(const StreamValue& x, int q /*buffer rank*/, StreamValue& out);  // §7.6
Status streamify(StreamValue&& x, int q, StreamValue& out);
Status promote(const StreamValue& x, int b, StreamValue& out);                    // §7.7
Status promote(StreamValue&& x, int b, StreamValue& out);
Status flatten(const StreamValue& x, int lo, int hi, StreamValue& out);           // §7.10, L=[lo..hi]
Status flatten(StreamValue&& x, int lo, int hi, StreamValue& out);
Status reshape(const StreamValue& x, std::vector<int> L, std::int64_t c, StreamValue& out);  // §7.11
Status reshape(StreamValue&& x, std::vector<int> L, std::int64_t c, StreamValue& out);

// §7.8 new innermost dim n: each element repeated n times consecutively (also RepeatRef, §7.9).
Status repeat(const StreamValue& x, std::int64_t n, Budget& budget, StreamValue& out);

// §7.13 route chunks of dims s[:p] to the lanes set in the selector (Multihot esh (n)).
Status partition(const StreamValue& x, const StreamValue& sel, int n, Budget& budget,
                 std::vector<StreamValue>& out);
// §7.14 fold the selected inputs' next chunks; all-zero selector gives init; R-MERGE-COUNT when an
// input is not consumed exactly (checked before any fn call). list_name is {Ls} in that message.
Status merge(const std::vector<const StreamValue*>& ins, const StreamValue& sel, ElementFn& f,
             std::string_view list_name, Budget& budget, StreamValue& out);

}  // namespace sf::sim
