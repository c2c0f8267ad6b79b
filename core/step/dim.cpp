#include "core/step/dim.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "core/step/name_key.hpp"

namespace sf::step {
namespace {

bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

}  // namespace

Dim Dim::constant(std::int64_t c) {
  Dim d;
  d.num_ = c;
  d.normalise();
  return d;
}

Dim Dim::symbol(std::string name) {
  Dim d;
  d.own_exponents().emplace_back(std::move(name), 1);
  return d;
}

const Dim::Exponents& Dim::no_exponents() {
  static const Exponents none;
  return none;
}

Dim::Exponents& Dim::own_exponents() {
  if (!exps_) exps_ = std::make_shared<Exponents>();
  else if (exps_.use_count() > 1) exps_ = std::make_shared<Exponents>(*exps_);
  return *exps_;
}

void Dim::add_exponent(const std::string& sym, int e) {
  Exponents& ex = own_exponents();
  auto it = std::lower_bound(ex.begin(), ex.end(), sym,
                             [](const std::pair<std::string, int>& p, const std::string& k) { return p.first < k; });
  if (it != ex.end() && it->first == sym)
    it->second += e;
  else
    ex.emplace(it, sym, e);
}

Dim Dim::dynamic(std::string target, int index) { return symbol(target + "#" + std::to_string(index)); }

bool Dim::is_dynamic() const {
  for (const auto& [s, e] : exponents())
    if (s.find('#') != std::string::npos) return true;
  return false;
}

bool Dim::is_symbol() const {
  return num_ == 1 && den_ == 1 && exponents().size() == 1 && exponents().front().second == 1;
}

void Dim::normalise() {
  if (den_ < 0) {
    num_ = -num_;
    den_ = -den_;
  }
  std::int64_t g = std::gcd(num_, den_);
  if (g > 1) {
    num_ /= g;
    den_ /= g;
  }
  if (!exps_) return;
  auto zero = [](const std::pair<std::string, int>& p) { return p.second == 0; };
  if (std::any_of(exps_->begin(), exps_->end(), zero)) std::erase_if(own_exponents(), zero);
  if (exps_->empty()) exps_.reset();
}

Dim Dim::operator*(const Dim& o) const {
  Dim r = *this;
  r.overflow_ = overflow_ || o.overflow_;
  // cross-reduce first to keep numbers small
  std::int64_t g1 = std::gcd(num_, o.den_), g2 = std::gcd(o.num_, den_);
  if (g1 == 0) g1 = 1;
  if (g2 == 0) g2 = 1;
  if (!mul_ok(num_ / g1, o.num_ / g2, r.num_) || !mul_ok(den_ / g2, o.den_ / g1, r.den_)) {
    r.overflow_ = true;
    r.num_ = 1;
    r.den_ = 1;
  }
  for (const auto& [s, e] : o.exponents()) r.add_exponent(s, e);
  r.normalise();
  return r;
}

Dim Dim::operator/(const Dim& o) const {
  Dim inv;
  inv.num_ = o.den_;
  inv.den_ = o.num_;
  inv.overflow_ = o.overflow_;
  for (const auto& [s, e] : o.exponents()) inv.own_exponents().emplace_back(s, -e);  // already sorted
  inv.normalise();
  return *this * inv;
}

std::string Dim::str() const {
  std::string out;
  if (num_ != 1 || exponents().empty() || overflow_) out = overflow_ ? "<overflow>" : std::to_string(num_);
  std::string denom_syms;
  for (const auto& [s, e] : exponents()) {
    for (int i = 0; i < e; ++i) {
      if (!out.empty()) out += '*';
      out += s;
    }
    for (int i = 0; i < -e; ++i) {
      denom_syms += '/';
      denom_syms += s;
    }
  }
  if (out.empty()) out = "1";
  out += denom_syms;
  if (den_ != 1) out += "/" + std::to_string(den_);
  return out;
}

std::optional<std::int64_t> Dim::eval_nonneg(const SizeBinding& b, std::string* why) const {
  if (overflow_) {
    if (why) *why = "its coefficient overflows";
    return std::nullopt;
  }
  // value = num * prod(v^e for e>0) / (den * prod(v^-e for e<0))
  std::int64_t top = num_, bottom = den_;
  for (const auto& [s, e] : exponents()) {
    auto it = b.find(NameKey{s});
    if (it == b.end()) {
      if (why) *why = "size symbol '" + s + "' is not bound";
      return std::nullopt;
    }
    std::int64_t v = it->second;
    if (v < 0) {
      if (why) *why = "size symbol '" + s + "' is negative";
      return std::nullopt;
    }
    std::int64_t& target = e > 0 ? top : bottom;
    for (int i = 0; i < std::abs(e); ++i) {
      if (!mul_ok(target, v, target)) {
        if (why) *why = "its value overflows";
        return std::nullopt;
      }
    }
  }
  if (bottom == 0) {
    if (why) *why = "it divides by zero";
    return std::nullopt;
  }
  if (top % bottom != 0) {
    if (why) *why = "it is not an integer";
    return std::nullopt;
  }
  return top / bottom;
}

std::optional<std::int64_t> Dim::eval(const SizeBinding& b, std::string* why) const {
  auto v = eval_nonneg(b, why);
  if (v && *v <= 0) {
    if (why) *why = "it is not positive";
    return std::nullopt;
  }
  return v;
}

bool is_size_symbol_name(std::string_view s) {
  if (s.empty() || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

std::optional<Dim> parse_dim(std::string_view text, std::string& error) {
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  auto term = [&](Dim& out) -> bool {
    skip();
    if (i >= text.size()) {
      error = "expected a size symbol or an integer";
      return false;
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c)) {
      std::int64_t v = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        v = v * 10 + (text[i] - '0');
        if (v > 2147483647) {
          error = "integer too large";
          return false;
        }
        ++i;
      }
      if (v == 0) {
        error = "a dim must be positive";
        return false;
      }
      out = Dim::constant(v);
      return true;
    }
    if (std::isalpha(c) || c == '_') {
      std::size_t s = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
      std::string name(text.substr(s, i - s));
      if (!is_size_symbol_name(name)) {
        error = "'" + name + "' is not a size symbol (size symbols match [A-Z][A-Za-z0-9]*)";
        return false;
      }
      out = Dim::symbol(name);
      return true;
    }
    error = std::string("unexpected character '") + text[i] + "' in dim";
    return false;
  };
  Dim acc;
  if (!term(acc)) return std::nullopt;
  for (;;) {
    skip();
    if (i >= text.size()) break;
    char op = text[i];
    if (op != '*' && op != '/') {
      error = std::string("unexpected character '") + op + "' in dim";
      return std::nullopt;
    }
    ++i;
    Dim rhs;
    if (!term(rhs)) return std::nullopt;
    acc = op == '*' ? acc * rhs : acc / rhs;
  }
  return acc;
}

std::string dims_str(const Dims& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i) s += ", ";
    s += d[i].str();
  }
  return s + "]";
}

}  // namespace sf::step
