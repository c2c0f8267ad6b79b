#include "widgets/settings_dialog.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>
#include <QVBoxLayout>
#include <algorithm>

#include "core/bench/catalogue.hpp"

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
  const QDir dir(QString::fromStdString(bench::resource_dir()) + QStringLiteral("/chips"));
  QStringList names;
  for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) names << f.chopped(5);
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
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
  connect(language_, &QComboBox::currentIndexChanged, this, [this](int) { updateNote(); });

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note_);
  layout->addStretch(1);
  layout->addWidget(buttons);
  updateNote();
}

QString SettingsDialog::selectedLanguage() const {
  return language_->currentData().toString();
}

void SettingsDialog::accept() {
  setLanguageSetting(selectedLanguage());
  setChipSetting(chip_->currentData().toString());
  QDialog::accept();
}

void SettingsDialog::updateNote() {
  note_->setVisible(selectedLanguage() != initial_);
}

}  // namespace sf::widgets
