// The panes `stepforge --screenshot OUT.png --pane NAME` can show (issue 34): one table, name → the dock that
// holds the pane and what to do before the picture is taken (raise it, select a first row, …). A pane added
// to the workbench adds one line to kScreenshotPanes (screenshot_panes.cpp); `stepforge --help` and
// docs/gui.md list the names from here. Also the window size of a screenshot (`--size WxH`).
#pragma once

#include <QFont>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace sf::widgets {

class MainWindow;

struct ScreenshotPane {
  QString name;        // the --pane argument, lower case
  QString dock;        // objectName of the QDockWidget that holds the pane ("" = the editor, the central widget)
  QString what;        // one line for --help
  // Runs after the document and the workspace are shown, before the PNG is saved: fills or selects what the
  // pane needs to show something (may be empty: raising the dock is enough).
  std::function<void(MainWindow&)> prepare;
};

// Every pane a screenshot can show, in --help order.
const std::vector<ScreenshotPane>& screenshotPanes();
QStringList screenshotPaneNames();
const ScreenshotPane* findScreenshotPane(const QString& name);

// Shows and raises the pane's dock and runs its prepare step. False (with *error) for an unknown name or a
// dock the window does not have.
bool showScreenshotPane(MainWindow& w, const QString& name, QString* error = nullptr);

// "1366x768" → QSize; an invalid QSize for anything else (each side 320..7680).
QSize parseWindowSize(const QString& text);

// `--task ID|FILE`: a task document file (opened as it is), a bundled STeP-25 task id ("gemm/small": the task
// of resources/benchmark_v2 with its baseline solution's impl, so the performance explorer has a program) or a
// bundled v1 task id (a new buffer with an empty impl). False (with *error) when it is none of these.
bool openTask(MainWindow& w, const QString& idOrFile, QString* error = nullptr);

// The presentation layout's font (Campaign → Presentation Layout): `base` scaled by 1.6, at least 14 pt.
QFont presentationFont(const QFont& base);

}  // namespace sf::widgets
