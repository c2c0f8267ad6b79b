#include "core/common/diagnostic.hpp"

#include <algorithm>

namespace sf {

Stage stage_of(std::string_view code) {
  // Codes whose stage is not their prefix's (documented in docs/diagnostics.md).
  if (code == "X-DIM") return Stage::Shape;
  if (code == "C-BW") return Stage::Type;  // STeP-25: a check-stage code (compute_bw / par_dispatch < 1)
  if (code.empty()) return Stage::Io;
  switch (code[0]) {
    case 'D': return Stage::Document;
    case 'P': return Stage::Parse;
    case 'N': return Stage::Name;
    case 'A': return Stage::Affine;
    case 'T': return Stage::Type;
    case 'O': return Stage::Output;
    case 'R': return Stage::Runtime;
    case 'L': return Stage::Limit;
    case 'V': return Stage::Numeric;
    case 'X': return Stage::Task;
    case 'W': return Stage::Type;
    case 'C': return Stage::Cost;
    default: return Stage::Io;
  }
}

Stage Diagnostic::stage() const { return stage_of(code); }

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Document: return "document";
    case Stage::Parse: return "parse";
    case Stage::Name: return "name";
    case Stage::Affine: return "affine";
    case Stage::Type: return "type";
    case Stage::Output: return "output";
    case Stage::Shape: return "shape";
    case Stage::Runtime: return "runtime";
    case Stage::Limit: return "limit";
    case Stage::Numeric: return "numeric";
    case Stage::Task: return "task";
    case Stage::Io: return "io";
    case Stage::Cost: return "cost";
  }
  return "io";
}

bool parse_stage(std::string_view name, Stage& out) {
  for (Stage s : {Stage::Document, Stage::Parse, Stage::Name, Stage::Affine, Stage::Type, Stage::Output,
                  Stage::Shape, Stage::Runtime, Stage::Limit, Stage::Numeric, Stage::Task, Stage::Io, Stage::Cost}) {
    if (stage_name(s) == name) {
      out = s;
      return true;
    }
  }
  return false;
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

Diagnostic make_error(std::string code, std::string message, Location loc) {
  return Diagnostic{Severity::Error, std::move(code), std::move(message), loc};
}

Diagnostic make_warning(std::string code, std::string message, Location loc) {
  return Diagnostic{Severity::Warning, std::move(code), std::move(message), loc};
}

bool has_errors(const Diagnostics& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.is_error(); });
}

void sort_and_cap(Diagnostics& ds, std::size_t limit) {
  std::stable_sort(ds.begin(), ds.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.column < b.loc.column;
  });
  Diagnostics out;
  std::size_t errors = 0;
  for (auto& d : ds) {
    if (d.is_error()) {
      if (errors >= limit) continue;
      ++errors;
    }
    out.push_back(std::move(d));
  }
  ds = std::move(out);
}

std::string format_diagnostic(const Diagnostic& d, std::string_view file) {
  std::string s;
  if (!file.empty()) {
    s += file;
    s += ':';
  }
  if (d.loc.known()) {
    s += std::to_string(d.loc.line) + ':' + std::to_string(std::max(d.loc.column, 1)) + ':';
  }
  if (!s.empty()) s += ' ';
  s += severity_name(d.severity);
  s += ": ";
  s += d.message;
  s += " [" + d.code + "]";
  return s;
}

}  // namespace sf
