// The STeP-25 token rules (docs/step25.md "Token rules"), one function per operator over whole token vectors.
#include "core/step2/sim.hpp"

#include <cstdio>
#include <limits>

#include "core/common/hash.hpp"
#include "core/step2/ops.hpp"
#include "core/step2/tile_fn.hpp"

namespace sf::step2 {

using detail::MatD;
using detail::MatF;
using detail::view;

namespace {

using Tokens = std::vector<Token>;

struct SimFailure {
  Diagnostic diag;
};

[[noreturn]] void fail(const Node& n, const char* code, const std::string& msg) {
  throw SimFailure{make_error(code, "line " + std::to_string(n.loc.line) + ": step." + std::string(op_name(n.op)) + ": " + msg,
                           n.loc)};
}

// Stop level of element i of a row-major walk over `shape` (outermost-first): the number of innermost dims at
// their last index, counted while every inner dim is, capped at `cap`.
int level_at(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& shape, int cap) {
  int l = 0;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (idx[d] != shape[d] - 1) break;
    ++l;
  }
  return std::min(l, cap);
}

bool next_index(std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& shape) {
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

Tokens load(const Node& n, const HostTensor& x) {
  const auto& X = x.shape;
  const std::int64_t R = X.size() >= 2 ? X[X.size() - 2] : 1, C = X.back();
  const std::int64_t tr = n.kw.tile.rows, tc = n.kw.tile.cols;
  std::int64_t batch = 1;
  for (std::size_t i = 0; i + 2 < X.size(); ++i) batch *= X[i];
  const std::int64_t tiles_r = R / tr, tiles_c = C / tc, nt = batch * tiles_r * tiles_c;
  std::vector<ValuePtr> cache(static_cast<std::size_t>(nt));
  auto tile = [&](std::int64_t k) {
    auto& slot = cache[static_cast<std::size_t>(k)];
    if (!slot) {
      std::int64_t b = k / (tiles_r * tiles_c), i = (k / tiles_c) % tiles_r, j = k % tiles_c;
      Eigen::Map<const MatF, 0, Eigen::OuterStride<>> m(x.data.data() + b * R * C + i * tr * C + j * tc, tr, tc,
                                                        Eigen::OuterStride<>(C));
      slot = detail::make_tile(m);
    }
    return slot;
  };
  const auto& shape = n.kw.shape;
  const int cap = static_cast<int>(shape.size());
  Tokens out;
  std::vector<std::int64_t> idx(shape.size(), 0);
  do {
    std::int64_t k = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) k = (k + idx[d] % nt * (n.kw.stride[d] % nt)) % nt;
    out.push_back({tile(k), level_at(idx, shape, cap)});
  } while (next_index(idx, shape));
  return out;
}

HostTensor store(const Node& n, const Tokens& in, const std::vector<std::int64_t>& y_shape) {
  // Rows of tiles: concatenated horizontally until a tile with a stop, then stacked.
  std::vector<float> out;
  std::int64_t width = -1, rows = 0;
  std::vector<const Value*> row;
  auto flush = [&] {
    if (row.empty()) return;
    std::int64_t h = row[0]->shape.rows, w = 0;
    for (const Value* t : row) {
      if (t->shape.rows != h) fail(n, "R2-STORE", "a row of tiles mixes tile heights; the output cannot be assembled");
      w += t->shape.cols;
    }
    if (width >= 0 && w != width)
      fail(n, "R2-STORE", "rows of tiles have different widths (" + std::to_string(width) + " and " +
                              std::to_string(w) + " values); the output cannot be assembled");
    width = w;
    std::size_t base = out.size();
    out.resize(base + static_cast<std::size_t>(h * w));
    std::int64_t col = 0;
    for (const Value* t : row) {
      Eigen::Map<MatF, 0, Eigen::OuterStride<>> dst(out.data() + base + col, h, t->shape.cols, Eigen::OuterStride<>(w));
      dst = view(*t);
      col += t->shape.cols;
    }
    rows += h;
    row.clear();
  };
  for (const Token& t : in) {
    row.push_back(t.v.get());
    if (t.lev > 0) flush();
  }
  flush();
  std::int64_t want = 1;
  for (auto d : y_shape) want *= d;
  if (static_cast<std::int64_t>(out.size()) != want)
    fail(n, "R2-STORE", "the stored tiles assemble into " + std::to_string(rows) + " x " + std::to_string(std::max<std::int64_t>(width, 0)) +
                            " = " + std::to_string(out.size()) + " values, but output " + n.tensor + " has " +
                            std::to_string(want) + "; fix: store a stream whose tiles cover the output exactly");
  return {y_shape, std::move(out)};
}

Tokens binary(const Node& n, const Tokens& a, const Tokens& b) {
  if (a.size() != b.size())
    fail(n, "R2-STOPS", "the inputs have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " elements");
  Tokens out;
  out.reserve(a.size());
  const bool accum = n.op == Op::BinaryMapAccum;
  MatD acc;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].lev != b[i].lev)
      fail(n, "R2-STOPS", "element " + std::to_string(i) + " has stop level " + std::to_string(a[i].lev) +
                              " on the first input and " + std::to_string(b[i].lev) +
                              " on the second; the levels of a binary operator's inputs must agree");
    if (!accum) {
      out.push_back({detail::apply_binary(n.kw.fn, *a[i].v, *b[i].v), a[i].lev});
      continue;
    }
    if (acc.size() == 0)
      acc = MatD::Zero(a[i].v->shape.rows, n.kw.fn == Fn::Matmul ? b[i].v->shape.cols : b[i].v->shape.rows);
    detail::accumulate_matmul(n.kw.fn, *a[i].v, *b[i].v, acc);
    if (a[i].lev >= n.kw.rank) {
      out.push_back({detail::make_tile(acc.cast<float>()), a[i].lev - n.kw.rank});
      acc.resize(0, 0);
    }
  }
  return out;
}

