// The STeP lexer's styling, completion and call tips, and the editor's live diagnostics.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "core/step/primitives.hpp"
#include "test_support.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/editor/manual_browser.hpp"
#include "widgets/editor/manual_index.hpp"
#include "widgets/editor/step_apis.hpp"
#include "widgets/editor/step_editor.hpp"
#include "widgets/editor/step_lexer.hpp"

using namespace sf::widgets;
using sf::widgets::test::columnOf;
using sf::widgets::test::demoWith;
using sf::widgets::test::lineOf;

namespace {

int styleAt(StepEditor& ed, int line, int column) {
  return static_cast<int>(ed.SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT,
                                           static_cast<unsigned long>(ed.positionOf(line, column))));
}

}  // namespace

TEST(StepLexer, StylesImplCodeAndYaml) {
  StepEditor ed;
  StepLexer::Names names;
  names.fns = {"fn_mul", "fn_add"};
  names.streams = {"E0", "E1", "E2"};
  names.sizes = {"M", "N", "K"};
  ed.stepLexer()->setNames(names);
  const QString doc = demoWith();
  ed.setText(doc);
  ed.SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, -1L);

  const int l2 = lineOf(doc, QStringLiteral("E2 = step.Bufferize"));
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("E2"))), StepLexer::Stream);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("step"))), StepLexer::Keyword);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("Bufferize"))), StepLexer::Primitive);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("a="))), StepLexer::Parameter);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("1)"))), StepLexer::Number);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("("))), StepLexer::Operator);
  EXPECT_EQ(styleAt(ed, l2, columnOf(doc, l2, QStringLiteral("# the"))), StepLexer::Comment);
  const int l3 = lineOf(doc, QStringLiteral("E3 = step.Repeat"));
  EXPECT_EQ(styleAt(ed, l3, columnOf(doc, l3, QStringLiteral("M)"))), StepLexer::Size);
  const int l6 = lineOf(doc, QStringLiteral("E6 = step.Map"));
  EXPECT_EQ(styleAt(ed, l6, columnOf(doc, l6, QStringLiteral("fn_mul"))), StepLexer::Fn);

  const int impl = lineOf(doc, QStringLiteral("impl: |"));
  EXPECT_EQ(styleAt(ed, impl, 1), StepLexer::Key);
  EXPECT_EQ(styleAt(ed, lineOf(doc, QStringLiteral("title:")), 10), StepLexer::Text);
  // Inside a fn body: the fn language (a number, not YAML text).
  const int body = lineOf(doc, QStringLiteral("return state0 + in0"));
  EXPECT_EQ(styleAt(ed, body, columnOf(doc, body, QStringLiteral("return"))), StepLexer::Keyword);
  // A flow mapping's keys are keys.
  const int in0 = lineOf(doc, QStringLiteral("{name: E0"));
  EXPECT_EQ(styleAt(ed, in0, columnOf(doc, in0, QStringLiteral("dtype"))), StepLexer::Key);
}

TEST(StepLexer, BlockContextFollowsIndentation) {
  StepLexer lex;
  StepLexer::LineState st;
  lex.styleLine("impl: |", st);
  EXPECT_EQ(st.ctx, StepLexer::Impl);
  EXPECT_EQ(st.indent, 0);
  auto s = lex.styleLine("  A = step.Map(fn=f).apply(E0)  # c", st);
  EXPECT_EQ(s[4], StepLexer::Operator);   // '='
  EXPECT_EQ(s[6], StepLexer::Keyword);    // step
  EXPECT_EQ(s[11], StepLexer::Primitive); // Map
  EXPECT_EQ(s[15], StepLexer::Parameter); // fn
  EXPECT_EQ(s[34], StepLexer::Comment);
  lex.styleLine("", st);
  EXPECT_EQ(st.ctx, StepLexer::Impl);  // a blank line does not end the block
  s = lex.styleLine("meta: {len: 2}", st);
  EXPECT_EQ(st.ctx, StepLexer::Yaml);
  EXPECT_EQ(s[0], StepLexer::Key);
  EXPECT_EQ(s[12], StepLexer::Number);
  // Encoding round trip of the line state.
  StepLexer::LineState x{StepLexer::FnCode, 4};
  auto y = StepLexer::LineState::decode(x.encode());
  EXPECT_EQ(y.ctx, StepLexer::FnCode);
  EXPECT_EQ(y.indent, 4);
}

