// Issue 21: a demo replay every dock follows (audit and memory docks rebuilt from the first events only,
// never from the final audit.json / memory.json; scrubbing back and forth), its story (key moments, episode
// stepping), recording it to PNG frames + captions.srt, and readable layouts (presentation and default) at
// 1366×768, 1920×1080 and 2560×1440: no chart text or column header elided, every task id shown.
// SF_KEEP_LAYOUT_PNGS=DIR keeps the rendered layouts for a human look.
#include <gtest/gtest.h>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QImage>
#include <QListWidget>
#include <QRegularExpression>
#include <QSlider>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QChartView>
#include <cmath>
#include <fstream>

#include "core/learn/events.hpp"
#include "core/learn/projections.hpp"
#include "widgets/audit/audit_docks.hpp"
#include "widgets/audit/audit_model.hpp"
#include "widgets/audit/audit_pane.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/campaign/demo_recorder.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/campaign/learning_curves.hpp"
#include "widgets/main_window.hpp"
#include "widgets/audit/memory_inspector.hpp"
#include "widgets/audit/memory_inspector_model.hpp"
#include "widgets/campaign/replay_controls.hpp"
#include "widgets/editor/task_browser.hpp"
#include "widgets/editor/task_browser_model.hpp"

using namespace sf::widgets;
using nlohmann::json;