Tokens accum(const Node& n, const Tokens& in) {
  Tokens out;
  MatD acc;
  std::vector<const Value*> parts;
  const Fn fn = n.kw.fn;
  const bool retile = fn == Fn::RetileRow || fn == Fn::RetileCol;
  for (const Token& t : in) {
    if (retile) {
      parts.push_back(t.v.get());
    } else {
      MatD x = view(*t.v).cast<double>();
      if (acc.size() == 0) acc = MatD::Constant(x.rows(), x.cols(), fn == Fn::Mul ? 1.0 : fn == Fn::Max ? -std::numeric_limits<double>::infinity() : 0.0);
      if (fn == Fn::Add) acc += x;
      else if (fn == Fn::Mul) acc = acc.cwiseProduct(x);
      else acc = acc.cwiseMax(x);
    }
    if (t.lev < n.kw.rank) continue;
    if (retile) {
      MatF m(n.kw.tile.rows, n.kw.tile.cols);
      std::int64_t off = 0;
      for (const Value* p : parts) {
        if (fn == Fn::RetileRow) m.block(off, 0, p->shape.rows, p->shape.cols) = view(*p);
        else m.block(0, off, p->shape.rows, p->shape.cols) = view(*p);
        off += fn == Fn::RetileRow ? p->shape.rows : p->shape.cols;
      }
      out.push_back({detail::make_tile(m), t.lev - n.kw.rank});
      parts.clear();
    } else {
      out.push_back({detail::make_tile(acc.cast<float>()), t.lev - n.kw.rank});
      acc.resize(0, 0);
    }
  }
  return out;
}

Tokens bufferize(const Node& n, const Tokens& in, const StreamType& out_type) {
  Tokens out;
  std::vector<ValuePtr> tiles;
  for (const Token& t : in) {
    tiles.push_back(t.v);
    if (t.lev < n.kw.rank) continue;
    auto b = std::make_shared<Value>();
    b->is_buffer = true;
    b->shape = out_type.elem.tile;
    b->buffer_shape = out_type.elem.buffer_shape;
    b->tiles = std::move(tiles);
    tiles.clear();
    out.push_back({b, t.lev - n.kw.rank});
  }
  return out;
}

