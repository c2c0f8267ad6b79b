// The sweep window (issue 35 item 5): a sweep folder's cells as a grid (variants × seeds) with live states,
// samples and Slurm job ids, coloured by state with a legend; a double click opens a cell's workspace;
// Resubmit and Cancel act on the sweep's Slurm jobs. Everything that reads files or asks Slurm (squeue,
// scontrol, sbatch, scancel) runs on the window's own thread (SweepStatusWorker), never on the GUI thread; the
// states are learn::sweep_status's, the same as `stepforge-cli campaign sweep status`.
#pragma once

#include <QDialog>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QThread;
class QTimer;

namespace sf::widgets {

struct SweepCellView {
  int index = 0;
  int row = 0, column = 0;  // variant, seed
  QString state;            // finished, running, pending, failed, cancelled, not_submitted
  qint64 samples = 0;
  QString jobId, lastError, workspaceDir;
};

struct SweepSnapshot {
  QString dir;
  QString error;           // not a sweep folder, corrupted jobs.json, ...
  QString note;            // Slurm could not be asked (states from the cells' own records)
  QStringList variants;    // "v1 memory.enabled=false"
  QList<qint64> seeds;
  QList<SweepCellView> cells;
  QStringList jobIds;      // every submission, oldest first
  QString summary;         // "4 cells: 2 finished 1 running 1 pending"
  int finished = 0;
  bool submitted = false;  // the sweep has Slurm jobs (Resubmit and Cancel apply)
};

// Reads the sweep folder and, when `askSlurm` and it has jobs, Slurm (blocking: call it off the GUI thread).
SweepSnapshot loadSweepSnapshot(const QString& dir, bool askSlurm = true);
// The colour of a state in the grid and the legend.
QColor sweepStateColor(const QString& state);

class SweepStatusWorker : public QObject {
  Q_OBJECT
 public slots:
  void refresh(const QString& dir);
  void resubmit(const QString& dir);
  void cancelJobs(const QString& dir);
 signals:
  void snapshotReady(const sf::widgets::SweepSnapshot& s);
  void actionDone(bool ok, const QString& message);
};

class SweepStatusDialog : public QDialog {
  Q_OBJECT
 public:
  // `openWorkspace` is called with a cell's workspace folder on a double click.
  SweepStatusDialog(const QString& dir, std::function<void(const QString&)> openWorkspace, QWidget* parent = nullptr);
  ~SweepStatusDialog() override;

  QTableWidget* grid() const { return grid_; }
  const SweepSnapshot& snapshot() const { return snap_; }
  void refreshNow();  // asks the worker (ignored while one refresh runs)
  void setRefreshInterval(int ms);

 signals:
  void refreshed();  // a snapshot was applied
  void openCellWorkspace(const QString& dir);
  void requestRefresh(const QString& dir);
  void requestResubmit(const QString& dir);
  void requestCancel(const QString& dir);

 private:
  void apply(const SweepSnapshot& s);
  void actionFinished(bool ok, const QString& message);

  QString dir_;
  std::function<void(const QString&)> openWorkspace_;
  SweepSnapshot snap_;
  bool busy_ = false;
  QThread* thread_ = nullptr;
  QTimer* timer_ = nullptr;
  QLabel *header_ = nullptr, *jobs_ = nullptr, *message_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QTableWidget* grid_ = nullptr;
  QPushButton *resubmit_ = nullptr, *cancel_ = nullptr;
};

// File ▸ Open sweep…: asks for a sweep folder and shows its window (non-modal, deleted on close).
void openSweepWindow(QWidget* parent, std::function<void(const QString&)> openWorkspace);

}  // namespace sf::widgets

Q_DECLARE_METATYPE(sf::widgets::SweepSnapshot)
