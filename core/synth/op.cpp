#include "core/synth/op.hpp"

#include <algorithm>

#include "core/sim/kernels.hpp"
#include "core/step/prim_rules.hpp"

namespace sf::synth {

using step::Dim;
using step::Dims;
using step::DType;
using step::Prim;
using step::StreamType;
namespace rule = step::rule;

std::string Op::key() const {
  std::string s(step::prim_name(prim));
  s += "(";
  switch (prim) {
    case Prim::Map:
      s += "fn=" + fn->func_name;
      break;
    case Prim::Merge: {
      s += "fn=" + fn->func_name + ", experts=[";
      for (std::size_t i = 0; i < experts.size(); ++i) s += (i ? ", " : "") + experts[i]->func_name;
      s += "]";
      break;
    }
    case Prim::Accum:
    case Prim::Scan:
      s += "fn=" + fn->func_name + ", b=" + std::to_string(k);
      break;
    case Prim::Bufferize:
      s += "a=" + std::to_string(k);
      break;
    case Prim::Promote:
      s += "b=" + std::to_string(k);
      break;
    case Prim::Repeat:
      s += "n=" + n.str();
      break;
    case Prim::Flatten:
    case Prim::Reshape: {
      s += "L=[";
      for (std::size_t i = 0; i < L.size(); ++i) s += (i ? ", " : "") + std::to_string(L[i]);
      s += "]";
      if (prim == Prim::Reshape) s += ", S=" + n.str();
      break;
    }
    default:
      break;
  }
  return s + ")";
}

namespace {

// The zipped dtype of the arguments (Zip's rule: all dims equal), or nullopt.
std::optional<DType> zipped(const std::vector<const StreamType*>& args) {
  if (args.empty()) return std::nullopt;
  if (rule::zip_mismatch(args.size(), [&](std::size_t i) -> const Dims& { return args[i]->dims; }) <
      args.size())
    return std::nullopt;
  DType t = args[0]->dtype;
  for (std::size_t i = 1; i < args.size(); ++i) t = step::concat(t, args[i]->dtype);
  return t;
}

// A selector type: Multihot elements (Partition's and Merge's rule).
bool multihot_selector(const StreamType& c) {
  return rule::selector_type(!c.dtype.is_tuple() && c.dtype.scalar().multihot &&
                             !c.dtype.scalar().is_buffer())
      .ok();
}

}  // namespace

// The result type of a candidate step by the primitives' rules (core/step/prim_rules.hpp), nullopt when a
// rule fails or the step does not fit the search's forms (one stream, or Map/Accum/Scan of several, zipped).
std::optional<StreamType> apply_type(const Op& op, const std::vector<const StreamType*>& args) {
  if (args.empty()) return std::nullopt;
  const StreamType& x = *args[0];
  const int r = x.rank();
  const bool multi = args.size() > 1;
  if (multi && op.prim != Prim::Map && op.prim != Prim::Accum && op.prim != Prim::Scan &&
      op.prim != Prim::Merge)
    return std::nullopt;
  switch (op.prim) {
    case Prim::Merge: {  // composite Partition -> Map per expert -> Merge
      if (args.size() < 2 || !op.fn || !op.fn->stateful() || op.experts.empty()) return std::nullopt;
      const StreamType& c = *args.back();
      if (!multihot_selector(c)) return std::nullopt;
      std::vector<const StreamType*> data(args.begin(), args.end() - 1);
      auto in = zipped(data);
      if (!in) return std::nullopt;
      const StreamType& xd = *data[0];
      if (!rule::partition_selector(xd.dims, c.dims).ok()) return std::nullopt;
      const step::DType& t = op.experts[0]->output;
      for (const auto* e : op.experts) {
        if (e->stateful() || !(e->input == *in) || !(e->output == t)) return std::nullopt;
      }
      if (!(op.fn->input == t)) return std::nullopt;
      // Partition's outputs s[:p] ++ [#e], mapped, merged: s[:p] ++ the selector's dims = the data's dims.
      return StreamType{op.fn->output, xd.dims};
    }
    case Prim::Map:
    case Prim::Accum:
    case Prim::Scan: {
      if (!op.fn) return std::nullopt;
      if (op.fn->stateful() != (op.prim != Prim::Map)) return std::nullopt;
      auto in = zipped(args);
      if (!in || !(*in == op.fn->input)) return std::nullopt;
      StreamType y{op.fn->output, {}};
      if (op.prim == Prim::Map) {
        y.dims = x.dims;
      } else if (!rule::fold_depth(op.k, r).ok()) {
        return std::nullopt;
      } else if (op.prim == Prim::Accum) {
        rule::accum_dims(x.dims, op.k, y.dims);
      } else {
        rule::scan_dims(x.dims, y.dims);
      }
      return y;
    }
    case Prim::Bufferize: {
      StreamType y;
      if (!rule::bufferize(x.dims, x.dtype.is_tuple(), op.k, &y.dims).ok()) return std::nullopt;
      step::ScalarType st = x.dtype.scalar();
      const auto packed = rule::bufferize_packed(x.dims, op.k);
      st.buffer.insert(st.buffer.end(), packed.begin(), packed.end());
      y.dtype = DType::of(st);
      return y;
    }
    case Prim::Streamify: {
      const bool buffers = !x.dtype.is_tuple() && x.dtype.scalar().is_buffer();
      StreamType y;
      if (!rule::streamify(x.dims, buffers,
                           buffers ? std::span<const Dim>(x.dtype.scalar().buffer) : std::span<const Dim>(),
                           &y.dims)
               .ok())
        return std::nullopt;
      y.dtype = DType::of(x.dtype.scalar().unbuffered());
      return y;
    }
    case Prim::Promote: {
      StreamType y{x.dtype, {}};
      if (!rule::promote(x.dims, op.k, &y.dims).ok()) return std::nullopt;
      return y;
    }
    case Prim::Repeat: {
      StreamType y{x.dtype, {}};
      rule::repeat_dims(x.dims, op.n, y.dims);
      return y;
    }
    case Prim::Flatten: {
      if (op.L.empty()) return std::nullopt;
      const int lo = op.L.front(), hi = op.L.back();
      if (!rule::flatten_span(lo, hi, r).ok()) return std::nullopt;
      StreamType y{x.dtype, {}};
      rule::flatten_dims(x.dims, lo, hi, y.dims);
      return y;
    }
    case Prim::Reshape: {
      if (op.L.size() != 1) return std::nullopt;  // the search splits one dim at a time
      const std::span<const int> L(op.L);
      if (!rule::reshape_indices(L, r).ok()) return std::nullopt;
      StreamType y{x.dtype, {}};
      rule::reshape_dims(x.dims, L, op.n, y.dims);
      return y;
    }
    default:
      return std::nullopt;
  }
}

std::optional<sim::StreamValue> apply_value(const Op& op, const std::vector<const sim::StreamValue*>& args,
                                            const StreamType& out_type, const step::SizeBinding& sizes,
                                            sim::ElementFn* fn, sim::Budget& budget,
                                            const std::vector<sim::ElementFn*>& expert_fns) {
  sim::StreamValue out;
  sim::Status st;
  const sim::StreamValue* x = args[0];
  sim::StreamValue zipped_val;
  if (op.prim == Prim::Merge) {
    if (!fn || expert_fns.size() != op.experts.size() || args.size() < 2) return std::nullopt;
    const sim::StreamValue& sel = *args.back();
    std::vector<const sim::StreamValue*> data(args.begin(), args.end() - 1);
    if (data.size() > 1) {
      if (!sim::zip(data, zipped_val).ok()) return std::nullopt;
      x = &zipped_val;
    }
    if (sel.fields.empty() || sel.fields[0].esh.size() != 1 ||
        sel.fields[0].esh[0] != static_cast<std::int64_t>(expert_fns.size()))
      return std::nullopt;
    std::vector<sim::StreamValue> parts, mapped(expert_fns.size());
    if (!sim::partition(*x, sel, static_cast<int>(expert_fns.size()), budget, parts).ok())
      return std::nullopt;
    if (parts.size() != expert_fns.size()) return std::nullopt;
    std::vector<const sim::StreamValue*> ins;
    for (std::size_t e = 0; e < parts.size(); ++e) {
      if (!sim::map(parts[e], *expert_fns[e], budget, mapped[e]).ok()) return std::nullopt;
      ins.push_back(&mapped[e]);
    }
    if (!sim::merge(ins, sel, *fn, "experts", budget, out).ok()) return std::nullopt;
    return out;
  }
  if (args.size() > 1) {
    st = sim::zip(args, zipped_val);
    if (!st.ok()) return std::nullopt;
    x = &zipped_val;
  }
  switch (op.prim) {
    case Prim::Map:
      st = sim::map(*x, *fn, budget, out);
      break;
    case Prim::Accum:
      st = sim::accum(*x, op.k, *fn, budget, out);
      break;
    case Prim::Scan:
      st = sim::scan(*x, op.k, *fn, budget, out);
      break;
    case Prim::Bufferize:
      st = sim::bufferize(*x, op.k, out);
      break;
    case Prim::Streamify: {
      // the buffer rank of the argument = the rank gained
      int q = out_type.rank() - x->rank();
      st = sim::streamify(*x, q, out);
      break;
    }
    case Prim::Promote:
      st = sim::promote(*x, op.k, out);
      break;
    case Prim::Repeat: {
      auto v = op.n.eval(sizes);
      if (!v) return std::nullopt;
      st = sim::repeat(*x, *v, budget, out);
      break;
    }
    case Prim::Flatten:
      st = sim::flatten(*x, op.L.front(), op.L.back(), out);
      break;
    case Prim::Reshape: {
      auto v = op.n.eval(sizes);
      if (!v) return std::nullopt;
      st = sim::reshape(*x, op.L, *v, out);
      break;
    }
    default:
      return std::nullopt;
  }
  if (!st.ok()) return std::nullopt;
  return out;
}

}  // namespace sf::synth
