// The performance explorer for STeP-25 programs (issue 33): one object that times the edited program and
// every what-if proposal on a background thread (Retimer) and keeps its views in step: the cost-annotated
// source, the roofline, the timeline, the what-if controls and the comparison with the baseline. A timing
// that fails (a proposal that does not check) is shown by the what-if panel and leaves every view on the
// last good numbers. Clicking a node in any view emits lineActivated; selectLine() is the editor's way back.
#pragma once

#include <QObject>
#include <QPointer>

#include <deque>
#include <map>
#include <string>

#include "core/inspect/perf2_pareto.hpp"

#include "widgets/perf2/perf2_retimer.hpp"
#include "widgets/perf2/perf2_types.hpp"

class QMainWindow;
class QDockWidget;
class QWidget;

namespace sf::widgets::perf2 {

class CostView;
class RooflineView;
class TimelineView;
class WhatIfPanel;
class DiffView;
class ParetoView;

class Explorer : public QObject {
  Q_OBJECT
 public:
  explicit Explorer(Timer timer, QObject* parent = nullptr);
  ~Explorer() override;

  void setRoofs(const Roofs& r);
  void setSizes(const std::map<std::string, std::int64_t>& sizes);
  // The task's baseline program, timed at once on the calling thread ("" = none).
  void setBaseline(const std::string& source);
  // The edited program: timed in the background; the what-if controls follow it.
  void setProgram(const std::string& source);
  void selectLine(int line);
  // The Pareto view's verifier: run (on its own thread, one program at a time, oldest first, at most 64
  // waiting) on every feasible program timed, so the front holds verified programs only. Without one, every
  // point stays "verification pending".
  void setVerifier(Timer verify);
  // A new task: the Pareto view's record starts empty.
  void clearPrograms();
  const inspect::perf2::SessionRecord& programs() const { return record_; }
  bool verifying() const;

  const Outcome& lastGood() const { return lastGood_; }
  const Outcome& baseline() const { return baseline_; }
  Retimer* retimer() const { return retimer_; }
  CostView* costView() const;
  RooflineView* rooflineView() const;
  TimelineView* timelineView() const;
  WhatIfPanel* whatIfPanel() const;
  DiffView* diffView() const;
  ParetoView* paretoView() const;

  // Adds one dock per view to `w` (objectNames Perf2CostDock, RooflineDock, TimelineDock, WhatIfDock,
  // Perf2DiffDock, ParetoDock), tabified on the right, and returns them in that order.
  std::vector<QDockWidget*> installDocks(QMainWindow* w);

 Q_SIGNALS:
  void lineActivated(int line);
  void applyRequested(const QString& source);
  // Every delivered timing (good or not), after the views took it.
  void timed(const sf::widgets::perf2::Outcome& o);
  // A point clicked in the Pareto view: open this program.
  void programActivated(const QString& source);

 private:
  void onRetimed(quint64 seq, const Outcome& o);
  void record(const Outcome& o, bool baseline);
  void pumpVerifier();

  Retimer* retimer_;
  quint64 programSeq_ = 0;
  Outcome lastGood_, baseline_;
  QPointer<CostView> cost_;
  QPointer<RooflineView> roofline_;
  QPointer<TimelineView> timeline_;
  QPointer<WhatIfPanel> whatIf_;
  QPointer<DiffView> diff_;
  QPointer<ParetoView> pareto_;
  Retimer* verifier_ = nullptr;
  std::deque<std::string> verifyQueue_;
  inspect::perf2::SessionRecord record_;
};

}  // namespace sf::widgets::perf2
