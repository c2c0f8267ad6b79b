#include "widgets/campaign/campaign_dialog.hpp"

#include "core/bench/catalogue.hpp"
#include "core/learn/config.hpp"
#include "core/learn/stratify.hpp"
#include "core/llm/backend_config.hpp"
#include "core/llm/preflight.hpp"

#include <algorithm>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sf::widgets {

using nlohmann::json;

namespace {

QString presetDir() { return QString::fromStdString(bench::resource_dir()) + QStringLiteral("/configs"); }

// What Test connection shows for a check of `b`.
QString connectionCheckText(const llm::PreflightResult& r, const llm::BackendConfig& b) {
  auto q = [](const std::string& s) { return QString::fromStdString(s); };
  if (!r.ok) return r.failure.message.empty() ? CampaignDialog::tr("the endpoint did not answer")
                                              : q(r.failure.message);
  if (b.kind == llm::BackendKind::Builtin || b.kind == llm::BackendKind::Replay)
    return CampaignDialog::tr("Nothing to connect to: %1.").arg(q(r.models_note));
  QString text = CampaignDialog::tr("Connected to %1: %2 replied in %3 s.")
                     .arg(q(b.base_url), q(b.model), QString::number(r.reply_s, 'f', 2));
  if (r.models) {
    QStringList ids;
    for (std::size_t i = 0; i < r.models->size() && i < 12; ++i) ids << q((*r.models)[i]);
    if (r.models->size() > 12) ids << QStringLiteral("…");
    text += QLatin1Char(' ') + CampaignDialog::tr("The endpoint lists %n model(s): %1.", nullptr,
                                                  int(r.models->size()))
                                   .arg(ids.join(QStringLiteral(", ")));
    if (std::find(r.models->begin(), r.models->end(), b.model) == r.models->end())
      text += QLatin1Char(' ') + CampaignDialog::tr("It does not list '%1'.").arg(q(b.model));
  }
  return text;
}

QStringList splitList(const QString& s) {
  QStringList out;
  for (const QString& p : s.split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!p.trimmed().isEmpty()) out << p.trimmed();
  return out;
}

}  // namespace

QStringList CampaignDialog::availableModes() {
  QStringList out;
  for (const char* m : {"single", "agent", "adaptive", "sage"})
    if (learn::parse_mode(m)) out << QString::fromLatin1(m);
  return out;
}