namespace {

const std::vector<std::string> kStoryTasks = {"rope/gptj_interleaved", "bmm/inner_product", "gemm_easy/batched_matvec"};

// A sage campaign of three episodes (one per task) written by hand after the event contract: episode e
// retrieves the experiences of the earlier episodes (adopting mem-0 on a task other than the one it came
// from), passes with speedup 1.5 + e, credits them, distils mem-e and promotes mem-0 at the second
// consolidation. memory.json and audit.json hold a final state the replay must not show early.
std::vector<json> sageEvents() {
  std::vector<json> ev;
  auto add = [&](const std::string& type, json fields) {
    json e = {{"v", 1}, {"seq", static_cast<int>(ev.size())}, {"t", 1.0e9 + ev.size()}, {"type", type}};
    e.update(fields);
    ev.push_back(e);
  };
  json tasks = json::array();
  for (const auto& t : kStoryTasks) tasks.push_back({{"id", t}, {"group", t.substr(0, t.find('/'))}, {"tag", "Once-C"}});
  add("campaign_started", {{"config", {{"name", "story"}, {"mode", "sage"}, {"memory", {{"budget", 100}}}}},
                           {"tasks", tasks}});
  for (int e = 0; e < 3; ++e) {
    const std::string task = kStoryTasks[static_cast<std::size_t>(e)];
    add("episode_started", {{"episode", e}, {"task", task}, {"max_rounds", 2}});
    for (int i = 0; i < e; ++i)
      add("adoption_record", {{"episode", e},      {"task", task},  {"round", 0},       {"item", "mem-" + std::to_string(i)},
                              {"rank", i + 1},     {"relevance", 1.0}, {"score", 1.0},  {"utility", 0.0},
                              {"adopted", i == 0}, {"rationale", "r"}, {"reasked", false}, {"before", ""},
                              {"after", "E1 = step.Copy().apply(E0)"}});
    add("verdict", {{"iteration", e}, {"task", task}, {"temperature_index", 0}, {"temperature", 0.5},
                    {"sample_index", 0}, {"seed", 1}, {"pass", true}, {"stage", ""}, {"code", ""},
                    {"canonical_key", "k"}, {"program_length", 1}, {"impl", "E1 = step.Copy().apply(E0)"},
                    {"error", ""}, {"usage", json::object()}, {"cycles", 1000}, {"speedup", 1.5 + e},
                    {"feasible", true}});
    add("episode_finished", {{"episode", e}, {"task", task}, {"score", 1.0}, {"rounds", 1},
                             {"first_correct_round", 0}, {"solved", true}});
    for (int i = 0; i < e; ++i)
      add("credit", {{"episode", e}, {"item", "mem-" + std::to_string(i)}, {"adopted", i == 0}, {"credit", 0.8},
                     {"eta", 1.0}, {"utility_before", 0.0}, {"utility_after", 0.8}, {"n_updates", 1}});
    add("experience_added", {{"episode", e}, {"item", "mem-" + std::to_string(e)}, {"rule", "rule " + std::to_string(e)},
                             {"evidence", "evidence"}, {"pattern", ""}, {"source_task", task}, {"tokens", 10}});
    json promoted = json::array();
    if (e == 1) promoted.push_back({{"item", "mem-0"}, {"value", 0.1}, {"tokens", 10}});
    add("consolidation", {{"episode", e}, {"validated", json::array()}, {"promoted", promoted},
                          {"demoted", json::array()}, {"abstraction_failed", json::array()},
                          {"hot_tokens", e >= 1 ? 10 : 0}, {"budget", 100}});
  }
  add("campaign_finished", {{"reason", "done"}, {"iterations", 3}, {"tasks", 3}, {"solved", 3}});
  return ev;
}

QString writeStoryWorkspace(const QString& dir, const std::vector<json>& events) {
  QDir().mkpath(dir);
  std::ofstream(QDir(dir).filePath(QStringLiteral("campaign.json")).toStdString())
      << json{{"format", "stepforge-campaign"}, {"version", 1}, {"config", events.front()["config"]}}.dump();
  std::ofstream log(QDir(dir).filePath(QStringLiteral("events.jsonl")).toStdString());
  for (const auto& e : events) log << e.dump() << "\n";
  // A final memory with an item no event mentions, and a label: neither may appear during a replay.
  std::ofstream(QDir(dir).filePath(QStringLiteral("memory.json")).toStdString())
      << json{{"format", "stepforge-memory"}, {"version", 1},
              {"items", {{{"id", "mem-final"}, {"rule", "only in memory.json"}}}}}.dump();
  std::ofstream(QDir(dir).filePath(QStringLiteral("audit.json")).toStdString())
      << json{{"format", "stepforge-audit"}, {"version", 1},
              {"labels", {{{"episode", 2}, {"task", kStoryTasks[2]}, {"round", 0}, {"item", "mem-1"}, {"label", "full"},
                           {"note", ""}, {"auditor", "x"}, {"time", "2026-01-01T00:00:00Z"}}}}}.dump();
  return dir;
}

template <class Projection>
Projection foldFirst(const std::vector<json>& events, int n) {
  Projection p;
  for (int i = 0; i < n; ++i) {
    std::string err;
    auto e = sf::learn::event_from_json(events[static_cast<std::size_t>(i)], err);
    EXPECT_TRUE(e) << err;
    if (e) p.apply(*e);
  }
  return p;
}

bool waitReplayPosition(ReplayControls* rc, int position) {
  return QTest::qWaitFor([&] { return rc->position() == position; }, 20000);
}

// The docks against the projections folded over the first `n` events.
void expectDocksAt(MainWindow& w, const std::vector<json>& events, int n) {
  SCOPED_TRACE("position " + std::to_string(n));
  QTest::qWait(20);  // the event batch follows the update through the same queue
  const auto audit = foldFirst<sf::learn::AuditView>(events, n);
  AuditModel* am = w.auditDocks()->auditPane()->model();
  ASSERT_EQ(am->rowCount(), static_cast<int>(audit.log().records.size()));
  for (int r = 0; r < am->rowCount(); ++r) {
    EXPECT_EQ(am->record(r).key(), audit.log().records[static_cast<std::size_t>(r)].key());
    EXPECT_EQ(am->labelOf(r), nullptr);  // audit.json's label is not part of the replay
  }
  const auto mem = foldFirst<sf::learn::MemoryView>(events, n);
  MemoryInspectorModel* mm = w.auditDocks()->memoryInspector()->model();
  ASSERT_EQ(mm->rowCount(), static_cast<int>(mem.store().items().size()));
  EXPECT_EQ(mm->rowOfId(QStringLiteral("mem-final")), -1);
  for (int r = 0; r < mm->rowCount(); ++r) {
    const auto& want = mem.store().items()[static_cast<std::size_t>(r)];
    EXPECT_EQ(mm->item(r).id, want.id);
    EXPECT_EQ(mm->item(r).state, want.state);
    EXPECT_DOUBLE_EQ(mm->item(r).utility, want.utility);
    EXPECT_EQ(mm->item(r).retrieval_count, want.retrieval_count);
  }
  EXPECT_EQ(mm->hotTokens(), mem.hot_tokens());
}

}  // namespace

