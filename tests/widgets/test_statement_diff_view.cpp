// The agent's diff (issue 34 item 13): a rename-only proposal has no changed row, a round without a program shows
// "No program in the answer" with its reason (not every line deleted), unchanged runs fold, a side that does not
// parse is compared line by line with a note, and the diff fits the agent dock of a 1366x768 and a 1920x1080
// window, in the default and the presentation font (the widgets' geometry: no horizontal scrolling needed).
#include <gtest/gtest.h>

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTextTable>

#include <memory>

#include "widgets/editor/agent_docks.hpp"
#include "widgets/editor/agent_panel.hpp"
#include "widgets/editor/statement_diff_view.hpp"
#include "widgets/main_window.hpp"

namespace statement_diff_tests {

using sf::widgets::AgentOutcome;
using sf::widgets::AgentPanel;
using sf::widgets::MainWindow;
using sf::widgets::StatementDiffView;

const QString kFused = QStringLiteral(
    "E2 = step.Zip().apply((E0, E1))                    # [M, N] of [fp32, Buffer(fp32, [D])]\n"
    "E3 = step.Accum(fn=fn_maxsum, b=1).apply(E2)       # [N] of [fp32, fp32, Buffer(fp32, [D])]\n"
    "E4 = step.Map(fn=fn_getthird).apply(E3)            # [N] of Buffer(fp32, [D])\n"
    "E5 = step.Streamify().apply(E4)                    # [D, N] of fp32\n"
    "return E5\n");
const QString kRenamed = QStringLiteral(
    "pairs = step.Zip().apply((E0, E1))\n"
    "acc = step.Accum(fn=fn_maxsum, b=1).apply(pairs)\n"
    "third = step.Map(fn=fn_getthird).apply(acc)\n"
    "out = step.Streamify().apply(third)\n"
    "return out\n");

// A longer program: `n` Map statements in a chain, the k-th with fn_k (one changed when `changed` >= 0).
QString chain(int n, const QString& prefix, int changed = -1) {
  QString s = QStringLiteral("%1_0 = step.Bufferize(a=1).apply(E0)\n").arg(prefix);
  for (int k = 1; k <= n; ++k)
    s += QStringLiteral("%1_%2 = step.Map(fn=%3).apply(%1_%4)\n")
             .arg(prefix)
             .arg(k)
             .arg(k == changed ? QStringLiteral("fn_other") : QStringLiteral("fn_step%1").arg(k))
             .arg(k - 1);
  return s + QStringLiteral("return %1_%2\n").arg(prefix).arg(n);
}

// The number of table cells whose background is `colour` (the document's formats, not pixels).
int cellsWithBackground(QTextBrowser* b, const QColor& colour) {
  int count = 0;
  for (QTextFrame* f : b->document()->rootFrame()->childFrames())
    if (auto* t = qobject_cast<QTextTable*>(f))
      for (int r = 0; r < t->rows(); ++r)
        for (int c = 0; c < t->columns(); ++c)
          if (t->cellAt(r, c).format().background().color() == colour) ++count;
  return count;
}

const QColor kDeletedTint(0xfd, 0xe2, 0xe2);
const QColor kInsertedTint(0xe0, 0xf6, 0xdc);

std::shared_ptr<sf::learn::InteractiveResult> result(const std::string& impl, const std::string& errorKind,
                                                      const std::string& error = {}) {
  auto r = std::make_shared<sf::learn::InteractiveResult>();
  r->task = "attention/online_softmax_fused";
  r->impl = r->proposal = impl;
  r->error_kind = errorKind;
  r->error = error;
  r->pass = !impl.empty();
  return r;
}

AgentOutcome outcome(const QString& editorProgram, std::shared_ptr<sf::learn::InteractiveResult> r) {
  AgentOutcome o;
  o.job = 4242;  // not the panel's running round: a finished round from the history's point of view
  o.action = sf::learn::InteractiveAction::Optimise;
  o.program = editorProgram;
  o.taskId = QStringLiteral("attention/online_softmax_fused");
  o.result = std::move(r);
  return o;
}

}  // namespace statement_diff_tests

using namespace statement_diff_tests;

