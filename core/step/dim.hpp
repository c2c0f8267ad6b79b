// Symbolic dims (step-dialect §1): monomials c · Π X^e with a positive rational c.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sf::step {

using SizeBinding = std::map<std::string, std::int64_t, std::less<>>;

class Dim {
 public:
  Dim() = default;  // the constant 1
  static Dim constant(std::int64_t c);
  static Dim symbol(std::string name);
  // A dynamic dim created by Partition: displayed "L#i", equal only to itself.
  static Dim dynamic(std::string target, int index);

  Dim operator*(const Dim& o) const;
  Dim operator/(const Dim& o) const;
  friend bool operator==(const Dim& a, const Dim& b) {
    return a.num_ == b.num_ && a.den_ == b.den_ && a.overflow_ == b.overflow_ && a.exponents() == b.exponents();
  }

  bool is_constant() const { return exponents().empty(); }
  bool is_dynamic() const;
  bool is_symbol() const;  // exactly one symbol with exponent 1 and coefficient 1
  std::int64_t num() const { return num_; }
  std::int64_t den() const { return den_; }
  // (symbol, exponent) pairs sorted by symbol, no zero exponent. Shared between copies and never changed once
  // a Dim is built (copy on write inside dim.cpp): the type checker and the runner copy dims a lot, and a copy
  // is then a reference count, not an allocation per symbol.
  using Exponents = std::vector<std::pair<std::string, int>>;
  const Exponents& exponents() const { return exps_ ? *exps_ : no_exponents(); }

  // Canonical text: `M`, `N*K`, `D/4`, `3*K/2`, `D*D`, `16`.
  std::string str() const;

  // Value under a binding; dynamic symbols are looked up in the binding too (as "L#i").
  // Fails (nullopt, with a reason) when a symbol is unbound, the value is not a positive integer, or overflows.
  std::optional<std::int64_t> eval(const SizeBinding& b, std::string* why = nullptr) const;
  // Like eval, but allows a zero value (dynamic dims of empty Partition outputs).
  std::optional<std::int64_t> eval_nonneg(const SizeBinding& b, std::string* why = nullptr) const;

 private:
  void normalise();
  void add_exponent(const std::string& sym, int e);  // keeps exps_ sorted (zeros are removed by normalise)
  Exponents& own_exponents();                        // this Dim's own copy, for building it
  static const Exponents& no_exponents();
  std::int64_t num_ = 1, den_ = 1;
  std::shared_ptr<Exponents> exps_;                  // null: a constant
  bool overflow_ = false;
};

using Dims = std::vector<Dim>;

// Parses `dterm { (*|/) dterm }` with dterm = SYMBOL | INT. Error text in `error`.
std::optional<Dim> parse_dim(std::string_view text, std::string& error);
// "[M, N]"
std::string dims_str(const Dims& d);
bool is_size_symbol_name(std::string_view s);  // [A-Z][A-Za-z0-9]*

}  // namespace sf::step
