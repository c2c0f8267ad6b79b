// Item models under QAbstractItemModelTester, and their contents.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "widgets/editor/issues_model.hpp"

using namespace sf::widgets;

TEST(IssuesModel, PassesTheModelTesterAndShowsLocations) {
  IssuesModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(m.rowCount(), 0);
  m.setIssues({{sf::Severity::Error, QStringLiteral("A-MULTI"), QStringLiteral("stream used twice"), 12, 5},
               {sf::Severity::Warning, QStringLiteral("W-DEAD"), QStringLiteral("unused"), 3, 0},
               {sf::Severity::Error, QStringLiteral("D-IO"), QStringLiteral("cannot read"), 0, 0}});
  ASSERT_EQ(m.rowCount(), 3);
  EXPECT_EQ(m.columnCount(), IssuesModel::ColumnCount);
  EXPECT_EQ(m.errorCount(), 2);
  EXPECT_EQ(m.warningCount(), 1);
  EXPECT_EQ(m.index(0, IssuesModel::CodeColumn).data().toString(), QStringLiteral("A-MULTI"));
  EXPECT_EQ(m.index(0, IssuesModel::LocationColumn).data().toString(), QStringLiteral("12:5"));
  EXPECT_EQ(m.index(1, IssuesModel::LocationColumn).data().toString(), QStringLiteral("3"));
  EXPECT_EQ(m.index(2, IssuesModel::LocationColumn).data().toString(), QString());
  EXPECT_EQ(m.index(1, IssuesModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
  EXPECT_EQ(m.index(0, 0).data(IssuesModel::LineRole).toInt(), 12);
  EXPECT_EQ(m.index(0, 0).data(IssuesModel::ColumnRole).toInt(), 5);
  EXPECT_FALSE(m.index(0, IssuesModel::SeverityColumn).data(Qt::DecorationRole).isNull());
  m.setIssues({});
  EXPECT_EQ(m.rowCount(), 0);
}

TEST(VerifySetsModel, PassesTheModelTester) {
  VerifySetsModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setSets({{QStringLiteral("M=5"), 42, false, true, 1e-7}, {QStringLiteral("M=4"), 43, true, false, 0.5}});
  ASSERT_EQ(m.rowCount(), 2);
  EXPECT_EQ(m.index(0, VerifySetsModel::ResultColumn).data().toString(), QStringLiteral("pass"));
  EXPECT_EQ(m.index(1, VerifySetsModel::ResultColumn).data().toString(), QStringLiteral("FAIL"));
  EXPECT_EQ(m.index(1, VerifySetsModel::BindingColumn).data().toString(), QStringLiteral("M=4 (alternative sizes)"));
  EXPECT_EQ(m.index(1, VerifySetsModel::ErrorColumn).data().toString(), QStringLiteral("0.5"));
  EXPECT_EQ(m.index(0, VerifySetsModel::SeedColumn).data().toString(), QStringLiteral("42"));
}