Tokens streamify(const Node& n, const Tokens& in) {
  Tokens out;
  const int b = n.kw.rank;
  const std::int64_t passes = n.kw.repeat.empty() ? 1 : n.kw.repeat[0];
  for (const Token& t : in) {
    const Value& buf = *t.v;
    std::vector<std::int64_t> idx(buf.buffer_shape.size(), 0);
    std::vector<int> levels;
    levels.reserve(buf.tiles.size());
    do levels.push_back(level_at(idx, buf.buffer_shape, b));
    while (next_index(idx, buf.buffer_shape));
    for (std::int64_t p = 0; p < passes; ++p)
      for (std::size_t k = 0; k < buf.tiles.size(); ++k) {
        int l = levels[k];
        if (k + 1 == buf.tiles.size()) {
          if (n.kw.repeat.empty()) l = b + t.lev;
          else l = p + 1 < passes ? b : b + 1 + t.lev;
        }
        out.push_back({buf.tiles[k], l});
      }
  }
  return out;
}

Tokens expand_ref(const Node& n, const Tokens& x, const Tokens& ref) {
  Tokens out;
  out.reserve(ref.size());
  std::size_t xi = 0;
  for (const Token& r : ref) {
    if (xi >= x.size()) fail(n, "R2-STOPS", "the reference stream outlasts the expanded stream");
    out.push_back({x[xi].v, r.lev});
    if (r.lev >= n.kw.rank) ++xi;
  }
  return out;
}

Tokens relevel(const Node& n, const Tokens& in) {
  Tokens out;
  out.reserve(in.size());
  std::int64_t count = 0;
  for (const Token& t : in) {
    int l = t.lev;
    switch (n.op) {
      case Op::Promote: l = n.kw.rank == 0 ? l + 1 : (l >= n.kw.rank ? l + 1 : l); break;
      case Op::Flatten: l = l <= n.kw.min ? l : l <= n.kw.max ? n.kw.min : l - (n.kw.max - n.kw.min); break;
      case Op::Reshape:
        if (n.kw.rank == 0) {
          if (++count == n.kw.chunk) l = std::max(l, 0) + 1, count = 0;
        } else if (l >= n.kw.rank && ++count == n.kw.chunk) {
          l = l + 1, count = 0;
        }
        break;
      default: break;
    }
    out.push_back({t.v, l});
  }
  return out;
}

Tokens repeat_static(const Node& n, const Tokens& in) {
  Tokens out;
  out.reserve(in.size() * static_cast<std::size_t>(n.kw.n));
  for (const Token& t : in)
    for (int k = 0; k < n.kw.n; ++k) out.push_back({t.v, k + 1 < n.kw.n ? 0 : t.lev + 1});
  return out;
}

Tokens retile_streamify(const Node& n, const Tokens& in) {
  Tokens out;
  for (const Token& t : in) {
    auto m = view(*t.v);
    const std::int64_t pieces = n.kw.split_row ? m.rows() : m.cols();
    for (std::int64_t k = 0; k < pieces; ++k)
      out.push_back({detail::make_tile(n.kw.split_row ? MatF(m.row(k)) : MatF(m.col(k))), k + 1 < pieces ? 0 : t.lev});
  }
  return out;
}

}  // namespace

