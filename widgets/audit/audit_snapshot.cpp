#include "widgets/audit/audit_snapshot.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/learn/config.hpp"
#include "core/store/workspace.hpp"
#include "widgets/qt_text.hpp"

namespace sf::widgets {

namespace fs = std::filesystem;

QString memoryDiagnosticText(const Diagnostic& d) {
  return qs(d.message) + QStringLiteral(" [") + qs(d.code) + QLatin1Char(']');
}

namespace {

// The memory the campaign started from: its memory.import file, found through the workspace's and the config's
// own readers (campaign.json checked and bounded, memory.import read as the campaign reads it); none when the
// file is gone or unreadable.
std::optional<memory::MemoryStore> importedMemoryOf(const fs::path& dir) {
  nlohmann::json config;
  std::string err;
  if (!store::Workspace::read_config(dir, config, err) || !config.contains("memory") || !config["memory"].is_object())
    return std::nullopt;
  auto mem = learn::sage_memory_from_json(config["memory"], err);
  if (!mem || mem->import.empty() || !fs::exists(mem->import)) return std::nullopt;
  auto o = memory::load_memory_file(mem->import);
  if (!o.ok()) return std::nullopt;
  return std::move(o.value);
}

// A classic campaign (single / agent / adaptive) writes its experience set to memory.json too
// ({"kind": "experience-set", ...}, core/learn/engine_classic.cpp): not a sage memory, and not an error.
bool isExperienceSet(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec || size > (64u << 20)) return false;  // the memory loader's bound
  std::ifstream in(file, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  const auto k = j.find("kind");
  return k != j.end() && k->is_string() && k->get<std::string>() == "experience-set";
}

}  // namespace

AuditMemorySnapshotPtr buildAuditMemorySnapshot(const QString& dir, const std::vector<learn::Event>& events,
                                                qint64 malformed, const QString& logError) {
  auto s = std::make_shared<AuditMemorySnapshot>();
  const fs::path d = dir.toStdString();
  s->dir = dir;
  s->events = static_cast<qint64>(events.size());
  s->malformed = malformed;

  // The audit: the core projection over the typed events, then audit.json (the labels' primary copy).
  if (!logError.isEmpty()) {
    s->auditError = logError;
  } else {
    for (const auto& e : events) s->verdicts.apply(e);
    std::string err;
    if (!store::load_audit_workspace(d, s->verdicts.log(), s->audit, err)) s->auditError = qs(err);
  }

  // The memory: memory.json (when present) holds the items; the events give trajectories, budget and the items
  // when there is no memory.json.
  s->memoryFileExists = fs::exists(d / "memory.json");
  if (s->memoryFileExists) {
    auto o = memory::load_memory_file((d / "memory.json").string());
    if (o.ok()) s->memory = std::move(o.value);
    else if (isExperienceSet(d / "memory.json")) s->memoryFileExists = false;  // no sage memory here
    else s->memoryError = memoryDiagnosticText(*o.error);
  }
  if (s->memoryError.isEmpty()) s->memoryError = logError;
  if (s->memoryError.isEmpty()) {
    s->initial = importedMemoryOf(d);
    s->memoryView = learn::MemoryView(s->initial);
    for (const auto& e : events) {
      s->lastSeq = std::max<qint64>(s->lastSeq, e.seq);
      s->memoryView.apply(e);
    }
  }
  return s;
}

}  // namespace sf::widgets
