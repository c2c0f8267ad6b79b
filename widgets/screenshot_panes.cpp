#include "widgets/screenshot_panes.hpp"

#include <QCoreApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QSpinBox>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

#include "core/bench/catalogue.hpp"
#include "core/inspect/perf2_time.hpp"
#include "core/step/task.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "widgets/campaign/trace_pane.hpp"
#include "widgets/main_window.hpp"
#include "widgets/perf2/perf2_docks.hpp"
#include "widgets/perf2/perf_explorer.hpp"
#include "widgets/perf2/whatif_panel.hpp"

namespace sf::widgets {

namespace {

QString paneText(const char* s) { return QCoreApplication::translate("screenshot", s); }

// The traces: the last passing proposer call's detail (a response with its program).
void showPassingCall(MainWindow& w) {
  TracePane* tp = w.campaignDocks()->tracePane();
  for (int r = tp->model()->rowCount() - 1; r >= 0; --r)
    if (tp->model()->row(r).verdict == QLatin1String("pass") && tp->model()->row(r).role == QLatin1String("proposer")) {
      tp->showRow(r);
      return;
    }
}

// Waits (at most 10 s) until the explorer has timed and verified everything asked of it.
void waitPerf2(perf2::Explorer& e) {
  for (int i = 0; i < 1000 && (e.retimer()->busy() || e.verifying()); ++i) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(10);
  }
  QCoreApplication::processEvents();
}

// The STeP-25 explorer: read the editor now and wait for the timing to arrive.
void timePerf2(MainWindow& w, const char* dock) {
  auto* d = w.perf2Docks();
  if (!d) return;
  d->refresh();
  if (auto* dw = w.findChild<QDockWidget*>(QLatin1String(dock))) dw->raise();
  waitPerf2(*d->explorer());
}

// The Pareto view needs programs: the what-if controls try the three largest tiles along M and along N (nine
// programs), then par_dispatch 16 on every load and store, each timed and verified like a user's.
void explorePareto(MainWindow& w) {
  timePerf2(w, "ParetoDock");
  auto* d = w.perf2Docks();
  if (!d || !d->active()) return;
  auto& e = *d->explorer();
  perf2::WhatIfPanel* wi = e.whatIfPanel();
  QComboBox* m = wi->tileBox(QStringLiteral("M"));
  QComboBox* n = wi->tileBox(QStringLiteral("N"));
  if (m && n)
    for (int i = std::max(0, m->count() - 3); i < m->count(); ++i) {
      m->setCurrentIndex(i);
      waitPerf2(e);
      for (int j = std::max(0, n->count() - 3); j < n->count(); ++j) {
        n->setCurrentIndex(j);
        waitPerf2(e);
      }
    }
  for (int k = 0; k < wi->operatorBox()->count(); ++k) {
    wi->operatorBox()->setCurrentIndex(k);
    if (!wi->parDispatchBox()->isEnabled()) continue;
    wi->parDispatchBox()->setValue(16);
    waitPerf2(e);
  }
}

}  // namespace

const std::vector<ScreenshotPane>& screenshotPanes() {
  // One line per pane. The performance explorer's panes (editor, performance, roofline, timeline, whatif,
  // diff, pareto) are added here by their owner.
  static const std::vector<ScreenshotPane> kScreenshotPanes = {
      {QStringLiteral("tasks"), QStringLiteral("TasksDock"), paneText("the task browser"), {}},
      {QStringLiteral("issues"), QStringLiteral("IssuesDock"), paneText("the checker's diagnostics"), {}},
      {QStringLiteral("verification"), QStringLiteral("VerificationDock"), paneText("the verdict and its input sets"), {}},
      {QStringLiteral("graph"), QStringLiteral("GraphDock"), paneText("the dataflow graph"), {}},
      {QStringLiteral("streams"), QStringLiteral("StreamInspectorDock"), paneText("the stream inspector"), {}},
      {QStringLiteral("campaign"), QStringLiteral("CampaignDock"), paneText("the campaign's progress"), {}},
      {QStringLiteral("traces"), QStringLiteral("TracesDock"), paneText("the campaign's calls, a passing one open"),
       showPassingCall},
      {QStringLiteral("curves"), QStringLiteral("CurvesDock"), paneText("the learning curves"), {}},
      {QStringLiteral("comparison"), QStringLiteral("ComparisonDock"), paneText("the run comparison"),
       [](MainWindow& w) {
         if (!w.workspaceDir().isEmpty()) w.campaignDocks()->compareWorkspaces({w.workspaceDir()});
       }},
      {QStringLiteral("audit"), QStringLiteral("AuditDock"), paneText("the adoption audit (sage campaigns)"), {}},
      {QStringLiteral("memory"), QStringLiteral("MemoryDock"), paneText("the memory inspector (sage campaigns)"), {}},
      {QStringLiteral("agent"), QStringLiteral("AgentDock"), paneText("the agent beside the editor"), {}},
      {QStringLiteral("editor"), QString(), paneText("the editor"), {}},
      {QStringLiteral("performance"), QStringLiteral("PerformanceDock"), paneText("the cost report of a verified v1 program"), {}},
      {QStringLiteral("cost"), QStringLiteral("Perf2CostDock"), paneText("STeP-25: cycles, bytes and limit per statement"),
       [](MainWindow& w) { timePerf2(w, "Perf2CostDock"); }},
      {QStringLiteral("roofline"), QStringLiteral("RooflineDock"), paneText("STeP-25: the roofline"),
       [](MainWindow& w) { timePerf2(w, "RooflineDock"); }},
      {QStringLiteral("timeline"), QStringLiteral("TimelineDock"), paneText("STeP-25: busy, stalled and blocked per node"),
       [](MainWindow& w) { timePerf2(w, "TimelineDock"); }},
      {QStringLiteral("whatif"), QStringLiteral("WhatIfDock"), paneText("STeP-25: the what-if controls"),
       [](MainWindow& w) { timePerf2(w, "WhatIfDock"); }},
      {QStringLiteral("diff"), QStringLiteral("Perf2DiffDock"), paneText("STeP-25: the program against the baseline"),
       [](MainWindow& w) { timePerf2(w, "Perf2DiffDock"); }},
      {QStringLiteral("pareto"), QStringLiteral("ParetoDock"),
       paneText("STeP-25: cycles against on-chip bytes of the verified programs, the Pareto front"), explorePareto},
  };
  return kScreenshotPanes;
}