TEST(StatementDiffView, RenameOnlyProposalHasNoChangedRow) {
  StatementDiffView v;
  v.resize(500, 400);
  v.setPrograms(kFused, kRenamed, QStringLiteral("editor"), QStringLiteral("proposal"));
  EXPECT_TRUE(v.diff().same_statements());
  EXPECT_EQ(v.diff().equal, 5);
  EXPECT_EQ(v.summaryText(), QStringLiteral("no change except names (4 renamed)"));
  EXPECT_EQ(v.legendText(), QStringLiteral("renamed: E2→pairs, E3→acc, E4→third, E5→out"));
  EXPECT_EQ(cellsWithBackground(v.body(), kDeletedTint), 0);
  EXPECT_EQ(cellsWithBackground(v.body(), kInsertedTint), 0);
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("acc = step.Accum(fn=fn_maxsum, b=1).apply(pairs)")))
      << v.bodyText().toStdString();
  // A real change shows: one changed row, its two cells tinted.
  QString changed = kRenamed;
  changed.replace(QStringLiteral("b=1"), QStringLiteral("b=2"));
  v.setPrograms(kFused, changed);
  EXPECT_EQ(v.diff().changed, 1);
  EXPECT_EQ(v.summaryText(), QStringLiteral("statements: 1 changed · 4 unchanged"));
  EXPECT_EQ(cellsWithBackground(v.body(), kDeletedTint), 1);
  EXPECT_EQ(cellsWithBackground(v.body(), kInsertedTint), 1);
}

TEST(StatementDiffView, UnchangedRunsFoldAndOpen) {
  StatementDiffView v;
  v.resize(500, 400);
  v.setPrograms(chain(20, QStringLiteral("a")), chain(20, QStringLiteral("b"), 10));
  ASSERT_EQ(v.diff().changed, 1);
  EXPECT_EQ(v.diff().renames.size(), 21u);
  EXPECT_TRUE(v.legendText().startsWith(QStringLiteral("renamed: a_0→b_0, a_1→b_1")));
  // Rows 0..9 unchanged, 10 changed, 11..21 unchanged: two folded runs, one row of context next to the change.
  EXPECT_EQ(v.foldedRuns(), 2);
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("⋯ 9 unchanged statements"))) << v.bodyText().toStdString();
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("⋯ 10 unchanged statements"))) << v.bodyText().toStdString();
  EXPECT_FALSE(v.bodyText().contains(QStringLiteral("fn_step3")));
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("fn_step9")));  // context
  v.unfold(0);
  EXPECT_EQ(v.foldedRuns(), 1);
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("fn_step3")));
  v.setFolding(false);
  EXPECT_EQ(v.foldedRuns(), 0);
  EXPECT_TRUE(v.bodyText().contains(QStringLiteral("fn_step15")));
}

TEST(StatementDiffView, ASideThatDoesNotParseIsComparedLineByLineWithANote) {
  StatementDiffView v;
  v.setPrograms(kFused, QStringLiteral("E2 = step.Zip().apply((E0, E1)\nreturn E2\n"));
  EXPECT_FALSE(v.diff().aligned);
  EXPECT_TRUE(v.noteText().contains(QStringLiteral("does not parse"))) << v.noteText().toStdString();
  EXPECT_TRUE(v.summaryText().startsWith(QStringLiteral("lines: "))) << v.summaryText().toStdString();
}

TEST(StatementDiffView, NoProgramRoundShowsTheStateNotDeletions) {
  AgentPanel panel;
  panel.resize(480, 700);
  panel.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
  StatementDiffView* v = panel.diffView();
  panel.roundFinished(outcome(kFused, result("", "truncated", "the answer was cut at max_tokens (4096)")));
  EXPECT_TRUE(v->noProgram());
  EXPECT_TRUE(v->stateText().contains(QStringLiteral("No program in the answer")));
  EXPECT_TRUE(v->stateText().contains(QStringLiteral("token limit"))) << v->stateText().toStdString();
  EXPECT_TRUE(v->stateText().contains(QStringLiteral("max_tokens (4096)")));
  EXPECT_TRUE(v->stateLabel()->isVisible());
  EXPECT_FALSE(v->body()->isVisible());
  EXPECT_EQ(v->diff().deleted, 0);
  EXPECT_EQ(v->summaryText(), QStringLiteral("no program in the answer"));
  if (const QByteArray dir = qgetenv("SF_SCREENSHOT_DIR"); !dir.isEmpty())
    panel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/agent_no_program.png"));
  // An answer that could not be read as a program says so.
  panel.roundFinished(outcome(kFused, result("", "parse", "the answer contains no impl: block and no STeP program")));
  EXPECT_TRUE(v->stateText().contains(QStringLiteral("could not be read as a program")));
  // A round with a program shows the diff again; the history brings the no-program round back.
  panel.roundFinished(outcome(kFused, result(kRenamed.toStdString(), "")));
  EXPECT_FALSE(v->noProgram());
  EXPECT_TRUE(v->body()->isVisible());
  EXPECT_TRUE(v->diff().same_statements());
  panel.showEntry(0);
  EXPECT_TRUE(v->noProgram());
  EXPECT_TRUE(v->stateText().contains(QStringLiteral("token limit")));
}