TEST(Replay, EveryDockFollowsThePositionBackAndForth) {
  QTemporaryDir tmp;
  const auto events = sageEvents();
  const QString dir = writeStoryWorkspace(tmp.filePath(QStringLiteral("ws")), events);
  MainWindow w;
  w.resize(1400, 860);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  CampaignDocks* cd = w.campaignDocks();
  ReplayControls* rc = cd->replayControls();
  cd->startDemo(dir, 5);  // slow: the test moves it
  w.bridge()->pauseCampaign();
  ASSERT_TRUE(QTest::qWaitFor([&] { return rc->story().length > 0; }, 20000));
  const ReplayStory story = rc->story();
  EXPECT_EQ(story.length, static_cast<int>(events.size()));
  ASSERT_EQ(story.episodeStarts.size(), 3);
  EXPECT_EQ(story.episodeStarts[0], 1);
  EXPECT_TRUE(rc->slider()->isVisible());

  // Episode 0 only (the position just before episode 1 starts): one verdict, one experience, no records.
  const int early = story.episodeStarts[1];
  rc->seek(early);
  ASSERT_TRUE(waitReplayPosition(rc, early));
  expectDocksAt(w, events, early);
  EXPECT_EQ(cd->curves()->currentPoints().size(), 1);
  // To the end, then back: the docks are rebuilt from the first events again.
  rc->seek(story.length);
  ASSERT_TRUE(waitReplayPosition(rc, story.length));
  expectDocksAt(w, events, story.length);
  EXPECT_EQ(cd->curves()->currentPoints().size(), 3);
  rc->stepEpisode(-1);  // ← from the end: the start of the last episode
  ASSERT_TRUE(waitReplayPosition(rc, story.episodeStarts[2]));
  expectDocksAt(w, events, story.episodeStarts[2]);
  rc->seek(early);
  ASSERT_TRUE(waitReplayPosition(rc, early));
  expectDocksAt(w, events, early);
  EXPECT_EQ(cd->curves()->currentPoints().size(), 1);
  rc->stepEpisode(+1);  // →
  ASSERT_TRUE(waitReplayPosition(rc, story.episodeStarts[2]));
  EXPECT_EQ(rc->stepTarget(story.episodeStarts[2], +1), story.length);
  EXPECT_EQ(rc->stepTarget(story.episodeStarts[0], -1), 1);

  // The story in order — solve, learn, speed up: first solved, mem-0 (from task 0) adopted on task 1, then the
  // episode-0 speedup that waited for them, the next best speedup, mem-0's promotion, the last best speedup.
  QStringList kinds;
  for (const auto& m : story.moments) kinds << m.kind;
  EXPECT_EQ(kinds, (QStringList{QStringLiteral("first solved"), QStringLiteral("adopted on another task"),
                                QStringLiteral("best speedup"), QStringLiteral("best speedup"),
                                QStringLiteral("promotion"), QStringLiteral("best speedup")}));
  EXPECT_EQ(rc->highlights()->count(), story.moments.size());
  // Captions name tasks, never experience ids.
  for (const auto& m : story.moments) EXPECT_FALSE(m.caption.contains(QStringLiteral("mem-"))) << m.caption.toStdString();
  EXPECT_TRUE(story.moments[1].caption.contains(QString::fromStdString(kStoryTasks[0])));
  EXPECT_TRUE(story.moments[1].caption.contains(QString::fromStdString(kStoryTasks[1])));
  EXPECT_TRUE(story.moments[2].caption.contains(QStringLiteral("1.50×")));
  // Reached moments are marked on the curves and the last one is the caption.
  EXPECT_EQ(rc->caption(), story.moments[4].caption);  // at the start of episode 2: the promotion
  EXPECT_TRUE(rc->caption().contains(QString::fromStdString("the rule learned on " + kStoryTasks[0])));
  EXPECT_EQ(cd->curves()->momentPoints().size(), 5);
  // A highlight jumps to its moment (the waiting speedup shares the adoption's position: it is told with it).
  EXPECT_EQ(story.moments[2].position, story.moments[1].position);
  rc->highlights()->setCurrentRow(3);
  emit rc->highlights()->itemActivated(rc->highlights()->item(3));
  ASSERT_TRUE(waitReplayPosition(rc, story.moments[3].position));
  EXPECT_EQ(rc->caption(), story.moments[3].caption);
  EXPECT_EQ(cd->curves()->momentPoints().size(), 4);
}

