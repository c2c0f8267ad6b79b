#include "core/step2/perf/task_perf.hpp"

#include <cctype>

#include "core/step2/check.hpp"

namespace sf::step2::perf {

std::vector<std::string> reference_reads(const step::TaskDoc& task) {
  std::vector<std::string> idents;
  const std::string& s = task.reference;
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      idents.emplace_back(s, i, j - i);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {  // a number such as 1e-5 is not a name
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      continue;
    }
    ++i;
  }
  std::vector<std::string> out;
  for (const auto& t : task.tensor_inputs)
    for (const auto& id : idents)
      if (id == t.name) {
        out.push_back(t.name);
        break;
      }
  return out;
}

std::string baseline_path(const step::TaskDoc& task, const std::string& resource_dir) {
  if (task.baseline.empty()) return {};
  auto slash = task.id.rfind('/');
  std::string group = slash == std::string::npos ? std::string() : task.id.substr(0, slash) + "/";
  return resource_dir + "/solutions_v2/" + group + task.baseline;
}

ProgramPerf perf_program(const step::TaskDoc& task, std::string_view impl, const std::vector<Location>& line_starts,
                         const Chip& chip, Options opt) {
  ProgramPerf out;
  CheckResult cr = check(task, impl, line_starts);
  out.diags = std::move(cr.diags);
  const Graph* g = cr.graph();
  if (!g) return out;
  if (!opt.reference_reads) opt.reference_reads = reference_reads(task);
  out.report = evaluate(*g, chip, opt);
  return out;
}

std::optional<std::int64_t> baseline_cycles(const step::TaskDoc& task, const std::string& resource_dir, const Chip& chip,
                                            std::string& why) {
  std::string path = baseline_path(task, resource_dir);
  if (path.empty()) {
    why = "the task names no baseline";
    return std::nullopt;
  }
  Diagnostics ds;
  step::AnyDoc doc = step::load_any_file(path, ds);
  if (!doc.solution) {
    why = path + ": " + (ds.empty() ? std::string("not a solution file") : ds.front().code + " " + ds.front().message);
    return std::nullopt;
  }
  ProgramPerf p = perf_program(task, doc.solution->impl, doc.solution->impl_line_starts, chip);
  if (!p.report) {
    why = path + ": the baseline does not check" +
          (p.diags.empty() ? std::string() : " (" + p.diags.front().code + " " + p.diags.front().message + ")");
    return std::nullopt;
  }
  if (!p.report->simulated) {
    why = path + ": the baseline could not be timed";
    return std::nullopt;
  }
  return p.report->cycles;
}

std::optional<Chip> chip_for(const step::TaskDoc& task, const std::string& override_name,
                             const std::string& resource_dir, std::string& error) {
  std::string name = !override_name.empty() ? override_name : !task.chip.empty() ? task.chip : "accelopt-step";
  return find_chip(name, resource_dir, error);
}

}  // namespace sf::step2::perf
