// EngineBridge: results as snapshots, superseding, cancellation, progress throttling; the engine's jobs.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include "test_support.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/engine/engine_jobs.hpp"
#include "widgets/engine/progress_throttle.hpp"

using namespace sf::widgets;
using sf::widgets::test::columnOf;
using sf::widgets::test::demoWith;
using sf::widgets::test::lineOf;

TEST(EngineBridge, CheckOfABadProgramReportsTheSecondUse) {
  EngineBridge b;
  QSignalSpy spy(&b, &EngineBridge::checkFinished);
  const QString doc = demoWith(QStringLiteral("apply((E0, E4))"), QStringLiteral("apply((E0, E0))"));
  quint64 seq = b.requestCheck(doc, QStringLiteral("bad.yaml"), 7);
  EXPECT_TRUE(b.isBusy(JobKind::Check));
  ASSERT_TRUE(spy.wait(30000));
  auto s = spy.at(0).at(0).value<CheckSnapshot>();
  EXPECT_EQ(s.seq, seq);
  EXPECT_EQ(s.revision, 7u);
  EXPECT_TRUE(s.documentLoaded);
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.taskId, QStringLiteral("gemm_easy/batched_matvec"));
  const int line = lineOf(doc, QStringLiteral("E5 = step.Zip"));
  bool found = false;
  for (const auto& is : s.issues) {
    if (is.code != QLatin1String("A-MULTI")) continue;
    found = true;
    EXPECT_EQ(is.line, line);
    EXPECT_EQ(is.column, columnOf(doc, line, QStringLiteral("E0"), 2));
  }
  EXPECT_TRUE(found);
  EXPECT_FALSE(b.isBusy(JobKind::Check));
  EXPECT_TRUE(s.fns.contains(QStringLiteral("fn_mul")));
  EXPECT_TRUE(s.inputs.contains(QStringLiteral("E1")));
}

TEST(EngineBridge, GoodProgramGetsStreamTypes) {
  EngineBridge b;
  QSignalSpy spy(&b, &EngineBridge::checkFinished);
  const QString doc = demoWith();
  b.requestCheck(doc);
  ASSERT_TRUE(spy.wait(30000));
  auto s = spy.at(0).at(0).value<CheckSnapshot>();
  ASSERT_TRUE(s.ok);
  ASSERT_TRUE(s.graph);
  EXPECT_FALSE(s.graph->nodes.empty());
  std::map<std::string, sf::inspect::StreamAnnotation> byName;
  for (const auto& a : s.streams) byName[a.name] = a;
  ASSERT_EQ(byName.size(), 6u);
  // Hand-worked from the manual's rules: Bufferize(a=1) of [K, N] fp32 → [N] of Buffer(fp32, [K]);
  // Repeat(n=M) adds M innermost; Accum(b=1) drops K.
  EXPECT_EQ(byName["E2"].type, "[N] of Buffer(fp32, [K])");
  EXPECT_EQ(byName["E3"].type, "[M, N] of Buffer(fp32, [K])");
  EXPECT_EQ(byName["E4"].type, "[K, M, N] of fp32");
  EXPECT_EQ(byName["E7"].type, "[M, N] of fp32");
  EXPECT_EQ(byName["E2"].line, lineOf(doc, QStringLiteral("E2 = step.Bufferize")));
}

TEST(EngineBridge, NewerCheckSupersedesOlder) {
  EngineBridge b;
  QSignalSpy spy(&b, &EngineBridge::checkFinished);
  b.requestCheck(demoWith(), {}, 1);
  quint64 second = b.requestCheck(demoWith(QStringLiteral("b=1"), QStringLiteral("b=9")), {}, 2);
  ASSERT_TRUE(spy.wait(30000));
  QTest::qWait(300);
  ASSERT_EQ(spy.count(), 1);
  auto s = spy.at(0).at(0).value<CheckSnapshot>();
  EXPECT_EQ(s.seq, second);
  EXPECT_EQ(s.revision, 2u);
  EXPECT_FALSE(s.ok);  // b=9 is out of range for a rank-2 stream
}

