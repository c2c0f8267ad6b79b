// ProgramDiffView: alignment, markers, real line numbers in the margins, hunk navigation, canonical form,
// STeP colours from the first line, and a rendering that is not blank.
#include "widgets/editor/program_diff_view.hpp"

#include <gtest/gtest.h>

#include <QDir>
#include <QImage>
#include <QPixmap>
#include <Qsci/qsciscintilla.h>

using sf::widgets::ProgramDiffView;
using sf::widgets::StepLexer;

namespace {

const QString kOld = QStringLiteral(
    "T1 = step.Bufferize(a=1).apply(E0)\n"
    "T2 = step.Map(fn=fn_score).apply(T1)\n"
    "T3 = step.Map(fn=fn_filter).apply(T2)\n"
    "return T3\n");
const QString kNew = QStringLiteral(
    "T1 = step.Bufferize(a=1).apply(E0)\n"
    "T2 = step.Map(fn=fn_affinity).apply(T1)\n"
    "T3 = step.Map(fn=fn_filter).apply(T2)\n"
    "T4 = step.Map(fn=fn_extra).apply(T3)\n"
    "return T4\n");

unsigned markers(QsciScintilla* e, int line) { return static_cast<unsigned>(e->markersAtLine(line)); }

}  // namespace

TEST(ProgramDiffView, AlignsRowsAndMarksChanges) {
  ProgramDiffView v;
  v.resize(900, 300);
  v.setTexts(kOld, kNew, QStringLiteral("editor"), QStringLiteral("proposal"));
  EXPECT_EQ(v.stats().inserted, 3);
  EXPECT_EQ(v.stats().deleted, 2);
  EXPECT_EQ(v.hunkCount(), 2);
  ASSERT_EQ(v.rows().size(), 5u);  // T1, T2 changed, T3, "return T3" | "T4 = ...", filler | "return T4"
  // Both panes have one line per row.
  EXPECT_EQ(v.leftEditor()->lines(), 5);
  EXPECT_EQ(v.rightEditor()->lines(), 5);
  // Row 1: changed (fn_score -> fn_affinity).
  EXPECT_TRUE(markers(v.leftEditor(), 1) & (1u << ProgramDiffView::DeletedMarker));
  EXPECT_TRUE(markers(v.rightEditor(), 1) & (1u << ProgramDiffView::InsertedMarker));
  EXPECT_EQ(markers(v.leftEditor(), 0), 0u);
  // "return T3" vs "T4 = ..." then a filler on the left for "return T4".
  EXPECT_EQ(v.rows()[3].kind, sf::text::RowKind::Changed);
  EXPECT_EQ(v.rows()[4].kind, sf::text::RowKind::Inserted);
  EXPECT_TRUE(markers(v.leftEditor(), 4) & (1u << ProgramDiffView::FillerMarker));
  EXPECT_EQ(v.leftEditor()->text(4).trimmed(), QString());
  EXPECT_EQ(v.rightEditor()->text(4).trimmed(), QStringLiteral("return T4"));
  EXPECT_EQ(v.rightEditor()->text(3).trimmed(), QStringLiteral("T4 = step.Map(fn=fn_extra).apply(T3)"));
  // Margins carry the real line numbers; the filler has none.
  EXPECT_TRUE(v.summaryText().startsWith(QStringLiteral("+3 −2")));
  EXPECT_EQ(v.leftEditor()->SendScintilla(QsciScintillaBase::SCI_MARGINGETTEXT, 4ul, static_cast<void*>(nullptr)),
            0l);
  // Hunk navigation cycles.
  v.nextHunk();
  EXPECT_EQ(v.currentHunk(), 0);
  v.nextHunk();
  EXPECT_EQ(v.currentHunk(), 1);
  v.nextHunk();
  EXPECT_EQ(v.currentHunk(), 0);
  v.previousHunk();
  EXPECT_EQ(v.currentHunk(), 1);

  v.setTexts(kOld, kOld);
  EXPECT_TRUE(v.stats().identical());
  EXPECT_EQ(v.hunkCount(), 0);
  EXPECT_EQ(v.summaryText(), QStringLiteral("identical"));
}

TEST(ProgramDiffView, ColoursStepFromTheFirstLine) {
  ProgramDiffView v;
  v.setTexts(kOld, kNew);
  auto* e = v.rightEditor();
  e->SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0l, -1l);
  // "T1 = step.Bufferize": `step` at byte 5 is a keyword, `Bufferize` at 10 a primitive.
  EXPECT_EQ(e->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT, 5ul), StepLexer::Keyword);
  EXPECT_EQ(e->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT, 10ul), StepLexer::Primitive);
}

TEST(ProgramDiffView, CanonicalFormHidesRenames) {
  ProgramDiffView v;
  QString renamed = kOld;
  renamed.replace(QStringLiteral("T2"), QStringLiteral("scores"));
  renamed.replace(QStringLiteral("T1 = step.Bufferize(a=1).apply(E0)"),
                  QStringLiteral("T1 = step.Bufferize(a=1).apply(E0)   # buffered"));
  v.setTexts(kOld, renamed);
  EXPECT_FALSE(v.stats().identical());
  EXPECT_FALSE(v.canonical());
  v.setCanonical(true);
  EXPECT_TRUE(v.stats().identical()) << v.comparedOld().toStdString() << "\n---\n" << v.comparedNew().toStdString();
  EXPECT_TRUE(v.summaryText().contains(QStringLiteral("canonical")));
  // A side that does not parse is compared as written, with a note.
  v.setTexts(kOld, QStringLiteral("T1 = step.Map(\nreturn T1\n"));
  EXPECT_FALSE(v.stats().identical());
  EXPECT_TRUE(v.summaryText().contains(QStringLiteral("after shown as written"))) << v.summaryText().toStdString();
  v.setCanonical(false);
  EXPECT_EQ(v.comparedOld(), kOld);
}

TEST(ProgramDiffView, RendersBothSides) {
  ProgramDiffView v;
  v.resize(1000, 260);
  v.setTexts(kOld, kNew, QStringLiteral("editor"), QStringLiteral("proposal"));
  v.show();
  const QImage img = v.grab().toImage();
  // The left pane shows red-tinted (deleted) rows, the right green-tinted (inserted) ones.
  int red = 0, green = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      if (c == QColor(0xfa, 0xd4, 0xd4)) ++red;
      if (c == QColor(0xd8, 0xf5, 0xd0)) ++green;
    }
  EXPECT_GT(red, 100);
  EXPECT_GT(green, 100);
  if (const QByteArray out = qgetenv("SF_DIFF_PNG"); !out.isEmpty()) img.save(QString::fromLocal8Bit(out));
}
