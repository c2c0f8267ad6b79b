#include "widgets/editor/statement_diff_view.hpp"

#include "widgets/editor/step_editor.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTextOption>
#include <QUrl>
#include <QVBoxLayout>

namespace sf::widgets {

namespace {

constexpr int kFoldContext = 1;      // unchanged statements kept on each side of a change when a run is folded
constexpr int kLegendRenames = 12;   // renames spelled out in the legend line (all of them in its tooltip)
const QChar kBreak(0x200B);          // a zero-width break opportunity after . ( [ , =

struct Palette {
  const char *deleted, *inserted, *filler, *oldToken, *newToken, *renamed, *lineNo, *fold;
};

const Palette& colours(bool dark) {
  static const Palette light{"#fde2e2", "#e0f6dc", "#f0f0f0", "#f3a0a0", "#98dd92", "#1f5fbf", "#8a8a8a", "#f4f4f4"};
  static const Palette night{"#4a2323", "#1f4326", "#2c2c2c", "#8a3030", "#2f7a3a", "#8ab4f8", "#8a8a8a", "#2a2a2a"};
  return dark ? night : light;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Escaped text with break hints after the punctuation STeP lines are long between.
QString breakable(const QString& raw) {
  QString out;
  out.reserve(raw.size() + raw.size() / 4);
  for (const QChar c : raw) {
    if (c == QLatin1Char('<')) out += QStringLiteral("&lt;");
    else if (c == QLatin1Char('>')) out += QStringLiteral("&gt;");
    else if (c == QLatin1Char('&')) out += QStringLiteral("&amp;");
    else out += c;
    if (c == QLatin1Char('.') || c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char(',') ||
        c == QLatin1Char('='))
      out += kBreak;
  }
  return out;
}

// One side's statement as HTML: its line number, then the text with changed tokens highlighted and renamed
// names underlined.
QString sideHtml(const inspect::DiffSide& s, const Palette& p, const char* tokenColour) {
  if (!s.present()) return QString();
  QString h = QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;").arg(QLatin1String(p.lineNo)).arg(s.first_line);
  int at = 0;
  for (const inspect::MarkedRange& m : s.marks) {
    if (m.begin < at) continue;
    h += breakable(qs(s.text.substr(static_cast<std::size_t>(at), static_cast<std::size_t>(m.begin - at))));
    const QString tok = breakable(qs(s.text.substr(static_cast<std::size_t>(m.begin), static_cast<std::size_t>(m.end - m.begin))));
    if (m.mark == inspect::TokenMark::Changed)
      h += QStringLiteral("<span style=\"background-color:%1; font-weight:bold\">%2</span>").arg(QLatin1String(tokenColour), tok);
    else
      h += QStringLiteral("<span style=\"color:%1; text-decoration:underline\">%2</span>").arg(QLatin1String(p.renamed), tok);
    at = m.end;
  }
  h += breakable(qs(s.text.substr(static_cast<std::size_t>(at))));
  return h;
}

QString foldText(int n) {
  return n == 1 ? StatementDiffView::tr("⋯ 1 unchanged statement") : StatementDiffView::tr("⋯ %1 unchanged statements").arg(n);
}

QString cell(const QString& content, const char* bg) {
  const QString colour = bg ? QStringLiteral(" bgcolor=\"%1\"").arg(QLatin1String(bg)) : QString();
  return QStringLiteral("<td width=\"50%\" valign=\"top\"%1>%2</td>").arg(colour, content);
}

}  // namespace

StatementDiffView::StatementDiffView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("StatementDiffView"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(2);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("diffSummary"));
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setToolTip(tr("Unchanged statements are folded; a click on a folded row opens it"));
  connect(summary_, &QLabel::linkActivated, this, [this] { setFolding(!folding_); });
  outer->addWidget(summary_);
  legend_ = new QLabel(this);
  legend_->setObjectName(QStringLiteral("diffLegend"));
  legend_->setWordWrap(true);
  legend_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  outer->addWidget(legend_);
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("diffNote"));
  note_->setWordWrap(true);
  QFont italic = note_->font();
  italic.setItalic(true);
  note_->setFont(italic);
  outer->addWidget(note_);

