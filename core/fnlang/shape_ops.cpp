// Compiler: shape builtins, concat, matmul and einsum (step-dialect §10.5).
#include <algorithm>
#include <numeric>

#include "core/fnlang/compiler.hpp"

namespace sf::fnlang {

Compiler::CV Compiler::call_shape_op(const std::string& f, std::vector<CV>& a, const std::vector<BodyLoc>& locs,
                                     BodyLoc at) {
  auto T = [](TV t) { return CV{CV::K::Tensor, 0, std::move(t), {}, {}}; };
  auto given = [&](std::size_t i) { return i < a.size() && a[i].k != CV::K::None; };
  TV x = tensor(a[0], locs[0], (f + "() argument").c_str());
  const std::size_t r = x.shape.size();
  if (f == "transpose") {
    int a0 = 0, a1 = 1;
    if (!given(1) && !given(2)) {
      if (r != 2) fail("ARG", at, "transpose(x) needs a rank-2 tensor, got shape " + format_shape(x.shape) + "; give the two axes to swap");
    } else {
      if (!given(1) || !given(2)) fail("ARG", at, "transpose() needs both axes a0 and a1");
      a0 = norm_axis(need_int(a[1], locs[1], "a0"), r, locs[1]);
      a1 = norm_axis(need_int(a[2], locs[2], "a1"), r, locs[2]);
    }
    std::vector<int> perm(r);
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[static_cast<std::size_t>(a0)], perm[static_cast<std::size_t>(a1)]);
    return T(permute(x, perm, at));
  }
  if (f == "permute") {
    Shape p = need_shape(a[1], locs[1], "dims");
    if (p.size() != r) fail("ARG", locs[1], "permute() needs " + std::to_string(r) + " axes for shape " + format_shape(x.shape));
    std::vector<int> perm;
    std::vector<bool> seen(r, false);
    for (auto v : p) {
      const int ax = norm_axis(v, r, locs[1]);
      if (seen[static_cast<std::size_t>(ax)]) fail("ARG", locs[1], "permute() dims must be a permutation");
      seen[static_cast<std::size_t>(ax)] = true;
      perm.push_back(ax);
    }
    return T(permute(x, perm, at));
  }
  if (f == "reshape") {
    Shape s = need_shape(a[1], locs[1], "shape");
    int infer = -1;
    std::int64_t prod = 1;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == -1) {
        if (infer >= 0) fail("ARG", locs[1], "reshape() allows only one -1");
        infer = static_cast<int>(i);
      } else if (s[i] < 0) {
        fail("ARG", locs[1], "reshape() sizes must be positive or -1");
      } else {
        prod = prod * s[i];
        if (prod > (std::int64_t{1} << 40)) fail("SHAPE", locs[1], "reshape() target " + format_shape(s) + " is too large");
      }
    }
    const std::int64_t total = numel(x.shape);
    if (infer >= 0) {
      if (prod == 0 || total % prod != 0) {
        fail("SHAPE", at, "cannot reshape " + format_shape(x.shape) + " to " + format_shape(s));
      }
      s[static_cast<std::size_t>(infer)] = total / prod;
    }
    if (numel(s) != total) fail("SHAPE", at, "cannot reshape " + format_shape(x.shape) + " to " + format_shape(s));
    check_shape(s, at);
    return T(reshape(x, s));
  }
  if (f == "flatten") {
    if (r == 0) return T(reshape(x, {1}));
    const int s0 = norm_axis(given(1) ? need_int(a[1], locs[1], "start") : 0, r, locs[1]);
    const int s1 = norm_axis(given(2) ? need_int(a[2], locs[2], "end") : -1, r, locs[2]);
    if (s1 < s0) fail("ARG", at, "flatten() needs start <= end");
    Shape s(x.shape.begin(), x.shape.begin() + s0);
    std::int64_t m = 1;
    for (int i = s0; i <= s1; ++i) m *= x.shape[static_cast<std::size_t>(i)];
    s.push_back(m);
    s.insert(s.end(), x.shape.begin() + s1 + 1, x.shape.end());
    return T(reshape(x, s));
  }
  if (f == "unsqueeze") {
    const int ax = norm_axis(need_int(a[1], locs[1], "axis"), r, locs[1], true);
    Shape s = x.shape;
    s.insert(s.begin() + ax, 1);
    check_shape(s, at);
    return T(reshape(x, s));
  }
  if (f == "squeeze") {
    const int ax = norm_axis(need_int(a[1], locs[1], "axis"), r, locs[1]);
    if (x.shape[static_cast<std::size_t>(ax)] != 1) {
      fail("SHAPE", at, "squeeze() axis " + std::to_string(ax) + " of shape " + format_shape(x.shape) + " does not have size 1");
    }
    Shape s = x.shape;
    s.erase(s.begin() + ax);
    return T(reshape(x, s));
  }
  if (f == "broadcast") return T(broadcast_to(x, need_shape(a[1], locs[1], "shape"), at));
  if (f == "chunk") {
    const std::int64_t n = need_int(a[1], locs[1], "n");
    if (r == 0) fail("ARG", at, "chunk() needs a tensor of rank >= 1");
    const int ax = norm_axis(given(2) ? need_int(a[2], locs[2], "axis") : -1, r, locs[2]);
    const std::int64_t size = x.shape[static_cast<std::size_t>(ax)];
    if (n < 1 || n > 64) fail("ARG", locs[1], "chunk() n must be between 1 and 64");
    if (size % n != 0) {
      fail("SHAPE", at, "chunk(): axis " + std::to_string(ax) + " of shape " + format_shape(x.shape) +
                            " has size " + std::to_string(size) + ", not divisible by " + std::to_string(n));
    }
    const ir::Dims cs = contiguous_strides(x.shape);
    Shape piece = x.shape;
    piece[static_cast<std::size_t>(ax)] = size / n;
    ir::Dims st{};
    std::copy(cs.begin(), cs.begin() + static_cast<std::ptrdiff_t>(r), st.begin());
    CV tup{CV::K::Tuple, 0, {}, {}, {}};
    for (std::int64_t i = 0; i < n; ++i) {
      tup.items.push_back(T(gather(x, piece, i * (size / n) * cs[static_cast<std::size_t>(ax)], st, at)));
    }
    return tup;
  }
  if (f == "interleave") {
    TV y = tensor(a[1], locs[1], "interleave() argument 'b'");
    if (x.shape != y.shape) {
      fail("SHAPE", at, "interleave() needs equal shapes, got " + format_shape(x.shape) + " and " + format_shape(y.shape));
    }
    if (r == 0) fail("ARG", at, "interleave() needs tensors of rank >= 1");
    const int ax = norm_axis(given(2) ? need_int(a[2], locs[2], "axis") : -1, r, locs[2]);
    Shape out = x.shape;
    out[static_cast<std::size_t>(ax)] *= 2;
    const int slot = new_slot(out, at);
    ir::Dims dst = contiguous_strides(out);
    const std::int64_t step = dst[static_cast<std::size_t>(ax)];
    dst[static_cast<std::size_t>(ax)] = 2 * step;
    copy_into(slot, dst, 0, x, at);
    copy_into(slot, dst, step, y, at);
    return T(TV{slot, out});
  }
  fail("NAME", at, "unknown function '" + f + "'");
}

