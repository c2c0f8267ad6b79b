// Stream inspector: token view rows and text, output vs reference with highlighted mismatches, a real run.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>

#include "core/bench/catalogue.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/program_file.hpp"
#include "core/verify/verifier.hpp"
#include "widgets/inspect/stream_inspector.hpp"
#include "widgets/inspect/stream_inspector_models.hpp"

using namespace sf;
using namespace sf::widgets;

namespace {

sim::StreamValue rows_of_three() {  // dims [3, 2]: two rows of three
  sim::StreamValue v;
  v.dims = {3, 2};
  v.fields.push_back(sim::Field{{}, {1, 2, 3, 4, 5, 6}});
  return v;
}

inspect::InspectorSnapshot hand_snapshot() {
  inspect::InspectorSnapshot s;
  s.streams.push_back(inspect::InspectedStream{"X", "[3, 2] of fp32", rows_of_three()});
  sim::StreamValue cube;
  cube.dims = {2, 2, 2};
  cube.fields.push_back(sim::Field{{}, {1, 2, 3, 4, 5, 6, 7, 8}});
  s.streams.push_back(inspect::InspectedStream{"C", "", cube});
  sim::StreamValue out;
  out.dims = {4};
  out.fields.push_back(sim::Field{{}, {1, 2, 3, 4}});
  s.outputs.push_back(inspect::compare_output("S0", out, 0, {1, 2, 3.5, 4}, 1e-5, 1.3e-6));
  s.outputs.push_back(inspect::compare_output("S1", out, 0, {1, 2, 3, 4.000001}, 1e-5, 1.3e-6));
  return s;
}

}  // namespace

TEST(StreamInspectorData, CompareOutputCountsAndMessages) {
  auto s = hand_snapshot();
  const auto& bad = s.outputs[0];
  EXPECT_FALSE(bad.pass());
  EXPECT_EQ(bad.stats.bad, 1);
  EXPECT_EQ(bad.stats.first_bad, 2);
  EXPECT_EQ(bad.summary.rfind("output S0: 1 of 4 values differ (atol 1e-05, rtol 1.3e-06)", 0), 0u)
      << bad.summary;
  EXPECT_TRUE(s.outputs[1].pass());
  EXPECT_EQ(s.outputs[1].summary.rfind("output S1: all 4 values within tolerance", 0), 0u)
      << s.outputs[1].summary;
  EXPECT_EQ(inspect::compare_value(3.0f, 3.5, 1e-5, 1.3e-6), inspect::ValueStatus::Mismatch);
  EXPECT_EQ(inspect::compare_value(3.0f, 3.0000001, 1e-5, 1.3e-6), inspect::ValueStatus::Ok);
  EXPECT_EQ(inspect::compare_value(3.0f, std::nan(""), 1e-5, 1.3e-6), inspect::ValueStatus::RefNaN);
  // A program output of the wrong size is never a pass.
  sim::StreamValue small;
  small.dims = {2};
  small.fields.push_back(sim::Field{{}, {1, 2}});
  auto o = inspect::compare_output("S0", small, 0, {1, 2, 3}, 1e-5, 1.3e-6);
  EXPECT_TRUE(o.size_mismatch);
  EXPECT_FALSE(o.pass());
}