TEST(Replay, PauseAtKeyMomentsStopsRightAfterEach) {
  QTemporaryDir tmp;
  const auto events = sageEvents();
  const QString dir = writeStoryWorkspace(tmp.filePath(QStringLiteral("ws")), events);
  MainWindow w;
  w.resize(1200, 800);
  w.show();
  CampaignDocks* cd = w.campaignDocks();
  ReplayControls* rc = cd->replayControls();
  rc->setPauseAtMoments(true);
  cd->startDemo(dir, 0);  // fastest, but it stops at each moment
  ASSERT_TRUE(QTest::qWaitFor([&] { return rc->story().length > 0; }, 20000));
  const ReplayStory story = rc->story();
  ASSERT_TRUE(waitReplayPosition(rc, story.moments[0].position));
  QTest::qWait(300);  // stays there
  EXPECT_EQ(rc->position(), story.moments[0].position);
  EXPECT_EQ(w.bridge()->campaignState(), CampaignRunState::Paused);
  w.bridge()->resumeCampaign();
  ASSERT_TRUE(waitReplayPosition(rc, story.moments[1].position));
}

// Issue 34 item 9: a sage story with its memory-off run beside it (same config, memory.enabled false) draws
// that run's curve as the baseline; a story without one draws none.
TEST(Replay, ASageStoryDrawsItsMemoryOffRunAsTheBaseline) {
  QTemporaryDir tmp;
  const auto events = sageEvents();
  const QString dir = writeStoryWorkspace(tmp.filePath(QStringLiteral("sage")), events);
  auto baselineSeries = [](LearningCurves* c) {
    int n = 0;
    for (const auto& [name, points] : c->plotted())
      if (name.contains(QStringLiteral("memory off (baseline)")) && !points.isEmpty()) ++n;
    return n;
  };
  {
    MainWindow w;
    w.resize(1200, 800);
    CampaignDocks* cd = w.campaignDocks();
    cd->startDemo(dir, 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return cd->replayControls()->story().length > 0; }, 20000));
    EXPECT_TRUE(cd->replayControls()->story().baselineDir.isEmpty());
    EXPECT_EQ(baselineSeries(cd->curves()), 0);
  }
  auto off = events;
  off.front()["config"]["name"] = "story without memory";
  off.front()["config"]["memory"]["enabled"] = false;
  for (auto& e : off)  // nothing solved without the memory
    if (e["type"] == "episode_finished") e["solved"] = false;
  writeStoryWorkspace(tmp.filePath(QStringLiteral("sage-memory-off")), off);
  MainWindow w;
  w.resize(1200, 800);
  CampaignDocks* cd = w.campaignDocks();
  cd->startDemo(dir, 0);
  ASSERT_TRUE(QTest::qWaitFor([&] { return cd->replayControls()->story().length > 0; }, 20000));
  EXPECT_TRUE(cd->replayControls()->story().baselineDir.endsWith(QStringLiteral("sage-memory-off")));
  EXPECT_EQ(cd->replayControls()->story().baselineCurve.size(), 3);
  ASSERT_TRUE(QTest::qWaitFor([&] { return baselineSeries(cd->curves()) > 0; }, 5000));
  for (const auto& [name, points] : cd->curves()->plotted())
    if (name.contains(QStringLiteral("memory off (baseline)")))
      for (const QPointF& p : points) EXPECT_DOUBLE_EQ(p.y(), 0.0);  // the baseline solved nothing
}

