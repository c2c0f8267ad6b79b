// The what-if controls of the performance explorer (issue 33 item 5). Program-wide: one tile size per size
// symbol the program tiles (the divisors of the symbol's value). Per operator (pick one, or click its line):
// par_dispatch of a load or store, compute_bw of a compute node (at most what the chip's budget leaves after
// the other compute nodes) and its write_back_mu. Each change edits the proposal text and emits proposed();
// the explorer re-times it in the background and calls showOutcome(). A proposal that does not check or time
// shows why and keeps the last good numbers. Apply emits applyRequested() with the proposal text.
#pragma once

#include <QWidget>

#include <map>
#include <string>

#include "core/inspect/perf2_whatif.hpp"
#include "widgets/perf2/perf2_types.hpp"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace sf::widgets::perf2 {

class WhatIfPanel : public QWidget {
  Q_OBJECT
 public:
  explicit WhatIfPanel(QWidget* parent = nullptr);

  void setSizes(std::map<std::string, std::int64_t> sizes) { sizes_ = std::move(sizes); }
  void setComputeBudget(std::int64_t budget) { budget_ = budget; }
  void setBaselineCycles(std::int64_t cycles) { baselineCycles_ = cycles; }
  // A new program (the editor's text, timed): rebuilds the controls from its graph; the proposal = its source.
  void setProgram(const Outcome& o);
  // The timing of the latest proposal.
  void showOutcome(const Outcome& o);
  // Picks the operator of a source line.
  void selectLine(int line);

  // Controls (tests drive them like a user).
  QComboBox* tileBox(const QString& symbol) const;
  QComboBox* operatorBox() const { return operator_; }
  QSpinBox* parDispatchBox() const { return parDispatch_; }
  QSpinBox* computeBwBox() const { return computeBw_; }
  QCheckBox* writeBackBox() const { return writeBack_; }
  QPushButton* applyButton() const { return apply_; }
  QString cyclesText() const;
  QString errorText() const;
  const std::string& proposal() const { return proposal_; }
  const Outcome& lastGood() const { return lastGood_; }

 Q_SIGNALS:
  void proposed(const QString& source);
  void applyRequested(const QString& source);
  void lineActivated(int line);

 private:
  void rebuildTiles();
  void showOperator();
  void propose(std::optional<std::string> text, const std::string& error);
  const step2::Node* selectedNode() const;

  std::map<std::string, std::int64_t> sizes_;
  std::int64_t budget_ = 4096;
  std::int64_t baselineCycles_ = 0;
  Outcome program_;   // the editor's program, as last set
  Outcome lastGood_;  // the last proposal that timed
  std::string proposal_;
  bool updating_ = false;
  bool quiet_ = false;  // selectLine(): the selection came from outside, do not echo it

  QWidget* tilesBox_;
  QFormLayout* tilesForm_;
  std::map<QString, QComboBox*> tileBoxes_;
  QComboBox* operator_;
  QSpinBox* parDispatch_;
  QSpinBox* computeBw_;
  QCheckBox* writeBack_;
  QLabel* bwNote_;
  QLabel* cycles_;
  QLabel* error_;
  QPushButton* apply_;
  QPushButton* reset_;
};

}  // namespace sf::widgets::perf2
