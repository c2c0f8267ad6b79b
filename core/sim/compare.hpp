// Numeric comparison of one output field against the reference (step-dialect §12).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim/stream_value.hpp"

namespace sf::sim {

struct CompareStats {
  std::int64_t total = 0;        // values compared (n)
  std::int64_t bad = 0;          // mismatches
  std::int64_t first_bad = -1;   // FT index of the first mismatch, -1 if none
  double max_abs = 0.0;          // max |out - ref| (inf when out is non-finite and ref finite)
  std::int64_t max_abs_at = -1;  // FT index, -1 if no comparable value
  double max_rel = 0.0;          // max |out - ref| / |ref| over finite ref != 0
  std::int64_t max_rel_at = -1;   // FT index, -1 if no ref != 0
  bool nonfinite = false;        // some mismatch has out NaN/inf with a finite ref
  bool first_bad_nonfinite = false;  // the first mismatch is such a value (-> V-NONFINITE)
  bool ref_nan = false;          // some ref value is NaN (task error X-REF-NAN; caller decides)
  std::int64_t first_ref_nan = -1;
  bool ok() const { return bad == 0 && !ref_nan; }
};

// Rounds each reference double to float32 (round to nearest even), then compares in double:
// ok iff |out - ref| <= atol + rtol*|ref|; ref ±inf ok iff out is the same inf; out NaN/inf with finite ref
// is a mismatch; ref NaN sets ref_nan (that value is neither good nor bad).
CompareStats compare(const float* out, const double* ref, std::int64_t n, double atol, double rtol);

// "V-NONFINITE" if the first mismatch is a non-finite program value, else "V-MISMATCH".
std::string_view mismatch_code(const CompareStats& s);

// The exact V-MISMATCH / V-NONFINITE message of §12. dims: integer dims innermost-first (to turn FT
// indices into stream positions); dims_text: the dims as printed in the message ("[K, M]"); esh: the
// element shape of the field. Numbers print with %.9g; NaN/inf as "NaN", "inf", "-inf".
std::string mismatch_message(std::string_view output, const CompareStats& s, const std::vector<std::int64_t>& dims,
                             std::string_view dims_text, const Shape& esh, double atol, double rtol, const float* out,
                             const double* ref);

// Summary of a passing output: "output {S}: all {n} values within tolerance (atol {a}, rtol {r}); max abs
// error {ea} at {pos}; max rel error {er} at {pos}".
std::string pass_message(std::string_view output, const CompareStats& s, const std::vector<std::int64_t>& dims,
                         const Shape& esh, double atol, double rtol);

// "[i0, ..., ir] element e" for FT index k (e: row-major index inside the element); "-" for k < 0.
std::string format_position(std::int64_t k, const std::vector<std::int64_t>& dims, const Shape& esh);

// %.9g with "NaN", "inf", "-inf".
std::string format_number(double v);

}  // namespace sf::sim
