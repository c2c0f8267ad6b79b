#include "widgets/campaign/sweep_status.hpp"

#include <QCoreApplication>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include "core/learn/sweep_slurm.hpp"

namespace sf::widgets {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

const char* const kStates[] = {"finished", "running", "pending", "failed", "cancelled", "not_submitted"};

QString stateLabel(const QString& state) {
  if (state == "finished") return SweepStatusDialog::tr("finished");
  if (state == "running") return SweepStatusDialog::tr("running");
  if (state == "pending") return SweepStatusDialog::tr("pending");
  if (state == "failed") return SweepStatusDialog::tr("failed");
  if (state == "cancelled") return SweepStatusDialog::tr("cancelled");
  return SweepStatusDialog::tr("not submitted");
}

}  // namespace

QColor sweepStateColor(const QString& state) {
  if (state == "finished") return QColor(0xa5, 0xd6, 0xa7);
  if (state == "running") return QColor(0x90, 0xca, 0xf9);
  if (state == "pending") return QColor(0xff, 0xe0, 0x82);
  if (state == "failed") return QColor(0xef, 0x9a, 0x9a);
  if (state == "cancelled") return QColor(0xbd, 0xbd, 0xbd);
  return QColor(0xf5, 0xf5, 0xf5);
}

SweepSnapshot loadSweepSnapshot(const QString& dir, bool askSlurm) {
  SweepSnapshot s;
  s.dir = dir;
  std::string err;
  const std::filesystem::path root = dir.toStdString();
  auto f = learn::read_sweep_folder(root, err);
  if (!f) return s.error = q(err), s;
  auto jobs = learn::read_slurm_jobs(root, err);
  if (!jobs && !err.empty()) return s.error = q(err), s;
  std::optional<learn::SlurmView> view;
  if (jobs && !jobs->submissions.empty()) {
    s.submitted = true;
    for (const auto& sub : jobs->submissions) s.jobIds << q(sub.job_id);
    if (askSlurm) {
      std::vector<std::string> ids;
      for (const auto& sub : jobs->submissions) ids.push_back(sub.job_id);
      view = learn::query_slurm(ids);
      if (!view->error.empty()) s.note = q(view->error) + QCoreApplication::translate("SweepStatusDialog", "; states from the cells' own records");
    }
  }
  for (const auto& v : f->variants) {
    QString label = q(v.name);
    for (const auto& o : v.overrides) label += " " + q(o);
    s.variants << label;
  }
  for (auto seed : f->seeds) s.seeds << seed;
  const auto status = learn::sweep_status(root, *f, jobs ? &*jobs : nullptr, view ? &*view : nullptr);
  for (const auto& c : status) {
    SweepCellView cv;
    cv.index = c.cell.index;
    cv.row = c.cell.index % static_cast<int>(f->variants.size());
    cv.column = c.cell.index / static_cast<int>(f->variants.size());
    cv.state = learn::cell_state_name(c.state);
    cv.samples = c.samples_done;
    cv.jobId = q(c.job_id);
    cv.lastError = q(c.last_error);
    cv.workspaceDir = q(learn::sweep_cell_dir(root, c.cell.variant, c.cell.seed).string());
    if (c.state == learn::CellState::Finished) ++s.finished;
    s.cells << cv;
  }
  s.summary = q(learn::sweep_status_summary(status));
  return s;
}

void SweepStatusWorker::refresh(const QString& dir) { emit snapshotReady(loadSweepSnapshot(dir)); }

void SweepStatusWorker::resubmit(const QString& dir) {
  std::string err;
  const std::filesystem::path root = dir.toStdString();
  auto f = learn::read_sweep_folder(root, err);
  auto jobs = f ? learn::read_slurm_jobs(root, err) : std::nullopt;
  if (!f || !jobs) {
    emit actionDone(false, err.empty() ? tr("this sweep was never submitted to Slurm") : q(err));
    return;
  }
  if (auto missing = learn::slurm_client_missing(); !missing.empty()) {
    emit actionDone(false, q(missing));
    return;
  }
  auto a = learn::slurm_resubmit(root, *f, *jobs, false);
  emit actionDone(a.code == 0, q(a.code == 0 ? a.out + a.err : a.err + a.out).trimmed());
  refresh(dir);
}