TEST(StepApis, CompletesPrimitivesParametersAndStreamsSoFar) {
  StepLexer lex;
  StepApis apis(&lex);
  apis.setTaskNames({{QStringLiteral("E0"), QStringLiteral("E1")}, {QStringLiteral("fn_add")}, {QStringLiteral("M")}});
  auto prims = apis.completions(QStringLiteral("Re"), QStringLiteral("X = step.Re"), {}, true);
  EXPECT_EQ(prims, (QStringList{QStringLiteral("Repeat"), QStringLiteral("RepeatRef"), QStringLiteral("Reshape")}));
  auto params = apis.completions(QString(), QStringLiteral("X = step.Accum("), {}, false);
  ASSERT_GE(params.size(), 2);
  EXPECT_EQ(params[0], QStringLiteral("fn="));
  EXPECT_EQ(params[1], QStringLiteral("b="));
  const QStringList above{QStringLiteral("  E2 = step.Bufferize(a=1).apply(E1)"),
                          QStringLiteral("  A, B = step.Copy().apply(E2)"), QStringLiteral("  # E9 = comment")};
  auto streams = apis.completions(QStringLiteral("E"), QStringLiteral("E3 = step.Map(fn=fn_add).apply(E"), above, false);
  EXPECT_TRUE(streams.contains(QStringLiteral("E2")));
  EXPECT_TRUE(streams.contains(QStringLiteral("E0")));
  EXPECT_FALSE(streams.contains(QStringLiteral("E9")));
  EXPECT_EQ(StepApis::definedStreams(above), (QStringList{QStringLiteral("E2"), QStringLiteral("A"), QStringLiteral("B")}));
  QList<int> shifts;
  auto tips = apis.callTips({QStringLiteral("step"), QStringLiteral("Accum")}, 0, QsciScintilla::CallTipsNoContext, shifts);
  ASSERT_EQ(tips.size(), 1);
  EXPECT_TRUE(tips[0].startsWith(QStringLiteral("step.Accum(fn=f, b=k).apply(X)"))) << tips[0].toStdString();
  EXPECT_TRUE(tips[0].contains(QStringLiteral("1 ≤ k ≤ r")));
  EXPECT_TRUE(tips[0].contains(QStringLiteral("reduce the b innermost dimensions with a stateful fn")));
  EXPECT_TRUE(apis.callTips({QStringLiteral("step"), QStringLiteral("Nope")}, 0,
                            QsciScintilla::CallTipsNoContext, shifts)
                  .isEmpty());
}

