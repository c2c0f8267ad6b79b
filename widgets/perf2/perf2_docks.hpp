// The performance explorer in the main window (issue 33): its five docks (hidden until a STeP-25 document is
// open), fed from the editor. When the editor holds a `dialect: step-v2` task with an impl, the task is loaded
// (on the GUI thread: bounded, a fraction of a millisecond), its baseline solution and chip profile set, and
// the impl re-timed in the background after each pause in typing. A node clicked in the explorer moves the
// editor to its statement, the editor's cursor line selects its node, and Apply replaces the impl block in
// the editor as one undo step.
#pragma once

#include <QObject>
#include <QString>

#include <memory>
#include <mutex>
#include <vector>

#include "core/step/task.hpp"
#include "core/step2/perf/chip.hpp"

class QDockWidget;
class QMainWindow;
class QTimer;

namespace sf::widgets {
class StepEditor;
}

namespace sf::widgets::perf2 {

class CostMargin;
class Explorer;

class Perf2Docks : public QObject {
  Q_OBJECT
 public:
  Perf2Docks(QMainWindow* window, StepEditor* editor);
  Explorer* explorer() const { return explorer_; }
  CostMargin* costMargin() const { return margin_; }  // the cost beside each statement in the editor
  const std::vector<QDockWidget*>& docks() const { return docks_; }
  bool active() const { return task_ != nullptr; }
  // Reads the editor now (the debounce timer calls it after typing stops).
  void refresh();

 private:
  struct Shared {
    std::mutex m;
    std::shared_ptr<const step::TaskDoc> task;
    step2::perf::Chip chip;
  };
  void apply(const QString& impl);
  int editorLine(int implLine) const;  // 0-based editor line of a 1-based impl line, -1 when unknown

  QMainWindow* window_;
  StepEditor* editor_;
  QTimer* debounce_;
  std::shared_ptr<Shared> shared_;
  Explorer* explorer_;
  CostMargin* margin_ = nullptr;
  std::vector<QDockWidget*> docks_;
  std::shared_ptr<const step::TaskDoc> task_;
  std::string lastImpl_, lastTaskKey_;
};

}  // namespace sf::widgets::perf2
