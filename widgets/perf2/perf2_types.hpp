// The performance explorer's values (issue 33): one timing of a STeP-25 program (its graph and cost report,
// or why it could not be timed), the function that times a source text, and the colours every view shares.
#pragma once

#include <QColor>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "core/step2/graph.hpp"
#include "core/step2/perf/report.hpp"

namespace sf::widgets::perf2 {

// One timing. ok = the program checked and the cost model ran (an infeasible program is ok with
// report.feasible = false); otherwise `error` says why (the first error, with its line and fix text).
struct Outcome {
  bool ok = false;
  std::string source;
  std::string error;
  int error_line = 0;
  step2::Graph graph;
  step2::perf::Report report;
  double millis = 0.0;  // wall time of the check and the cost model
};

// The chip numbers the roofline needs.
struct Roofs {
  double compute_flop_per_cycle = 4096.0;  // compute_budget
  double hbm_bytes_per_cycle = 1024.0;     // channels · request bytes / interval
};

// Times a source text (parse, check, cost model) under the explorer's task and chip. Called on the
// retimer's thread: it must not touch widgets.
using Timer = std::function<Outcome(const std::string& source)>;

// "16,938": an integer with its thousands grouped.
QString groupNum(std::int64_t v);

// The colour of a node limit (cost bars, timeline rows' marks, legends).
QColor limitColor(step2::perf::Limit l);
QString limitLabel(step2::perf::Limit l);
// Timeline activities.
QColor activityColor(step2::perf::Activity a);
QString activityLabel(step2::perf::Activity a);

}  // namespace sf::widgets::perf2

Q_DECLARE_METATYPE(sf::widgets::perf2::Outcome)