CampaignDialog::CampaignDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("New Campaign"));
  setObjectName(QStringLiteral("CampaignDialog"));
  preset_ = new QComboBox(this);
  const QStringList presets = QDir(presetDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
  for (const QString& p : presets)
    if (p != QLatin1String("prices.json")) preset_->addItem(p.chopped(5), presetDir() + QLatin1Char('/') + p);
  name_ = new QLineEdit(this);
  kind_ = new QComboBox(this);
  for (const char* k : {"builtin", "openai", "anthropic", "replay"}) kind_->addItem(QString::fromLatin1(k));
  model_ = new QLineEdit(this);
  baseUrl_ = new QLineEdit(this);
  keyEnv_ = new QLineEdit(this);
  keyEnv_->setPlaceholderText(tr("e.g. OPENAI_API_KEY"));
  keyEnv_->setToolTip(tr("The name of the environment variable that holds the API key. The key itself is never "
                         "written to the workspace, the log or a trace."));
  test_ = new ConnectionTest([this](QString*) { return config().value("backend", json::object()); }, this);
  connect(test_, &ConnectionTest::tested, this, &CampaignDialog::connectionTested);
  mode_ = new QComboBox(this);
  mode_->addItems(availableModes());
  n_ = new QSpinBox(this);
  n_->setRange(1, 100000);
  t0_ = new QDoubleSpinBox(this);
  t0_->setRange(0, 2);
  t0_->setSingleStep(0.1);
  temps_ = new QLineEdit(this);
  temps_->setPlaceholderText(tr("0.4, 0.7, 1.0"));
  m_ = new QSpinBox(this);
  m_->setRange(1, 100);
  selection_ = new QComboBox(this);
  for (auto s : {learn::Selection::HardOnly, learn::Selection::Mixed, learn::Selection::All, learn::Selection::RandomK})
    selection_->addItem(QString::fromLatin1(learn::selection_name(s).data(), int(learn::selection_name(s).size())));
  tasks_ = new QLineEdit(this);
  tasks_->setPlaceholderText(tr("task ids or groups, comma separated (empty: the 26 benchmark tasks)"));
  budgetTokens_ = new QDoubleSpinBox(this);
  budgetTokens_->setRange(0, 1e12);
  budgetTokens_->setDecimals(0);
  budgetTokens_->setSpecialValueText(tr("unlimited"));
  budgetCost_ = new QDoubleSpinBox(this);
  budgetCost_->setRange(0, 1e6);
  budgetCost_->setDecimals(2);
  budgetCost_->setPrefix(QStringLiteral("$"));
  budgetCost_->setSpecialValueText(tr("unlimited"));
  budgetWall_ = new QDoubleSpinBox(this);
  budgetWall_->setRange(0, 1e7);
  budgetWall_->setDecimals(0);
  budgetWall_->setSuffix(tr(" s"));
  budgetWall_->setSpecialValueText(tr("unlimited"));
  seed_ = new QSpinBox(this);
  seed_->setRange(0, std::numeric_limits<int>::max());
  dir_ = new QLineEdit(this);
  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* dirRow = new QHBoxLayout;
  dirRow->addWidget(dir_, 1);
  dirRow->addWidget(browse);
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c03030"));

  auto* form = new QFormLayout;
  form->addRow(tr("Preset:"), preset_);
  form->addRow(tr("Name:"), name_);
  form->addRow(tr("Backend:"), kind_);
  form->addRow(tr("Model:"), model_);
  form->addRow(tr("Base URL:"), baseUrl_);
  form->addRow(tr("API key variable:"), keyEnv_);
  form->addRow(tr("Connection:"), test_);
  form->addRow(tr("Mode:"), mode_);
  form->addRow(tr("Samples n:"), n_);
  form->addRow(tr("Temperature (iteration 0):"), t0_);
  form->addRow(tr("Temperatures:"), temps_);
  form->addRow(tr("Difficulty levels m:"), m_);
  form->addRow(tr("Selection:"), selection_);
  form->addRow(tr("Tasks:"), tasks_);
  form->addRow(tr("Token budget:"), budgetTokens_);
  form->addRow(tr("Cost budget:"), budgetCost_);
  form->addRow(tr("Wall-time budget:"), budgetWall_);
  form->addRow(tr("Seed:"), seed_);
  form->addRow(tr("Workspace folder:"), dirRow);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("Start"));
  auto* l = new QVBoxLayout(this);
  l->addLayout(form);
  l->addWidget(error_);
  l->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browse, &QPushButton::clicked, this, [this] {
    QString d = QFileDialog::getExistingDirectory(this, tr("Workspace folder (new or empty)"), dir_->text());
    if (!d.isEmpty()) dir_->setText(d);
  });
  // Another kind talks to another endpoint: its default base URL (a loaded config sets its own URL after).
  connect(kind_, &QComboBox::currentTextChanged, this, [this](const QString& k) {
    if (auto kind = llm::parse_backend_kind(k.toStdString()))
      baseUrl_->setText(QString::fromStdString(llm::default_base_url(*kind)));
  });
  connect(preset_, &QComboBox::currentIndexChanged, this, [this] { loadPreset(preset_->currentData().toString()); });
  for (QLineEdit* e : {name_, model_, baseUrl_, keyEnv_, temps_, tasks_, dir_})
    connect(e, &QLineEdit::textChanged, this, &CampaignDialog::revalidate);
  for (QComboBox* c : {kind_, mode_, selection_})
    connect(c, &QComboBox::currentIndexChanged, this, &CampaignDialog::revalidate);
  for (QSpinBox* s : {n_, m_, seed_}) connect(s, &QSpinBox::valueChanged, this, &CampaignDialog::revalidate);
  for (QDoubleSpinBox* s : {t0_, budgetTokens_, budgetCost_, budgetWall_})
    connect(s, &QDoubleSpinBox::valueChanged, this, &CampaignDialog::revalidate);

  const int demo = preset_->findText(QStringLiteral("demo"));
  if (demo >= 0) preset_->setCurrentIndex(demo);
  if (preset_->count() > 0) loadPreset(preset_->currentData().toString());
  else setConfig(learn::config_to_json(learn::CampaignConfig{}));
  dir_->setText(QDir::home().filePath(QStringLiteral("stepforge-campaigns/%1").arg(name_->text())));
}

