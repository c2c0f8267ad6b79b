// The editor on STeP-25 documents (issue 33 item 1) and types kept up to a type error (issue 34 item 8):
// v2 highlighting chosen by the dialect, kwarg completion per operator with the operator card as the call tip,
// inline v2 stream types on K1, the types of the lines above an error in v1 and v2, and the issues pane's
// detail line that shows a diagnostic's fix in full.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>

#include "core/step/task.hpp"
#include "core/step2/check.hpp"
#include "core/step2/ops.hpp"
#include "test_support.hpp"
#include "widgets/editor/issues_model.hpp"
#include "widgets/editor/issues_pane.hpp"
#include "widgets/editor/step2_apis.hpp"
#include "widgets/editor/step_apis.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/editor/step_lexer.hpp"
#include "widgets/engine/engine_jobs.hpp"
#include "widgets/main_window.hpp"

using namespace sf::widgets;
using sf::widgets::test::columnOf;
using sf::widgets::test::demoWith;
using sf::widgets::test::lineOf;

namespace editor_v2_test {

QString k1Text() {
  QFile f(QStringLiteral(SF_TEST_DATA_DIR "/step25/K1_gemm.yaml"));
  EXPECT_TRUE(f.open(QIODevice::ReadOnly));
  return QString::fromUtf8(f.readAll());
}

int styleOf(StepEditor& ed, const QString& doc, const QString& lineNeedle, const QString& word) {
  const int line = lineOf(doc, lineNeedle);
  return static_cast<int>(ed.SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT,
                                           static_cast<unsigned long>(ed.positionOf(line, columnOf(doc, line, word)))));
}

// Checks `doc` as the engine thread does and shows the result in `ed`.
void checkInto(StepEditor& ed, const QString& doc) {
  ed.setText(doc);
  ed.applyCheck(makeCheckSnapshot(doc.toStdString(), "doc.yaml", nullptr));
}

}  // namespace editor_v2_test

using editor_v2_test::checkInto;
using editor_v2_test::k1Text;
using editor_v2_test::styleOf;

TEST(EditorV2, HighlightsAStep25DocumentByItsDialect) {
  StepEditor ed;
  const QString doc = k1Text().replace(QStringLiteral("apply(c)\n"), QStringLiteral("apply(c)  # the single store\n"));
  ed.setText(doc);
  EXPECT_TRUE(ed.isV2());  // from the document's `dialect: step-v2` line
  ed.SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, -1L);
  const QString a = QStringLiteral("a = step.OffChipLoad");
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("step")), StepLexer::Keyword);
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("OffChipLoad")), StepLexer::Primitive);
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("tile=")), StepLexer::Parameter);
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("par_dispatch")), StepLexer::Parameter);
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("128")), StepLexer::Number);
  EXPECT_EQ(styleOf(ed, doc, a, QStringLiteral("apply")), StepLexer::Keyword);
  const QString c = QStringLiteral("c = step.BinaryMapAccum");
  EXPECT_EQ(styleOf(ed, doc, c, QStringLiteral("BinaryMapAccum")), StepLexer::Primitive);
  EXPECT_EQ(styleOf(ed, doc, c, QStringLiteral("matmul")), StepLexer::Fn);
  EXPECT_EQ(styleOf(ed, doc, c, QStringLiteral("rank")), StepLexer::Parameter);
  EXPECT_EQ(styleOf(ed, doc, QStringLiteral("C = step.OffChipStore"), QStringLiteral("# the")), StepLexer::Comment);
  EXPECT_EQ(styleOf(ed, doc, QStringLiteral("title:"), QStringLiteral("\"K1")), StepLexer::Text);  // a string
  // A float kwarg value is one number in v2 (in a v1 program '.' is step.'s).
  StepLexer lex;
  lex.setDialect(StepLexer::Dialect::V2);
  StepLexer::LineState st{StepLexer::Impl, -1};
  auto s = lex.styleLine("  y = step.UnaryMap(fn=scale, c=0.125, write_back_mu=0, compute_bw=8).apply(x)", st);
  const QByteArray line("  y = step.UnaryMap(fn=scale, c=0.125, write_back_mu=0, compute_bw=8).apply(x)");
  const int f = static_cast<int>(line.indexOf("0.125"));
  for (int i = f; i < f + 5; ++i) EXPECT_EQ(s[i], StepLexer::Number) << i;
  EXPECT_EQ(s[line.indexOf("scale")], StepLexer::Fn);

  // The same program in a v1 document: OffChipLoad is no v1 primitive and tile is no v1 parameter.
  StepEditor v1;
  QString v1doc = doc;
  v1doc.replace(QStringLiteral("dialect: step-v2"), QStringLiteral("dialect: step-v1"));
  v1.setText(v1doc);
  EXPECT_FALSE(v1.isV2());
  v1.SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, -1L);
  EXPECT_EQ(styleOf(v1, v1doc, a, QStringLiteral("OffChipLoad")), StepLexer::Default);
  EXPECT_EQ(styleOf(v1, v1doc, a, QStringLiteral("tile=")), StepLexer::Default);
}

