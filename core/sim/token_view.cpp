#include "core/sim/token_view.hpp"

#include <charconv>
#include <cmath>

namespace sf::sim {

std::vector<Token> token_view(const StreamValue& x, std::size_t max_tokens) {
  std::vector<Token> toks;
  if (max_tokens == 0) return toks;
  const std::int64_t n = x.positions();
  const int r = x.rank();
  if (r >= 0) {
    toks.reserve(std::min<std::size_t>(max_tokens, static_cast<std::size_t>(n) + 1));
    std::vector<std::int64_t> idx(x.dims.size(), 0);
    for (std::int64_t p = 0; p < n; ++p) {
      if (toks.size() >= max_tokens) return toks;
      int t = 0;
      while (t <= r && idx[static_cast<std::size_t>(t)] == x.dims[static_cast<std::size_t>(t)] - 1) ++t;
      toks.push_back(Token{Token::Value, p, std::min(t, r)});
      for (std::size_t k = 0; k < idx.size(); ++k) {  // odometer, i0 fastest
        if (++idx[k] < x.dims[k]) break;
        idx[k] = 0;
      }
    }
  }
  if (toks.size() < max_tokens) toks.push_back(Token{Token::Done, n, 0});
  return toks;
}

namespace {

void append_float(std::string& s, float v) {
  if (std::isnan(v)) {
    s += "NaN";
    return;
  }
  if (std::isinf(v)) {
    s += v > 0 ? "inf" : "-inf";
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, res.ptr);
}

// Nested brackets over esh[axis:], reading from *p.
void append_tensor(std::string& s, const Shape& esh, std::size_t axis, const float*& p) {
  if (axis == esh.size()) {
    append_float(s, *p++);
    return;
  }
  s += '[';
  for (std::int64_t i = 0; i < esh[axis]; ++i) {
    if (i) s += ' ';
    append_tensor(s, esh, axis + 1, p);
  }
  s += ']';
}

}  // namespace

std::string format_element(const StreamValue& x, std::int64_t position) {
  std::string s;
  if (x.fields.size() > 1) s += '(';
  for (std::size_t i = 0; i < x.fields.size(); ++i) {
    if (i) s += ", ";
    const auto& f = x.fields[i];
    const std::int64_t e = shape_size(f.esh);
    const auto off = static_cast<std::size_t>(position * e);
    if (off + static_cast<std::size_t>(e) > f.data.size()) {
      s += '?';
      continue;
    }
    const float* p = f.data.data() + off;
    append_tensor(s, f.esh, 0, p);
  }
  if (x.fields.size() > 1) s += ')';
  return s;
}

std::string format_tokens(const StreamValue& x, const std::vector<Token>& tokens) {
  std::string s;
  for (const auto& t : tokens) {
    if (!s.empty()) s += ' ';
    if (t.kind == Token::Done) {
      s += 'D';
      return s;
    }
    s += format_element(x, t.position);
    if (t.stop > 0) s += " S" + std::to_string(t.stop);
  }
  s += s.empty() ? "…" : " …";
  return s;
}

std::string format_tokens(const StreamValue& x, std::size_t max_tokens) {
  return format_tokens(x, token_view(x, max_tokens));
}

}  // namespace sf::sim
