#include "widgets/settings_dialog.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QLabel>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>
#include <QVBoxLayout>
#include <algorithm>

#include "core/bench/catalogue.hpp"
#include "core/llm/backend_config.hpp"
#include "core/step2/perf/chip.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/campaign/campaign_dialog.hpp"

namespace sf::widgets {

namespace {

constexpr char kTranslatorName[] = "sf_translator";

// A language's name in that language (not translated: a user must recognise their own language whatever the
// current one is).
QString nativeName(const QString& code) {
  if (code == QLatin1String("zh_CN")) return QStringLiteral("中文 (简体)");
  if (code == QLatin1String("de")) return QStringLiteral("Deutsch");
  return QStringLiteral("English");
}

// Loads `base`_<language>.qm from `dir` into a new translator owned by `app` and installs it.
bool installOne(QCoreApplication* app, const QString& base, const QString& language, const QString& dir) {
  auto* t = new QTranslator(app);
  t->setObjectName(QLatin1String(kTranslatorName));
  if (!t->load(base + QLatin1Char('_') + language, dir)) {
    delete t;
    return false;
  }
  QCoreApplication::installTranslator(t);
  return true;
}

}  // namespace

QStringList chipProfiles() {
  const std::string resources = bench::resource_dir();
  const QDir dir(QString::fromStdString(resources) + QStringLiteral("/chips"));
  QStringList names;
  for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    // A STeP-25 machine (accelopt-step, step-hdl, ...) is timed by the v2 cost model on the task's own chip; the
    // v1 cost model would read only the fields it shares and time v1 programs on a machine it does not model.
    std::string why;
    if (step2::perf::find_chip(f.chopped(5).toStdString(), resources, why)) continue;
    names << f.chopped(5);
  }
  names.removeAll(QStringLiteral("default"));
  names.prepend(QStringLiteral("default"));
  return names;
}

QString chipSetting() {
  const QString v = QSettings().value(QLatin1String(kChipKey)).toString();
  return chipProfiles().contains(v) ? v : QStringLiteral("default");
}

void setChipSetting(const QString& name) {
  QSettings s;
  s.setValue(QLatin1String(kChipKey), chipProfiles().contains(name) ? name : QStringLiteral("default"));
  s.sync();
}

QStringList supportedLanguages() {
  return {QString(), QStringLiteral("en"), QStringLiteral("zh_CN"), QStringLiteral("de")};
}

QString languageSetting() {
  const QString v = QSettings().value(QLatin1String(kLanguageKey)).toString();
  return supportedLanguages().contains(v) ? v : QString();
}

void setLanguageSetting(const QString& code) {
  QSettings s;
  s.setValue(QLatin1String(kLanguageKey), supportedLanguages().contains(code) ? code : QString());
  s.sync();
}

QString effectiveLanguage(const QString& setting, const QLocale& system) {
  if (!setting.isEmpty() && supportedLanguages().contains(setting)) return setting;
  for (const QString& name : system.uiLanguages()) {
    const QLocale l(name);
    switch (l.language()) {
      case QLocale::English:
        return QStringLiteral("en");
      case QLocale::German:
        return QStringLiteral("de");
      case QLocale::Chinese:
        if (l.script() != QLocale::TraditionalChineseScript) return QStringLiteral("zh_CN");
        break;
      default:
        break;
    }
  }
  return QStringLiteral("en");
}