  stack_ = new QStackedWidget(this);
  body_ = new QTextBrowser(stack_);
  body_->setObjectName(QStringLiteral("diffBody"));
  body_->setOpenLinks(false);
  body_->setLineWrapMode(QTextEdit::WidgetWidth);
  body_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  body_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  state_ = new QLabel(stack_);
  state_->setObjectName(QStringLiteral("diffNoProgram"));
  state_->setWordWrap(true);
  state_->setAlignment(Qt::AlignCenter);
  state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  state_->setMargin(12);
  stack_->addWidget(body_);
  stack_->addWidget(state_);
  outer->addWidget(stack_, 1);

  connect(body_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == QLatin1String("unfold")) unfold(url.path().toInt());
  });
  applyFont();
  render();
}

void StatementDiffView::applyFont() {
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setPointSizeF(font().pointSizeF());
  body_->document()->setDefaultFont(mono);
  // Room for a few wrapped statements even in a short dock (the dock scrolls when the panel needs more).
  body_->setMinimumHeight(QFontMetrics(mono).lineSpacing() * 7 + 2 * body_->frameWidth());
}

void StatementDiffView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) {
    applyFont();
    render();
  } else if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
    render();
  }
}

void StatementDiffView::setPrograms(const QString& oldText, const QString& newText, const QString& oldTitle,
                                    const QString& newTitle, inspect::DiffDialect dialect) {
  inspect::ProgramDiffOptions opt;
  opt.dialect = dialect;
  diff_ = inspect::diff_programs(oldText.toStdString(), newText.toStdString(), opt);
  oldTitle_ = oldTitle.isEmpty() ? tr("before") : oldTitle;
  newTitle_ = newTitle.isEmpty() ? tr("after") : newTitle;
  noProgram_ = false;
  unfolded_.clear();
  render();
  body_->verticalScrollBar()->setValue(0);
  Q_EMIT diffChanged();
}

void StatementDiffView::setNoProgram(const QString& reason, const QString& detail) {
  diff_ = {};
  noProgram_ = true;
  unfolded_.clear();
  QString html = QStringLiteral("<p style=\"font-size:large\"><b>%1</b></p><p>%2</p>")
                     .arg(tr("No program in the answer").toHtmlEscaped(), reason.toHtmlEscaped());
  if (!detail.isEmpty()) html += QStringLiteral("<p><i>%1</i></p>").arg(detail.toHtmlEscaped());
  html += QStringLiteral("<p>%1</p>").arg(
      tr("Nothing would change in the editor. The model's answer is in the response above.").toHtmlEscaped());
  state_->setText(html);
  render();
  Q_EMIT diffChanged();
}

void StatementDiffView::clear() {
  diff_ = {};
  noProgram_ = false;
  oldTitle_.clear();
  newTitle_.clear();
  unfolded_.clear();
  render();
  Q_EMIT diffChanged();
}

QString StatementDiffView::summaryText() const {
  if (noProgram_) return tr("no program in the answer");
  if (diff_.rows.empty()) return QString();
  if (diff_.same_statements())
    return diff_.renames.empty() ? tr("no change")
                                 : tr("no change except names (%n renamed)", nullptr, static_cast<int>(diff_.renames.size()));
  QStringList parts;
  if (diff_.changed) parts << tr("%n changed", nullptr, diff_.changed);
  if (diff_.inserted) parts << tr("%n inserted", nullptr, diff_.inserted);
  if (diff_.deleted) parts << tr("%n deleted", nullptr, diff_.deleted);
  parts << tr("%n unchanged", nullptr, diff_.equal);
  return (diff_.aligned ? tr("statements: %1") : tr("lines: %1")).arg(parts.join(QStringLiteral(" · ")));
}

QString StatementDiffView::legendText() const {
  if (noProgram_ || diff_.renames.empty()) return QString();
  QStringList names;
  for (const auto& r : diff_.renames) names << qs(r.from) + QChar(0x2192) + qs(r.to);
  return tr("renamed: %1").arg(names.join(QStringLiteral(", ")));
}

QString StatementDiffView::noteText() const { return noProgram_ ? QString() : qs(diff_.note); }

QString StatementDiffView::stateText() const { return noProgram_ ? state_->text() : QString(); }

QString StatementDiffView::bodyText() const {
  QString t = body_->toPlainText();
  t.remove(kBreak);
  return t;
}

void StatementDiffView::setFolding(bool on) {
  if (on == folding_) return;
  folding_ = on;
  unfolded_.clear();
  render();
}