TEST(StepApis, PrimitivesAndParametersComeFromThePrimitiveTable) {
  // The editor's primitive keywords, completions after `step.` and parameter hints: the 15 primitives in the
  // dialect's order, each with its own keys.
  const QStringList names{QStringLiteral("Map"),       QStringLiteral("Zip"),       QStringLiteral("Accum"),
                          QStringLiteral("Scan"),      QStringLiteral("Bufferize"), QStringLiteral("Streamify"),
                          QStringLiteral("Promote"),   QStringLiteral("Repeat"),    QStringLiteral("RepeatRef"),
                          QStringLiteral("Flatten"),   QStringLiteral("Reshape"),   QStringLiteral("Copy"),
                          QStringLiteral("Partition"), QStringLiteral("Merge"),     QStringLiteral("Identity")};
  EXPECT_EQ(StepApis::primitives(), names);
  for (const QString& n : names) {
    EXPECT_TRUE(StepLexer::isPrimitive(n.toLatin1())) << n.toStdString();
    EXPECT_FALSE(StepLexer::isPrimitive(n.toLower().toLatin1())) << n.toStdString();
  }
  for (const char* w : {"step", "apply", "Load", "Store", "", "Maps"}) EXPECT_FALSE(StepLexer::isPrimitive(w)) << w;
  auto params = [](const char* p) { return StepApis::primitiveParameters(QString::fromLatin1(p)); };
  EXPECT_EQ(params("Map"), QStringList{QStringLiteral("fn=")});
  EXPECT_EQ(params("Merge"), QStringList{QStringLiteral("fn=")});
  EXPECT_EQ(params("Accum"), (QStringList{QStringLiteral("fn="), QStringLiteral("b=")}));
  EXPECT_EQ(params("Scan"), (QStringList{QStringLiteral("fn="), QStringLiteral("b=")}));
  EXPECT_EQ(params("Bufferize"), QStringList{QStringLiteral("a=")});
  EXPECT_EQ(params("Promote"), QStringList{QStringLiteral("b=")});
  EXPECT_EQ(params("Repeat"), QStringList{QStringLiteral("n=")});
  EXPECT_EQ(params("Flatten"), QStringList{QStringLiteral("L=")});
  EXPECT_EQ(params("Reshape"), (QStringList{QStringLiteral("L="), QStringLiteral("S=")}));
  EXPECT_EQ(params("Partition"), QStringList{QStringLiteral("N=")});
  for (const char* p : {"Zip", "Streamify", "RepeatRef", "Copy", "Identity", "map", "Nope"})
    EXPECT_TRUE(params(p).isEmpty()) << p;
}

TEST(ManualIndex, BundledManualHasChaptersAndEverySignature) {
  auto m = ManualIndex::loadBundled();
  EXPECT_GE(m.chapters().size(), 15);
  for (const QString& p : StepApis::primitives()) EXPECT_FALSE(m.signature(p).call.isEmpty()) << p.toStdString();
  EXPECT_EQ(m.signature(QStringLiteral("Copy")).call, QStringLiteral("A, B = step.Copy().apply(X)"));
}

TEST(ManualIndex, CheatSheetAndChapterTitlesSayWhatThePrimitiveTableSays) {
  // The table (core/step/primitives.hpp) is what the editor shows; the manual restates it for readers and
  // must agree: the cheat sheet's call and dims rule, and each chapter's title "Name — doc".
  auto m = ManualIndex::loadBundled();
  auto text = [](std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
  };
  EXPECT_EQ(m.signatures().size(), static_cast<qsizetype>(sf::step::primitives().size()));
  QStringList titles;
  for (const auto& c : m.chapters()) titles << c.title;
  for (const auto& e : sf::step::primitives()) {
    const auto sig = m.signature(text(e.name));
    EXPECT_EQ(sig.call, text(e.call)) << e.name;
    EXPECT_EQ(sig.rule, text(e.rule)) << e.name;
    const QString title = text(e.name) + QStringLiteral(" — ") + text(e.doc);
    EXPECT_TRUE(titles.contains(title)) << title.toStdString();
  }
}

TEST(StepEditor, LiveCheckMarksTheBadUse) {
  EngineBridge b;
  StepEditor ed;
  ed.setDebounceMs(50);
  ed.attachBridge(&b);
  QSignalSpy spy(&ed, &StepEditor::checked);
  const QString doc = demoWith(QStringLiteral("apply((E0, E4))"), QStringLiteral("apply((E0, E0))"));
  ed.setText(doc);
  ASSERT_TRUE(spy.wait(30000));
  const int line = lineOf(doc, QStringLiteral("E5 = step.Zip"));
  const int col = columnOf(doc, line, QStringLiteral("E0"), 2);
  EXPECT_TRUE(ed.markersAtLine(line - 1) & (1 << StepEditor::ErrorMarker));
  EXPECT_TRUE(ed.markersAtLine(line - 2) & (1 << StepEditor::ErrorMarker));   // E4 is now dead (A-DEAD)
  EXPECT_FALSE(ed.markersAtLine(line) & (1 << StepEditor::ErrorMarker));      // E6 is fine
  const int pos = ed.positionOf(line, col);
  auto ind = [&](int p) {
    return ed.SendScintilla(QsciScintillaBase::SCI_INDICATORVALUEAT, static_cast<unsigned long>(StepEditor::ErrorIndicator),
                            static_cast<long>(p));
  };
  EXPECT_EQ(ind(pos), 1);
  EXPECT_EQ(ind(pos + 1), 1);
  EXPECT_EQ(ind(pos - 3), 0);  // the first E0 is fine
  // Fixing the program clears the squiggle after the next (debounced) check.
  ed.setText(demoWith());
  ASSERT_TRUE(spy.wait(30000));
  EXPECT_FALSE(ed.markersAtLine(line - 1) & (1 << StepEditor::ErrorMarker));
  EXPECT_EQ(ind(pos), 0);
  // Each stream's type is annotated on its line.
  const int l2 = lineOf(doc, QStringLiteral("E2 = step.Bufferize"));
  EXPECT_EQ(ed.annotation(l2 - 1), QStringLiteral("E2: [N] of Buffer(fp32, [K])"));
}

