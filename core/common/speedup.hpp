// The one rule for "is this program faster?" (issue 36 item 2): a speedup = baseline cycles / program cycles
// counts as faster than a threshold p (1 = the baseline; Fast_1.5's 1.5) only when it is at least 1% (the
// campaign's `fast_tolerance`) above it: speedup ≥ p · (1 + tolerance). A smaller difference is a tie, in both
// directions: a program within the tolerance of the baseline is neither a win nor a loss. Every Fast_p, best
// speedup, demo moment, heat map and verdict text asks these functions; nothing compares a speedup with 1.0
// itself. Header-only and dialect-neutral (v1 and STeP-25 speedups are the same ratio).
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace sf {

// The default tie tolerance (1%): config key `fast_tolerance`.
inline constexpr double kDefaultFastTolerance = 0.01;
// The largest tolerance a config may set (50%).
inline constexpr double kMaxFastTolerance = 0.5;

// True when `speedup` counts as faster than `threshold`× under the tie tolerance (and strictly above it, so
// that with tolerance 0 an equal speedup is no win). False for a speedup that is not a finite positive number.
inline bool faster_than(double speedup, double tolerance = kDefaultFastTolerance, double threshold = 1.0) {
  if (!std::isfinite(speedup) || speedup <= 0.0) return false;
  // The bound is lowered by 1e-12 relative so that 101/100 counts as ≥ 1 · 1.01 whatever the last bit says.
  return speedup > threshold && speedup >= threshold * (1.0 + tolerance) * (1.0 - 1e-12);
}

enum class SpeedupClass { Faster, Tie, Slower, None };

// Faster (faster_than the baseline), Slower (the baseline is faster_than the program: speedup ≤ 1 / (1 + tol)),
// Tie in between; None for no speedup (absent, not finite, ≤ 0).
inline SpeedupClass classify_speedup(std::optional<double> speedup, double tolerance = kDefaultFastTolerance) {
  if (!speedup || !std::isfinite(*speedup) || *speedup <= 0.0) return SpeedupClass::None;
  if (faster_than(*speedup, tolerance)) return SpeedupClass::Faster;
  if (faster_than(1.0 / *speedup, tolerance)) return SpeedupClass::Slower;
  return SpeedupClass::Tie;
}

// "1.25×" with `decimals` digits (the multiplication sign is UTF-8; `ascii` writes "x").
inline std::string speedup_number(double speedup, int decimals = 2, bool ascii = false) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, speedup);
  return std::string(buf) + (ascii ? "x" : "×");
}

// " (tie)" / " (slower)" / "" after a printed ratio, for reports that print the ratio with more digits.
inline std::string speedup_mark(std::optional<double> speedup, double tolerance = kDefaultFastTolerance) {
  switch (classify_speedup(speedup, tolerance)) {
    case SpeedupClass::Tie: return " (tie)";
    case SpeedupClass::Slower: return " (slower)";
    default: return {};
  }
}

// One speedup as a reader should see it: "1.25×" when faster, "tie (1.00×)" within the tolerance, "0.80×
// (slower)" when slower, "" for none.
inline std::string speedup_text(std::optional<double> speedup, double tolerance = kDefaultFastTolerance,
                                int decimals = 2, bool ascii = false) {
  switch (classify_speedup(speedup, tolerance)) {
    case SpeedupClass::Faster: return speedup_number(*speedup, decimals, ascii);
    case SpeedupClass::Tie: return "tie (" + speedup_number(*speedup, decimals, ascii) + ")";
    case SpeedupClass::Slower: return speedup_number(*speedup, decimals, ascii) + " (slower)";
    case SpeedupClass::None: break;
  }
  return {};
}

// The best speedup of a task or a campaign: "1.25×" when faster, else "no faster program" (a tie or slower:
// nothing beat the baseline by the tolerance), "" for none.
inline std::string best_speedup_text(std::optional<double> speedup, double tolerance = kDefaultFastTolerance,
                                     int decimals = 2, bool ascii = false) {
  const SpeedupClass c = classify_speedup(speedup, tolerance);
  if (c == SpeedupClass::None) return {};
  return c == SpeedupClass::Faster ? speedup_number(*speedup, decimals, ascii) : std::string("no faster program");
}

}  // namespace sf