TEST(Replay, RecordsFramesAndCaptions) {
  QTemporaryDir tmp;
  const auto events = sageEvents();
  const QString dir = writeStoryWorkspace(tmp.filePath(QStringLiteral("ws")), events);
  const QString out = tmp.filePath(QStringLiteral("frames"));
  MainWindow w;
  RecordOptions o;
  o.workspace = dir;
  o.outDir = out;
  o.fps = 4;
  o.size = QSize(800, 500);
  o.eventsPerSecond = 40;  // 10 events per frame
  o.holdSeconds = 0.5;     // below the floor: each caption still stays kMinCaptionSeconds or its reading time
  const RecordResult r = recordDemo(w, o);
  ASSERT_TRUE(r.ok) << r.error.toStdString();
  const QStringList frames = QDir(out).entryList({QStringLiteral("frame_*.png")}, QDir::Files, QDir::Name);
  EXPECT_EQ(frames.size(), r.frames);
  // Positions 1, 11, 21, … to the end, plus each key moment's stop and its held frames.
  const int length = static_cast<int>(events.size());
  const ReplayStory story = w.campaignDocks()->replayControls()->story();
  const int moments = story.moments.size();
  EXPECT_EQ(r.captions, moments);
  int held = 0;
  for (const auto& m : story.moments) held += int(std::ceil(captionSeconds(m.caption, o.holdSeconds) * o.fps - 1e-9)) + 1;
  EXPECT_GE(r.frames, (length - 1) / 10 + held);
  EXPECT_LE(r.frames, (length - 1) / 10 + 1 + held + moments);
  const QImage first(QDir(out).filePath(frames.front())), last(QDir(out).filePath(frames.back()));
  ASSERT_FALSE(first.isNull());
  EXPECT_EQ(first.size(), QSize(800, 500));
  EXPECT_EQ(last.size(), QSize(800, 500));
  EXPECT_NE(first, last);

  // captions.srt, parsed: numbered 1.., one caption per moment in story order, each ending before the next
  // begins, each shown at least 2.5 s and long enough to read at 15 characters per second, all within the video.
  QFile srt(QDir(out).filePath(QStringLiteral("captions.srt")));
  ASSERT_TRUE(srt.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(srt.readAll());
  const QStringList blocks = text.trimmed().split(QStringLiteral("\n\n"));
  ASSERT_EQ(blocks.size(), moments);
  static const QRegularExpression timing(
      QStringLiteral("^(\\d\\d):(\\d\\d):(\\d\\d),(\\d\\d\\d) --> (\\d\\d):(\\d\\d):(\\d\\d),(\\d\\d\\d)$"));
  auto seconds = [](const QRegularExpressionMatch& m, int at) {
    return m.captured(at).toInt() * 3600.0 + m.captured(at + 1).toInt() * 60.0 + m.captured(at + 2).toInt() +
           m.captured(at + 3).toInt() / 1000.0;
  };
  double previousEnd = -1;
  for (int i = 0; i < blocks.size(); ++i) {
    SCOPED_TRACE("caption " + std::to_string(i + 1));
    const QStringList lines = blocks[i].split(QLatin1Char('\n'));
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0], QString::number(i + 1));
    const auto m = timing.match(lines[1]);
    ASSERT_TRUE(m.hasMatch()) << lines[1].toStdString();
    const double start = seconds(m, 1), end = seconds(m, 5);
    EXPECT_EQ(lines[2], story.moments[i].caption);
    EXPECT_GT(start, previousEnd) << "overlaps the caption before it";
    EXPECT_GE(end - start, 2.5);
    EXPECT_GE(end - start, lines[2].toUcs4().size() / 15.0);
    EXPECT_LE(end, double(r.frames) / o.fps);
    previousEnd = end;
  }
  EXPECT_TRUE(text.startsWith(QStringLiteral("1\n00:00:")));
  EXPECT_FALSE(parseFrameSize(QStringLiteral("1920x1080")).isEmpty());
  EXPECT_FALSE(parseFrameSize(QStringLiteral("1920")).isValid());
  EXPECT_FALSE(parseFrameSize(QStringLiteral("10x10")).isValid());
}

