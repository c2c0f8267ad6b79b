#include "widgets/editor/program_diff_view.hpp"

#include "core/step/parser.hpp"
#include "core/step/printer.hpp"
#include "widgets/editor/step_editor.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

namespace sf::widgets {

namespace {

// The §9 canonical text of a program, or nullopt with the first error ("line L: message").
std::optional<std::string> canonicalProgram(const std::string& impl, std::string& error) {
  Diagnostics ds;
  auto prog = step::parse_impl(impl, step::ParseOptions{}, ds);
  if (!prog) {
    for (const auto& d : ds)
      if (d.is_error()) {
        error = "line " + std::to_string(d.loc.line) + ": " + d.message;
        break;
      }
    return std::nullopt;
  }
  return step::canonical_text(*prog) + "\n";
}

}  // namespace

ProgramDiffView::ProgramDiffView(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(2);

  auto* bar = new QHBoxLayout;
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("diffSummary"));
  canonicalBox_ = new QCheckBox(tr("Canonical form"), this);
  canonicalBox_->setToolTip(tr("Compare both programs in their canonical form (names renamed in definition "
                               "order, keyword arguments ordered), so renames and layout do not show"));
  prev_ = new QToolButton(this);
  prev_->setArrowType(Qt::UpArrow);
  prev_->setToolTip(tr("Previous change"));
  next_ = new QToolButton(this);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolTip(tr("Next change"));
  bar->addWidget(summary_, 1);
  bar->addWidget(canonicalBox_);
  bar->addWidget(prev_);
  bar->addWidget(next_);
  outer->addLayout(bar);

  auto* split = new QSplitter(Qt::Horizontal, this);
  auto column = [&](QLabel*& title, QsciScintilla*& pane, StepLexer*& lexer) {
    auto* w = new QWidget(split);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(1);
    title = new QLabel(w);
    title->setStyleSheet(QStringLiteral("font-weight: bold"));
    pane = makePane();
    pane->setParent(w);
    lexer = static_cast<StepLexer*>(pane->lexer());
    l->addWidget(title);
    l->addWidget(pane, 1);
    split->addWidget(w);
  };
  column(oldTitle_, left_, leftLexer_);
  column(newTitle_, right_, rightLexer_);
  outer->addWidget(split, 1);

  // Scroll together.
  auto sync = [this](QScrollBar* from, QScrollBar* to) {
    connect(from, &QScrollBar::valueChanged, this, [this, to](int v) {
      if (syncing_) return;
      syncing_ = true;
      to->setValue(v);
      syncing_ = false;
    });
  };
  sync(left_->verticalScrollBar(), right_->verticalScrollBar());
  sync(right_->verticalScrollBar(), left_->verticalScrollBar());
  sync(left_->horizontalScrollBar(), right_->horizontalScrollBar());
  sync(right_->horizontalScrollBar(), left_->horizontalScrollBar());

  connect(canonicalBox_, &QCheckBox::toggled, this, &ProgramDiffView::setCanonical);
  connect(prev_, &QToolButton::clicked, this, &ProgramDiffView::previousHunk);
  connect(next_, &QToolButton::clicked, this, &ProgramDiffView::nextHunk);
  applyColours();
  rebuild();
}

QsciScintilla* ProgramDiffView::makePane() {
  auto* pane = new QsciScintilla;
  auto* lexer = new StepLexer(pane);
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  lexer->setDefaultFont(mono);
  for (int s = 0; s < StepLexer::StyleCount; ++s) lexer->setFont(mono, s);
  lexer->setInitialState({StepLexer::Impl, -1});
  pane->setUtf8(true);
  pane->setLexer(lexer);
  pane->setReadOnly(true);
  pane->setWrapMode(QsciScintilla::WrapNone);
  pane->setMarginType(0, QsciScintilla::TextMarginRightJustified);
  pane->setMarginWidth(0, QStringLiteral("00000"));
  pane->setMarginWidth(1, 0);
  pane->markerDefine(QsciScintilla::Background, DeletedMarker);
  pane->markerDefine(QsciScintilla::Background, InsertedMarker);
  pane->markerDefine(QsciScintilla::Background, FillerMarker);
  return pane;
}

void ProgramDiffView::applyColours() {
  const bool dark = isDarkPalette(palette());
  for (auto* pane : {left_, right_}) {
    auto* lexer = static_cast<StepLexer*>(pane->lexer());
    lexer->setDark(dark);
    pane->setMarkerBackgroundColor(dark ? QColor(0x5a, 0x26, 0x26) : QColor(0xfa, 0xd4, 0xd4), DeletedMarker);
    pane->setMarkerBackgroundColor(dark ? QColor(0x23, 0x4d, 0x2a) : QColor(0xd8, 0xf5, 0xd0), InsertedMarker);
    pane->setMarkerBackgroundColor(dark ? QColor(0x30, 0x30, 0x30) : QColor(0xe8, 0xe8, 0xe8), FillerMarker);
    const QColor paper = lexer->defaultPaper(0);
    pane->setMarginsBackgroundColor(dark ? paper.lighter(115) : QColor(0xf0, 0xf0, 0xf0));
    pane->setMarginsForegroundColor(dark ? QColor(0x90, 0x90, 0x90) : QColor(0x70, 0x70, 0x70));
    pane->recolor();
  }
}

void ProgramDiffView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if ((e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) && leftLexer_ &&
      isDarkPalette(palette()) != leftLexer_->dark())
    applyColours();
}