ConnectionTest::ConnectionTest(BackendFn backend, QWidget* parent)
    : QWidget(parent),
      backend_(std::move(backend)),
      button_(new QPushButton(CampaignDialog::tr("Test connection"), this)),
      result_(new QLabel(this)) {
  setObjectName(QStringLiteral("ConnectionTest"));
  button_->setObjectName(QStringLiteral("TestConnectionButton"));
  button_->setToolTip(CampaignDialog::tr("Send one minimal request to the endpoint and list the models it serves"));
  result_->setObjectName(QStringLiteral("TestConnectionResult"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(button_, 0, Qt::AlignTop);
  row->addWidget(result_, 1);
  connect(button_, &QPushButton::clicked, this, &ConnectionTest::run);
}

ConnectionTest::~ConnectionTest() {
  cancel_.cancel();  // the request stops within about a second
  if (tester_.joinable()) tester_.join();
}

void ConnectionTest::run() {
  if (tester_.joinable()) return;  // one test at a time
  QString why;
  const json j = backend_(&why);
  std::string err;
  auto b = j.is_discarded() ? std::nullopt : llm::backend_config_from_json(j, err);
  if (!b) {
    show(false, why.isEmpty() ? QString::fromStdString(err) : why);
    return;
  }
  button_->setEnabled(false);
  result_->setStyleSheet({});
  result_->setText(CampaignDialog::tr("Testing %1 …").arg(QString::fromStdString(b->base_url)));
  cancel_ = llm::CancelToken{};
  tester_ = std::thread([this, backend = *b, cancel = cancel_] {
    const llm::PreflightResult r = llm::check_endpoint(backend, cancel, true);
    if (cancel.cancelled()) return;
    const QString text = connectionCheckText(r, backend);
    QMetaObject::invokeMethod(this, [this, ok = r.ok, text] { show(ok, text); }, Qt::QueuedConnection);
  });
}

void ConnectionTest::show(bool ok, const QString& text) {
  if (tester_.joinable()) tester_.join();  // it has posted this result and is ending
  button_->setEnabled(true);
  result_->setStyleSheet(ok ? QStringLiteral("color: #207030") : QStringLiteral("color: #c03030"));
  result_->setText(text);
  emit tested(ok, text);
}

QString ConnectionTest::result() const { return result_->text(); }

void CampaignDialog::testConnection() { test_->run(); }

QString CampaignDialog::connectionResult() const { return test_->result(); }

void CampaignDialog::loadPreset(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return;
  const QByteArray b = f.readAll();
  json j = json::parse(b.constData(), b.constData() + b.size(), nullptr, false, true);
  if (j.is_discarded()) return;
  std::string err;
  auto c = learn::config_from_json(j, err);
  setConfig(c ? learn::config_to_json(*c) : j);
}

void CampaignDialog::setConfig(const json& config) {
  base_ = config;
  std::string err;
  auto c = learn::config_from_json(config, err);
  if (!c) c = learn::CampaignConfig{};
  auto q = [](const std::string& s) { return QString::fromStdString(s); };
  name_->setText(q(c->name));
  kind_->setCurrentText(q(llm::backend_kind_name(c->backend.kind)));
  model_->setText(q(c->backend.model));
  baseUrl_->setText(q(c->backend.base_url));
  keyEnv_->setText(q(c->backend.key_env));
  mode_->setCurrentText(q(std::string(learn::mode_name(c->mode))));
  if (config.contains("mode") && config["mode"].is_string()) mode_->setCurrentText(q(config["mode"].get<std::string>()));
  n_->setValue(c->n);
  t0_->setValue(c->temperature0);
  QStringList t;
  for (double x : c->temperatures) t << QString::number(x);
  temps_->setText(t.join(QStringLiteral(", ")));
  m_->setValue(c->m);
  selection_->setCurrentText(q(std::string(learn::selection_name(c->selection))));
  QStringList ts;
  for (const auto& s : c->tasks) ts << q(s);
  tasks_->setText(ts.join(QStringLiteral(", ")));
  budgetTokens_->setValue(double(c->budget.tokens));
  budgetCost_->setValue(c->budget.cost_usd);
  budgetWall_->setValue(c->budget.wall_s);
  seed_->setValue(static_cast<int>(std::min<std::uint64_t>(c->seed, std::numeric_limits<int>::max())));
  revalidate();
}

json CampaignDialog::config(QString* error) const {
  json j = base_.is_object() ? base_ : json::object();
  j["name"] = name_->text().trimmed().toStdString();
  json& b = j["backend"];
  if (!b.is_object()) b = json::object();
  b["kind"] = kind_->currentText().toStdString();
  b["model"] = model_->text().trimmed().toStdString();
  b["base_url"] = baseUrl_->text().trimmed().toStdString();
  b["key_env"] = keyEnv_->text().trimmed().toStdString();
  j["mode"] = mode_->currentText().toStdString();
  j["n"] = n_->value();
  j["temperature0"] = t0_->value();
  json temps = json::array();
  QString err;
  for (const QString& s : splitList(temps_->text())) {
    bool ok = false;
    double v = s.toDouble(&ok);
    if (!ok) err = tr("Temperatures: '%1' is not a number").arg(s);
    temps.push_back(v);
  }
  j["temperatures"] = temps;
  j["m"] = m_->value();
  j["selection"] = selection_->currentText().toStdString();
  json tasks = json::array();
  for (const QString& s : splitList(tasks_->text())) tasks.push_back(s.toStdString());
  j["tasks"] = tasks;
  j["budget"] = {{"tokens", static_cast<std::int64_t>(budgetTokens_->value())},
                 {"cost_usd", budgetCost_->value()},
                 {"wall_s", budgetWall_->value()}};
  j["seed"] = seed_->value();
  if (err.isEmpty()) {
    std::string e;
    auto c = learn::config_from_json(j, e);
    if (c) e = learn::validate(*c);
    if (!e.empty()) err = QString::fromStdString(e);
  }
  if (error) *error = err;
  return j;
}

QByteArray CampaignDialog::configJson() const { return QByteArray::fromStdString(config().dump(2)); }

void CampaignDialog::setWorkspaceDir(const QString& dir) { dir_->setText(dir); }
QString CampaignDialog::workspaceDir() const { return dir_->text().trimmed(); }

QString CampaignDialog::validationError() const {
  QString err;
  config(&err);
  if (!err.isEmpty()) return err;
  const QString d = workspaceDir();
  if (d.isEmpty()) return tr("Choose a workspace folder");
  if (QFileInfo::exists(d + QStringLiteral("/campaign.json")))
    return tr("%1 already holds a campaign (open it with Campaign → Open Workspace)").arg(d);
  return {};
}

void CampaignDialog::revalidate() {
  const QString e = validationError();
  error_->setText(e);
  if (auto* ok = buttons_->button(QDialogButtonBox::Ok)) ok->setEnabled(e.isEmpty());
}

void CampaignDialog::setField(const QString& name, const QString& value) {
  if (name == QLatin1String("name")) name_->setText(value);
  else if (name == QLatin1String("kind")) kind_->setCurrentText(value);
  else if (name == QLatin1String("model")) model_->setText(value);
  else if (name == QLatin1String("base_url")) baseUrl_->setText(value);
  else if (name == QLatin1String("key_env")) keyEnv_->setText(value);
  else if (name == QLatin1String("mode")) mode_->setCurrentText(value);
  else if (name == QLatin1String("n")) n_->setValue(value.toInt());
  else if (name == QLatin1String("temperatures")) temps_->setText(value);
  else if (name == QLatin1String("m")) m_->setValue(value.toInt());
  else if (name == QLatin1String("selection")) selection_->setCurrentText(value);
  else if (name == QLatin1String("tasks")) tasks_->setText(value);
  else if (name == QLatin1String("budget.tokens")) budgetTokens_->setValue(value.toDouble());
  else if (name == QLatin1String("dir")) dir_->setText(value);
}

}  // namespace sf::widgets
