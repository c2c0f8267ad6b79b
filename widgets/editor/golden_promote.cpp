#include "widgets/editor/golden_promote.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include "core/bench/catalogue.hpp"
#include "core/learn/golden_demos.hpp"
#include "core/verify/verifier.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/qt_text.hpp"

namespace sf::widgets {

const bench::Catalogue& bundledCatalogue() {
  static const bench::Catalogue cat = [] {
    Diagnostics ds;
    return bench::Catalogue::load(bench::resource_dir(), ds);
  }();
  return cat;
}

QString goldenUserName() {
  QString u = qEnvironmentVariable("USER");
  if (u.isEmpty()) u = qEnvironmentVariable("USERNAME");
  return u;
}

QString goldenFileForWorkspace(const QString& workspaceDir) {
  const QString preferred = agentSettings(false).goldenFile;
  if (!preferred.isEmpty()) return preferred;
  if (workspaceDir.isEmpty()) return {};
  return QDir(workspaceDir).filePath(QString::fromLatin1(store::kGoldenFileName));
}

GoldenPromotion promoteToGoldenFile(const QString& goldenFile, const step::TaskDoc& task,
                                    const GoldenCandidate& c, verify::Verifier& verifier) {
  GoldenPromotion out;
  if (goldenFile.isEmpty()) {
    out.message = QCoreApplication::translate("sf::widgets::GoldenPromotion",
                                              "Not promoted: no golden set file (Preferences → Agent)");
    return out;
  }
  learn::PromoteRequest req;
  req.impl = c.impl;
  req.provenance = c.provenance;
  req.promoted_by = goldenUserName().toStdString();
  req.promoted_at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  req.cycles = c.cycles;
  req.speedup = c.speedup;
  QDir().mkpath(QFileInfo(goldenFile).absolutePath());
  const learn::PromoteResult r = learn::promote_to_golden(goldenFile.toStdString(), task, req, verifier);
  out.ok = r.ok;
  out.added = r.added;
  out.id = qs(r.entry.id);
  if (!r.ok)
    out.message =
        QCoreApplication::translate("sf::widgets::GoldenPromotion", "Not promoted: %1").arg(qs(r.error));
  else
    out.message =
        (r.added ? QCoreApplication::translate("sf::widgets::GoldenPromotion", "promoted %1 to %2 as %3")
                 : QCoreApplication::translate("sf::widgets::GoldenPromotion", "%1 already in %2 as %3"))
            .arg(qs(task.id), goldenFile, out.id);
  return out;
}

GoldenPromotion promoteCatalogueProgram(const QString& goldenFile, const std::string& taskId,
                                        const GoldenCandidate& c) {
  const step::TaskDoc* task = bundledCatalogue().find(taskId);
  if (!task) {
    GoldenPromotion out;
    out.message = QCoreApplication::translate("sf::widgets::GoldenPromotion",
                                              "Not promoted: task '%1' is not in the benchmark catalogue")
                      .arg(qs(taskId));
    return out;
  }
  verify::Verifier verifier;
  return promoteToGoldenFile(goldenFile, *task, c, verifier);
}

std::string campaignModelOf(const nlohmann::json& config) {
  const auto b = config.find("backend");
  if (b == config.end() || !b->is_object()) return {};
  const auto m = b->find("model");
  return m != b->end() && m->is_string() ? m->get<std::string>() : std::string();
}

}  // namespace sf::widgets
