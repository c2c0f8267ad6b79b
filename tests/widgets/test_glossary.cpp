// Issue 34 item 15: one glossary (docs/gui.md, "Glossary") that every pane follows. The names a pane shows —
// column headers, dock and tab titles, chart axis titles and series, the choices of its combo boxes — are
// collected from the main window (with a comparison of two runs loaded) and none may use a word the glossary
// says not to use ("not" column). A word that is itself a glossary term (round, iteration: right in sage and
// classic panes respectively) cannot be judged without its context and is not checked. Known mismatches in
// panes other helpers own are listed in kKnown (each with its owner) until they are mended.
#include <gtest/gtest.h>

#include <QAbstractItemView>
#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTabBar>
#include <QTest>
#include <QValueAxis>

#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/comparison_pane.hpp"
#include "widgets/main_window.hpp"

namespace {

using namespace sf::widgets;

struct Term {
  QStringList words;      // the glossary's words ("episode", "round")
  QStringList forbidden;  // its "not" column
};

// The glossary table of docs/gui.md: | **word** | means | not |.
QVector<Term> readGlossary(QString* error) {
  QFile f(QStringLiteral(SF_SOURCE_DIR "/docs/gui.md"));
  if (!f.open(QIODevice::ReadOnly)) {
    *error = f.errorString();
    return {};
  }
  const QString text = QString::fromUtf8(f.readAll());
  const qsizetype start = text.indexOf(QStringLiteral("## Glossary"));
  if (start < 0) {
    *error = QStringLiteral("docs/gui.md has no Glossary section");
    return {};
  }
  const qsizetype end = text.indexOf(QStringLiteral("\n## "), start + 3);
  static const QRegularExpression bold(QStringLiteral("\\*\\*([^*]+)\\*\\*"));
  static const QRegularExpression paren(QStringLiteral("\\([^)]*\\)"));
  QVector<Term> out;
  for (const QString& line : text.mid(start, end < 0 ? -1 : end - start).split(QLatin1Char('\n'))) {
    const QStringList cells = line.split(QLatin1Char('|'));
    if (cells.size() < 5 || !cells[1].contains(QStringLiteral("**"))) continue;
    Term t;
    for (auto it = bold.globalMatch(cells[1]); it.hasNext();)
      for (const QString& w : it.next().captured(1).split(QLatin1Char('/'))) t.words << w.trimmed().toLower();
    QString no = cells[3];
    no.remove(paren);
    for (const QString& w : no.split(QLatin1Char(',')))
      if (!w.trimmed().isEmpty()) t.forbidden << w.trimmed().toLower();
    out << t;
  }
  return out;
}

// The names the window shows, each with where it is ("header of ComparisonTasks: Task").
QStringList shownNames(QWidget& w) {
  QStringList out;
  auto add = [&](const QString& where, QString text) {
    text.remove(QLatin1Char('&'));
    if (!text.trimmed().isEmpty()) out << where + QStringLiteral(": ") + text;
  };
  for (QDockWidget* d : w.findChildren<QDockWidget*>()) add(QStringLiteral("dock"), d->windowTitle());
  for (QTabBar* b : w.findChildren<QTabBar*>())
    for (int i = 0; i < b->count(); ++i) add(QStringLiteral("tab"), b->tabText(i));
  for (QAbstractItemView* v : w.findChildren<QAbstractItemView*>()) {
    if (!v->model() || qobject_cast<QHeaderView*>(v) || qobject_cast<QComboBox*>(v->parentWidget())) continue;
    const QString where = QStringLiteral("header of %1").arg(v->objectName().isEmpty() ? QString::fromLatin1(v->metaObject()->className()) : v->objectName());
    for (int c = 0; c < v->model()->columnCount(); ++c) add(where, v->model()->headerData(c, Qt::Horizontal).toString());
  }
  for (QComboBox* c : w.findChildren<QComboBox*>())
    if (!c->isEditable())
      for (int i = 0; i < c->count(); ++i) add(QStringLiteral("choice"), c->itemText(i));
  for (QChartView* v : w.findChildren<QChartView*>()) {
    if (!v->chart()) continue;
    add(QStringLiteral("chart"), v->chart()->title());
    for (QAbstractAxis* a : v->chart()->axes()) add(QStringLiteral("axis"), a->titleText());
    for (QAbstractSeries* s : v->chart()->series()) add(QStringLiteral("series"), s->name());
  }
  out.removeDuplicates();
  return out;
}

// Names that may keep their word, as "where: text", and why: a mismatch in a pane another helper owns (reported
// to its owner), or a word that names another thing than the glossary's.
const QStringList kKnown = {
    // traces: an LLM call's wall-clock latency, not a program's run time (cycles).
    QStringLiteral("header of QTableView: Latency (s)"),
};

TEST(Glossary, PaneNamesUseNoWordTheGlossaryRulesOut) {
  QString error;
  const QVector<Term> terms = readGlossary(&error);
  ASSERT_GE(terms.size(), 10) << error.toStdString();
  QStringList defined;
  for (const Term& t : terms) defined << t.words;

  MainWindow w;
  w.resize(1366, 768);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  CampaignSummary a;
  a.dir = QStringLiteral("/runs/a");
  a.name = QStringLiteral("demo");
  a.tasks = {{QStringLiteral("rope/neox_halves"), true, 2, 1, 1.2}};
  CampaignSummary b = a;
  b.dir = QStringLiteral("/runs/b");
  w.campaignDocks()->comparisonPane()->setCampaigns({a, b});
  QCoreApplication::processEvents();

  const QStringList names = shownNames(w);
  ASSERT_GT(names.size(), 40);  // the window's docks, tabs, headers and charts were found
  QStringList found;
  for (const Term& t : terms)
    for (const QString& word : t.forbidden) {
      if (defined.contains(word)) continue;  // a term of its own (context decides)
      const QRegularExpression re(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(word)),
                                  QRegularExpression::CaseInsensitiveOption);
      for (const QString& n : names)
        if (n.section(QStringLiteral(": "), 1).contains(re) && !kKnown.contains(n))
          found << QStringLiteral("%1 (say %2, not %3)").arg(n, t.words.join(QLatin1Char('/')), word);
    }
  EXPECT_TRUE(found.isEmpty()) << found.join(QLatin1Char('\n')).toStdString();
}

}  // namespace