TEST(StatementDiffView, FitsTheAgentDockAt1366x768And1920x1080InBothFonts) {
  // A typical v2 optimisation: long lines, two changed kwargs, streams renamed.
  const QString before = QStringLiteral(
      "xa = step.OffChipLoad(tile=[8, 4096], stride=[1, 0], shape=[R/8, 1], par_dispatch=16).apply(x)\n"
      "m0 = step.UnaryMap(fn=row_max, write_back_mu=0, compute_bw=256).apply(xa)\n"
      "d0 = step.BinaryMap(fn=sub, write_back_mu=0, compute_bw=256).apply((xa, m0))\n"
      "e0 = step.UnaryMap(fn=exp, write_back_mu=0, compute_bw=1024).apply(d0)\n"
      "Y = step.OffChipStore(par_dispatch=16).apply(e0)\n");
  QString after = before;
  after.replace(QStringLiteral("m0"), QStringLiteral("row_maxima"))
      .replace(QStringLiteral("d0"), QStringLiteral("shifted"))
      .replace(QStringLiteral("compute_bw=1024"), QStringLiteral("compute_bw=2048"))
      .replace(QStringLiteral("par_dispatch=16).apply(x)"), QStringLiteral("par_dispatch=32).apply(x)"));
  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)})
    for (const double scale : {1.0, 1.6}) {
      SCOPED_TRACE(QStringLiteral("%1x%2 font x%3").arg(size.width()).arg(size.height()).arg(scale).toStdString());
      MainWindow w;
      QFont f = w.font();
      f.setPointSizeF(f.pointSizeF() * scale);
      w.setFont(f);
      w.resize(size);
      w.show();
      ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
      w.agentDocks()->dock()->show();
      w.agentDocks()->dock()->raise();
      AgentPanel* panel = w.agentDocks()->panel();
      panel->roundFinished(outcome(before, result(after.toStdString(), "")));
      QTest::qWait(50);  // the layout requests up to the dock's scroll area
      StatementDiffView* v = panel->diffView();
      ASSERT_TRUE(v->body()->isVisible());
      EXPECT_EQ(v->diff().changed, 2);
      EXPECT_EQ(v->legendText(), QStringLiteral("renamed: m0→row_maxima, d0→shifted"));
      // Wrapped, never wider than the view: no horizontal scrolling, so every changed token is on screen.
      QTextBrowser* b = v->body();
      EXPECT_GT(b->viewport()->width(), 150);
      EXPECT_EQ(b->horizontalScrollBar()->maximum(), 0);
      EXPECT_LE(b->document()->size().width(), b->viewport()->width() + 1);
      // The diff lies within the dock's visible width (the dock scrolls vertically when it is short).
      auto* area = qobject_cast<QScrollArea*>(w.agentDocks()->dock()->widget());
      ASSERT_NE(area, nullptr);
      EXPECT_LE(v->mapTo(area->viewport(), QPoint(v->width(), 0)).x(), area->viewport()->width());
      EXPECT_GE(b->height(), 7 * QFontMetrics(b->document()->defaultFont()).lineSpacing());
      if (const QByteArray dir = qgetenv("SF_SCREENSHOT_DIR"); !dir.isEmpty())
        w.grab().save(QStringLiteral("%1/agent_diff_%2x%3_%4.png")
                          .arg(QString::fromLocal8Bit(dir))
                          .arg(size.width())
                          .arg(size.height())
                          .arg(scale == 1.0 ? QStringLiteral("default") : QStringLiteral("presentation")));
    }
}