TEST(StreamInspector, TokenViewOfTheSelectedStream) {
  StreamInspector w;
  QAbstractItemModelTester t1(w.streamModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(w.tokenModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  w.setSnapshot(hand_snapshot());
  ASSERT_EQ(w.streamModel()->rowCount(), 2);
  EXPECT_EQ(w.streamModel()->index(0, StreamListModel::DimsColumn).data().toString(),
            QStringLiteral("[3, 2]"));
  EXPECT_EQ(w.streamModel()->index(0, StreamListModel::ElementsColumn).data().toLongLong(), 6);
  ASSERT_TRUE(w.selectStream(QStringLiteral("X")));
  EXPECT_EQ(w.tokenText(), QStringLiteral("1 2 3 S1 4 5 6 S1 D"));
  auto* m = w.tokenModel();
  ASSERT_EQ(m->rowCount(), 7);  // 6 data tokens + done
  EXPECT_EQ(m->index(2, TokenTableModel::StopColumn).data().toString(), QStringLiteral("S1"));
  EXPECT_EQ(m->index(1, TokenTableModel::StopColumn).data().toString(), QString());
  EXPECT_EQ(m->index(4, TokenTableModel::PositionColumn).data().toString(), QStringLiteral("(1, 1)"));
  EXPECT_EQ(m->index(4, TokenTableModel::ValueColumn).data().toString(), QStringLiteral("5"));
  EXPECT_EQ(m->index(6, TokenTableModel::StopColumn).data().toString(), QStringLiteral("D"));
  // Rank 2: where two dims end together only the highest stop is emitted (§3.4).
  ASSERT_TRUE(w.selectStream(QStringLiteral("C")));
  EXPECT_EQ(w.tokenText(), QStringLiteral("1 2 S1 3 4 S2 5 6 S1 7 8 S2 D"));
  EXPECT_EQ(w.tokenModel()->stopLevel(3), 2);
  EXPECT_EQ(w.tokenModel()->stopLevel(1), 1);
  EXPECT_EQ(w.tokenModel()->stopLevel(0), 0);
  EXPECT_FALSE(w.selectStream(QStringLiteral("nope")));
  EXPECT_EQ(w.currentStream(), QStringLiteral("C"));
  // A new snapshot keeps the selection when the stream still exists.
  w.setSnapshot(hand_snapshot());
  EXPECT_EQ(w.currentStream(), QStringLiteral("C"));
  EXPECT_EQ(w.tokenModel()->rowCount(), 9);
}

TEST(StreamInspector, OutputsAgainstReferenceWithMismatchesHighlighted) {
  StreamInspector w;
  QAbstractItemModelTester t1(w.outputModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester t2(w.compareModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  w.setSnapshot(hand_snapshot());
  // The first failing output is shown first.
  EXPECT_EQ(w.currentOutput(), QStringLiteral("S0"));
  EXPECT_TRUE(w.outputSummary().startsWith(QStringLiteral("output S0: 1 of 4 values differ")));
  EXPECT_EQ(w.outputModel()->index(0, OutputListModel::StatusColumn).data().toString(),
            QStringLiteral("1 mismatch(es)"));
  EXPECT_EQ(w.outputModel()->index(1, OutputListModel::StatusColumn).data().toString(),
            QStringLiteral("pass"));
  auto* c = w.compareModel();
  ASSERT_EQ(c->rowCount(), 4);
  EXPECT_EQ(c->index(2, OutputCompareModel::ProgramColumn).data().toString(), QStringLiteral("3"));
  EXPECT_EQ(c->index(2, OutputCompareModel::ReferenceColumn).data().toString(), QStringLiteral("3.5"));
  EXPECT_EQ(c->index(2, OutputCompareModel::ErrorColumn).data().toString(), QStringLiteral("0.5"));
  EXPECT_EQ(c->index(2, OutputCompareModel::StatusColumn).data().toString(), QStringLiteral("mismatch"));
  EXPECT_EQ(c->index(2, OutputCompareModel::PositionColumn).data().toString(),
            QStringLiteral("[2] element 0"));
  EXPECT_EQ(c->index(2, 0).data(Qt::BackgroundRole).value<QBrush>().color(),
            OutputCompareModel::mismatchBackground());
  EXPECT_FALSE(c->index(1, 0).data(Qt::BackgroundRole).isValid());
  w.setMismatchesOnly(true);
  ASSERT_EQ(c->rowCount(), 1);
  EXPECT_EQ(c->ftIndex(0), 2);
  EXPECT_EQ(c->index(0, OutputCompareModel::IndexColumn).data().toLongLong(), 2);
  ASSERT_TRUE(w.selectOutput(QStringLiteral("S1")));
  EXPECT_EQ(c->rowCount(), 0);
  w.setMismatchesOnly(false);
  EXPECT_EQ(c->rowCount(), 4);
  w.clear();
  EXPECT_EQ(c->rowCount(), 0);
  EXPECT_EQ(w.streamModel()->rowCount(), 0);
}

TEST(StreamInspector, SnapshotOfARealRun) {
  Diagnostics d;
  auto cat = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d);
  auto pf =
      verify::load_program_file(std::string(SF_SOURCE_DIR) + "/resources/solutions/rope/neox_halves.yaml", &cat, d);
  ASSERT_TRUE(pf);
  auto checked = verify::check_program(pf->task, pf->impl, pf->impl_line_starts);
  ASSERT_TRUE(checked.ok());
  verify::Verifier v;
  auto prep = v.prepare(pf->task, pf->task.sizes, 42, d);
  ASSERT_TRUE(prep);
  sim::RunOptions ro;
  ro.keep_streams = true;
  auto run = sim::run_program(*checked.program, *checked.typed, prep->compiled, prep->inputs, ro);
  ASSERT_FALSE(run.error);
  auto snap = inspect::make_inspector_snapshot(pf->task, &*checked.program, &*checked.typed, run, &prep->reference);
  // Inputs first, then definitions in program order.
  std::vector<std::string> names;
  for (const auto& s : snap.streams) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"E0", "E1", "P", "Z", "Y"}));
  EXPECT_EQ(snap.streams[2].type, "[N, M] of fp32");
  EXPECT_EQ(snap.streams[2].value.dims, (std::vector<std::int64_t>{7, 5}));  // N = 7, M = 5
  ASSERT_EQ(snap.outputs.size(), 1u);
  EXPECT_EQ(snap.outputs[0].name, "S0");
  EXPECT_TRUE(snap.outputs[0].pass()) << snap.outputs[0].summary;
  EXPECT_EQ(snap.outputs[0].stats.total, 7 * 5 * 16);
  StreamInspector w;
  QAbstractItemModelTester t(w.tokenModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  w.setSnapshot(std::move(snap));
  ASSERT_TRUE(w.selectStream(QStringLiteral("P")));
  // Scan(fn_sum) over ones: positions 0..N-1 per sequence; a stop S1 after each sequence of N = 7.
  EXPECT_TRUE(w.tokenText().startsWith(QStringLiteral("0 1 2 3 4 5 6 S1 0 1")));
  EXPECT_EQ(w.tokenModel()->rowCount(), 36);
}