void SweepStatusWorker::cancelJobs(const QString& dir) {
  std::string err;
  const std::filesystem::path root = dir.toStdString();
  auto jobs = learn::read_slurm_jobs(root, err);
  auto a = learn::slurm_cancel(root, jobs.value_or(learn::SlurmJobs{}));
  emit actionDone(a.code == 0, q(a.code == 0 ? a.out : a.err).trimmed());
  refresh(dir);
}

SweepStatusDialog::SweepStatusDialog(const QString& dir, std::function<void(const QString&)> openWorkspace,
                                     QWidget* parent)
    : QDialog(parent), dir_(dir), openWorkspace_(std::move(openWorkspace)) {
  qRegisterMetaType<sf::widgets::SweepSnapshot>();
  setWindowTitle(tr("Sweep — %1").arg(dir));
  auto* layout = new QVBoxLayout(this);
  header_ = new QLabel(tr("Sweep folder: %1").arg(dir), this);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(header_);
  progress_ = new QProgressBar(this);
  progress_->setFormat(tr("%v of %m cells finished"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  layout->addWidget(progress_);
  jobs_ = new QLabel(tr("Slurm jobs: none (a local sweep, or not submitted yet)"), this);
  jobs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(jobs_);
  grid_ = new QTableWidget(this);
  grid_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  grid_->setSelectionMode(QAbstractItemView::SingleSelection);
  grid_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  grid_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  grid_->setToolTip(tr("Rows: variants; columns: seeds. Double-click a cell to open its workspace."));
  layout->addWidget(grid_, 1);
  auto* legend = new QHBoxLayout;
  legend->addWidget(new QLabel(tr("Legend:"), this));
  for (const char* st : kStates) {
    auto* l = new QLabel(stateLabel(st), this);
    l->setObjectName(QStringLiteral("legend_%1").arg(st));
    l->setAutoFillBackground(true);
    QPalette p = l->palette();
    p.setColor(QPalette::Window, sweepStateColor(st));
    p.setColor(QPalette::WindowText, Qt::black);
    l->setPalette(p);
    l->setContentsMargins(6, 2, 6, 2);
    legend->addWidget(l);
  }
  legend->addStretch(1);
  layout->addLayout(legend);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(message_);
  auto* buttons = new QHBoxLayout;
  auto* refresh = new QPushButton(tr("&Refresh"), this);
  resubmit_ = new QPushButton(tr("Re&submit unfinished"), this);
  resubmit_->setToolTip(tr("Submit again the cells that are neither finished nor queued (a cell with events resumes)"));
  cancel_ = new QPushButton(tr("&Cancel jobs"), this);
  cancel_->setToolTip(tr("scancel the sweep's Slurm jobs; finished cells keep their results"));
  auto* close = new QPushButton(tr("Close"), this);
  resubmit_->setEnabled(false);
  cancel_->setEnabled(false);
  buttons->addWidget(refresh);
  buttons->addStretch(1);
  buttons->addWidget(resubmit_);
  buttons->addWidget(cancel_);
  buttons->addWidget(close);
  layout->addLayout(buttons);
  resize(760, 460);

  thread_ = new QThread(this);
  auto* worker = new SweepStatusWorker;
  worker->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker, &QObject::deleteLater);
  connect(this, &SweepStatusDialog::requestRefresh, worker, &SweepStatusWorker::refresh);
  connect(this, &SweepStatusDialog::requestResubmit, worker, &SweepStatusWorker::resubmit);
  connect(this, &SweepStatusDialog::requestCancel, worker, &SweepStatusWorker::cancelJobs);
  connect(worker, &SweepStatusWorker::snapshotReady, this, &SweepStatusDialog::apply);
  connect(worker, &SweepStatusWorker::actionDone, this, &SweepStatusDialog::actionFinished);
  thread_->start();

  connect(refresh, &QPushButton::clicked, this, &SweepStatusDialog::refreshNow);
  connect(close, &QPushButton::clicked, this, &QDialog::close);
  connect(resubmit_, &QPushButton::clicked, this, [this] {
    busy_ = true;
    resubmit_->setEnabled(false);
    cancel_->setEnabled(false);
    message_->setText(tr("Resubmitting…"));
    emit requestResubmit(dir_);
  });
  connect(cancel_, &QPushButton::clicked, this, [this] {
    if (QMessageBox::question(this, tr("Cancel jobs"),
                              tr("Cancel every Slurm job of this sweep? Running cells stop; finished cells keep "
                                 "their results and Resubmit continues the others.")) != QMessageBox::Yes)
      return;
    busy_ = true;
    resubmit_->setEnabled(false);
    cancel_->setEnabled(false);
    message_->setText(tr("Cancelling…"));
    emit requestCancel(dir_);
  });
  connect(grid_, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
    auto* item = grid_->item(row, column);
    if (!item) return;
    const QString ws = item->data(Qt::UserRole + 1).toString();
    emit openCellWorkspace(ws);
    if (openWorkspace_) openWorkspace_(ws);
  });
  timer_ = new QTimer(this);
  timer_->setInterval(5000);
  connect(timer_, &QTimer::timeout, this, &SweepStatusDialog::refreshNow);
  timer_->start();
  refreshNow();
}

