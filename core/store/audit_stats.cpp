// The audit's statistics (audit.hpp): the seeded sample of records to label, the label summary, the
// agreement between two auditors (Cohen's kappa) and their text, CSV and Markdown forms.
#include "core/store/audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <tuple>

#include "core/common/hash.hpp"

namespace sf::store {

namespace {
// Uniform in [0, bound) by rejection (bound > 0).
std::uint64_t bounded(SplitMix64& rng, std::uint64_t bound) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    std::uint64_t r = rng.next();
    if (r < limit) return r % bound;
  }
}
}  // namespace

std::vector<std::size_t> sample_indices(std::size_t population, std::size_t n, std::uint64_t seed) {
  n = std::min(n, population);
  std::vector<std::size_t> perm(population);
  for (std::size_t i = 0; i < population; ++i) perm[i] = i;
  SplitMix64 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    auto j = i + static_cast<std::size_t>(bounded(rng, population - i));
    std::swap(perm[i], perm[j]);
  }
  perm.resize(n);
  return perm;
}

std::vector<AdoptionKey> sample_records(const std::vector<AdoptionEntry>& records, std::size_t n,
                                        std::uint64_t seed) {
  std::vector<const AdoptionEntry*> sorted;
  sorted.reserve(records.size());
  for (const auto& r : records) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const AdoptionEntry* a, const AdoptionEntry* b) {
    return std::tie(a->episode, a->round, a->rank, a->item) <
           std::tie(b->episode, b->round, b->rank, b->item);
  });
  std::vector<AdoptionKey> out;
  for (auto i : sample_indices(sorted.size(), n, seed)) out.push_back(sorted[i]->key());
  return out;
}

double AuditSummary::percent(std::size_t i) const {
  if (labelled == 0 || i >= counts.size()) return 0.0;
  return 100.0 * static_cast<double>(counts[i]) / static_cast<double>(labelled);
}

namespace {

// Calls `fn(key, record)` for every record of `records`, or for the keys of `subset` that are records.
template <class Fn>
void for_each_audit_record(const std::vector<AdoptionEntry>& records, const std::vector<AdoptionKey>* subset,
                     Fn&& fn) {
  if (!subset) {
    for (const auto& r : records) fn(r);
    return;
  }
  std::map<AdoptionKey, const AdoptionEntry*> present;
  for (const auto& r : records) present[r.key()] = &r;
  for (const auto& k : *subset)
    if (auto it = present.find(k); it != present.end()) fn(*it->second);
}

}  // namespace

AuditSummary summarize(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                       std::string_view auditor, const std::vector<AdoptionKey>* subset) {
  AuditSummary s;
  for_each_audit_record(records, subset, [&](const AdoptionEntry& r) {
    ++s.records;
    if (const auto* l = labels.find(r.key(), auditor)) {
      int i = audit_label_index(l->label);
      if (i >= 0) {
        ++s.labelled;
        ++s.counts[static_cast<std::size_t>(i)];
      }
    }
  });
  return s;
}

std::optional<double> cohen_kappa(const std::array<std::array<std::size_t, 3>, 3>& c) {
  double n = 0, agree = 0;
  std::array<double, 3> row{}, col{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      const double v = static_cast<double>(c[i][j]);
      n += v;
      row[i] += v;
      col[j] += v;
      if (i == j) agree += v;
    }
  if (n == 0) return std::nullopt;
  const double po = agree / n;
  double pe = 0;
  for (std::size_t i = 0; i < 3; ++i) pe += (row[i] / n) * (col[i] / n);
  if (pe >= 1.0 - 1e-12) return std::nullopt;
  return (po - pe) / (1.0 - pe);
}

namespace {

// Percentile of sorted values, linear interpolation between closest ranks (type 7).
double audit_quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

AuditAgreement agreement(const std::vector<AdoptionEntry>& records, const AuditLabels& labels,
                         const std::string& auditor_a, const std::string& auditor_b,
                         const std::vector<AdoptionKey>* subset, std::uint64_t seed) {
  AuditAgreement out;
  out.auditor_a = auditor_a;
  out.auditor_b = auditor_b;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (label of a, label of b) per common record
  for_each_audit_record(records, subset, [&](const AdoptionEntry& r) {
    const auto* la = labels.find(r.key(), auditor_a);
    const auto* lb = labels.find(r.key(), auditor_b);
    if (!la || !lb) return;
    const int ia = audit_label_index(la->label), ib = audit_label_index(lb->label);
    if (ia < 0 || ib < 0) return;
    pairs.emplace_back(static_cast<std::size_t>(ia), static_cast<std::size_t>(ib));
    ++out.confusion[pairs.back().first][pairs.back().second];
    if (ia == ib)
      ++out.agree;
    else
      out.disagreements.push_back({r.key(), r.task, la->label, lb->label, la->note, lb->note});
  });
  std::sort(out.disagreements.begin(), out.disagreements.end(),
            [](const AuditDisagreement& x, const AuditDisagreement& y) { return x.key < y.key; });
  out.both = pairs.size();
  if (out.both == 0) return out;
  out.raw = static_cast<double>(out.agree) / static_cast<double>(out.both);
  out.kappa = cohen_kappa(out.confusion);
  std::vector<double> boot;
  boot.reserve(kBootstrapReplicates);
  SplitMix64 rng(seed);
  for (std::size_t b = 0; b < kBootstrapReplicates; ++b) {
    std::array<std::array<std::size_t, 3>, 3> c{};
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto& p = pairs[static_cast<std::size_t>(bounded(rng, pairs.size()))];
      ++c[p.first][p.second];
    }
    if (auto k = cohen_kappa(c)) boot.push_back(*k);
  }
  out.replicates = boot.size();
  if (boot.size() * 2 >= kBootstrapReplicates) {
    std::sort(boot.begin(), boot.end());
    out.ci_low = audit_quantile(boot, 0.025);
    out.ci_high = audit_quantile(boot, 0.975);
  }
  return out;
}

