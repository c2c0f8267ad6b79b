#include "widgets/campaign/episode_lineage_view.hpp"
#include "core/common/speedup.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>

#include "widgets/editor/program_diff_view.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shortcut_sheet.hpp"

namespace sf::widgets {

namespace {

QString joinIds(const std::vector<std::string>& ids) {
  QStringList l;
  for (const auto& id : ids) l << qs(id);
  return l.isEmpty() ? QStringLiteral("–") : l.join(QStringLiteral(", "));
}

QString lineageVerdict(const learn::LineageStep& s) {
  if (!s.has_verdict) return EpisodeLineageView::tr("no verdict (interrupted)");
  if (!s.pass) return EpisodeLineageView::tr("fail: %1 %2").arg(qs(s.stage), qs(s.code));
  QString t = EpisodeLineageView::tr("pass");
  if (s.cycles) t += EpisodeLineageView::tr(" · %1 cycles").arg(*s.cycles);
  if (s.speedup) t += QStringLiteral(" · ") + QString::fromStdString(speedup_text(*s.speedup));
  return t;
}

}  // namespace

EpisodeLineageView::EpisodeLineageView(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("episodeLineage"));
  resize(1100, 700);
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  steps_ = new QListWidget(this);
  steps_->setObjectName(QStringLiteral("lineageSteps"));
  steps_->installEventFilter(this);
  stepText_ = new QLabel(this);
  stepText_->setWordWrap(true);
  stepText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stepText_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  diff_ = new ProgramDiffView(this);
  diff_->installEventFilter(this);
  diff_->leftEditor()->installEventFilter(this);
  diff_->rightEditor()->installEventFilter(this);
  auto* right = new QWidget(this);
  auto* rl = new QVBoxLayout(right);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->addWidget(stepText_);
  rl->addWidget(diff_, 1);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(steps_);
  split->addWidget(right);
  split->setStretchFactor(1, 3);
  auto* l = new QVBoxLayout(this);
  l->addWidget(title_);
  l->addWidget(split, 1);
  l->addWidget(new QLabel(tr("J / K step · C canonical form · N / P change · ? keys · Esc close"), this));
  connect(steps_, &QListWidget::currentRowChanged, this, &EpisodeLineageView::showStep);
}

void EpisodeLineageView::setLineage(learn::EpisodeLineage lineage) {
  lineage_ = std::move(lineage);
  setWindowTitle(tr("Episode %1 lineage — %2").arg(lineage_.episode).arg(qs(lineage_.task)));
  QString state = !lineage_.finished ? tr("running")
                  : lineage_.solved  ? tr("solved at round %1").arg(lineage_.first_correct_round)
                                     : tr("not solved");
  title_->setText(tr("Episode %1 of %2: %3 rounds, %4").arg(lineage_.episode).arg(qs(lineage_.task))
                      .arg(lineage_.steps.size()).arg(state));
  const QSignalBlocker b(steps_);
  steps_->clear();
  for (const auto& s : lineage_.steps)
    steps_->addItem(tr("Round %1 → %2 → %3 → adopted %4 (+%5 −%6)")
                        .arg(s.round)
                        .arg(s.impl.empty() ? tr("no program") : tr("program"))
                        .arg(lineageVerdict(s), joinIds(s.adopted))
                        .arg(s.diff.inserted)
                        .arg(s.diff.deleted));
  if (!lineage_.steps.empty()) {
    steps_->setCurrentRow(0);
    showStep(0);
  } else {
    stepText_->setText(tr("The episode has no round yet."));
    diff_->setTexts({}, {});
  }
}

void EpisodeLineageView::showStep(int index) {
  if (index < 0 || index >= static_cast<int>(lineage_.steps.size())) return;
  const auto& s = lineage_.steps[static_cast<std::size_t>(index)];
  QString text = tr("Round %1: %2").arg(s.round).arg(lineageVerdict(s));
  text += QLatin1Char('\n') + tr("Retrieved: %1 · adopted: %2").arg(joinIds(s.retrieved), joinIds(s.adopted));
  if (!s.rules_used.empty()) text += tr(" · rules used: %1").arg(joinIds(s.rules_used));
  if (!s.diagnostics.empty()) text += QLatin1Char('\n') + tr("Diagnostics: %1").arg(qs(s.diagnostics));
  stepText_->setText(text);
  diff_->setTexts(qs(s.previous_impl), qs(s.impl),
                  index == 0 ? tr("(start)") : tr("previous program"), tr("round %1").arg(s.round));
}

void EpisodeLineageView::moveStep(int delta) {
  const int n = steps_->count();
  if (n == 0) return;
  steps_->setCurrentRow(std::clamp(steps_->currentRow() + delta, 0, n - 1));
}

QString EpisodeLineageView::cheatSheetText() {
  return tr("J / K — next / previous round\n"
            "C — canonical form on / off in the diff\n"
            "N / P — next / previous change in the diff\n"
            "Esc — close\n"
            "? / F1 — this cheat sheet\n"
            "Opened with Ctrl+L in the trace pane, L / Ctrl+L in the audit pane");
}

void EpisodeLineageView::showCheatSheet() {
  showShortcutSheet(this, cheatSheet_, QStringLiteral("lineageCheatSheet"), tr("Episode lineage keyboard shortcuts"),
                    cheatSheetText());
}

QWidget* EpisodeLineageView::cheatSheet() const { return cheatSheet_; }

bool EpisodeLineageView::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::KeyPress) return QDialog::eventFilter(watched, event);
  auto* k = static_cast<QKeyEvent*>(event);
  if (k->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
    return QDialog::eventFilter(watched, event);
  if (handleSharedPaneKeys(*k, [this](int d) { moveStep(d); }, [this] { showCheatSheet(); })) return true;
  switch (k->key()) {
    case Qt::Key_C: diff_->setCanonical(!diff_->canonical()); return true;
    case Qt::Key_N: diff_->nextHunk(); return true;
    case Qt::Key_P: diff_->previousHunk(); return true;
    default: break;
  }
  return QDialog::eventFilter(watched, event);
}

EpisodeLineageView* showEpisodeLineage(QWidget* parent, const QString& dir, int episode, QString* error) {
  std::string err;
  if (dir.isEmpty()) {
    if (error) *error = EpisodeLineageView::tr("No campaign workspace is open");
    return nullptr;
  }
  auto l = learn::load_episode_lineage(dir.toStdString(), episode, err);
  if (!l) {
    if (error) *error = qs(err);
    return nullptr;
  }
  auto* v = new EpisodeLineageView(parent);
  v->setAttribute(Qt::WA_DeleteOnClose);
  v->setLineage(std::move(*l));
  v->show();
  v->raise();
  v->steps()->setFocus();
  return v;
}

}  // namespace sf::widgets