Compiler::TV Compiler::concat(const std::vector<TV>& xs, int axis, BodyLoc at) {
  Shape out = xs[0].shape;
  const auto ax = static_cast<std::size_t>(axis);
  out[ax] = 0;
  for (const auto& x : xs) {
    bool ok = x.shape.size() == out.size();
    for (std::size_t i = 0; ok && i < out.size(); ++i) ok = i == ax || x.shape[i] == out[i];
    if (!ok) {
      fail("SHAPE", at, "cannot join shapes " + format_shape(xs[0].shape) + " and " + format_shape(x.shape) +
                            " along axis " + std::to_string(axis));
    }
    out[ax] += x.shape[ax];
  }
  const int slot = new_slot(out, at);
  const ir::Dims cs = contiguous_strides(out);
  std::int64_t pos = 0;
  for (const auto& x : xs) {
    copy_into(slot, cs, pos * cs[ax], x, at);
    pos += x.shape[ax];
  }
  return TV{slot, out};
}

Compiler::TV Compiler::matmul(const TV& a, const TV& b, BodyLoc at) {
  if (a.shape.empty() || b.shape.empty()) {
    fail("SHAPE", at, "matmul needs tensors of rank >= 1, got " + format_shape(a.shape) + " @ " + format_shape(b.shape));
  }
  const bool a1 = a.shape.size() == 1, b1 = b.shape.size() == 1;
  const std::int64_t m = a1 ? 1 : a.shape[a.shape.size() - 2];
  const std::int64_t ka = a.shape.back();
  const std::int64_t kb = b1 ? b.shape[0] : b.shape[b.shape.size() - 2];
  const std::int64_t n = b1 ? 1 : b.shape.back();
  if (ka != kb) {
    fail("SHAPE", at, "matmul shapes " + format_shape(a.shape) + " @ " + format_shape(b.shape) +
                          " do not match (" + std::to_string(ka) + " vs " + std::to_string(kb) + ")");
  }
  Shape ba(a.shape.begin(), a.shape.end() - (a1 ? 1 : 2));
  Shape bb(b.shape.begin(), b.shape.end() - (b1 ? 1 : 2));
  const std::size_t br = std::max(ba.size(), bb.size());
  Shape batch(br, 1);
  for (std::size_t i = 0; i < br; ++i) {
    const std::int64_t da = i < br - ba.size() ? 1 : ba[i - (br - ba.size())];
    const std::int64_t db = i < br - bb.size() ? 1 : bb[i - (br - bb.size())];
    if (da != db && da != 1 && db != 1) {
      fail("SHAPE", at, "matmul batch dimensions of " + format_shape(a.shape) + " and " + format_shape(b.shape) + " do not broadcast");
    }
    batch[i] = da == 1 ? db : da;
  }
  Shape out = batch;
  if (!a1) out.push_back(m);
  if (!b1) out.push_back(n);
  {
    const long double work = static_cast<long double>(numel(batch)) * m * ka * n;
    if (work > 64e6L) fail("LIMIT", at, "matmul " + format_shape(a.shape) + " @ " + format_shape(b.shape) + " needs more than 64000000 steps");
  }
  ir::Op op;
  op.kind = ir::OpKind::Matmul;
  op.in = {a.slot, b.slot, -1};
  op.out = new_slot(out, at);
  op.n = numel(out);
  op.mm_m = m;
  op.mm_k = ka;
  op.mm_n = n;
  const std::int64_t nb = numel(batch);
  const ir::Dims csa = contiguous_strides(ba), csb = contiguous_strides(bb);
  std::vector<std::int64_t> idx(br, 0);
  for (std::int64_t t = 0; t < nb; ++t) {
    std::int64_t oa = 0, ob = 0;
    for (std::size_t i = 0; i < br; ++i) {
      if (i >= br - ba.size() && ba[i - (br - ba.size())] != 1) oa += idx[i] * csa[i - (br - ba.size())];
      if (i >= br - bb.size() && bb[i - (br - bb.size())] != 1) ob += idx[i] * csb[i - (br - bb.size())];
    }
    op.a_off.push_back(oa * m * ka);
    op.b_off.push_back(ob * ka * n);
    for (std::size_t i = br; i-- > 0;) {
      if (++idx[i] < batch[i]) break;
      idx[i] = 0;
    }
  }
  op.flops = 2 * nb * m * ka * n;  // 2·m·k·n per batch (a 1-D operand has m = 1 or n = 1)
  op.loc = file_loc(at);
  m_.dacc_size = std::max(m_.dacc_size, n);
  TV res{op.out, out};
  push(std::move(op));
  return res;
}

