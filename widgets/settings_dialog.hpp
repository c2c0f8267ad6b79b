// Preferences (issue 9, item 5) and the workbench's language. The language is a QSettings value under
// kLanguageKey: "" follows the system locale, "en", "zh_CN" or "de" pick one. It is applied when the
// application starts (installTranslations, called by app/gui/main.cpp before any window exists); a change
// made in the Preferences dialog takes effect at the next start (the dialog says so). See
// docs/translations.md.
#pragma once

#include <QDialog>
#include <QList>
#include <QLocale>
#include <QString>

#include <nlohmann/json.hpp>

class QComboBox;
class QLineEdit;
class QCoreApplication;
class QLabel;
class QPushButton;
class QTranslator;

namespace sf::widgets {

class ConnectionTest;

// The QSettings key of the language preference.
inline constexpr char kLanguageKey[] = "ui/language";

// The QSettings key of the cost model's chip profile (a bundled profile's name, <resources>/chips/NAME.json).
inline constexpr char kChipKey[] = "cost/chip";
// The bundled chip profiles, sorted ("default" first).
QStringList chipProfiles();
// The stored chip profile; "default" when unset or not bundled.
QString chipSetting();
void setChipSetting(const QString& name);

// The language codes the workbench ships, in the order Preferences lists them; "" means "follow the system".
QStringList supportedLanguages();

// The stored preference ("" when unset or not one of supportedLanguages()).
QString languageSetting();
// Stores `code` (one of supportedLanguages(); anything else is stored as "", i.e. follow the system).
void setLanguageSetting(const QString& code);

// The language actually used for `setting`: the setting itself when it names a language, else the first of
// `system`'s UI languages that StepForge ships ("zh_CN" for any Chinese in Simplified script or mainland
// China, "de" for any German), else "en".
QString effectiveLanguage(const QString& setting, const QLocale& system = QLocale::system());

// Installs StepForge's translation for `language` ("en", "zh_CN", "de"; embedded as
// :/i18n/stepforge_<language>.qm) on `app`, together with Qt's own and QScintilla's catalogues when the
// system has them, replacing any translators installed by an earlier call. Returns false when StepForge's
// catalogue for a non-English language could not be loaded (the UI then stays in English).
bool installTranslations(QCoreApplication* app, const QString& language);

// The Preferences dialog: the language (System / English / 中文 (简体) / Deutsch, each shown in its own
// language). Accepting stores the choice with setLanguageSetting().
class SettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SettingsDialog(QWidget* parent = nullptr);

  QComboBox* languageBox() const { return language_; }
  QComboBox* chipBox() const { return chip_; }
  // The agent section (agent_runner.hpp: agentSettings()): backend kind, model, base URL, the NAME of the API key
  // variable, the memory workspace, the session workspace and the golden set.
  QComboBox* agentKindBox() const { return agentKind_; }
  // "model", "base_url", "key_env", "memory", "session", "golden", "key" (the keyring's key field; nullptr when
  // the build has no keyring: keyringAvailable())
  QLineEdit* agentField(const QString& name) const;
  QString agentError() const;  // "" when the agent section is acceptable
  // Test connection on the agent's backend (the campaign dialog's test: llm::check_endpoint off the GUI thread).
  ConnectionTest* agentConnectionTest() const { return agentTest_; }
  // The code selected in the dialog ("" = system).
  QString selectedLanguage() const;

  void accept() override;
  // Store in keyring (the button): hands the key field's key to the core and the OS keyring under the
  // variable's name; keyStored() follows. The field is cleared at once.
  void storeKey();

 signals:
  void keyStored(bool ok, const QString& message);

 private:
  void updateNote();

  QComboBox* language_;
  QComboBox* chip_;
  QComboBox* agentKind_;
  QLineEdit *agentModel_, *agentBaseUrl_, *agentKeyEnv_, *agentMemory_, *agentSession_, *agentGolden_;
  QLabel* agentError_;
  ConnectionTest* agentTest_;
  QLineEdit* agentKey_ = nullptr;  // the keyring's key (only with the keyring)
  QPushButton* agentKeyStore_ = nullptr;
  QLabel* agentKeyResult_ = nullptr;
  nlohmann::json agentBackend() const;
  QLabel* note_;
  QString initial_;
};

}  // namespace sf::widgets