TEST(EditorV2, CompletesTheKwargsOfTheOperatorBeingCalled) {
  StepEditor ed;
  ed.setV2(true);
  StepApis* apis = ed.stepApis();
  // After `step.`: the operators.
  EXPECT_EQ(apis->completions(QStringLiteral("Off"), QStringLiteral("  a = step.Off"), {}, true),
            (QStringList{QStringLiteral("OffChipLoad"), QStringLiteral("OffChipStore")}));
  // Inside `step.OffChipLoad(`: its kwargs, in the checker's order.
  const QStringList load = apis->completions(QString(), QStringLiteral("  a = step.OffChipLoad("), {}, false);
  ASSERT_GE(load.size(), 4);
  EXPECT_EQ(load.mid(0, 4), (QStringList{QStringLiteral("tile="), QStringLiteral("stride="), QStringLiteral("shape="),
                                         QStringLiteral("par_dispatch=")}));
  EXPECT_EQ(apis->completions(QStringLiteral("s"), QStringLiteral("  a = step.OffChipLoad(tile=[128, 128], s"), {}, false),
            (QStringList{QStringLiteral("stride="), QStringLiteral("shape=")}));
  // Accum has `out`, BinaryMap does not; after fn= the tile fns.
  EXPECT_TRUE(apis->completions(QStringLiteral("o"), QStringLiteral("  r = step.Accum(o"), {}, false)
                  .contains(QStringLiteral("out=")));
  EXPECT_TRUE(apis->completions(QStringLiteral("o"), QStringLiteral("  r = step.BinaryMap(o"), {}, false).isEmpty());
  EXPECT_EQ(apis->completions(QStringLiteral("matm"), QStringLiteral("  r = step.BinaryMapAccum(fn=matm"), {}, false),
            (QStringList{QStringLiteral("matmul"), QStringLiteral("matmul_t")}));
  // Outside a call: the streams defined above.
  EXPECT_TRUE(apis->completions(QStringLiteral("a"), QStringLiteral("  c = step.BinaryMap(fn=add).apply((a"),
                                {QStringLiteral("  acc = step.OffChipLoad(tile=[1, 16]).apply(A)")}, false)
                  .contains(QStringLiteral("acc")));

  // The call tip: the signature from the checker's table and the operator's row of the card.
  QList<int> shifts;
  const QStringList tips = apis->callTips({QStringLiteral("step"), QStringLiteral("BinaryMapAccum"), QString()}, 0,
                                          QsciScintilla::CallTipsNoContext, shifts);
  ASSERT_EQ(tips.size(), 1);
  EXPECT_TRUE(tips[0].startsWith(QStringLiteral("step.BinaryMapAccum(fn=…, rank=…, write_back_mu=…, compute_bw=…)"
                                                ".apply((x, y))")))
      << tips[0].toStdString();
  EXPECT_TRUE(tips[0].contains(QStringLiteral("type rule (in -> out): equal shapes S -> Stream[out tile, S[:-b]]")))
      << tips[0].toStdString();
  EXPECT_TRUE(tips[0].contains(QStringLiteral("what it computes: sums fn(x1, x2)"))) << tips[0].toStdString();
  for (const QString& l : tips[0].split(QLatin1Char('\n'))) EXPECT_LE(l.size(), 100) << l.toStdString();

  ed.resize(600, 300);
  ed.show();
  ed.setText(QStringLiteral("impl: |\n  c = step.Accum("));
  ed.setCursorPosition(1, 17);
  EXPECT_TRUE(ed.showPrimitiveCallTip());
  EXPECT_TRUE(ed.SendScintilla(QsciScintillaBase::SCI_CALLTIPACTIVE));
}

