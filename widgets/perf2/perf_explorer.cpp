#include "widgets/perf2/perf_explorer.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

#include "widgets/perf2/cost_view.hpp"
#include "widgets/perf2/diff_view.hpp"
#include "widgets/perf2/pareto_view.hpp"
#include "widgets/perf2/roofline_view.hpp"
#include "widgets/perf2/timeline_view.hpp"
#include "widgets/perf2/whatif_panel.hpp"

namespace sf::widgets::perf2 {

Explorer::Explorer(Timer timer, QObject* parent)
    : QObject(parent),
      retimer_(new Retimer(std::move(timer), this)),
      cost_(new CostView),
      roofline_(new RooflineView),
      timeline_(new TimelineView),
      whatIf_(new WhatIfPanel),
      diff_(new DiffView),
      pareto_(new ParetoView) {
  connect(retimer_, &Retimer::retimed, this, &Explorer::onRetimed);
  connect(cost_, &CostView::lineActivated, this, [this](int l) {
    selectLine(l);
    Q_EMIT lineActivated(l);
  });
  connect(timeline_, &TimelineView::lineActivated, this, [this](int l) {
    selectLine(l);
    Q_EMIT lineActivated(l);
  });
  connect(whatIf_, &WhatIfPanel::lineActivated, this, [this](int l) {
    cost_->selectLine(l);
    timeline_->selectLine(l);
    Q_EMIT lineActivated(l);
  });
  connect(whatIf_, &WhatIfPanel::proposed, this, [this](const QString& s) { retimer_->request(s.toStdString()); });
  connect(whatIf_, &WhatIfPanel::applyRequested, this, &Explorer::applyRequested);
  connect(pareto_, &ParetoView::programActivated, this, &Explorer::programActivated);
}

Explorer::~Explorer() {
  // Views not adopted by a dock or a layout belong to the explorer.
  for (QWidget* w : {static_cast<QWidget*>(cost_.data()), static_cast<QWidget*>(roofline_.data()),
                     static_cast<QWidget*>(timeline_.data()), static_cast<QWidget*>(whatIf_.data()),
                     static_cast<QWidget*>(diff_.data()), static_cast<QWidget*>(pareto_.data())})
    if (w && !w->parent()) delete w;
}

CostView* Explorer::costView() const { return cost_; }
RooflineView* Explorer::rooflineView() const { return roofline_; }
TimelineView* Explorer::timelineView() const { return timeline_; }
WhatIfPanel* Explorer::whatIfPanel() const { return whatIf_; }
DiffView* Explorer::diffView() const { return diff_; }
ParetoView* Explorer::paretoView() const { return pareto_; }

void Explorer::setVerifier(Timer verify) {
  delete verifier_;
  verifier_ = new Retimer(std::move(verify), this);
  connect(verifier_, &Retimer::retimed, this, [this](quint64, const Outcome& o) {
    if (record_.set_verified(o.source, o.ok)) pareto_->setRecord(record_);
    pumpVerifier();
  });
  pumpVerifier();
}

void Explorer::clearPrograms() {
  record_.clear();
  verifyQueue_.clear();
  pareto_->setRecord(record_);
}

bool Explorer::verifying() const { return !verifyQueue_.empty() || (verifier_ && verifier_->busy()); }

void Explorer::record(const Outcome& o, bool baseline) {
  if (!o.ok || !o.report.feasible) return;  // an infeasible program has no place on the chip's front
  const int i = record_.add_timed(o.source, o.report.cycles, o.report.onchip_bytes, baseline,
                                  baseline ? "baseline" : "session");
  if (i < 0) return;
  const auto& p = record_.programs()[static_cast<std::size_t>(i)];
  if (p.verified == inspect::perf2::Verification::NotRun &&
      std::find(verifyQueue_.begin(), verifyQueue_.end(), p.source) == verifyQueue_.end()) {
    if (verifyQueue_.size() >= 64) verifyQueue_.pop_front();  // bounded: the oldest waiting one stays pending
    verifyQueue_.push_back(p.source);
  }
  pareto_->setRecord(record_);
  pumpVerifier();
}

void Explorer::pumpVerifier() {
  if (!verifier_ || verifier_->busy() || verifyQueue_.empty()) return;
  verifier_->request(verifyQueue_.front());
  verifyQueue_.pop_front();
}

void Explorer::setRoofs(const Roofs& r) {
  roofline_->setRoofs(r);
  whatIf_->setComputeBudget(static_cast<std::int64_t>(r.compute_flop_per_cycle));
}

void Explorer::setSizes(const std::map<std::string, std::int64_t>& sizes) { whatIf_->setSizes(sizes); }

void Explorer::setBaseline(const std::string& source) {
  baseline_ = source.empty() ? Outcome{} : retimer_->timeNow(source);
  baseline_.source = source;
  whatIf_->setBaselineCycles(baseline_.ok ? baseline_.report.cycles : 0);
  roofline_->setBaseline(baseline_);
  diff_->setBaseline(baseline_);
  record(baseline_, true);
}

void Explorer::setProgram(const std::string& source) { programSeq_ = retimer_->request(source); }

void Explorer::selectLine(int line) {
  cost_->selectLine(line);
  timeline_->selectLine(line);
  whatIf_->selectLine(line);
}

void Explorer::onRetimed(quint64 seq, const Outcome& o) {
  if (o.ok) {
    lastGood_ = o;
    cost_->setOutcome(o);
    roofline_->setOutcome(o);
    timeline_->setOutcome(o);
    diff_->setOutcome(o);
    record(o, false);
  }
  if (seq == programSeq_) whatIf_->setProgram(o);
  else whatIf_->showOutcome(o);
  Q_EMIT timed(o);
}

std::vector<QDockWidget*> Explorer::installDocks(QMainWindow* w) {
  struct D {
    const char* name;
    QString title;
    QWidget* view;
  };
  auto* whatIfScroll = new QScrollArea;
  whatIfScroll->setWidgetResizable(true);
  whatIfScroll->setWidget(whatIf_);
  const D docks[] = {
      {"Perf2CostDock", tr("Cost per statement"), cost_},
      {"RooflineDock", tr("Roofline"), roofline_},
      {"TimelineDock", tr("Timeline"), timeline_},
      {"WhatIfDock", tr("What-if"), whatIfScroll},
      {"Perf2DiffDock", tr("Against the baseline"), diff_},
      {"ParetoDock", tr("Pareto front"), pareto_},
  };
  std::vector<QDockWidget*> out;
  for (const auto& d : docks) {
    auto* dock = new QDockWidget(d.title, w);
    dock->setObjectName(QString::fromLatin1(d.name));
    dock->setWidget(d.view);
    dock->setMinimumWidth(280);
    w->addDockWidget(Qt::RightDockWidgetArea, dock);
    if (!out.empty()) w->tabifyDockWidget(out.front(), dock);
    out.push_back(dock);
  }
  out.front()->raise();
  return out;
}

}  // namespace sf::widgets::perf2
