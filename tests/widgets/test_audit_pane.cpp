// The adoption audit pane (issue 9.1): model, filters, labels surviving a reopen, keyboard labelling,
// reproducible sampling, the side-by-side diff, summary export. Fixtures follow the sage event contract.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <fstream>

#include "core/store/audit.hpp"
#include "core/store/event_log.hpp"
#include "widgets/audit/audit_code_view.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "test_support.hpp"
#include "tests/support/events.hpp"

using nlohmann::json;
using namespace sf::widgets;
using sf::store::AdoptionKey;

namespace {

using sf::test_support::envelope;

json adoption(int seq, int episode, const std::string& task, int round, const std::string& item, int rank,
              bool adopted, const std::string& rationale, const std::string& before,
              const std::string& after) {
  return envelope(seq, "adoption_record",
                  {{"episode", episode},
                   {"task", task},
                   {"round", round},
                   {"item", item},
                   {"rank", rank},
                   {"relevance", 3.0 - rank},
                   {"score", 1.5 - 0.25 * rank},
                   {"utility", 0.2},
                   {"adopted", adopted},
                   {"rationale", rationale},
                   {"reasked", false},
                   {"before", before},
                   {"after", after}});
}

const char* kBefore = "s = Map(a, fn=add)\nreturn s\n";
const char* kAfter = "z = Zip(a, b)\ns = Map(z, fn=add)\nreturn s\n";

std::vector<json> fixture() {
  return {
      envelope(0, "episode_started", {{"episode", 0}, {"task", "elementwise/add"}, {"max_rounds", 3}}),
      envelope(1, "experience_added",
               {{"episode", 0},
                {"item", "mem-000001"},
                {"rule", "Zip the two inputs before a binary Map"},
                {"evidence", "T-ARITY at 2:7"},
                {"pattern", ""},
                {"source_task", "elementwise/mul"},
                {"tokens", 9}}),
      adoption(2, 0, "elementwise/add", 0, "mem-000001", 1, false, "not needed yet", "", kBefore),
      adoption(3, 0, "elementwise/add", 1, "mem-000001", 1, true, "zipped a and b as the rule says", kBefore,
               kAfter),
      adoption(4, 0, "elementwise/add", 1, "mem-000002", 2, false, "about reductions", kBefore, kAfter),
      adoption(5, 1, "norm/rmsnorm", 0, "mem-000002", 1, true, "used the Accum pattern", "",
               "r = Accum(x)\n"),
      adoption(6, 1, "norm/rmsnorm", 0, "mem-000001", 2, false, "unrelated", "", "r = Accum(x)\n"),
  };
}

QString writeWorkspace(const QTemporaryDir& dir, const std::vector<json>& events) {
  std::ofstream out((dir.path() + QStringLiteral("/events.jsonl")).toStdString(), std::ios::binary);
  for (const auto& e : events) out << e.dump() << "\n";
  return dir.path();
}

QString readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

}  // namespace