bool installTranslations(QCoreApplication* app, const QString& language) {
  if (!app) return false;
  for (QTranslator* old :
       app->findChildren<QTranslator*>(QLatin1String(kTranslatorName), Qt::FindDirectChildrenOnly)) {
    QCoreApplication::removeTranslator(old);
    delete old;
  }
  if (language.isEmpty() || language == QLatin1String("en")) return true;
  // Without StepForge's own catalogue the whole UI stays English (no half-translated standard dialogs).
  if (!installOne(app, QStringLiteral("stepforge"), language, QStringLiteral(":/i18n"))) return false;
  // Qt's standard dialogs and QScintilla's context menu, when their catalogues are installed (Debian:
  // qt6-translations-l10n, libqscintilla2-qt6-l10n). Optional: nothing is lost but their translation.
  const QString qtDir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
  installOne(app, QStringLiteral("qtbase"), language, qtDir);
  installOne(app, QStringLiteral("qscintilla"), language, qtDir);
  return true;
}

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent),
      language_(new QComboBox(this)),
      chip_(new QComboBox(this)),
      note_(new QLabel(this)),
      initial_(languageSetting()) {
  setObjectName(QStringLiteral("SettingsDialog"));
  setWindowTitle(tr("Preferences"));
  setMinimumWidth(380);
  language_->setObjectName(QStringLiteral("LanguageBox"));
  for (const QString& code : supportedLanguages()) {
    const QString label = code.isEmpty()
                              ? tr("System default (%1)").arg(nativeName(effectiveLanguage(QString())))
                              : nativeName(code);
    language_->addItem(label, code);
  }
  language_->setCurrentIndex(std::max(0, static_cast<int>(supportedLanguages().indexOf(initial_))));
  note_->setWordWrap(true);
  note_->setText(tr("The new language is applied the next time StepForge starts."));

  auto* form = new QFormLayout;
  form->addRow(tr("&Language:"), language_);
  chip_->setObjectName(QStringLiteral("ChipBox"));
  for (const QString& name : chipProfiles()) chip_->addItem(name, name);
  chip_->setCurrentIndex(std::max(0, chip_->findData(chipSetting())));
  chip_->setToolTip(tr("The chip profile the cost model times verified programs on (Performance pane)"));
  form->addRow(tr("&Chip profile:"), chip_);
  // The agent at the editor's side (Agent menu): which backend it asks, with which memory, logged where.
  const AgentSettings agent = agentSettings(false);
  auto* agentBox = new QGroupBox(tr("Agent"), this);
  auto* af = new QFormLayout(agentBox);
  agentKind_ = new QComboBox(agentBox);
  agentKind_->setObjectName(QStringLiteral("AgentKindBox"));
  agentKind_->addItem(tr("Built-in synthesizer (offline)"), QStringLiteral("builtin"));
  agentKind_->addItem(tr("OpenAI-compatible endpoint"), QStringLiteral("openai"));
  agentKind_->addItem(tr("Anthropic"), QStringLiteral("anthropic"));
  auto field = [&](const char* name, const std::string& value, const QString& placeholder) {
    auto* e = new QLineEdit(QString::fromStdString(value), agentBox);
    e->setObjectName(QStringLiteral("Agent_") + QLatin1String(name));
    e->setPlaceholderText(placeholder);
    connect(e, &QLineEdit::textChanged, this, [this] { agentError_->setText(agentError()); });
    return e;
  };
  auto str = [&](const char* k) {
    return agent.backend.contains(k) && agent.backend[k].is_string() ? agent.backend[k].get<std::string>() : std::string();
  };
  agentModel_ = field("model", str("model"), tr("e.g. gpt-4o-mini, claude-sonnet-4-5, a local model's name"));
  agentBaseUrl_ = field("base_url", str("base_url"), tr("the kind's default"));
  agentKeyEnv_ = field("key_env", str("key_env"), tr("NAME of the environment variable, e.g. OPENAI_API_KEY"));
  agentKeyEnv_->setToolTip(tr("Only the variable's name is stored, never the key"));
  agentMemory_ = field("memory", agent.memoryWorkspace.toStdString(), tr("none"));
  agentMemory_->setToolTip(tr("A campaign workspace whose memory (retrieval, resident rules) the agent uses"));
  agentSession_ = field("session", agent.sessionDir.toStdString(), defaultAgentSessionDir());
  agentSession_->setToolTip(tr("The session workspace every round is logged to (trace and audit panes)"));
  agentGolden_ = field("golden", agent.goldenFile.toStdString(), tr("<session>/golden.json"));
  agentError_ = new QLabel(agentBox);
  agentError_->setObjectName(QStringLiteral("AgentErrorLabel"));
  agentError_->setWordWrap(true);
  agentError_->setStyleSheet(QStringLiteral("color: #b02828"));
  agentKind_->setCurrentIndex(std::max(0, agentKind_->findData(QString::fromStdString(str("kind")))));
  connect(agentKind_, &QComboBox::currentIndexChanged, this, [this](int) {
    agentBaseUrl_->clear();  // another kind: its default URL
    const bool remote = agentKind_->currentData().toString() != QLatin1String("builtin");
    for (QLineEdit* e : {agentModel_, agentBaseUrl_, agentKeyEnv_}) e->setEnabled(remote);
    agentError_->setText(agentError());
  });
  for (QLineEdit* e : {agentModel_, agentBaseUrl_, agentKeyEnv_})
    e->setEnabled(agentKind_->currentData().toString() != QLatin1String("builtin"));
  af->addRow(tr("&Backend:"), agentKind_);
  af->addRow(tr("&Model:"), agentModel_);
  af->addRow(tr("Base &URL:"), agentBaseUrl_);
  af->addRow(tr("API key &variable:"), agentKeyEnv_);
  // The OS keyring (when compiled in): a key for the variable named above, stored in the keyring, never in
  // the settings; the core gets it as a string when the environment does not set the variable.
  if (keyringAvailable()) {
    agentKey_ = new QLineEdit(agentBox);
    agentKey_->setObjectName(QStringLiteral("Agent_key"));
    agentKey_->setEchoMode(QLineEdit::Password);
    agentKey_->setPlaceholderText(tr("the key itself, kept in the OS keyring (optional)"));
    agentKey_->setToolTip(tr("Used when the environment does not set the variable; never written to a file"));
    agentKeyStore_ = new QPushButton(tr("Store in keyring"), agentBox);
    agentKeyStore_->setObjectName(QStringLiteral("AgentKeyStore"));
    agentKeyResult_ = new QLabel(agentBox);
    agentKeyResult_->setObjectName(QStringLiteral("AgentKeyResult"));
    agentKeyResult_->setWordWrap(true);
    connect(agentKeyStore_, &QPushButton::clicked, this, &SettingsDialog::storeKey);
  }
  // The campaign dialog's Test connection, on the agent's backend as the fields describe it.
  agentTest_ = new ConnectionTest(
      [this](QString* error) {
        if (const QString e = agentError(); !e.isEmpty()) {
          *error = e;
          return nlohmann::json(nlohmann::json::value_t::discarded);
        }
        return agentBackend();
      },
      agentBox);
  if (agentKey_) {
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(agentKey_, 1);
    keyRow->addWidget(agentKeyStore_);
    auto* keyLabel = new QLabel(tr("API &key:"), agentBox);
    keyLabel->setBuddy(agentKey_);
    af->addRow(keyLabel, keyRow);
    af->addRow(QString(), agentKeyResult_);
    agentKeyResult_->hide();  // until there is a message
  }
  af->addRow(CampaignDialog::tr("Connection:"), agentTest_);
  af->addRow(tr("M&emory workspace:"), agentMemory_);
  af->addRow(tr("&Session workspace:"), agentSession_);
  af->addRow(tr("&Golden set:"), agentGolden_);
  af->addRow(agentError_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
  connect(language_, &QComboBox::currentIndexChanged, this, [this](int) { updateNote(); });

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note_);
  layout->addWidget(agentBox);
  layout->addStretch(1);
  layout->addWidget(buttons);
  updateNote();
}

