#include "core/sim/compare.hpp"

#include <cmath>
#include <cstdio>

namespace sf::sim {

CompareStats compare(const float* out, const double* ref, std::int64_t n, double atol, double rtol) {
  CompareStats s;
  s.total = n;
  for (std::int64_t k = 0; k < n; ++k) {
    const double r = static_cast<double>(static_cast<float>(ref[k]));  // round to float32 (nearest even)
    const double o = static_cast<double>(out[k]);
    if (std::isnan(r)) {
      if (!s.ref_nan) s.first_ref_nan = k;
      s.ref_nan = true;
      continue;
    }
    bool good = false;
    bool nonfin = false;
    double d = 0.0;
    if (std::isinf(r)) {
      good = (o == r);
      d = good ? 0.0 : INFINITY;
    } else if (!std::isfinite(o)) {
      nonfin = true;
      d = INFINITY;
    } else {
      d = std::fabs(o - r);
      good = d <= atol + rtol * std::fabs(r);
    }
    if (s.max_abs_at < 0 || d > s.max_abs) {
      s.max_abs = d;
      s.max_abs_at = k;
    }
    if (r != 0.0 && std::isfinite(r)) {
      const double rel = d / std::fabs(r);
      if (s.max_rel_at < 0 || rel > s.max_rel) {
        s.max_rel = rel;
        s.max_rel_at = k;
      }
    }
    if (!good) {
      if (s.bad == 0) {
        s.first_bad = k;
        s.first_bad_nonfinite = nonfin;
      }
      ++s.bad;
      s.nonfinite = s.nonfinite || nonfin;
    }
  }
  return s;
}

std::string_view mismatch_code(const CompareStats& s) {
  return s.first_bad_nonfinite ? "V-NONFINITE" : "V-MISMATCH";
}

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

namespace {

// Stream position (innermost-first) and element index of FT index k.
void split_index(std::int64_t k, const std::vector<std::int64_t>& dims, const Shape& esh, std::string& pos,
                 std::int64_t& elem) {
  const std::int64_t e = shape_size(esh);
  elem = e > 0 ? k % e : 0;
  std::int64_t p = e > 0 ? k / e : 0;
  pos = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const std::int64_t d = dims[i] > 0 ? dims[i] : 1;
    if (i) pos += ", ";
    pos += std::to_string(p % d);
    p /= d;
  }
  pos += "]";
}

std::string tail(const CompareStats& s, const std::vector<std::int64_t>& dims, const Shape& esh) {
  return "; max abs error " + format_number(s.max_abs) + " at " + format_position(s.max_abs_at, dims, esh) +
         "; max rel error " + format_number(s.max_rel) + " at " + format_position(s.max_rel_at, dims, esh);
}

}  // namespace

std::string format_position(std::int64_t k, const std::vector<std::int64_t>& dims, const Shape& esh) {
  if (k < 0) return "-";
  std::string pos;
  std::int64_t e = 0;
  split_index(k, dims, esh, pos, e);
  return pos + " element " + std::to_string(e);
}

std::string mismatch_message(std::string_view output, const CompareStats& s, const std::vector<std::int64_t>& dims,
                             std::string_view dims_text, const Shape& esh, double atol, double rtol, const float* out,
                             const double* ref) {
  std::string m = "output " + std::string(output) + ": " + std::to_string(s.bad) + " of " + std::to_string(s.total) +
                  " values differ (atol " + format_number(atol) + ", rtol " + format_number(rtol) + ")";
  if (s.first_bad >= 0) {
    std::string pos;
    std::int64_t e = 0;
    split_index(s.first_bad, dims, esh, pos, e);
    const double o = out[s.first_bad];
    const double r = static_cast<double>(static_cast<float>(ref[s.first_bad]));
    const double d = std::isfinite(o) && std::isfinite(r) ? std::fabs(o - r) : INFINITY;
    const double tol = std::isfinite(r) ? atol + rtol * std::fabs(r) : 0.0;
    m += "; first at stream position " + pos + " (innermost-first, as in dims " + std::string(dims_text) +
         "), element " + std::to_string(e) + ": got " + format_number(o) + ", expected " + format_number(r) +
         ", |diff| " + format_number(std::isnan(o) ? NAN : d) + " > allowed " + format_number(tol);
  }
  return m + tail(s, dims, esh);
}

std::string pass_message(std::string_view output, const CompareStats& s, const std::vector<std::int64_t>& dims,
                         const Shape& esh, double atol, double rtol) {
  return "output " + std::string(output) + ": all " + std::to_string(s.total) + " values within tolerance (atol " +
         format_number(atol) + ", rtol " + format_number(rtol) + ")" + tail(s, dims, esh);
}

}  // namespace sf::sim