QStringList screenshotPaneNames() {
  QStringList out;
  for (const auto& p : screenshotPanes()) out << p.name;
  return out;
}

const ScreenshotPane* findScreenshotPane(const QString& name) {
  for (const auto& p : screenshotPanes())
    if (p.name.compare(name.trimmed(), Qt::CaseInsensitive) == 0) return &p;
  return nullptr;
}

bool showScreenshotPane(MainWindow& w, const QString& name, QString* error) {
  const ScreenshotPane* p = findScreenshotPane(name);
  if (!p) {
    if (error) *error = paneText("unknown pane '%1' (one of: %2)").arg(name, screenshotPaneNames().join(QStringLiteral(", ")));
    return false;
  }
  if (!p->dock.isEmpty()) {
    auto* d = w.findChild<QDockWidget*>(p->dock);
    if (!d) {
      if (error) *error = paneText("this window has no %1 pane").arg(p->name);
      return false;
    }
    d->show();
    d->raise();
  }
  if (p->prepare) p->prepare(w);
  return true;
}

QSize parseWindowSize(const QString& text) {
  static const QRegularExpression re(QStringLiteral("^(\\d{3,4})[xX](\\d{3,4})$"));
  const auto m = re.match(text.trimmed());
  if (!m.hasMatch()) return {};
  const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
  if (w < 320 || h < 320 || w > 7680 || h > 7680) return {};
  return {w, h};
}

bool openTask(MainWindow& w, const QString& idOrFile, QString* error) {
  if (QFileInfo(idOrFile).isFile()) {
    if (w.openFile(idOrFile)) return true;
    if (error) *error = paneText("cannot open %1").arg(idOrFile);
    return false;
  }
  // A bundled id: "group/name", nothing else (no path can escape the resources).
  static const QRegularExpression idRe(QStringLiteral("^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$"));
  if (!idRe.match(idOrFile).hasMatch() || idOrFile.contains(QStringLiteral(".."))) {
    if (error) *error = paneText("no task file or bundled task id %1").arg(idOrFile);
    return false;
  }
  const std::string path = bench::resource_dir() + "/benchmark_v2/" + idOrFile.toStdString() + ".yaml";
  if (QFileInfo(QString::fromStdString(path)).isFile()) {
    Diagnostics diags;
    auto task = step::load_task_file(path, diags);
    if (!task) {
      if (error) *error = paneText("the bundled task %1 does not load").arg(idOrFile);
      return false;
    }
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly) || f.size() > static_cast<qint64>(step::kMaxDocumentBytes)) {
      if (error) *error = paneText("cannot read %1").arg(f.fileName());
      return false;
    }
    QString text = QString::fromUtf8(f.readAll());  // the task as written (verify, meta and all), no impl
    if (!text.endsWith(QLatin1Char('\n'))) text += QLatin1Char('\n');
    text += QStringLiteral("impl: |\n");
    const auto impl = inspect::perf2::baseline_impl(*task, bench::resource_dir());
    for (const QString& line : QString::fromStdString(impl.value_or(std::string())).split(QLatin1Char('\n')))
      if (!line.isEmpty()) text += QStringLiteral("  ") + line + QLatin1Char('\n');
    if (!impl) text += QStringLiteral("  \n");
    w.setDocument(text);
    return true;
  }
  if (w.newFromTask(idOrFile)) return true;
  if (error) *error = paneText("no task file or bundled task id %1").arg(idOrFile);
  return false;
}

QFont presentationFont(const QFont& base) {
  QFont big = base;
  big.setPointSizeF(std::max(14.0, base.pointSizeF() * 1.6));
  return big;
}

}  // namespace sf::widgets