namespace {

// Text items of a chart scene (axis labels and titles, legend entries, the title) that are elided or wider
// than their box.
QStringList elidedChartTexts(QChartView* v) {
  QStringList bad;
  for (QGraphicsItem* it : v->scene()->items()) {
    auto* t = dynamic_cast<QGraphicsTextItem*>(it);
    if (!t || !t->isVisible()) continue;
    const QString s = t->toPlainText();
    if (s.isEmpty()) continue;
    const double need = QFontMetricsF(t->font()).horizontalAdvance(s);
    if (s.contains(QStringLiteral("...")) || s.contains(QChar(0x2026)) || t->boundingRect().width() + 1 < need)
      bad << s;
  }
  return bad;
}

// Visible header sections narrower than their text (the header would elide it).
QStringList elidedHeaders(QWidget* root) {
  QStringList bad;
  for (QHeaderView* h : root->findChildren<QHeaderView*>()) {
    if (!h->isVisible() || h->orientation() != Qt::Horizontal || !h->model()) continue;
    const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    for (int i = 0; i < h->count(); ++i) {
      if (h->isSectionHidden(i)) continue;
      const QString text = h->model()->headerData(i, Qt::Horizontal).toString();
      if (text.isEmpty()) continue;
      if (h->sectionSize(i) < h->fontMetrics().horizontalAdvance(text) + 2 * margin)
        bad << QStringLiteral("%1 (%2 px)").arg(text).arg(h->sectionSize(i));
    }
  }
  return bad;
}

void keep(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("SF_KEEP_LAYOUT_PNGS");
  if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath(name));
}

}  // namespace

TEST(Replay, LayoutsReadAtCommonScreenSizes) {
  QTemporaryDir tmp;
  const auto events = sageEvents();
  const QString dir = writeStoryWorkspace(tmp.filePath(QStringLiteral("ws")), events);
  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080), QSize(2560, 1440)}) {
    SCOPED_TRACE(std::to_string(size.width()) + "x" + std::to_string(size.height()));
    const QString tag = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    MainWindow w;
    w.resize(size);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(50);
    // Default layout: every task id is shown whole, no header is elided.
    QTreeView* tv = w.taskBrowser()->view();
    const int idWidth = tv->columnWidth(TaskBrowserModel::NameColumn);
    EXPECT_GE(idWidth, w.taskBrowser()->columnContentWidth(TaskBrowserModel::NameColumn) -
                           tv->indentation());  // the column's width includes one level of indentation
    EXPECT_GT(tv->viewport()->width(), idWidth);  // the ids fit in the visible part of the dock
    EXPECT_EQ(elidedHeaders(&w).join(QStringLiteral("; ")).toStdString(), "");
    EXPECT_EQ(w.size(), size);  // the default layout fits the screen (short docks scroll)
    EXPECT_GE(w.centralWidget()->width(), size.width() / 4);  // the editor is not squeezed by the docks' minimums
    keep(w, QStringLiteral("default-%1.png").arg(tag));

    // The presentation layout of a replay at its end.
    CampaignDocks* cd = w.campaignDocks();
    cd->startDemo(dir, 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return cd->replayControls()->position() == static_cast<int>(events.size()); },
                                20000));
    QTest::qWait(100);
    EXPECT_EQ(w.size(), size);  // the layout fits the screen
    EXPECT_GE(cd->curves()->chartView()->height(), cd->curves()->fontMetrics().height() * 13);
    EXPECT_EQ(elidedChartTexts(cd->curves()->chartView()).join(QStringLiteral("; ")).toStdString(), "");
    EXPECT_EQ(elidedHeaders(&w).join(QStringLiteral("; ")).toStdString(), "");
    EXPECT_GE(cd->curves()->chartView()->chart()->axes().front()->labelsFont().pointSizeF(), 14.0);
    keep(w, QStringLiteral("presentation-%1.png").arg(tag));
    cd->setPresentation(false);
  }
}
