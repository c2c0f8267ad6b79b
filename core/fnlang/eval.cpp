// Evaluation of a compiled Program: typed kernels (eval_kernels.hpp) over preallocated workspace slots.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/fnlang/eval_kernels.hpp"
#include "core/fnlang/fnlang.hpp"

namespace sf::fnlang {

namespace {

using ir::Op;

}  // namespace

template <class S>
Workspace<S>::Workspace(const Program& p) : prog_(&p) {
  const auto& m = p.m_;
  std::int64_t total = 0;
  for (const auto& s : m.slot_defs) {
    if (s.arg < 0) total += s.size;
  }
  buf_.assign(static_cast<std::size_t>(total), S(0));
  rd_.assign(m.slot_defs.size(), nullptr);
  wr_.assign(m.slot_defs.size(), nullptr);
  std::int64_t off = 0;
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i) {
    const auto& s = m.slot_defs[i];
    if (s.arg >= 0) continue;
    S* base = buf_.data() + off;
    rd_[i] = base;
    wr_[i] = base;
    if (s.const_off >= 0) {
      for (std::int64_t j = 0; j < s.size; ++j) base[j] = S(m.consts[static_cast<std::size_t>(s.const_off + j)]);
    }
    off += s.size;
  }
  dacc_.assign(static_cast<std::size_t>(std::max<std::int64_t>(m.dacc_size, 1)), 0.0);
  idx_.assign(static_cast<std::size_t>(std::max<std::int64_t>(m.idx_size, 1)), 0);
  p.run(m.prologue, *this, nullptr);
}


template <class S>
bool Program::run(const std::vector<ir::Op>& ops, Workspace<S>& ws, EvalReport* report) const {
  EvalReport* frag = m_.reference ? report : nullptr;
  auto R = [&](int slot) { return slot < 0 ? nullptr : ws.rd_[static_cast<std::size_t>(slot)]; };
  for (const Op& op : ops) {
    S* o = ws.wr_[static_cast<std::size_t>(op.out)];
    if (!kernels::exec(op, R(op.in[0]), R(op.in[1]), R(op.in[2]), o, m_, ws.rd_, ws.dacc_.data(), ws.idx_.data(),
                       frag, report))
      return false;
  }
  return true;
}

bool Program::batchable() const {
  for (const Op& op : m_.ops)
    if (op.kind == ir::OpKind::OneHot || op.kind == ir::OpKind::Einsum) return false;
  return true;
}

template <class S>
void Workspace<S>::reserve_batch(std::int64_t cap) {
  if (cap <= batch_cap_) return;
  const auto& m = prog_->m_;
  std::int64_t total = 0;
  std::vector<std::int64_t> off(m.slot_defs.size(), -1);
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i) {
    if (m.slot_defs[i].arg >= 0) continue;
    off[i] = total;
    total += m.slot_defs[i].size * cap;
  }
  batch_buf_.assign(static_cast<std::size_t>(total), S(0));
  batch_wr_.assign(m.slot_defs.size(), nullptr);
  for (std::size_t i = 0; i < m.slot_defs.size(); ++i)
    if (off[i] >= 0) batch_wr_[i] = batch_buf_.data() + off[i];
  batch_rd_.assign(m.slot_defs.size(), nullptr);
  batch_st_.assign(m.slot_defs.size(), 0);
  batch_cap_ = cap;
}