void ProgramDiffView::setTexts(const QString& oldText, const QString& newText, const QString& oldTitle,
                               const QString& newTitle) {
  oldText_ = oldText;
  newText_ = newText;
  oldTitle_->setText(oldTitle.isEmpty() ? tr("Before") : oldTitle);
  newTitle_->setText(newTitle.isEmpty() ? tr("After") : newTitle);
  rebuild();
}

void ProgramDiffView::setContent(Content c) {
  if (c == content_) return;
  content_ = c;
  const StepLexer::LineState st =
      c == Content::Program ? StepLexer::LineState{StepLexer::Impl, -1} : StepLexer::LineState{};
  leftLexer_->setInitialState(st);
  rightLexer_->setInitialState(st);
  canonicalBox_->setEnabled(c == Content::Program);
  rebuild();
}

void ProgramDiffView::setCanonical(bool on) {
  if (on == canonical_) return;
  canonical_ = on;
  {
    const QSignalBlocker block(canonicalBox_);
    canonicalBox_->setChecked(on);
  }
  rebuild();
}

void ProgramDiffView::setNames(const StepLexer::Names& names) {
  leftLexer_->setNames(names);
  rightLexer_->setNames(names);
  left_->recolor();
  right_->recolor();
}

QString ProgramDiffView::summaryText() const {
  QString s = tr("identical");
  if (!stats_.identical()) {
    const QString changes = hunkCount() == 1 ? tr("1 change") : tr("%1 changes").arg(hunkCount());
    s = QStringLiteral("+%1 −%2 · %3").arg(stats_.inserted).arg(stats_.deleted).arg(changes);
  }
  if (canonical_ && content_ == Content::Program)
    s += canonicalNote_.isEmpty() ? tr(" (canonical form)") : QStringLiteral(" (%1)").arg(canonicalNote_);
  return s;
}

void ProgramDiffView::rebuild() {
  comparedOld_ = oldText_;
  comparedNew_ = newText_;
  canonicalNote_.clear();
  if (canonical_ && content_ == Content::Program) {
    std::string errOld, errNew;
    auto co = canonicalProgram(oldText_.toStdString(), errOld);
    auto cn = canonicalProgram(newText_.toStdString(), errNew);
    if (co) comparedOld_ = QString::fromStdString(*co);
    if (cn) comparedNew_ = QString::fromStdString(*cn);
    QStringList notes;
    if (!co) notes << tr("before shown as written: %1").arg(QString::fromStdString(errOld));
    if (!cn) notes << tr("after shown as written: %1").arg(QString::fromStdString(errNew));
    canonicalNote_ = notes.join(QStringLiteral("; "));
  }
  const auto script = text::diff_texts(comparedOld_.toStdString(), comparedNew_.toStdString());
  stats_ = text::diff_stats(script);
  rows_ = text::side_by_side(script);

  QString leftText, rightText;
  hunkRows_.clear();
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto& r = rows_[i];
    if (r.kind != text::RowKind::Equal && (i == 0 || rows_[i - 1].kind == text::RowKind::Equal))
      hunkRows_.push_back(static_cast<int>(i));
    leftText += QString::fromStdString(r.old_text);
    rightText += QString::fromStdString(r.new_text);
    if (i + 1 < rows_.size()) {
      leftText += QLatin1Char('\n');
      rightText += QLatin1Char('\n');
    }
  }
  for (auto* pane : {left_, right_}) {
    pane->setReadOnly(false);
    pane->setText(pane == left_ ? leftText : rightText);
    pane->setReadOnly(true);
    pane->markerDeleteAll();
    pane->clearMarginText();
  }
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto& r = rows_[i];
    const int line = static_cast<int>(i);
    if (r.old_line > 0) left_->setMarginText(line, QString::number(r.old_line), 0);
    if (r.new_line > 0) right_->setMarginText(line, QString::number(r.new_line), 0);
    switch (r.kind) {
      case text::RowKind::Equal:
        break;
      case text::RowKind::Changed:
        left_->markerAdd(line, DeletedMarker);
        right_->markerAdd(line, InsertedMarker);
        break;
      case text::RowKind::Deleted:
        left_->markerAdd(line, DeletedMarker);
        right_->markerAdd(line, FillerMarker);
        break;
      case text::RowKind::Inserted:
        left_->markerAdd(line, FillerMarker);
        right_->markerAdd(line, InsertedMarker);
        break;
    }
  }
  left_->recolor();
  right_->recolor();
  currentHunk_ = -1;
  summary_->setText(summaryText());
  prev_->setEnabled(!hunkRows_.empty());
  next_->setEnabled(!hunkRows_.empty());
  Q_EMIT diffChanged();
}

void ProgramDiffView::goToHunk(int index) {
  if (hunkRows_.empty()) return;
  currentHunk_ = (index % hunkCount() + hunkCount()) % hunkCount();
  const int line = hunkRows_[static_cast<std::size_t>(currentHunk_)];
  for (auto* pane : {left_, right_}) {
    pane->setCursorPosition(line, 0);
    pane->ensureLineVisible(line);
  }
  left_->verticalScrollBar()->setValue(std::max(0, line - 2));
}

void ProgramDiffView::nextHunk() { goToHunk(currentHunk_ + 1); }
void ProgramDiffView::previousHunk() { goToHunk(currentHunk_ < 0 ? hunkCount() - 1 : currentHunk_ - 1); }

}  // namespace sf::widgets