SweepStatusDialog::~SweepStatusDialog() {
  thread_->quit();
  thread_->wait();  // at most the one squeue / scontrol call in flight (each bounded to 30 s)
}

void SweepStatusDialog::setRefreshInterval(int ms) { timer_->setInterval(ms); }

void SweepStatusDialog::refreshNow() {
  if (busy_) return;
  busy_ = true;
  emit requestRefresh(dir_);
}

void SweepStatusDialog::apply(const SweepSnapshot& s) {
  busy_ = false;
  snap_ = s;
  if (!s.error.isEmpty()) {
    message_->setText(s.error);
    grid_->clear();
    grid_->setRowCount(0);
    grid_->setColumnCount(0);
    emit refreshed();
    return;
  }
  if (grid_->rowCount() != s.variants.size() || grid_->columnCount() != s.seeds.size()) {
    grid_->clear();
    grid_->setRowCount(static_cast<int>(s.variants.size()));
    grid_->setColumnCount(static_cast<int>(s.seeds.size()));
    grid_->setVerticalHeaderLabels(s.variants);
    QStringList seeds;
    for (auto seed : s.seeds) seeds << tr("seed %1").arg(seed);
    grid_->setHorizontalHeaderLabels(seeds);
  }
  for (const auto& c : s.cells) {
    auto* item = grid_->item(c.row, c.column);
    if (!item) {
      item = new QTableWidgetItem;
      item->setTextAlignment(Qt::AlignCenter);
      grid_->setItem(c.row, c.column, item);
    }
    QString text = stateLabel(c.state) + "\n" + tr("%n sample(s)", nullptr, static_cast<int>(c.samples));
    if (!c.jobId.isEmpty()) text += "\n" + tr("job %1").arg(c.jobId);
    item->setText(text);
    item->setBackground(sweepStateColor(c.state));
    item->setForeground(QColor(Qt::black));
    item->setData(Qt::UserRole, c.state);
    item->setData(Qt::UserRole + 1, c.workspaceDir);
    item->setToolTip(c.lastError.isEmpty() ? c.workspaceDir : c.lastError + "\n\n" + c.workspaceDir);
  }
  progress_->setRange(0, std::max<int>(1, static_cast<int>(s.cells.size())));
  progress_->setValue(s.finished);
  jobs_->setText(s.jobIds.isEmpty() ? tr("Slurm jobs: none (a local sweep, or not submitted yet)")
                                    : tr("Slurm jobs: %1").arg(s.jobIds.join(", ")));
  resubmit_->setEnabled(s.submitted);
  cancel_->setEnabled(s.submitted);
  if (!s.note.isEmpty()) message_->setText(s.note);
  else if (!message_->text().startsWith(tr("Last action:"))) message_->setText(s.summary);
  emit refreshed();
}

void SweepStatusDialog::actionFinished(bool ok, const QString& message) {
  message_->setText(tr("Last action: %1%2").arg(ok ? QString() : tr("failed: "), message));
}

void openSweepWindow(QWidget* parent, std::function<void(const QString&)> openWorkspace) {
  const QString dir = QFileDialog::getExistingDirectory(parent, SweepStatusDialog::tr("Open sweep folder"));
  if (dir.isEmpty()) return;
  auto* d = new SweepStatusDialog(dir, std::move(openWorkspace), parent);
  d->setAttribute(Qt::WA_DeleteOnClose);
  d->show();
}

}  // namespace sf::widgets
