// The engine side of EngineBridge: lives in the bridge's QThread and runs one job at a time.
// Jobs that were cancelled or superseded (a newer request of the same kind) are skipped at the next checkpoint
// and their results are dropped.
#pragma once

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <optional>

#include "widgets/engine/engine_types.hpp"  // first: core headers before Qt's macros

#include <QObject>

#include "core/bench/catalogue.hpp"
#include "widgets/engine/progress_throttle.hpp"

namespace sf::widgets {

// Shared between the GUI thread (writes) and the worker (reads).
struct JobControl {
  std::array<std::atomic<quint64>, kJobKinds> latest{};     // newest request per kind
  std::array<std::atomic<quint64>, kJobKinds> cancelled{};  // every request <= this one is cancelled
  bool alive(JobKind k, quint64 seq) const {
    auto i = static_cast<std::size_t>(k);
    return seq == latest[i].load() && seq > cancelled[i].load();
  }
};

class EngineWorker : public QObject {
  Q_OBJECT
 public:
  explicit EngineWorker(std::shared_ptr<JobControl> control, QObject* parent = nullptr);
  ~EngineWorker() override;

 public slots:
  void check(quint64 seq, quint64 revision, const QString& text, const QString& path);
  void simulate(quint64 seq, const QString& text, const QString& path);
  void verify(quint64 seq, const QString& text, const QString& path, const QString& chip = {});
  void rewrite(quint64 seq, quint64 revision, sf::widgets::RewriteKind kind, const QString& text,
               const QString& path);
  void listTasks();

 signals:
  void taskListReady(const sf::widgets::TaskListSnapshot& s);
  void checkFinished(const sf::widgets::CheckSnapshot& s);
  void simulateFinished(const sf::widgets::SimulateSnapshot& s);
  void verifyFinished(const sf::widgets::VerifySnapshot& s);
  void rewriteFinished(const sf::widgets::RewriteSnapshot& s);
  void progress(sf::widgets::JobKind kind, quint64 seq, int done, int total, const QString& what);

 private:
  const bench::Catalogue* catalogue();
  struct CostContext;
  CostContext* costContext(const QString& chip, QString* error);
  PerfSnapshot perfOf(const inspect::CheckedProgram& p, const QString& chip);
  void report(ProgressThrottle& t, JobKind kind, quint64 seq, int done, int total, const QString& what);

  std::shared_ptr<JobControl> control_;
  std::optional<bench::Catalogue> catalogue_;
  Diagnostics catalogueDiags_;
  verify::Verifier verifier_;
  std::map<QString, std::unique_ptr<CostContext>> cost_;  // per chip profile: model + baselines (cached)
};

// Buckets per unit of the Performance pane's timeline.
inline constexpr int kPerfTimelineBuckets = 120;

}  // namespace sf::widgets
