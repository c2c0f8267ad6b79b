#include "core/bench/catalogue.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <system_error>

namespace sf::bench {
namespace fs = std::filesystem;

std::string resource_dir() {
  if (const char* env = std::getenv("STEPFORGE_RESOURCES"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "stepforge" / "resources";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return SF_RESOURCE_DIR;
}

Catalogue Catalogue::load(const std::string& dir, Diagnostics& diags) { return load_from(dir, "benchmark", false, diags); }

Catalogue Catalogue::load_v2(const std::string& dir, Diagnostics& diags) {
  return load_from(dir, "benchmark_v2", true, diags);
}

Catalogue Catalogue::load_all(const std::string& dir, Diagnostics& diags) {
  Catalogue c = load(dir, diags);
  Catalogue v2 = load_v2(dir, diags);
  const std::size_t v1_count = c.tasks_.size();
  for (auto& t : v2.tasks_) {
    auto v1_end = c.tasks_.begin() + static_cast<std::ptrdiff_t>(v1_count);
    if (std::any_of(c.tasks_.begin(), v1_end, [&](const step::TaskDoc& v1) { return v1.id == t.id; })) {
      diags.push_back(make_error("D-DUP", "task id '" + t.id + "' is both a step-v1 and a step-v2 task"));
      continue;
    }
    c.tasks_.push_back(std::move(t));
  }
  std::sort(c.tasks_.begin(), c.tasks_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return c;
}

Catalogue Catalogue::load_from(const std::string& dir, const char* subdir, bool v2, Diagnostics& diags) {
  Catalogue c;
  fs::path root = fs::path(dir) / subdir;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (v2) return c;  // a resources directory without the STeP-25 benchmark: no v2 tasks, not an error
    diags.push_back(make_error("IO-READ", "no benchmark directory at '" + root.string() + "'"));
    return c;
  }
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".yaml") files.push_back(it->path());
  }
  if (ec) diags.push_back(make_error("IO-READ", "cannot list '" + root.string() + "': " + ec.message()));
  std::sort(files.begin(), files.end());
  std::set<std::string, std::less<>> ids;
  for (const fs::path& p : files) {
    std::string rel = fs::path(p).lexically_relative(dir).generic_string();
    Diagnostics local;
    auto doc = step::load_task_file(p.string(), local);
    for (auto& d : local) {
      d.message = rel + ": " + d.message;
      diags.push_back(std::move(d));
    }
    if (!doc) continue;
    if (v2 != doc->is_v2()) {
      diags.push_back(make_error("D-DIALECT", rel + ": a task under " + subdir + "/ must be dialect " +
                                                  (v2 ? "step-v2" : "step-v1") + ", not '" + doc->dialect + "'"));
      continue;
    }
    if (v2 && doc->group.empty()) doc->group = doc->id.substr(0, doc->id.find('/'));
    std::string expected = p.lexically_relative(root).replace_extension().generic_string();
    if (doc->id != expected) {
      diags.push_back(make_error("D-VALUE", rel + ": task id '" + doc->id + "' does not match its file (expected '" +
                                                expected + "')"));
      continue;
    }
    if (!ids.insert(doc->id).second) {
      diags.push_back(make_error("D-DUP", rel + ": task id '" + doc->id + "' is defined twice"));
      continue;
    }
    c.tasks_.push_back(std::move(*doc));
  }
  std::sort(c.tasks_.begin(), c.tasks_.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return c;
}

const step::TaskDoc* Catalogue::find(std::string_view id) const {
  auto it = std::lower_bound(tasks_.begin(), tasks_.end(), id, [](const auto& t, std::string_view k) { return t.id < k; });
  return it != tasks_.end() && it->id == id ? &*it : nullptr;
}

std::vector<std::string> Catalogue::groups() const {
  std::set<std::string> g;
  for (const auto& t : tasks_) g.insert(t.group);
  return {g.begin(), g.end()};
}

std::string v2_baseline_path(const std::string& dir, const step::TaskDoc& task) {
  if (task.baseline.empty()) return {};
  return (fs::path(dir) / "solutions_v2" / task.group / task.baseline).string();
}

std::string v2_agent_text(const step::TaskDoc& task) { return task.raw_text_without_impl; }

}  // namespace sf::bench