namespace {
std::string pct(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", p);
  return buf;
}
}  // namespace

std::string summary_text(const AuditSummary& s) {
  std::string out;
  char line[128];
  std::snprintf(line, sizeof line, "%-10s %7s %8s\n", "label", "count", "percent");
  out += line;
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i) {
    std::snprintf(line, sizeof line, "%-10s %7zu %7s%%\n", std::string(kAuditLabels[i]).c_str(), s.counts[i],
                  pct(s.percent(i)).c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%-10s %7zu %7s%%\n", "total", s.labelled, s.labelled ? "100.0" : "0.0");
  out += line;
  out += std::to_string(s.labelled) + " of " + std::to_string(s.records) + " adoption records labelled.\n";
  return out;
}

std::string summary_csv(const AuditSummary& s) {
  std::string out = "label,count,percent\n";
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i)
    out += std::string(kAuditLabels[i]) + "," + std::to_string(s.counts[i]) + "," + pct(s.percent(i)) + "\n";
  out += "total," + std::to_string(s.labelled) + "," + (s.labelled ? "100.0" : "0.0") + "\n";
  return out;
}

std::string summary_markdown(const AuditSummary& s) {
  std::string out = "| label | count | percent |\n|---|---:|---:|\n";
  for (std::size_t i = 0; i < kAuditLabels.size(); ++i)
    out += "| " + std::string(kAuditLabels[i]) + " | " + std::to_string(s.counts[i]) + " | " +
           pct(s.percent(i)) + "% |\n";
  out += "| total | " + std::to_string(s.labelled) + " | " + (s.labelled ? "100.0" : "0.0") + "% |\n\n";
  out += std::to_string(s.labelled) + " of " + std::to_string(s.records) + " adoption records labelled.\n";
  return out;
}

}  // namespace sf::store

namespace sf::store {

std::string auditor_display_name(std::string_view auditor) {
  return auditor.empty() ? std::string("(unnamed)") : std::string(auditor);
}

namespace {

std::string audit_fixed3(std::optional<double> v) {
  if (!v) return "undefined";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *v);
  return buf;
}

std::string audit_kappa_phrase(const AuditAgreement& a) {
  std::string out = "Cohen's kappa " + audit_fixed3(a.kappa);
  if (a.ci_low && a.ci_high)
    out += " (95% bootstrap CI " + audit_fixed3(a.ci_low) + " to " + audit_fixed3(a.ci_high) + ", " +
           std::to_string(a.replicates) + " resamples)";
  else if (a.both > 0)
    out += " (no bootstrap interval: kappa is undefined in most resamples)";
  return out;
}

std::string audit_one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

}  // namespace

std::string audit_csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string agreement_text(const AuditAgreement& a) {
  const std::string na = auditor_display_name(a.auditor_a), nb = auditor_display_name(a.auditor_b);
  std::string out = "agreement " + na + " vs " + nb + ": " + std::to_string(a.both) + " records both labelled";
  if (a.both == 0) return out + ".\n";
  out += ", " + std::to_string(a.agree) + " agree (raw agreement " + pct(100.0 * a.raw) + "%), " +
         audit_kappa_phrase(a) + ".\n";
  if (a.disagreements.empty()) return out + "no disagreements.\n";
  out += std::to_string(a.disagreements.size()) + " disagreement" + (a.disagreements.size() == 1 ? "" : "s") +
         ":\n";
  for (const auto& d : a.disagreements) {
    out += "  " + to_string(d.key) + " " + d.task + ": " + na + " " + d.label_a + ", " + nb + " " + d.label_b;
    if (!d.note_a.empty() || !d.note_b.empty())
      out += " (notes: \"" + audit_one_line(d.note_a) + "\" / \"" + audit_one_line(d.note_b) + "\")";
    out += "\n";
  }
  return out;
}

std::string agreement_markdown(const AuditAgreement& a) {
  const std::string na = auditor_display_name(a.auditor_a), nb = auditor_display_name(a.auditor_b);
  std::string out = "**" + na + " vs " + nb + "**: " + std::to_string(a.both) + " records both labelled";
  if (a.both == 0) return out + ".\n";
  out += ", raw agreement " + pct(100.0 * a.raw) + "%, " + audit_kappa_phrase(a) + ".\n";
  if (a.disagreements.empty()) return out;
  out += "\n| record | task | " + na + " | " + nb + " |\n|---|---|---|---|\n";
  for (const auto& d : a.disagreements)
    out += "| " + to_string(d.key) + " | " + d.task + " | " + d.label_a + " | " + d.label_b + " |\n";
  return out;
}

std::string disagreements_csv(const AuditAgreement& a) {
  std::string out = "episode,round,item,task," + audit_csv_field(auditor_display_name(a.auditor_a)) + "," +
                    audit_csv_field(auditor_display_name(a.auditor_b)) + "\n";
  for (const auto& d : a.disagreements)
    out += std::to_string(d.key.episode) + "," + std::to_string(d.key.round) + "," + audit_csv_field(d.key.item) + "," +
           audit_csv_field(d.task) + "," + d.label_a + "," + d.label_b + "\n";
  return out;
}

}  // namespace sf::store
