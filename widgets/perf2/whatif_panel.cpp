#include "widgets/perf2/whatif_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/inspect/perf2_explain.hpp"

namespace sf::widgets::perf2 {

namespace ex = sf::inspect::perf2;
using step2::Op;

namespace {
constexpr std::int64_t kMaxParDispatch = 64;
}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QWidget(parent),
      tilesBox_(new QGroupBox(tr("Tile sizes (whole program)"), this)),
      tilesForm_(new QFormLayout),
      operator_(new QComboBox(this)),
      parDispatch_(new QSpinBox(this)),
      computeBw_(new QSpinBox(this)),
      writeBack_(new QCheckBox(tr("write_back_mu"), this)),
      bwNote_(new QLabel(this)),
      cycles_(new QLabel(this)),
      error_(new QLabel(this)),
      apply_(new QPushButton(tr("Apply to the program"), this)),
      reset_(new QPushButton(tr("Reset"), this)) {
  setObjectName(QStringLiteral("Perf2WhatIf"));
  static_cast<QGroupBox*>(tilesBox_)->setLayout(tilesForm_);
  auto* opBox = new QGroupBox(tr("Operator"), this);
  auto* opForm = new QFormLayout(opBox);
  // Narrow (1366x768, presentation font): a field goes under its label rather than past the dock's edge.
  for (QFormLayout* f : {tilesForm_, opForm}) f->setRowWrapPolicy(QFormLayout::WrapLongRows);
  operator_->setObjectName(QStringLiteral("WhatIfOperator"));
  operator_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  operator_->setMinimumContentsLength(12);
  parDispatch_->setObjectName(QStringLiteral("WhatIfParDispatch"));
  parDispatch_->setRange(1, kMaxParDispatch);
  parDispatch_->setToolTip(tr("Requests a load or store keeps in flight (par_dispatch)"));
  computeBw_->setObjectName(QStringLiteral("WhatIfComputeBw"));
  computeBw_->setSuffix(tr(" FLOP/cycle"));
  computeBw_->setToolTip(tr("The node's compute bandwidth; the chip's compute budget bounds the sum over nodes"));
  writeBack_->setObjectName(QStringLiteral("WhatIfWriteBack"));
  writeBack_->setToolTip(tr("Write the node's result back to a memory unit (write_back_mu)"));
  bwNote_->setWordWrap(true);
  opForm->addRow(tr("Node"), operator_);
  opForm->addRow(tr("par_dispatch"), parDispatch_);
  opForm->addRow(tr("compute_bw"), computeBw_);
  opForm->addRow(QString(), bwNote_);
  opForm->addRow(QString(), writeBack_);
  cycles_->setObjectName(QStringLiteral("WhatIfCycles"));
  cycles_->setWordWrap(true);
  cycles_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setObjectName(QStringLiteral("WhatIfError"));
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet(QStringLiteral("color:#b00020"));
  error_->hide();
  apply_->setObjectName(QStringLiteral("WhatIfApply"));
  apply_->setEnabled(false);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(apply_);
  buttons->addWidget(reset_);
  buttons->addStretch(1);
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(cycles_);
  lay->addWidget(error_);
  lay->addWidget(tilesBox_);
  lay->addWidget(opBox);
  lay->addLayout(buttons);
  lay->addStretch(1);

  connect(operator_, &QComboBox::currentIndexChanged, this, [this] {
    if (updating_) return;
    showOperator();
    if (const auto* n = selectedNode(); n && n->loc.line > 0 && !quiet_) Q_EMIT lineActivated(n->loc.line);
  });
  connect(parDispatch_, &QSpinBox::valueChanged, this, [this](int v) {
    const auto* n = selectedNode();
    if (updating_ || !n) return;
    std::string err;
    auto t = ex::set_kwarg(proposal_, n->loc.line, "par_dispatch", std::to_string(v), &err);
    propose(std::move(t), err);
  });
  connect(computeBw_, &QSpinBox::valueChanged, this, [this](int v) {
    const auto* n = selectedNode();
    if (updating_ || !n) return;
    std::string err;
    auto t = ex::set_kwarg(proposal_, n->loc.line, "compute_bw", std::to_string(v), &err);
    propose(std::move(t), err);
  });
  connect(writeBack_, &QCheckBox::toggled, this, [this](bool on) {
    const auto* n = selectedNode();
    if (updating_ || !n) return;
    std::string err;
    auto t = ex::set_kwarg(proposal_, n->loc.line, "write_back_mu", on ? "1" : "0", &err);
    propose(std::move(t), err);
  });
  connect(apply_, &QPushButton::clicked, this, [this] { Q_EMIT applyRequested(QString::fromStdString(proposal_)); });
  connect(reset_, &QPushButton::clicked, this, [this] {
    const Outcome p = program_;
    setProgram(p);
    Q_EMIT proposed(QString::fromStdString(proposal_));
  });
  setProgram({});
}

const step2::Node* WhatIfPanel::selectedNode() const {
  const Outcome& cur = lastGood_.ok ? lastGood_ : program_;
  const int i = operator_->currentData().toInt();
  if (operator_->currentIndex() < 0 || i < 0 || i >= static_cast<int>(cur.graph.nodes.size())) return nullptr;
  return &cur.graph.nodes[static_cast<std::size_t>(i)];
}

QComboBox* WhatIfPanel::tileBox(const QString& symbol) const {
  const auto it = tileBoxes_.find(symbol);
  return it == tileBoxes_.end() ? nullptr : it->second;
}

void WhatIfPanel::setProgram(const Outcome& o) {
  const int keepLine = selectedNode() ? selectedNode()->loc.line : 0;
  program_ = o;
  lastGood_ = o.ok ? o : Outcome{};
  proposal_ = o.source;
  updating_ = true;
  operator_->clear();
  for (std::size_t i = 0; i < o.graph.nodes.size(); ++i) {
    const auto& n = o.graph.nodes[i];
    if (n.implicit || n.loc.line <= 0) continue;
    const QString op = i < o.report.nodes.size() ? QString::fromStdString(o.report.nodes[i].op) : QString();
    operator_->addItem(tr("line %1: %2 %3").arg(n.loc.line).arg(op, QString::fromStdString(n.target)),
                       static_cast<int>(i));
  }
  updating_ = false;
  rebuildTiles();
  if (keepLine > 0) selectLine(keepLine);
  showOperator();
  showOutcome(o);
}

void WhatIfPanel::rebuildTiles() {
  updating_ = true;
  while (tilesForm_->rowCount() > 0) tilesForm_->removeRow(0);
  tileBoxes_.clear();
  for (const auto& ax : ex::tile_axes(proposal_, sizes_)) {
    auto* box = new QComboBox;
    const QString sym = QString::fromStdString(ax.symbol);
    box->setObjectName(QStringLiteral("WhatIfTile_") + sym);
    std::vector<std::int64_t> choices = ax.choices;
    if (choices.empty()) choices = {ax.tile};
    for (auto c : choices)
      if (c >= std::min<std::int64_t>(8, ax.extent) || c == ax.tile) box->addItem(QString::number(c), QVariant::fromValue<qlonglong>(c));
    box->setCurrentIndex(box->findData(QVariant::fromValue<qlonglong>(ax.tile)));
    box->setToolTip(tr("The tile size along %1 (%2 = %3): the divisors of %3").arg(sym, sym).arg(ax.extent));
    connect(box, &QComboBox::currentIndexChanged, this, [this, box, sym] {
      if (updating_) return;
      std::string err;
      auto t = ex::set_tile(proposal_, sym.toStdString(), box->currentData().toLongLong(), &err);
      propose(std::move(t), err);
    });
    tilesForm_->addRow(tr("tile along %1").arg(sym), box);
    tileBoxes_[sym] = box;
  }
  tilesBox_->setVisible(!tileBoxes_.empty());
  updating_ = false;
}

void WhatIfPanel::showOperator() {
  updating_ = true;
  const auto* n = selectedNode();
  const bool mem = n && (n->op == Op::OffChipLoad || n->op == Op::OffChipStore);
  const bool cmp = n && (n->op == Op::UnaryMap || n->op == Op::BinaryMap || n->op == Op::BinaryMapAccum ||
                         n->op == Op::Accum);
  parDispatch_->setEnabled(mem);
  computeBw_->setEnabled(cmp);
  writeBack_->setEnabled(cmp);
  if (mem) parDispatch_->setValue(std::clamp<int>(n->kw.par_dispatch, 1, kMaxParDispatch));
  if (cmp) {
    const Outcome& cur = lastGood_.ok ? lastGood_ : program_;
    std::int64_t others = 0;
    for (const auto& m : cur.graph.nodes)
      if (&m != n && (m.op == Op::UnaryMap || m.op == Op::BinaryMap || m.op == Op::BinaryMapAccum || m.op == Op::Accum))
        others += m.kw.compute_bw;
    const std::int64_t room = std::max<std::int64_t>(1, budget_ - others);
    computeBw_->setRange(1, static_cast<int>(std::min<std::int64_t>(room, 1 << 30)));
    computeBw_->setValue(static_cast<int>(std::min<std::int64_t>(n->kw.compute_bw, 1 << 30)));
    writeBack_->setChecked(n->kw.write_back_mu != 0);
    bwNote_->setText(tr("at most %1 FLOP/cycle: the budget %2 less %3 on the other compute nodes")
                         .arg(groupNum(room), groupNum(budget_), groupNum(others)));
  } else {
    bwNote_->setText(n ? tr("%1 has no compute_bw").arg(operator_->currentText()) : QString());
  }
  updating_ = false;
}

void WhatIfPanel::selectLine(int line) {
  for (int i = 0; i < operator_->count(); ++i) {
    const auto& nodes = (lastGood_.ok ? lastGood_ : program_).graph.nodes;
    const int id = operator_->itemData(i).toInt();
    if (id >= 0 && id < static_cast<int>(nodes.size()) && nodes[static_cast<std::size_t>(id)].loc.line == line) {
      quiet_ = true;
      operator_->setCurrentIndex(i);
      quiet_ = false;
      return;
    }
  }
}

void WhatIfPanel::propose(std::optional<std::string> text, const std::string& error) {
  if (!text) {
    error_->setText(tr("This change cannot be made: %1").arg(QString::fromStdString(error)));
    error_->show();
    return;
  }
  proposal_ = std::move(*text);
  apply_->setEnabled(false);
  Q_EMIT proposed(QString::fromStdString(proposal_));
}

void WhatIfPanel::showOutcome(const Outcome& o) {
  if (o.ok) {
    lastGood_ = o;
    error_->hide();
    QString t = tr("%1 cycles").arg(groupNum(o.report.cycles));
    if (baselineCycles_ > 0)
      t += tr(" (baseline %1: %2× faster)")
               .arg(groupNum(baselineCycles_))
               .arg(static_cast<double>(baselineCycles_) / std::max<std::int64_t>(1, o.report.cycles), 0, 'f', 2);
    t += tr(", %1 % of peak, %2 B off-chip, %3 B on-chip")
             .arg(o.report.pct_of_peak, 0, 'f', 1)
             .arg(groupNum(o.report.offchip_read_bytes + o.report.offchip_write_bytes), groupNum(o.report.onchip_bytes));
    if (!o.report.feasible) t += tr("; not feasible on this chip");
    cycles_->setText(t);
    apply_->setEnabled(o.source == proposal_ && proposal_ != program_.source);
    showOperator();
  } else if (!o.source.empty() || !o.error.empty()) {
    QString why = QString::fromStdString(o.error);
    if (o.error_line > 0) why = tr("line %1: %2").arg(o.error_line).arg(why);
    error_->setText(tr("This change does not check: %1\nThe numbers above are the last good ones.").arg(why));
    error_->show();
    apply_->setEnabled(false);
    if (!lastGood_.ok) cycles_->setText(tr("No timing yet."));
  } else {
    cycles_->setText(tr("No timing yet."));
  }
}

QString WhatIfPanel::cyclesText() const { return cycles_->text(); }
QString WhatIfPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

}  // namespace sf::widgets::perf2