TEST(AuditModel, RowsFiltersAndLabelsSurviveReopening) {
  QTemporaryDir tmp;
  const QString dir = writeWorkspace(tmp, fixture());
  {
    AuditModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QString err;
    ASSERT_TRUE(m.openSnapshot(*sf::widgets::test::snapshotOf(dir), &err)) << err.toStdString();
    ASSERT_EQ(m.rowCount(), 5);
    EXPECT_EQ(m.index(1, AuditModel::TaskColumn).data().toString(), QStringLiteral("elementwise/add"));
    EXPECT_EQ(m.index(1, AuditModel::AdoptedColumn).data().toString(), QStringLiteral("adopted"));
    EXPECT_EQ(m.index(1, AuditModel::ScoreColumn).data().toString(), QStringLiteral("1.250"));
    EXPECT_EQ(m.tasks(), QStringList({QStringLiteral("elementwise/add"), QStringLiteral("norm/rmsnorm")}));

    AuditFilterModel f;
    QAbstractItemModelTester ftester(&f, QAbstractItemModelTester::FailureReportingMode::Fatal);
    f.setSourceModel(&m);
    f.setTaskFilter(QStringLiteral("norm/rmsnorm"));
    EXPECT_EQ(f.rowCount(), 2);
    f.setAdoptedFilter(AuditFilterModel::Adopted::Yes);
    EXPECT_EQ(f.rowCount(), 1);
    f.setTaskFilter({});
    EXPECT_EQ(f.rowCount(), 2);  // the two adopted records
    f.setAdoptedFilter(AuditFilterModel::Adopted::Any);
    f.setTextFilter(QStringLiteral("ZIPPED"));
    EXPECT_EQ(f.rowCount(), 1);
    f.setTextFilter(QStringLiteral("binary map"));  // the experience's rule text matches its records
    EXPECT_EQ(f.rowCount(), 3);
    f.setTextFilter({});

    ASSERT_TRUE(m.setLabel(1, QStringLiteral("full"), QStringLiteral("Zip as described"), &err,
                           QStringLiteral("2026-11-29T20:00:00Z")))
        << err.toStdString();
    ASSERT_TRUE(m.setLabel(3, QStringLiteral("unrelated"), {}, &err));
    EXPECT_FALSE(m.setLabel(2, QStringLiteral("wrong"), {}, &err));
    EXPECT_EQ(m.index(1, AuditModel::LabelColumn).data().toString(), QStringLiteral("full"));
    f.setLabelFilter(QStringLiteral("-"));
    EXPECT_EQ(f.rowCount(), 3);
    f.setLabelFilter(QStringLiteral("unrelated"));
    EXPECT_EQ(f.rowCount(), 1);
  }
  // Close and reopen: the labels come back from audit.json.
  AuditModel again;
  QString err;
  ASSERT_TRUE(again.openSnapshot(*sf::widgets::test::snapshotOf(dir), &err)) << err.toStdString();
  ASSERT_NE(again.labelOf(1), nullptr);
  EXPECT_EQ(again.labelOf(1)->label, "full");
  EXPECT_EQ(again.labelOf(1)->note, "Zip as described");
  EXPECT_EQ(again.labelOf(1)->time, "2026-11-29T20:00:00Z");
  EXPECT_EQ(again.labelOf(3)->label, "unrelated");
  EXPECT_EQ(again.labelOf(0), nullptr);
  // And as events.
  sf::store::LoadedLog log;
  std::string e;
  ASSERT_TRUE(sf::store::read_event_log(dir.toStdString() + "/events.jsonl", log, e)) << e;
  ASSERT_EQ(log.events.size(), 9u);
  EXPECT_EQ(log.events[7]["type"], "audit_label");
  EXPECT_EQ(log.events[7]["seq"], 7);
  EXPECT_EQ(log.events[7]["item"], "mem-000001");
  EXPECT_EQ(log.events[7]["round"], 1);
  EXPECT_EQ(log.events[8]["label"], "unrelated");
}

TEST(AuditModel, LiveEventsAppendAndReplace) {
  AuditModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  for (const auto& e : fixture()) m.applyEvent(e);
  EXPECT_EQ(m.rowCount(), 5);
  m.applyEvent(adoption(7, 1, "norm/rmsnorm", 0, "mem-000001", 2, true, "changed", "", "x\n"));  // same key
  EXPECT_EQ(m.rowCount(), 5);
  EXPECT_TRUE(m.record(4).adopted);
  json label = envelope(8, "audit_label",
                        {{"episode", 1},
                         {"task", "norm/rmsnorm"},
                         {"round", 0},
                         {"item", "mem-000002"},
                         {"label", "partial"},
                         {"note", ""},
                         {"auditor", "x"},
                         {"time", "t"}});
  m.setAuditor(QStringLiteral("x"));
  m.applyEvent(label);
  EXPECT_EQ(m.index(3, AuditModel::LabelColumn).data().toString(), QStringLiteral("partial"));
  // The Label column is the current auditor's: another auditor sees the record unlabelled.
  m.setAuditor(QStringLiteral("y"));
  EXPECT_EQ(m.index(3, AuditModel::LabelColumn).data().toString(), QString());
  QString err;
  EXPECT_FALSE(m.setLabel(0, QStringLiteral("full"), {}, &err));  // no workspace to save into
  EXPECT_FALSE(err.isEmpty());
}

