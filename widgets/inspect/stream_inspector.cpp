#include "widgets/inspect/stream_inspector.hpp"

#include <QCheckBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "core/sim/token_view.hpp"
#include "widgets/inspect/stream_inspector_models.hpp"

namespace sf::widgets {

namespace {

QTableView* make_table(QAbstractItemModel* model, QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setModel(model);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->verticalHeader()->setVisible(false);
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
  v->horizontalHeader()->setStretchLastSection(true);
  v->setAlternatingRowColors(true);
  return v;
}

}  // namespace

StreamInspector::StreamInspector(QWidget* parent)
    : QWidget(parent),
      streams_(new StreamListModel(this)),
      tokens_(new TokenTableModel(this)),
      outputs_(new OutputListModel(this)),
      compare_(new OutputCompareModel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b91c1c;"));
  error_->setVisible(false);
  layout->addWidget(error_);
  tabs_ = new QTabWidget(this);
  layout->addWidget(tabs_);

  // Streams tab: list | (token text above the token table).
  auto* streams_split = new QSplitter(Qt::Horizontal, tabs_);
  stream_view_ = make_table(streams_, streams_split);
  auto* right = new QSplitter(Qt::Vertical, streams_split);
  token_text_ = new QPlainTextEdit(right);
  token_text_->setReadOnly(true);
  token_text_->setPlaceholderText(tr("Select a stream to see its tokens"));
  token_text_->setAccessibleName(tr("Token sequence"));
  token_view_ = make_table(tokens_, right);
  right->setStretchFactor(1, 3);
  streams_split->setStretchFactor(1, 2);
  tabs_->addTab(streams_split, tr("Streams"));

  // Outputs tab: list | (summary, filter, comparison table).
  auto* out_split = new QSplitter(Qt::Horizontal, tabs_);
  output_view_ = make_table(outputs_, out_split);
  auto* out_right = new QWidget(out_split);
  auto* out_layout = new QVBoxLayout(out_right);
  out_layout->setContentsMargins(0, 0, 0, 0);
  summary_ = new QLabel(out_right);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mismatches_only_ = new QCheckBox(tr("Show mismatches only"), out_right);
  compare_view_ = make_table(compare_, out_right);
  out_layout->addWidget(summary_);
  out_layout->addWidget(mismatches_only_);
  out_layout->addWidget(compare_view_);
  out_split->setStretchFactor(1, 2);
  tabs_->addTab(out_split, tr("Outputs vs reference"));

  connect(stream_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { showStream(cur.isValid() ? cur.row() : -1); });
  connect(output_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { showOutput(cur.isValid() ? cur.row() : -1); });
  connect(mismatches_only_, &QCheckBox::toggled, compare_, &OutputCompareModel::setMismatchesOnly);
}

StreamInspector::~StreamInspector() = default;

void StreamInspector::setSnapshot(inspect::InspectorSnapshot snapshot) {
  const QString keep_stream = currentStream();
  const QString keep_output = currentOutput();
  auto snap = std::make_shared<const inspect::InspectorSnapshot>(std::move(snapshot));
  showStream(-1);
  showOutput(-1);
  snap_ = snap;
  streams_->setStreams(snap_);
  outputs_->setOutputs(snap_);
  error_->setText(QString::fromStdString(snap_->error));
  error_->setVisible(!snap_->error.empty());
  // Keep the user's selection across runs when the stream still exists; else the first stream, so the pane
  // never opens empty.
  if ((keep_stream.isEmpty() || !selectStream(keep_stream)) && !snap_->streams.empty())
    selectStream(QString::fromStdString(snap_->streams.front().name));
  if (!keep_output.isEmpty() && !selectOutput(keep_output) && !snap_->outputs.empty())
    selectOutput(QString::fromStdString(snap_->outputs.front().name));
  if (keep_output.isEmpty() && !snap_->outputs.empty()) {
    // Show the first failing output, else the first one.
    int row = 0;
    for (std::size_t i = 0; i < snap_->outputs.size(); ++i)
      if (!snap_->outputs[i].pass()) {
        row = static_cast<int>(i);
        break;
      }
    selectOutput(QString::fromStdString(snap_->outputs[static_cast<std::size_t>(row)].name));
  }
}

void StreamInspector::clear() {
  setSnapshot({});
}

bool StreamInspector::selectStream(const QString& name) {
  if (!snap_) return false;
  for (std::size_t i = 0; i < snap_->streams.size(); ++i)
    if (QString::fromStdString(snap_->streams[i].name) == name) {
      stream_view_->setCurrentIndex(streams_->index(static_cast<int>(i), 0));
      showStream(static_cast<int>(i));
      return true;
    }
  return false;
}

bool StreamInspector::selectOutput(const QString& name) {
  if (!snap_) return false;
  for (std::size_t i = 0; i < snap_->outputs.size(); ++i)
    if (QString::fromStdString(snap_->outputs[i].name) == name) {
      output_view_->setCurrentIndex(outputs_->index(static_cast<int>(i), 0));
      showOutput(static_cast<int>(i));
      return true;
    }
  return false;
}

void StreamInspector::setMismatchesOnly(bool on) {
  mismatches_only_->setChecked(on);
}

void StreamInspector::showStream(int row) {
  if (row == current_stream_) return;
  current_stream_ = row;
  if (!snap_ || row < 0 || static_cast<std::size_t>(row) >= snap_->streams.size()) {
    current_stream_ = -1;
    tokens_->setStream(nullptr, nullptr);
    token_text_->clear();
    return;
  }
  const auto& s = snap_->streams[static_cast<std::size_t>(row)];
  tokens_->setStream(&s.value, snap_);
  token_text_->setPlainText(QString::fromStdString(sim::format_tokens(s.value)));
  Q_EMIT streamSelected(QString::fromStdString(s.name));
}

void StreamInspector::showOutput(int row) {
  if (row == current_output_) return;
  current_output_ = row;
  if (!snap_ || row < 0 || static_cast<std::size_t>(row) >= snap_->outputs.size()) {
    current_output_ = -1;
    compare_->setOutput(nullptr, nullptr);
    summary_->clear();
    return;
  }
  const auto& o = snap_->outputs[static_cast<std::size_t>(row)];
  compare_->setOutput(&o, snap_);
  summary_->setText(QString::fromStdString(o.summary));
  summary_->setStyleSheet(o.pass() ? QStringLiteral("color: #15803d;") : QStringLiteral("color: #b91c1c;"));
}

QString StreamInspector::tokenText() const {
  return token_text_->toPlainText();
}
QString StreamInspector::outputSummary() const {
  return summary_->text();
}

QString StreamInspector::currentStream() const {
  return snap_ && current_stream_ >= 0
             ? QString::fromStdString(snap_->streams[static_cast<std::size_t>(current_stream_)].name)
             : QString();
}

QString StreamInspector::currentOutput() const {
  return snap_ && current_output_ >= 0
             ? QString::fromStdString(snap_->outputs[static_cast<std::size_t>(current_output_)].name)
             : QString();
}

}  // namespace sf::widgets