void StatementDiffView::unfold(int run) {
  if (unfolded_.contains(run)) return;
  unfolded_.insert(run);
  const int keep = body_->verticalScrollBar()->value();
  render();
  body_->verticalScrollBar()->setValue(keep);
}

void StatementDiffView::render() {
  stack_->setCurrentWidget(noProgram_ ? static_cast<QWidget*>(state_) : body_);
  const QString legend = legendText();
  legend_->setVisible(!legend.isEmpty());
  if (diff_.renames.size() > static_cast<std::size_t>(kLegendRenames)) {
    QStringList names;
    for (std::size_t k = 0; k < static_cast<std::size_t>(kLegendRenames); ++k)
      names << qs(diff_.renames[k].from) + QChar(0x2192) + qs(diff_.renames[k].to);
    legend_->setText(tr("renamed: %1 … and %2 more")
                         .arg(names.join(QStringLiteral(", ")))
                         .arg(diff_.renames.size() - static_cast<std::size_t>(kLegendRenames)));
  } else {
    legend_->setText(legend);
  }
  legend_->setToolTip(legend);
  note_->setText(noteText());
  note_->setVisible(!noteText().isEmpty());

  const Palette& p = colours(isDarkPalette(palette()));
  const auto& rows = diff_.rows;
  const int n = static_cast<int>(rows.size());
  const bool fold = folding_ && !diff_.same_statements();
  QString html = QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"2\">");
  if (n > 0)
    html += QStringLiteral("<tr><th width=\"50%\" align=\"left\">%1</th><th width=\"50%\" align=\"left\">%2</th></tr>")
                .arg(oldTitle_.toHtmlEscaped(), newTitle_.toHtmlEscaped());
  auto row = [&](const inspect::DiffRow& r) {
    const char *ob = nullptr, *nb = nullptr;
    switch (r.kind) {
      case inspect::RowChange::Equal: break;
      case inspect::RowChange::Changed: ob = p.deleted, nb = p.inserted; break;
      case inspect::RowChange::Deleted: ob = p.deleted, nb = p.filler; break;
      case inspect::RowChange::Inserted: ob = p.filler, nb = p.inserted; break;
    }
    html += QStringLiteral("<tr>") + cell(sideHtml(r.old_side, p, p.oldToken), ob) +
            cell(sideHtml(r.new_side, p, p.newToken), nb) + QStringLiteral("</tr>");
  };
  foldedRuns_ = 0;
  for (int i = 0; i < n;) {
    if (rows[static_cast<std::size_t>(i)].kind == inspect::RowChange::Equal) {
      int j = i;
      while (j < n && rows[static_cast<std::size_t>(j)].kind == inspect::RowChange::Equal) ++j;
      const int head = i == 0 ? 0 : kFoldContext, tail = j == n ? 0 : kFoldContext;
      if (fold && !unfolded_.contains(i) && j - i > head + tail + 1) {
        for (int k = i; k < i + head; ++k) row(rows[static_cast<std::size_t>(k)]);
        html += QStringLiteral("<tr><td colspan=\"2\" align=\"center\" bgcolor=\"%1\"><a href=\"unfold:%2\">%3</a></td></tr>")
                    .arg(QLatin1String(p.fold))
                    .arg(i)
                    .arg(foldText(j - i - head - tail).toHtmlEscaped());
        for (int k = j - tail; k < j; ++k) row(rows[static_cast<std::size_t>(k)]);
        ++foldedRuns_;
      } else {
        for (int k = i; k < j; ++k) row(rows[static_cast<std::size_t>(k)]);
      }
      i = j;
      continue;
    }
    row(rows[static_cast<std::size_t>(i)]);
    ++i;
  }
  html += QStringLiteral("</table>");
  if (n == 0 && !noProgram_) html = QStringLiteral("<p>%1</p>").arg(tr("No proposal yet.").toHtmlEscaped());
  body_->setHtml(html);
  // The summary, with a link that shows every unchanged statement (or folds them again).
  QString summary = summaryText().toHtmlEscaped();
  if (!noProgram_ && (foldedRuns_ > 0 || !folding_))
    summary += QStringLiteral(" — <a href=\"fold\">%1</a>")
                   .arg((folding_ ? tr("show unchanged") : tr("fold unchanged")).toHtmlEscaped());
  summary_->setText(summary);
}

}  // namespace sf::widgets
