// Diagnostics: the one error type every core module reports to users.
// A diagnostic carries a spec code (e.g. "A-MULTI"), a stage derived from the code,
// a message and a file-relative 1-based line:column (0 = unknown).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sf {

enum class Severity { Error, Warning, Note };

// Verification stages (step-dialect §8, algorithms §2). Derived from the code prefix by stage_of().
// Cost: the cost model (C-*), which runs only on verified programs.
enum class Stage { Document, Parse, Name, Affine, Type, Output, Shape, Runtime, Limit, Numeric, Task, Io, Cost };

struct Location {
  int line = 0;    // 1-based file line; 0 = unknown
  int column = 0;  // 1-based column; 0 = unknown
  bool known() const { return line > 0; }
  friend bool operator==(const Location&, const Location&) = default;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;     // spec code, e.g. "T-RANK"
  std::string message;  // full message text, as specified
  Location loc;
  Stage stage() const;
  bool is_error() const { return severity == Severity::Error; }
};

using Diagnostics = std::vector<Diagnostic>;

Stage stage_of(std::string_view code);
std::string_view stage_name(Stage s);
// Parses "parse", "type", ... back into a Stage; returns false for unknown names.
bool parse_stage(std::string_view name, Stage& out);
std::string_view severity_name(Severity s);

Diagnostic make_error(std::string code, std::string message, Location loc = {});
Diagnostic make_warning(std::string code, std::string message, Location loc = {});

bool has_errors(const Diagnostics& ds);
// Sorts by (line, column) keeping the original order of equal locations; keeps at most `limit` errors
// (warnings are kept in addition).
void sort_and_cap(Diagnostics& ds, std::size_t limit = 20);

// "file:line:col: error: message" (compiler style); file may be empty.
std::string format_diagnostic(const Diagnostic& d, std::string_view file);

}  // namespace sf