// Evaluates `count` elements op by op over chunks: a slot whose value differs per element ("varying": it
// depends on an argument with a non-zero stride) lives in a chunk buffer (element e at e * slot size);
// the others are computed once per chunk in the ordinary workspace. Every element sees exactly the
// arithmetic of eval() (same kernels, same order of operations per element), so results are bit-identical.
template <class S>
bool Program::eval_batch(const S* const* args, const std::int64_t* arg_strides, S* const* outs,
                         const std::int64_t* out_strides, std::int64_t count, Workspace<S>& ws,
                         EvalReport* report) const {
  if (ws.prog_ != this) {
    if (report) report->error = make_error("X-EVAL", "fnlang: the workspace was created for another program");
    return false;
  }
  const std::size_t nargs = m_.arg_slots.size(), nouts = m_.out_slots.size();
  if (count <= 0) return true;
  if (!batchable() || count == 1) {
    ws.batch_args_.resize(nargs);
    ws.batch_outs_.resize(nouts);
    for (std::int64_t e = 0; e < count; ++e) {
      for (std::size_t i = 0; i < nargs; ++i) ws.batch_args_[i] = args[i] + e * arg_strides[i];
      for (std::size_t j = 0; j < nouts; ++j) ws.batch_outs_[j] = outs[j] + e * out_strides[j];
      if (!eval(ws.batch_args_.data(), ws.batch_outs_.data(), ws, report)) return false;
    }
    return true;
  }
  EvalReport* frag = m_.reference ? report : nullptr;
  std::int64_t per = 0;
  for (const auto& s : m_.slot_defs)
    if (s.arg < 0) per += s.size;
  const std::int64_t cap = std::max<std::int64_t>(1, std::min<std::int64_t>(256, (1 << 16) / std::max<std::int64_t>(per, 1)));
  ws.reserve_batch(cap);
  // Which slots vary per element: arguments with a non-zero stride, and every slot written by an op that
  // reads a varying slot (a slot written by several ops, e.g. a concatenation, varies if any writer does).
  auto& vary = ws.batch_vary_;
  bool same_mask = ws.batch_mask_.size() == nargs;
  for (std::size_t i = 0; same_mask && i < nargs; ++i) same_mask = ws.batch_mask_[i] == (arg_strides[i] != 0);
  if (!same_mask) {
    ws.batch_mask_.resize(nargs);
    for (std::size_t i = 0; i < nargs; ++i) ws.batch_mask_[i] = arg_strides[i] != 0;
    vary.assign(m_.slot_defs.size(), 0);
    for (std::size_t i = 0; i < nargs; ++i) vary[static_cast<std::size_t>(m_.arg_slots[i])] = arg_strides[i] != 0;
  }
  for (bool changed = !same_mask; changed;) {
    changed = false;
    for (const Op& op : m_.ops) {
      const auto out = static_cast<std::size_t>(op.out);
      if (vary[out]) continue;
      for (int in : op.in) {
        if (in >= 0 && vary[static_cast<std::size_t>(in)]) {
          vary[out] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  auto& st = ws.batch_st_;
  auto& vrd = ws.batch_rd_;
  for (std::size_t i = 0; i < m_.slot_defs.size(); ++i) {
    st[i] = vary[i] && m_.slot_defs[i].arg < 0 ? m_.slot_defs[i].size : 0;
    vrd[i] = ws.batch_wr_[i];
  }
  for (std::int64_t e0 = 0; e0 < count; e0 += cap) {
    const std::int64_t c = std::min(cap, count - e0);
    for (std::size_t i = 0; i < nargs; ++i) {
      const auto slot = static_cast<std::size_t>(m_.arg_slots[i]);
      if (arg_strides[i] == 0) {
        ws.rd_[slot] = args[i];
      } else {
        st[slot] = arg_strides[i];
        vrd[slot] = args[i] + e0 * arg_strides[i];
      }
    }
    for (const Op& op : m_.ops) {
      const auto out = static_cast<std::size_t>(op.out);
      std::int64_t sa[3] = {0, 0, 0};
      const S* pa[3] = {nullptr, nullptr, nullptr};
      for (int k = 0; k < 3; ++k) {
        const int in = op.in[static_cast<std::size_t>(k)];
        if (in < 0) continue;
        const auto u = static_cast<std::size_t>(in);
        sa[k] = st[u];
        pa[k] = st[u] ? vrd[u] : ws.rd_[u];
      }
      if (!vary[out]) {
        if (!kernels::exec(op, pa[0], pa[1], pa[2], ws.wr_[out], m_, ws.rd_, ws.dacc_.data(), ws.idx_.data(), frag,
                           report))
          return false;
        continue;
      }
      const std::int64_t osz = m_.slot_defs[out].size;
      S* o = ws.batch_wr_[out];
      const bool scalar = op.n == 1 && osz == 1 && sa[0] <= 1 && sa[1] <= 1 && sa[2] <= 1;
      if (op.kind == ir::OpKind::Unary && sa[0] == op.n && osz == op.n) {
        kernels::unary(op, pa[0], o, op.n * c);
      } else if (op.kind == ir::OpKind::Binary && scalar && (sa[0] | sa[1]) != 0) {
        const ir::Pattern pat = sa[0] == 0 ? ir::Pattern::ScalarA : sa[1] == 0 ? ir::Pattern::ScalarB : ir::Pattern::Same;
        kernels::binary(op, pat, c, pa[0], pa[1], o, frag);
      } else if (op.kind == ir::OpKind::Binary && op.pat == ir::Pattern::Same && sa[0] == op.n && sa[1] == op.n &&
                 osz == op.n) {
        kernels::binary(op, ir::Pattern::Same, op.n * c, pa[0], pa[1], o, frag);
      } else if (op.kind == ir::OpKind::Ternary && scalar) {
        const bool where = static_cast<ir::TerFn>(op.fn) == ir::TerFn::Where;
        for (std::int64_t e = 0; e < c; ++e)
          o[e] = kernels::ternary1(where, pa[0][e * sa[0]], pa[1][e * sa[1]], pa[2][e * sa[2]]);
      } else if (op.kind == ir::OpKind::Copy && op.contiguous && scalar) {
        if (sa[0] == 0) {
          std::fill_n(o, c, pa[0][op.src_off]);
        } else {
          std::copy_n(pa[0] + op.src_off, c, o);
        }
      } else if (op.kind == ir::OpKind::Binary) {
        // Any other binary op (e.g. a vector state times a per-element scalar): one call for the chunk, the
        // kernel walks the rows (exec would run it row by row through the same loop).
        kernels::binary(op, op.pat, op.n, pa[0], pa[1], o, frag, kernels::Rows{c, sa[0], sa[1], osz});
      } else {
        for (std::int64_t e = 0; e < c; ++e) {
          if (!kernels::exec(op, pa[0] ? pa[0] + e * sa[0] : nullptr, pa[1] ? pa[1] + e * sa[1] : nullptr,
                             pa[2] ? pa[2] + e * sa[2] : nullptr, o + e * osz, m_, ws.rd_, ws.dacc_.data(),
                             ws.idx_.data(), frag, report))
            return false;
        }
      }
    }
    for (std::size_t j = 0; j < nouts; ++j) {
      const auto slot = static_cast<std::size_t>(m_.out_slots[j]);
      std::int64_t n = 1;
      for (auto d : m_.out_shapes[j]) n *= d;
      S* dst = outs[j] + e0 * out_strides[j];
      if (st[slot] == 0) {
        for (std::int64_t e = 0; e < c; ++e) std::copy_n(ws.rd_[slot], n, dst + e * out_strides[j]);
      } else if (st[slot] == n && out_strides[j] == n) {
        std::copy_n(vrd[slot], n * c, dst);
      } else {
        for (std::int64_t e = 0; e < c; ++e) std::copy_n(vrd[slot] + e * st[slot], n, dst + e * out_strides[j]);
      }
    }
  }
  return true;
}

template <class S>
bool Program::eval(const S* const* args, S* const* outs, Workspace<S>& ws, EvalReport* report) const {
  if (ws.prog_ != this) {
    if (report) report->error = make_error("X-EVAL", "fnlang: the workspace was created for another program");
    return false;
  }
  for (std::size_t i = 0; i < m_.arg_slots.size(); ++i) ws.rd_[static_cast<std::size_t>(m_.arg_slots[i])] = args[i];
  if (!run(m_.ops, ws, report)) return false;
  for (std::size_t j = 0; j < m_.out_slots.size(); ++j) {
    const S* src = ws.rd_[static_cast<std::size_t>(m_.out_slots[j])];
    std::int64_t n = 1;
    for (auto d : m_.out_shapes[j]) n *= d;
    std::copy_n(src, n, outs[j]);
  }
  return true;
}

template class Workspace<float>;
template class Workspace<double>;
template bool Program::eval<float>(const float* const*, float* const*, Workspace<float>&, EvalReport*) const;
template bool Program::eval<double>(const double* const*, double* const*, Workspace<double>&, EvalReport*) const;
template bool Program::eval_batch<float>(const float* const*, const std::int64_t*, float* const*, const std::int64_t*,
                                         std::int64_t, Workspace<float>&, EvalReport*) const;
template bool Program::eval_batch<double>(const double* const*, const std::int64_t*, double* const*,
                                          const std::int64_t*, std::int64_t, Workspace<double>&, EvalReport*) const;

}  // namespace sf::fnlang