TEST(EditorV2, TheCardCoversEveryOperatorAndItsKwargsAreTheCheckersOwn) {
  const Step2Card& card = Step2Card::bundled();
  ASSERT_EQ(card.size(), static_cast<int>(sf::step2::op_table().size()));
  // Every kwarg the card names is one the checker accepts: a names-clean program per (operator, kwarg) gets no
  // "unknown kwarg" (nor "phase 2") diagnostic for it.
  sf::Diagnostics d;
  auto task = sf::step::load_task_text(k1Text().toStdString(), "K1.yaml", d);
  ASSERT_TRUE(task);
  int checked = 0;
  for (const auto& op : sf::step2::op_table()) {
    const Step2Card::Entry* e = card.find(QString::fromLatin1(op.name));
    ASSERT_NE(e, nullptr) << op.name;
    EXPECT_FALSE(e->kwargs.isEmpty()) << op.name;
    const char* args = op.arity == sf::step2::Arity::One ? "a" : op.arity == sf::step2::Arity::Two ? "(a, a)" : "[a]";
    for (const QString& kw : e->kwargs) {
      std::string impl =
          "a = step.OffChipLoad(tile=[128, 128], stride=[1, 2], shape=[2, 2], par_dispatch=4).apply(A)\n"
          "x = step." + std::string(op.name) + "(" + kw.toStdString() + "=1).apply(" + args + ")\n"
          "C = step.OffChipStore(par_dispatch=4).apply(x)\n";
      if (op.op == sf::step2::Op::OffChipLoad || op.op == sf::step2::Op::OffChipStore)
        impl = "x = step.OffChipLoad(tile=[128, 128], stride=[1, 2], shape=[2, 2], par_dispatch=4, " + kw.toStdString() +
               "=1).apply(A)\nC = step.OffChipStore(par_dispatch=4, " + kw.toStdString() + "=1).apply(x)\n";
      auto r = sf::step2::check(*task, impl);
      for (const auto& diag : r.diags) {
        EXPECT_EQ(diag.message.find("unknown kwarg '" + kw.toStdString() + "'"), std::string::npos) << diag.message;
        EXPECT_EQ(diag.message.find("kwarg '" + kw.toStdString() + "' is phase 2"), std::string::npos) << diag.message;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
  // A row that is not an operator's is left out; a card without rows is empty.
  EXPECT_EQ(Step2Card::parse(QStringLiteral("| a | b |\n|---|---|\n| x | y |\n")).size(), 0);
  EXPECT_EQ(Step2Card::parse(QStringLiteral("| operator | kwargs |\n|---|---|\n| `Broadcast` | `n` (copies) |\n"))
                .find(QStringLiteral("Broadcast"))
                ->kwargs,
            QStringList{QStringLiteral("n")});
}

TEST(EditorV2, ShowsTheStreamTypesOfK1Inline) {
  StepEditor ed;
  const QString doc = k1Text();
  checkInto(ed, doc);
  ASSERT_TRUE(ed.lastCheck().ok);
  EXPECT_EQ(ed.annotation(lineOf(doc, QStringLiteral("a = step.OffChipLoad")) - 1),
            QStringLiteral("a: [1, 2, 2, 2] of Tile[128, 128]"));
  EXPECT_EQ(ed.annotation(lineOf(doc, QStringLiteral("b = step.OffChipLoad")) - 1),
            QStringLiteral("b: [1, 2, 2, 2] of Tile[128, 128]"));
  EXPECT_EQ(ed.annotation(lineOf(doc, QStringLiteral("c = step.BinaryMapAccum")) - 1),
            QStringLiteral("c: [1, 2, 2] of Tile[128, 128]"));
  EXPECT_EQ(ed.annotation(lineOf(doc, QStringLiteral("C = step.OffChipStore")) - 1), QString());
  EXPECT_EQ(ed.typesStopLine(), 0);
}

TEST(EditorV2, ATypeErrorKeepsTheTypesOfTheLinesAboveInV2AndV1) {
  {  // v2: rank=4 on the accumulation (T2-RANK on its line)
    StepEditor ed;
    const QString doc = k1Text().replace(QStringLiteral("rank=1"), QStringLiteral("rank=4"));
    checkInto(ed, doc);
    const int n = lineOf(doc, QStringLiteral("c = step.BinaryMapAccum"));
    ASSERT_FALSE(ed.lastCheck().issues.isEmpty());
    EXPECT_EQ(ed.lastCheck().issues.front().code, QStringLiteral("T2-RANK"));
    EXPECT_EQ(ed.lastCheck().issues.front().line, n);
    EXPECT_EQ(ed.annotation(n - 3), QStringLiteral("a: [1, 2, 2, 2] of Tile[128, 128]"));
    EXPECT_EQ(ed.annotation(n - 2), QStringLiteral("b: [1, 2, 2, 2] of Tile[128, 128]"));
    EXPECT_EQ(ed.typesStopLine(), n);
    EXPECT_TRUE(ed.annotation(n - 1).startsWith(QStringLiteral("types stop here (T2-RANK)")))
        << ed.annotation(n - 1).toStdString();
    EXPECT_TRUE(ed.markersAtLine(n - 1) & (1 << StepEditor::ErrorMarker));
    EXPECT_EQ(ed.annotation(n), QString());
  }
  {  // v1: Accum b=9 is beyond the rank (a type error on E7's line)
    StepEditor ed;
    const QString doc = demoWith(QStringLiteral("fn=fn_add, b=1"), QStringLiteral("fn=fn_add, b=9"));
    checkInto(ed, doc);
    const int n = lineOf(doc, QStringLiteral("E7 = step.Accum"));
    ASSERT_FALSE(ed.lastCheck().issues.isEmpty());
    EXPECT_EQ(ed.lastCheck().issues.front().line, n);
    EXPECT_TRUE(ed.lastCheck().issues.front().code.startsWith(QStringLiteral("T-")));
    EXPECT_EQ(ed.annotation(lineOf(doc, QStringLiteral("E2 = step.Bufferize")) - 1),
              QStringLiteral("E2: [N] of Buffer(fp32, [K])"));
    for (const char* l : {"E3 = ", "E4 = ", "E5 = ", "E6 = "})
      EXPECT_TRUE(ed.annotation(lineOf(doc, QString::fromLatin1(l)) - 1).startsWith(QString::fromLatin1(l).left(2)))
          << l;
    EXPECT_EQ(ed.typesStopLine(), n);
    EXPECT_TRUE(ed.annotation(n - 1).startsWith(QStringLiteral("types stop here"))) << ed.annotation(n - 1).toStdString();
  }
}

TEST(EditorV2, TheIssuesPaneShowsTheFixInFull) {
  IssuesModel model;
  IssuesPane pane(&model);
  pane.resize(683, 160);  // half of a 1366 px wide screen
  pane.show();
  const QString fix = QStringLiteral(
      "write tile=[128, 128] with a shape whose last two entries divide the tensor's rows and columns, and keep "
      "stride the same length as shape (every entry of the iteration space needs a stride)");
  model.setIssues({{sf::Severity::Error, QStringLiteral("T2-TILE"),
                    QStringLiteral("line 17: step.OffChipLoad: tile=[96, 128] does not divide A [256, 256]; fix: ") + fix,
                    17, 24},
                   {sf::Severity::Warning, QStringLiteral("W-X"), QStringLiteral("a warning"), 18, 1}});
  QLabel* detail = pane.detail();
  ASSERT_TRUE(detail->isVisible());
  EXPECT_TRUE(detail->wordWrap());
  // The first diagnostic in full: its fix on a line of its own, nothing elided.
  EXPECT_TRUE(detail->text().contains(QStringLiteral("<br><b>Fix:</b> ") + fix.toHtmlEscaped())) << detail->text().toStdString();
  EXPECT_TRUE(detail->text().contains(QStringLiteral("T2-TILE")));
  EXPECT_TRUE(detail->text().contains(QStringLiteral("line 17:24")));
  EXPECT_EQ(detail->text().count(QStringLiteral("line 17")), 1);  // the message's own "line 17: " is not repeated
  // Laid out, the label is as tall as its wrapped text needs (so no line is cut off) and no wider than the pane.
  QApplication::processEvents();
  EXPECT_LE(detail->width(), pane.width());
  EXPECT_GE(detail->height(), detail->heightForWidth(detail->width()));
  // Selecting the other row shows that one.
  pane.view()->setCurrentIndex(model.index(1, 0));
  EXPECT_TRUE(detail->text().contains(QStringLiteral("a warning")));
  EXPECT_FALSE(detail->text().contains(QStringLiteral("Fix:")));
  model.setIssues({});
  EXPECT_FALSE(detail->isVisible());
}

TEST(EditorV2, AtTheSmallScreenSizeTheWindowShowsAV2FixInFull) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("K1_bad.yaml"));
  {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(k1Text().replace(QStringLiteral("rank=1"), QStringLiteral("rank=4")).toUtf8());
  }
  MainWindow w;
  w.resize(1366, 768);
  w.show();
  QSignalSpy checked(w.editor(), &StepEditor::checked);
  ASSERT_TRUE(w.openFile(path));
  ASSERT_TRUE(checked.wait(30000));
  ASSERT_GE(w.issuesModel()->errorCount(), 1);
  w.findChild<QDockWidget*>(QStringLiteral("IssuesDock"))->raise();
  QApplication::processEvents();
  auto* detail = w.findChild<QLabel*>(QStringLiteral("IssueDetail"));
  ASSERT_NE(detail, nullptr);
  ASSERT_TRUE(detail->isVisible());
  EXPECT_TRUE(detail->text().contains(QStringLiteral("T2-RANK")));
  EXPECT_TRUE(detail->text().contains(QStringLiteral("<b>Fix:</b> use a value in [1, 3]"))) << detail->text().toStdString();
  EXPECT_GE(detail->height(), detail->heightForWidth(detail->width()));
  const QRect inWindow(detail->mapTo(&w, QPoint(0, 0)), detail->size());
  EXPECT_TRUE(w.rect().contains(inWindow)) << inWindow.x() << "," << inWindow.y() << " " << inWindow.width() << "x"
                                           << inWindow.height();
  // The editor kept the types of the two loads above the error.
  const QString doc = w.editor()->text();
  EXPECT_EQ(w.editor()->annotation(lineOf(doc, QStringLiteral("b = step.OffChipLoad")) - 1),
            QStringLiteral("b: [1, 2, 2, 2] of Tile[128, 128]"));
}