SimResult simulate(const Graph& g, const std::map<std::string, HostTensor, std::less<>>& inputs, const SimOptions& opt) {
  SimResult res;
  std::vector<Tokens> streams(g.streams.size());
  try {
    for (const Node& n : g.nodes) {
      auto in = [&](std::size_t k) -> const Tokens& { return streams[static_cast<std::size_t>(n.inputs.at(k))]; };
      auto set = [&](std::size_t k, Tokens t) { streams[static_cast<std::size_t>(n.outputs.at(k))] = std::move(t); };
      switch (n.op) {
        case Op::OffChipLoad: set(0, load(n, inputs.at(n.tensor))); break;
        case Op::OffChipStore: {
          std::vector<std::int64_t> shape;
          for (const auto& t : g.tensors)
            if (t.name == n.tensor) shape = t.shape;
          res.outputs[n.tensor] = store(n, in(0), shape);
          break;
        }
        case Op::UnaryMap: {
          Tokens o;
          o.reserve(in(0).size());
          for (const Token& t : in(0)) o.push_back({detail::apply_unary(n.kw.fn, *t.v, n.kw.c), t.lev});
          set(0, std::move(o));
          break;
        }
        case Op::BinaryMap:
        case Op::BinaryMapAccum: set(0, binary(n, in(0), in(1))); break;
        case Op::Accum: set(0, accum(n, in(0))); break;
        case Op::Broadcast:
          for (std::size_t k = 0; k < n.outputs.size(); ++k) set(k, in(0));
          break;
        case Op::Bufferize: set(0, bufferize(n, in(0), g.streams[static_cast<std::size_t>(n.outputs[0])].type)); break;
        case Op::Streamify: set(0, streamify(n, in(0))); break;
        case Op::RepeatStatic: set(0, repeat_static(n, in(0))); break;
        case Op::ExpandRef: set(0, expand_ref(n, in(0), in(1))); break;
        case Op::Promote:
        case Op::Flatten:
        case Op::Reshape: set(0, relevel(n, in(0))); break;
        case Op::RetileStreamify: set(0, retile_streamify(n, in(0))); break;
        case Op::Parallelize: {
          std::vector<Tokens> outs(n.outputs.size());
          std::size_t k = 0;
          const int top = g.streams[static_cast<std::size_t>(n.inputs[0])].type.rank();
          for (const Token& t : in(0)) {
            outs[k].push_back(t);
            if (t.lev >= top) k = (k + 1) % outs.size();
          }
          for (std::size_t o = 0; o < outs.size(); ++o) set(o, std::move(outs[o]));
          break;
        }
        case Op::StaticReassemble: {
          const int top = g.streams[static_cast<std::size_t>(n.inputs[0])].type.rank();
          std::vector<std::size_t> pos(n.inputs.size(), 0);
          Tokens o;
          for (std::size_t k = 0;; k = (k + 1) % n.inputs.size()) {
            const Tokens& src = in(k);
            if (pos[k] >= src.size()) break;
            while (pos[k] < src.size()) {
              o.push_back(src[pos[k]]);
              if (src[pos[k]++].lev >= top) break;
            }
          }
          set(0, std::move(o));
          break;
        }
      }
      // A stream is read by exactly one node: free the inputs now unless they are kept.
      if (!opt.keep_streams)
        for (int s : n.inputs) Tokens().swap(streams[static_cast<std::size_t>(s)]);
    }
  } catch (const SimFailure& f) {
    res.error = f.diag;
  }
  if (opt.keep_streams) res.streams = std::move(streams);
  return res;
}

std::string value_summary(const Value& v) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](const Value& t) {
    h = mix64(h ^ fnv1a64(std::string_view(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(float))));
  };
  char buf[96];
  if (!v.is_buffer) {
    mix(v);
    std::snprintf(buf, sizeof buf, "Tile[%lld, %lld] #%08llx", static_cast<long long>(v.shape.rows),
                  static_cast<long long>(v.shape.cols), static_cast<unsigned long long>(h & 0xffffffffULL));
    return buf;
  }
  for (const auto& t : v.tiles) mix(*t);
  std::string s = "[";
  for (std::size_t i = 0; i < v.buffer_shape.size(); ++i) s += (i ? ", " : "") + std::to_string(v.buffer_shape[i]);
  std::snprintf(buf, sizeof buf, "Buffer[Tile[%lld, %lld], %s]] #%08llx", static_cast<long long>(v.shape.rows),
                static_cast<long long>(v.shape.cols), s.c_str(), static_cast<unsigned long long>(h & 0xffffffffULL));
  return buf;
}

std::string token_view(const std::vector<Token>& tokens, std::size_t max_tokens) {
  std::string s;
  for (std::size_t i = 0; i < tokens.size() && i < max_tokens; ++i)
    s += (i ? " " : "") + std::string("(") + value_summary(*tokens[i].v) + ", " + std::to_string(tokens[i].lev) + ")";
  if (tokens.size() > max_tokens) s += " ... (" + std::to_string(tokens.size() - max_tokens) + " more)";
  return s + (s.empty() ? "D" : " D");
}

}  // namespace sf::step2