QString SettingsDialog::selectedLanguage() const {
  return language_->currentData().toString();
}

nlohmann::json SettingsDialog::agentBackend() const {
  const QString kind = agentKind_->currentData().toString();
  if (kind == QLatin1String("builtin")) return {{"kind", "builtin"}, {"model", "builtin"}};
  nlohmann::json b = {{"kind", kind.toStdString()}, {"model", agentModel_->text().trimmed().toStdString()}};
  QString url = agentBaseUrl_->text().trimmed();
  if (url.isEmpty() && kind == QLatin1String("anthropic")) url = QStringLiteral("https://api.anthropic.com");
  if (!url.isEmpty()) b["base_url"] = url.toStdString();
  b["key_env"] = agentKeyEnv_->text().trimmed().toStdString();
  return b;
}

void SettingsDialog::storeKey() {
  const QString name = agentKeyEnv_->text().trimmed();
  const QString key = agentKey_->text().trimmed();
  QString problem;
  if (name.isEmpty()) problem = tr("name the API key variable first: the keyring keeps the key under that name");
  else if (auto why = llm::key_env_problem(name.toStdString()); !why.empty()) problem = QString::fromStdString(why);
  else if (key.isEmpty()) problem = tr("enter the key to store");
  if (!problem.isEmpty()) {
    agentKeyResult_->setStyleSheet(QStringLiteral("color: #b02828"));
    agentKeyResult_->setText(problem);
    agentKeyResult_->show();
    return;
  }
  agentKeyStore_->setEnabled(false);
  agentKey_->clear();  // the key stays in no widget
  storeKeyInKeyring(name, key, this, [this](bool ok, const QString& message) {
    agentKeyStore_->setEnabled(true);
    agentKeyResult_->setStyleSheet(ok ? QStringLiteral("color: #207030") : QStringLiteral("color: #b02828"));
    agentKeyResult_->setText(message);
    agentKeyResult_->show();
    emit keyStored(ok, message);
  });
}

QLineEdit* SettingsDialog::agentField(const QString& name) const {
  if (name == QLatin1String("model")) return agentModel_;
  if (name == QLatin1String("base_url")) return agentBaseUrl_;
  if (name == QLatin1String("key_env")) return agentKeyEnv_;
  if (name == QLatin1String("memory")) return agentMemory_;
  if (name == QLatin1String("session")) return agentSession_;
  if (name == QLatin1String("golden")) return agentGolden_;
  if (name == QLatin1String("key")) return agentKey_;  // nullptr without the keyring
  return nullptr;
}

QString SettingsDialog::agentError() const {
  const nlohmann::json b = agentBackend();
  if (b["model"].get<std::string>().empty()) return tr("the agent's backend needs a model");
  return agentBackendError(b);
}

void SettingsDialog::accept() {
  if (const QString e = agentError(); !e.isEmpty()) {
    agentError_->setText(e);
    return;
  }
  setLanguageSetting(selectedLanguage());
  setChipSetting(chip_->currentData().toString());
  AgentSettings a;
  a.backend = agentBackend();
  a.memoryWorkspace = agentMemory_->text().trimmed();
  a.sessionDir = agentSession_->text().trimmed();
  a.goldenFile = agentGolden_->text().trimmed();
  setAgentSettings(a);
  QDialog::accept();
}

void SettingsDialog::updateNote() {
  note_->setVisible(selectedLanguage() != initial_);
}

}  // namespace sf::widgets