TEST(EngineBridge, CancelledVerifyIsNeverDelivered) {
  EngineBridge b;
  QSignalSpy verified(&b, &EngineBridge::verifyFinished);
  QSignalSpy cancelled(&b, &EngineBridge::cancelled);
  QSignalSpy checked(&b, &EngineBridge::checkFinished);
  quint64 seq = b.requestVerify(demoWith());
  EXPECT_TRUE(b.isBusy(JobKind::Verify));
  b.cancel(JobKind::Verify);
  // The GUI side learns of the cancellation at once; it never waits on the engine.
  ASSERT_EQ(cancelled.count(), 1);
  EXPECT_EQ(cancelled.at(0).at(0).value<JobKind>(), JobKind::Verify);
  EXPECT_EQ(cancelled.at(0).at(1).value<quint64>(), seq);
  EXPECT_FALSE(b.isBusy(JobKind::Verify));
  // Jobs run in order: once a later check is back, the verify request has been handled (skipped).
  b.requestCheck(demoWith());
  ASSERT_TRUE(checked.wait(30000));
  QTest::qWait(100);
  EXPECT_EQ(verified.count(), 0);
  // A new request after the cancel runs normally.
  b.requestVerify(demoWith());
  ASSERT_TRUE(verified.wait(120000));
  EXPECT_TRUE(verified.at(0).at(0).value<VerifySnapshot>().pass);
}

TEST(EngineBridge, VerifyReportsEveryInputSetAndThrottledProgress) {
  EngineBridge b;
  QSignalSpy verified(&b, &EngineBridge::verifyFinished);
  QSignalSpy progress(&b, &EngineBridge::progress);
  b.requestVerify(demoWith());
  ASSERT_TRUE(verified.wait(120000));
  auto s = verified.at(0).at(0).value<VerifySnapshot>();
  EXPECT_TRUE(s.pass);
  EXPECT_EQ(s.sets.size(), 4);  // seeds {42, 43} × {sizes, alt_sizes}
  EXPECT_EQ(s.programLength, 7);
  EXPECT_TRUE(s.code.isEmpty());
  EXPECT_LT(s.maxAbsError, 1e-4);
  // The last update is always delivered, and at most ~10/s plus the final one.
  ASSERT_GE(progress.count(), 1);
  auto last = progress.last();
  EXPECT_EQ(last.at(2).toInt(), last.at(3).toInt());
}

TEST(EngineBridge, VerifyOfAFailingProgramNamesStageAndCode) {
  EngineBridge b;
  QSignalSpy verified(&b, &EngineBridge::verifyFinished);
  b.requestVerify(demoWith(QStringLiteral("apply((E0, E4))"), QStringLiteral("apply((E0, E0))")));
  ASSERT_TRUE(verified.wait(60000));
  auto s = verified.at(0).at(0).value<VerifySnapshot>();
  EXPECT_FALSE(s.pass);
  EXPECT_EQ(s.stage, QStringLiteral("affine"));
  // E4 is now unused: its A-DEAD (at its definition, a line above the A-MULTI) is the first affine error.
  EXPECT_EQ(s.code.toStdString(), "A-DEAD");
  bool multi = false;
  for (const auto& is : s.issues) multi = multi || is.code == QLatin1String("A-MULTI");
  EXPECT_TRUE(multi);
}

TEST(EngineBridge, SimulateKeepsEveryStream) {
  EngineBridge b;
  QSignalSpy spy(&b, &EngineBridge::simulateFinished);
  b.requestSimulate(demoWith());
  ASSERT_TRUE(spy.wait(60000));
  auto s = spy.at(0).at(0).value<SimulateSnapshot>();
  ASSERT_TRUE(s.ok);
  ASSERT_TRUE(s.run);
  ASSERT_TRUE(s.prepared);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.binding, QStringLiteral("D=16, K=9, M=5, N=7"));
  ASSERT_TRUE(s.run->streams.count("E4"));
  // E4 = [K, M, N] = 9 * 5 * 7 positions.
  EXPECT_EQ(s.run->streams.at("E4").positions(), 9 * 5 * 7);
  ASSERT_EQ(s.run->outputs.size(), 1u);
  EXPECT_EQ(s.run->outputs[0].positions(), 5 * 7);
}

