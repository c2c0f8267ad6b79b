// The project's one home for small non-cryptographic hashes and the SplitMix64 generator (sha256.hpp is the
// cryptographic one). Everything here is bit-exact and portable: the input generators of the dialect spec
// (§11) are defined in terms of mix64 and fnv1a64, and campaign seeds, extra input seeds and audit samples
// derive from them, so a change here changes results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sf {

inline constexpr std::uint64_t kGolden64 = 0x9E3779B97F4A7C15ULL;  // SplitMix64's increment

// SplitMix64's output function (step-dialect §11 `mix64`).
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One SplitMix64 step from `z` without state: mix64(z + golden). Spreads a seed or a combined hash.
constexpr std::uint64_t splitmix64(std::uint64_t z) { return mix64(z + kGolden64); }

// The SplitMix64 stream: state += golden; return mix64(state).
class SplitMix64 {
 public:
  constexpr explicit SplitMix64(std::uint64_t state) : state_(state) {}
  constexpr std::uint64_t next() {
    state_ += kGolden64;
    return mix64(state_);
  }
  constexpr std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

// FNV-1a, 64 bits, of a byte string (step-dialect §11 `fnv1a64`).
constexpr std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

// FNV-1a over several fields: integers as 8 little-endian bytes, strings as their bytes then their length
// (so ("ab", "c") and ("a", "bc") differ).
class Fnv1a64 {
 public:
  constexpr void bytes(const unsigned char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 0x100000001B3ULL;
  }
  constexpr void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h_ = (h_ ^ static_cast<unsigned char>(v >> (8 * i))) * 0x100000001B3ULL;
  }
  constexpr void str(std::string_view s) {
    for (unsigned char c : s) h_ = (h_ ^ c) * 0x100000001B3ULL;
    u64(s.size());
  }
  constexpr std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xCBF29CE484222325ULL;
};

}  // namespace sf