Compiler::TV Compiler::einsum(const std::string& spec0, const std::vector<TV>& xs, BodyLoc at) {
  std::string spec;
  for (char c : spec0) {
    if (c != ' ') spec += c;
  }
  const auto arrow = spec.find("->");
  if (arrow == std::string::npos) fail("ARG", at, "einsum spec '" + spec0 + "' needs an explicit '->'");
  const std::string lhs = spec.substr(0, arrow), rhs = spec.substr(arrow + 2);
  std::vector<std::string> terms;
  std::size_t p = 0;
  for (;;) {
    auto q = lhs.find(',', p);
    terms.push_back(lhs.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (xs.size() > 8) fail("ARG", at, "einsum takes at most 8 operands");
  if (terms.size() != xs.size()) {
    fail("ARG", at, "einsum spec '" + spec0 + "' has " + std::to_string(terms.size()) + " operand(s) but " +
                        std::to_string(xs.size()) + " tensor(s) were given");
  }
  auto check_letters = [&](const std::string& t) {
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] < 'a' || t[i] > 'z') fail("ARG", at, "einsum spec '" + spec0 + "': only lowercase letters are allowed (no '...')");
      if (t.find(t[i], i + 1) != std::string::npos) {
        fail("ARG", at, "einsum spec '" + spec0 + "': letter '" + std::string(1, t[i]) + "' repeats within one term (diagonals are not supported)");
      }
    }
  };
  std::int64_t size[26];
  std::fill(std::begin(size), std::end(size), -1);
  for (std::size_t o = 0; o < terms.size(); ++o) {
    check_letters(terms[o]);
    if (terms[o].size() != xs[o].shape.size()) {
      fail("SHAPE", at, "einsum operand " + std::to_string(o) + " '" + terms[o] + "' has " + std::to_string(terms[o].size()) +
                            " letters but shape " + format_shape(xs[o].shape));
    }
    for (std::size_t i = 0; i < terms[o].size(); ++i) {
      auto& s = size[terms[o][i] - 'a'];
      if (s >= 0 && s != xs[o].shape[i]) {
        fail("SHAPE", at, "einsum letter '" + std::string(1, terms[o][i]) + "' has sizes " + std::to_string(s) + " and " +
                              std::to_string(xs[o].shape[i]));
      }
      s = xs[o].shape[i];
    }
  }
  check_letters(rhs);
  std::string letters = rhs;
  for (char c : rhs) {
    if (size[c - 'a'] < 0) fail("ARG", at, "einsum output letter '" + std::string(1, c) + "' does not appear in any operand");
  }
  for (const auto& t : terms) {
    for (char c : t) {
      if (letters.find(c) == std::string::npos) letters += c;
    }
  }
  ir::EinsumPlan plan;
  plan.nops = static_cast<int>(xs.size());
  plan.nout = static_cast<int>(rhs.size());
  Shape out;
  for (char c : rhs) out.push_back(size[c - 'a']);
  for (char c : letters) plan.sizes.push_back(size[c - 'a']);
  std::int64_t work = 1;
  for (auto s : plan.sizes) work = std::min<std::int64_t>(work * std::max<std::int64_t>(s, 1), std::int64_t{1} << 40);
  if (work > 64'000'000) fail("LIMIT", at, "einsum '" + spec0 + "' needs more than 64000000 steps");
  for (std::size_t o = 0; o < xs.size(); ++o) {
    plan.operand_slots.push_back(xs[o].slot);
    const ir::Dims cs = contiguous_strides(xs[o].shape);
    std::vector<std::int64_t> st(letters.size(), 0);
    for (std::size_t i = 0; i < terms[o].size(); ++i) st[letters.find(terms[o][i])] = cs[i];
    plan.strides.push_back(std::move(st));
  }
  ir::Op op;
  op.kind = ir::OpKind::Einsum;
  op.out = new_slot(out, at);
  op.n = numel(out);
  op.plan = static_cast<int>(m_.plans.size());
  // 2 per multiply-add for two operands; in general n operands take n - 1 multiplies and one add per
  // combination of letter values: n × the product of all letter sizes (0 if a size is 0).
  op.flops = static_cast<std::int64_t>(xs.size());
  for (auto v : plan.sizes) op.flops *= v;
  op.loc = file_loc(at);
  m_.plans.push_back(std::move(plan));
  TV res{op.out, out};
  push(std::move(op));
  return res;
}

}  // namespace sf::fnlang