TEST(AuditPane, KeyboardLabelsAndMoves) {
  QTemporaryDir tmp;
  const QString dir = writeWorkspace(tmp, fixture());
  AuditPane pane;
  pane.resize(1000, 700);
  ASSERT_TRUE(pane.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  EXPECT_EQ(pane.currentSourceRow(), 0);
  QTest::keyClick(pane.table(), Qt::Key_J);
  EXPECT_EQ(pane.currentSourceRow(), 1);
  // The detail shows the experience (from its event), its provenance and the rationale.
  EXPECT_TRUE(pane.detailText().contains(QStringLiteral("Zip the two inputs before a binary Map")));
  EXPECT_TRUE(pane.detailText().contains(QStringLiteral("T-ARITY at 2:7")));
  EXPECT_TRUE(pane.detailText().contains(QStringLiteral("from task elementwise/mul, episode 0")));
  EXPECT_TRUE(pane.detailText().contains(QStringLiteral("zipped a and b as the rule says")));
  // Side by side: the before text with nothing removed, the after text with the Zip line added.
  EXPECT_EQ(pane.beforeView()->text(), QString::fromUtf8(kBefore));
  EXPECT_EQ(pane.afterView()->text(), QString::fromUtf8(kAfter));
  EXPECT_EQ(pane.beforeView()->markedLines(), QVector<int>({0}));  // "s = Map(a, ...)" was replaced
  EXPECT_EQ(pane.afterView()->markedLines(), QVector<int>({0, 1}));
  pane.noteEdit()->setText(QStringLiteral("only partly"));
  QTest::keyClick(pane.table(), Qt::Key_2);
  ASSERT_NE(pane.model()->labelOf(1), nullptr);
  EXPECT_EQ(pane.model()->labelOf(1)->label, "partial");
  EXPECT_EQ(pane.model()->labelOf(1)->note, "only partly");
  EXPECT_TRUE(pane.noteEdit()->text().isEmpty());
  EXPECT_EQ(pane.currentSourceRow(), 2);  // complete-and-advance
  QTest::keyClick(pane.table(), Qt::Key_K);
  QTest::keyClick(pane.table(), Qt::Key_K);
  EXPECT_EQ(pane.currentSourceRow(), 0);
  QTest::keyClick(pane.table(), Qt::Key_K);  // stays at the top
  EXPECT_EQ(pane.currentSourceRow(), 0);
  QTest::keyClick(pane.table(), Qt::Key_1);  // row 0 full → row 1
  QTest::keyClick(pane.table(), Qt::Key_J);
  QTest::keyClick(pane.table(), Qt::Key_3);  // row 2 unrelated → row 3
  EXPECT_EQ(pane.model()->labelOf(0)->label, "full");
  EXPECT_EQ(pane.model()->labelOf(2)->label, "unrelated");
  EXPECT_EQ(pane.currentSourceRow(), 3);
  // Typing digits into the note does not label.
  pane.noteEdit()->setFocus();
  QTest::keyClicks(pane.noteEdit(), QStringLiteral("12"));
  EXPECT_EQ(pane.noteEdit()->text(), QStringLiteral("12"));
  EXPECT_EQ(pane.model()->labelOf(3), nullptr);
  // With the note field focused: Ctrl+Enter needs a label first; Ctrl+2 labels with the note and advances.
  QTest::keyClick(pane.noteEdit(), Qt::Key_Return, Qt::ControlModifier);
  EXPECT_EQ(pane.model()->labelOf(3), nullptr);
  QTest::keyClick(pane.noteEdit(), Qt::Key_2, Qt::ControlModifier);
  ASSERT_NE(pane.model()->labelOf(3), nullptr);
  EXPECT_EQ(pane.model()->labelOf(3)->note, "12");
  EXPECT_EQ(pane.currentSourceRow(), 4);
  // Ctrl+K back, a new note, Ctrl+Enter completes with the record's label and advances again.
  QTest::keyClick(pane.noteEdit(), Qt::Key_K, Qt::ControlModifier);
  EXPECT_EQ(pane.currentSourceRow(), 3);
  QTest::keyClicks(pane.noteEdit(), QStringLiteral("because"));
  QTest::keyClick(pane.noteEdit(), Qt::Key_Enter, Qt::ControlModifier);
  EXPECT_EQ(pane.model()->labelOf(3)->label, "partial");
  EXPECT_EQ(pane.model()->labelOf(3)->note, "because");
  EXPECT_EQ(pane.currentSourceRow(), 4);

  // Reopen in a new pane: labels are there.
  AuditPane other;
  ASSERT_TRUE(other.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  EXPECT_EQ(other.model()->labelOf(1)->label, "partial");
  EXPECT_EQ(other.summary().labelled, 4u);
}


TEST(AuditPane, FiftyBlindLabelsWithKeyEventsOnly) {
  QTemporaryDir tmp;
  std::vector<json> events;
  for (int i = 0; i < 60; ++i)
    events.push_back(adoption(i, i / 3, "task/" + std::to_string(i % 7), i % 3, "mem-" + std::to_string(i), 1,
                              i % 2 == 0, "rationale", "", "x\n"));
  const QString dir = writeWorkspace(tmp, events);
  // Another auditor labelled some records already: a blind audit must not show them.
  {
    sf::store::AuditWorkspace ws;
    std::string err;
    ASSERT_TRUE(sf::store::load_audit_workspace(dir.toStdString(), ws, err)) << err;
    for (int i = 0; i < 60; i += 2)
      ASSERT_TRUE(sf::store::record_audit_label(
          ws, {i / 3, "task/" + std::to_string(i % 7), i % 3, "mem-" + std::to_string(i), "full", "", "bob", "t"}, 1.0,
          err))
          << err;
  }
  AuditPane pane;
  pane.resize(1000, 700);
  ASSERT_TRUE(pane.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  pane.setAuditor(QStringLiteral("ann"));
  pane.setSeed(777);
  sf::widgets::test::MouseCounter mouse;
  qApp->installEventFilter(&mouse);
  QTest::keyClick(pane.table(), Qt::Key_S);  // draw the sample (N = 50 by default), blind by default
  ASSERT_TRUE(pane.blind());
  ASSERT_EQ(pane.filterModel()->rowCount(), 50);
  EXPECT_TRUE(pane.table()->isColumnHidden(AuditModel::LabelColumn));
  std::array<std::size_t, 3> pressed{};
  for (int i = 0; i < 50; ++i) {
    const int which = (i * 7) % 3;
    ++pressed[static_cast<std::size_t>(which)];
    QTest::keyClick(pane.table(), static_cast<Qt::Key>(Qt::Key_1 + which));
  }
  const auto s = pane.summary();
  EXPECT_EQ(s.records, 50u);
  EXPECT_EQ(s.labelled, 50u);
  EXPECT_EQ(s.counts, pressed);
  // The cheat sheet lists every shortcut.
  QTest::keyClick(pane.table(), Qt::Key_Question);
  ASSERT_NE(pane.cheatSheet(), nullptr);
  EXPECT_TRUE(pane.cheatSheet()->isVisible());
  for (const char* key : {"1 / Ctrl+1", "Ctrl+Enter", "J / Ctrl+J", "K / Ctrl+K", "S —", "A —", "B —", "? / F1"})
    EXPECT_TRUE(AuditPane::cheatSheetText().contains(QString::fromUtf8(key))) << key;
  qApp->removeEventFilter(&mouse);
  EXPECT_EQ(mouse.count, 0);
  // On disk: ann's 50 labels next to bob's 30, none lost.
  sf::store::AuditWorkspace after;
  std::string err;
  ASSERT_TRUE(sf::store::load_audit_workspace(dir.toStdString(), after, err)) << err;
  EXPECT_EQ(after.labels.only("ann").size(), 50u);
  EXPECT_EQ(after.labels.only("bob").size(), 30u);
}

TEST(AuditPane, SamplingIsReproducibleAndBlind) {
  QTemporaryDir tmp;
  const QString dir = writeWorkspace(tmp, fixture());
  AuditPane pane;
  ASSERT_TRUE(pane.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  pane.sample(3, 12345);
  EXPECT_EQ(pane.seed(), 12345u);
  const auto expected = sf::store::sample_records(pane.model()->workspace().log.records, 3, 12345);
  ASSERT_EQ(pane.filterModel()->rowCount(), 3);
  auto shown = [&] {
    std::vector<AdoptionKey> keys;
    for (int r = 0; r < pane.filterModel()->rowCount(); ++r)
      keys.push_back(
          pane.model()->record(pane.filterModel()->mapToSource(pane.filterModel()->index(r, 0)).row()).key());
    return keys;
  };
  EXPECT_EQ(shown(), expected);  // in draw order
  EXPECT_TRUE(pane.blind());
  EXPECT_TRUE(pane.table()->isColumnHidden(AuditModel::AdoptedColumn));
  EXPECT_TRUE(pane.table()->isColumnHidden(AuditModel::LabelColumn));
  EXPECT_FALSE(pane.table()->isColumnHidden(AuditModel::RationaleColumn));

  // Another pane with the same seed draws the same records.
  AuditPane second;
  ASSERT_TRUE(second.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  second.sample(3, 12345);
  std::vector<AdoptionKey> keys2;
  for (int r = 0; r < second.filterModel()->rowCount(); ++r)
    keys2.push_back(second.model()
                        ->record(second.filterModel()->mapToSource(second.filterModel()->index(r, 0)).row())
                        .key());
  EXPECT_EQ(keys2, expected);

  // Summary over the sample: label the first sampled record.
  ASSERT_TRUE(pane.labelCurrent(0));
  auto s = pane.summary();
  EXPECT_EQ(s.records, 3u);
  EXPECT_EQ(s.labelled, 1u);
  pane.showAll();
  EXPECT_FALSE(pane.table()->isColumnHidden(AuditModel::AdoptedColumn));
  EXPECT_EQ(pane.filterModel()->rowCount(), 5);
  EXPECT_EQ(pane.summary().records, 5u);
}

TEST(AuditPane, SummaryExportCsvAndMarkdown) {
  QTemporaryDir tmp;
  const QString dir = writeWorkspace(tmp, fixture());
  AuditPane pane;
  ASSERT_TRUE(pane.openSnapshot(*sf::widgets::test::snapshotOf(dir)));
  QString err;
  ASSERT_TRUE(pane.model()->setLabel(0, QStringLiteral("full"), {}, &err));
  ASSERT_TRUE(pane.model()->setLabel(1, QStringLiteral("full"), {}, &err));
  ASSERT_TRUE(pane.model()->setLabel(2, QStringLiteral("partial"), {}, &err));
  ASSERT_TRUE(pane.model()->setLabel(3, QStringLiteral("unrelated"), {}, &err));
  const QString csv = tmp.path() + QStringLiteral("/s.csv"), md = tmp.path() + QStringLiteral("/s.md");
  ASSERT_TRUE(pane.exportSummary(csv, false, &err)) << err.toStdString();
  ASSERT_TRUE(pane.exportSummary(md, true, &err)) << err.toStdString();
  EXPECT_EQ(readAll(csv),
            QStringLiteral("label,count,percent\nfull,2,50.0\npartial,1,25.0\nunrelated,1,25.0\n"
                           "total,4,100.0\n"));
  EXPECT_EQ(readAll(md),
            QStringLiteral("| label | count | percent |\n|---|---:|---:|\n| full | 2 | 50.0% |\n"
                           "| partial | 1 | 25.0% |\n| unrelated | 1 | 25.0% |\n| total | 4 | 100.0% |\n\n"
                           "4 of 5 adoption records labelled.\n"));
  EXPECT_FALSE(pane.exportSummary(tmp.path() + QStringLiteral("/no/such/dir/x.csv"), false, &err));
}

TEST(AuditDiff, LongestCommonSubsequenceOfLines) {
  auto d = diffLines(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nx\nc\nd\n"));
  EXPECT_EQ(d.removed, QVector<int>({1}));
  EXPECT_EQ(d.added, QVector<int>({1, 3}));
  d = diffLines({}, QStringLiteral("p\nq"));
  EXPECT_TRUE(d.removed.isEmpty());
  EXPECT_EQ(d.added, QVector<int>({0, 1}));
  d = diffLines(QStringLiteral("same\n"), QStringLiteral("same\n"));
  EXPECT_TRUE(d.removed.isEmpty() && d.added.isEmpty());
}