TEST(ProgressThrottle, AdmitsFirstThenThrottlesUntilFinal) {
  ProgressThrottle t(100000);
  EXPECT_TRUE(t.admit());
  EXPECT_FALSE(t.admit());
  EXPECT_FALSE(t.admit());
  EXPECT_TRUE(t.admit(true));
  ProgressThrottle fast(0);
  EXPECT_TRUE(fast.admit());
  EXPECT_TRUE(fast.admit());
}

TEST(EngineJobs, NoImplAndUnknownTask) {
  sf::Diagnostics d;
  auto p = sf::inspect::load_and_check("task: nope/nothing\nimpl: |\n  return E0\n", "s.yaml", nullptr, d);
  EXPECT_FALSE(p);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.back().code, "D-TASK-UNKNOWN");
}

TEST(EngineJobs, ReplaceImplBlockKeepsTheRestOfTheDocument) {
  const std::string doc = "id: x\nimpl: |\n    A = step.Identity().apply(E0)\n\n    return A\nmeta: {len: 2}\n";
  auto out = replaceImplBlock(doc, "B = step.Identity().apply(E0)\nreturn B");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "id: x\nimpl: |\n    B = step.Identity().apply(E0)\n    return B\nmeta: {len: 2}\n");
  EXPECT_FALSE(replaceImplBlock("id: x\nimpl: \"return A\"\n", "return B"));
  auto empty = replaceImplBlock("id: x\nimpl: |\n", "return B\n");
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, "id: x\nimpl: |\n  return B\n");
}

TEST(EngineJobs, InsertCopiesFixesAMultipleUse) {
  const QString doc =
      demoWith(QStringLiteral("apply((E0, E4))"), QStringLiteral("apply((E0, E4))\n  X = step.Identity().apply(E0)"));
  auto r = rewriteDocument(RewriteKind::InsertCopies, doc.toStdString(), "", nullptr);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.text.contains(QStringLiteral("E0_0, E0_r1 = step.Copy().apply(E0)")));
  EXPECT_TRUE(r.text.startsWith(QStringLiteral("dialect: step-v1\n")));
  auto after = makeCheckSnapshot(r.text.toStdString(), "", nullptr);
  for (const auto& is : after.issues) EXPECT_NE(is.code, QStringLiteral("A-MULTI"));
  auto fmt = rewriteDocument(RewriteKind::Format, demoWith().toStdString(), "", nullptr);
  ASSERT_TRUE(fmt.ok);
  EXPECT_FALSE(fmt.text.contains(QStringLiteral("# sum over k")));  // the printer drops comments
  EXPECT_TRUE(makeCheckSnapshot(fmt.text.toStdString(), "", nullptr).ok);
}

TEST(EngineJobs, LiveCheckReportsTheWholeDocumentLikeCheck) {
  // A reference with an unknown name: the impl is fine, but `stepforge-cli check` reports X-REF-* at the
  // reference line, and so must the editor's live check.
  const QString doc = demoWith(QStringLiteral("einsum('nmk,nk->nm', E0, E1)"), QStringLiteral("einsum('nmk,nk->nm', E0, nope)"));
  auto s = makeCheckSnapshot(doc.toStdString(), "doc.yaml", nullptr);
  EXPECT_FALSE(s.ok);
  bool found = false;
  for (const auto& is : s.issues) {
    if (!is.code.startsWith(QStringLiteral("X-REF-"))) continue;
    found = true;
    EXPECT_EQ(is.line, lineOf(doc, QStringLiteral("einsum('nmk")));
  }
  EXPECT_TRUE(found);
}
