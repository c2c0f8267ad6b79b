#include "widgets/screenshot_panes.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QRegularExpression>
#include <QThread>

#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/trace_model.hpp"
#include "widgets/campaign/trace_pane.hpp"
#include "widgets/main_window.hpp"
#include "widgets/perf2/perf2_docks.hpp"
#include "widgets/perf2/perf_explorer.hpp"

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

// The STeP-25 explorer: read the editor now and wait (at most 5 s) for the timing to arrive.
void timePerf2(MainWindow& w, const char* dock) {
  auto* d = w.perf2Docks();
  if (!d) return;
  d->refresh();
  if (auto* dw = w.findChild<QDockWidget*>(QLatin1String(dock))) dw->raise();
  for (int i = 0; i < 500 && d->explorer()->retimer()->busy(); ++i) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(10);
  }
  QCoreApplication::processEvents();
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

}  // namespace sf::widgets