TEST(StepEditor, StaleResultsAreIgnoredAndUtf8ColumnsAreBytes) {
  StepEditor ed;
  ed.setText(QStringLiteral("# é x\nab cd\n"));
  // The core reports byte columns: 'x' is at byte column 6 (é is two bytes), line 2 starts at byte 7.
  EXPECT_EQ(ed.positionOf(1, 6), 5);
  EXPECT_EQ(ed.positionOf(2, 4), 10);
  EXPECT_EQ(ed.positionOf(2, 99), 12);  // clamped to the line end
  CheckSnapshot s;
  s.issues.push_back({sf::Severity::Warning, QStringLiteral("W-X"), QStringLiteral("w"), 2, 4});
  ed.showIssues(s.issues);
  EXPECT_TRUE(ed.markersAtLine(1) & (1 << StepEditor::WarningMarker));
  EXPECT_EQ(ed.SendScintilla(QsciScintillaBase::SCI_INDICATORVALUEAT,
                             static_cast<unsigned long>(StepEditor::WarningIndicator), 10L),
            1);
}

TEST(StepEditor, PaletteSwitchesTheLexerColours) {
  StepEditor ed;
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
  ed.setPalette(dark);
  EXPECT_TRUE(ed.stepLexer()->dark());
  EXPECT_LT(ed.stepLexer()->paper(StepLexer::Default).lightness(), 80);
  QPalette light;
  light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
  ed.setPalette(light);
  EXPECT_FALSE(ed.stepLexer()->dark());
  EXPECT_GT(ed.stepLexer()->paper(StepLexer::Default).lightness(), 200);
}

TEST(StepEditor, TypingOffersCompletionAndCallTips) {
  StepEditor ed;
  ed.resize(600, 400);
  ed.show();
  ed.setText(QStringLiteral("impl: |\n  E2 = step.Ma"));
  ed.SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, -1L);
  ed.setCursorPosition(1, 14);
  ed.autoCompleteFromAPIs();
  ASSERT_TRUE(ed.isListActive());
  // The only primitive starting with "Ma" is Map: the list holds exactly it.
  EXPECT_EQ(ed.SendScintilla(QsciScintillaBase::SCI_AUTOCGETCURRENT), 0);
  ed.SendScintilla(QsciScintillaBase::SCI_AUTOCCOMPLETE);
  EXPECT_EQ(ed.text(1), QStringLiteral("  E2 = step.Map"));
  ed.append(QStringLiteral("("));
  ed.setCursorPosition(1, 16);
  EXPECT_TRUE(ed.showPrimitiveCallTip());
  EXPECT_TRUE(ed.SendScintilla(QsciScintillaBase::SCI_CALLTIPACTIVE));
  ed.setCursorPosition(0, 3);
  EXPECT_FALSE(ed.showPrimitiveCallTip());  // not in a primitive call
}

TEST(ManualBrowser, ShowsChapters) {
  ManualBrowser b(ManualIndex::loadBundled());
  EXPECT_GE(b.chapterCount(), 15);
  ASSERT_TRUE(b.showChapter(QStringLiteral("map")));
  EXPECT_TRUE(b.currentMarkdown().startsWith(QStringLiteral("# Map")));
  EXPECT_FALSE(b.showChapter(QStringLiteral("no_such_chapter")));
}
