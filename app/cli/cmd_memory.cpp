// memory: inspect, export and import the adoption-aware memory of a sage campaign (algorithms §4.6).
//   memory show DIR [--state hot|validated|cold] [--json]   items of DIR/memory.json (DIR may also be a file)
//   memory export DIR FILE                                   a validated copy of DIR/memory.json
//   memory import FILE --into CONFIG [--frozen]              validates FILE, writes memory.import (absolute
//                                                            path) and memory.frozen into the campaign config
// Exit codes: 0 ok, 2 bad input (unreadable or invalid file, bad option), 1 write failure.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "core/learn/config.hpp"
#include "core/memory/memory_store.hpp"

namespace sf::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// DIR/memory.json, or the path itself when it is a file.
std::string memory_path(const std::string& dir) {
  fs::path p(dir);
  std::error_code ec;
  if (fs::is_directory(p, ec)) return (p / "memory.json").string();
  return p.string();
}

std::optional<memory::MemoryStore> load(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::cerr << "error: " << path
              << ": no such file (a sage campaign writes memory.json after its first episode)\n";
    return std::nullopt;
  }
  auto o = memory::load_memory_file(path);
  if (!o.ok()) {
    std::cerr << "error: " << path << ": " << (o.error ? o.error->message : "cannot load") << " ["
              << (o.error ? o.error->code : "M-IMPORT") << "]\n";
    return std::nullopt;
  }
  return std::move(*o.value);
}

int cmd_show(const std::string& dir, const std::string& state, bool as_json) {
  std::optional<memory::ItemState> filter;
  if (!state.empty()) {
    filter = memory::parse_state(state);
    if (!filter) {
      std::cerr << "error: --state " << state << ": expected hot, validated or cold\n";
      return 2;
    }
  }
  const std::string path = memory_path(dir);
  auto store = load(path);
  if (!store) return 2;
  json all = store->to_json();
  json items = json::array();
  for (const auto& it : all["items"])
    if (!filter || it["state"] == memory::state_name(*filter)) items.push_back(it);
  if (as_json) {
    json out = {{"file", path}, {"episodes", store->episodes()}, {"items", items}};
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  int counts[3] = {0, 0, 0};
  for (const auto& it : store->items()) counts[static_cast<int>(it.state)]++;
  std::cout << path << ": " << store->items().size() << " items (" << counts[0] << " cold, " << counts[1]
            << " validated, " << counts[2] << " hot) after " << store->episodes() << " episodes\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-16s %-9s %8s %4s %5s %5s %4s %6s %6s  %s\n", "id", "state", "utility",
                "n_U", "retr", "adopt", "ops", "access", "tokens", "pattern / rule");
  std::cout << line;
  for (const auto& it : store->items()) {
    if (filter && it.state != *filter) continue;
    std::string rule = it.resident_rule.value_or(it.rule);
    if (rule.size() > 70) rule = rule.substr(0, 67) + "...";
    std::string pat = it.pattern.value_or("");
    std::snprintf(line, sizeof line, "%-16s %-9s %8s %4d %5d %5d %4zu %6s %6d  %s%s\n", it.id.c_str(),
                  std::string(memory::state_name(it.state)).c_str(), fmt(it.utility).c_str(), it.n_updates,
                  it.retrieval_count, it.adoption_count, it.adopting_tasks.size(), fmt(it.access, 2).c_str(),
                  it.tokens, pat.empty() ? "" : ("[" + pat + "] ").c_str(), rule.c_str());
    std::cout << line;
  }
  return 0;
}

int cmd_export(const std::string& dir, const std::string& file) {
  auto store = load(memory_path(dir));
  if (!store) return 2;
  if (auto e = memory::save_memory_file(*store, file)) {
    std::cerr << "error: " << file << ": " << e->message << "\n";
    return 1;
  }
  std::cout << "exported " << store->items().size() << " items to " << file << "\n";
  return 0;
}

int cmd_import(const std::string& file, const std::string& config, bool frozen) {
  auto store = load(file);
  if (!store) return 2;
  std::ifstream in(config, std::ios::binary);
  if (!in) {
    std::cerr << "error: cannot read " << config << "\n";
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  in.close();
  json j = json::parse(ss.str(), nullptr, false, true);
  if (j.is_discarded() || !j.is_object()) {
    std::cerr << "error: " << config << ": not a JSON object\n";
    return 2;
  }
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec);
  if (!j.contains("memory") || !j["memory"].is_object()) j["memory"] = json::object();
  j["memory"]["import"] = ec ? file : abs.lexically_normal().string();
  j["memory"]["frozen"] = frozen;
  std::string err;
  if (!learn::config_from_json(j, err)) {
    std::cerr << "error: " << config << ": " << err << "\n";
    return 2;
  }
  const std::string tmp = config + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << j.dump(2) << "\n";
    if (!out) {
      std::cerr << "error: cannot write " << tmp << "\n";
      return 1;
    }
  }
  fs::rename(tmp, config, ec);
  if (ec) {
    std::cerr << "error: cannot replace " << config << ": " << ec.message() << "\n";
    return 1;
  }
  std::cout << "campaign config " << config << " now starts from " << j["memory"]["import"].get<std::string>()
            << " (" << store->items().size() << " items" << (frozen ? ", frozen" : "") << ")\n";
  return 0;
}

}  // namespace

void add_memory_commands(CLI::App& app, int& exit_code) {
  auto* m =
      app.add_subcommand("memory", "show, export and import the adoption-aware memory of a sage campaign");
  m->require_subcommand(1);

  auto dir = std::make_shared<std::string>();
  auto state = std::make_shared<std::string>();
  auto js = std::make_shared<bool>(false);
  auto* show = m->add_subcommand("show", "list the memory items of a campaign workspace (DIR/memory.json)");
  show->add_option("dir", *dir, "campaign workspace folder (or a memory file)")->required();
  show->add_option("--state", *state, "only items in this lifecycle state: hot, validated or cold");
  show->add_flag("--json", *js, "the items as JSON");
  show->callback(
      [dir, state, js, &exit_code] { exit_code = guarded([&] { return cmd_show(*dir, *state, *js); }); });

  auto edir = std::make_shared<std::string>(), efile = std::make_shared<std::string>();
  auto* ex = m->add_subcommand("export", "write the campaign's memory to a versioned JSON file");
  ex->add_option("dir", *edir, "campaign workspace folder")->required();
  ex->add_option("file", *efile, "memory file to write")->required();
  ex->callback([edir, efile, &exit_code] { exit_code = guarded([&] { return cmd_export(*edir, *efile); }); });

  auto ifile = std::make_shared<std::string>(), into = std::make_shared<std::string>();
  auto frozen = std::make_shared<bool>(false);
  auto* im = m->add_subcommand("import", "make a campaign config start from a memory file (validated first)");
  im->add_option("file", *ifile, "memory file (stepforge-memory JSON)")->required();
  im->add_option("--into", *into, "campaign config (JSON) to update")->required();
  im->add_flag("--frozen", *frozen, "no memory updates during the campaign (transfer evaluation)");
  im->callback([ifile, into, frozen, &exit_code] {
    exit_code = guarded([&] { return cmd_import(*ifile, *into, *frozen); });
  });
}

}  // namespace sf::cli
