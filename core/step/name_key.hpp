// A name looked up in an ordered container of std::string keys with std::less<> (sets of task names, size
// bindings): `find(NameKey{name})` compares in the same order as std::string's compare (bytes as unsigned
// char, then length), written out inline so that a lookup does not call memcmp for every node it passes (the
// names are a few bytes and mostly differ early).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace sf::step {

struct NameKey {
  std::string_view s;
};

inline int name_key_cmp(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}
inline bool operator<(const std::string& k, NameKey q) { return name_key_cmp(k, q.s) < 0; }
inline bool operator<(NameKey q, const std::string& k) { return name_key_cmp(q.s, k) < 0; }

}  // namespace sf::step
