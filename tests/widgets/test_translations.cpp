// Translations and the language preference (issue 9, items 5 and 7): the embedded catalogues load and
// translate known strings, a window built after installTranslations() is in that language, the .ts sources
// are complete, the system-locale mapping, and the Preferences language switch persists in QSettings.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QSet>
#include <QSettings>
#include <QTranslator>
#include <QXmlStreamReader>

#include "widgets/main_window.hpp"
#include "widgets/settings_dialog.hpp"

namespace sf::widgets {
namespace {

// Restores the English UI and an unset preference whatever a test did.
struct EnglishAfter {
  ~EnglishAfter() {
    installTranslations(qApp, QStringLiteral("en"));
    QSettings().remove(QLatin1String(kLanguageKey));
  }
};

TEST(Translations, EmbeddedCataloguesTranslateKnownStrings) {
  QTranslator zh;
  ASSERT_TRUE(zh.load(QStringLiteral(":/i18n/stepforge_zh_CN.qm")));
  EXPECT_EQ(zh.language(), QStringLiteral("zh_CN"));
  EXPECT_EQ(zh.translate("sf::widgets::MainWindow", "&File"), QStringLiteral("文件(&F)"));
  EXPECT_EQ(zh.translate("sf::widgets::MainWindow", "&Run"), QStringLiteral("运行(&R)"));
  EXPECT_EQ(zh.translate("sf::widgets::SettingsDialog", "Preferences"), QStringLiteral("首选项"));

  QTranslator de;
  ASSERT_TRUE(de.load(QStringLiteral(":/i18n/stepforge_de.qm")));
  EXPECT_EQ(de.translate("sf::widgets::MainWindow", "&File"), QStringLiteral("&Datei"));
  EXPECT_EQ(de.translate("sf::widgets::MainWindow", "Issues"), QStringLiteral("Probleme"));
  // German plural forms (one / other), chosen by n.
  EXPECT_EQ(de.translate("sf::widgets::TaskBrowserModel", "%n task(s)", nullptr, 1),
            QStringLiteral("%n Aufgabe"));
  EXPECT_EQ(de.translate("sf::widgets::TaskBrowserModel", "%n task(s)", nullptr, 3),
            QStringLiteral("%n Aufgaben"));
  // Strings of issues 17-21 (review loop, golden promotions, episode lineage, replay) are embedded too.
  EXPECT_EQ(de.translate("sf::widgets::TracePane", "Promote to &Golden"), QStringLiteral("Zu &Gold befördern"));
  EXPECT_EQ(zh.translate("sf::widgets::RunGridModel", "Samples to first pass"), QStringLiteral("首次正确前的样本数"));
  EXPECT_EQ(de.translate("sf::widgets::EpisodeLineageView", "not solved"), QStringLiteral("nicht gelöst"));
  EXPECT_EQ(zh.translate("sf::widgets::AuditPane", "Auditor"), QStringLiteral("审核员"));
  // A string that is not in the catalogue is not translated.
  EXPECT_TRUE(de.translate("sf::widgets::MainWindow", "no such string").isEmpty());
}

TEST(Translations, InstalledLanguageReachesTheMainWindow) {
  EnglishAfter restore;
  ASSERT_TRUE(installTranslations(qApp, QStringLiteral("de")));
  {
    MainWindow w;
    const QList<QAction*> menus = w.menuBar()->actions();
    ASSERT_GE(menus.size(), 2);
    EXPECT_EQ(menus[0]->text(), QStringLiteral("&Datei"));
    EXPECT_EQ(menus[1]->text(), QStringLiteral("&Bearbeiten"));
    QAction* prefs = w.findChild<QAction*>(QStringLiteral("PreferencesAction"));
    ASSERT_NE(prefs, nullptr);
    EXPECT_EQ(prefs->text(), QStringLiteral("&Einstellungen…"));
  }
  // Switching replaces the previous catalogue (no German left behind).
  ASSERT_TRUE(installTranslations(qApp, QStringLiteral("zh_CN")));
  {
    MainWindow w;
    EXPECT_EQ(w.menuBar()->actions().value(0)->text(), QStringLiteral("文件(&F)"));
  }
  ASSERT_TRUE(installTranslations(qApp, QStringLiteral("en")));
  MainWindow w;
  EXPECT_EQ(w.menuBar()->actions().value(0)->text(), QStringLiteral("&File"));
  EXPECT_FALSE(installTranslations(qApp, QStringLiteral("fr")));  // not shipped: stays English
  EXPECT_EQ(QCoreApplication::translate("sf::widgets::MainWindow", "&File"), QStringLiteral("&File"));
  EXPECT_EQ(QCoreApplication::translate("QPlatformTheme", "Cancel"),
            QStringLiteral("Cancel"));  // no qtbase_fr
}

// Qt's own catalogue comes along when the system has it (Debian: qt6-translations-l10n, in install-deps.sh).
TEST(Translations, QtsOwnCatalogueFollows) {
  const QString qtDir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
  if (!QFile::exists(qtDir + QStringLiteral("/qtbase_de.qm")))
    GTEST_SKIP() << "qt6-translations-l10n not installed";
  EnglishAfter restore;
  ASSERT_TRUE(installTranslations(qApp, QStringLiteral("de")));
  EXPECT_EQ(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Abbrechen"));
}

// Every message of both .ts sources is translated (no unfinished, vanished or obsolete entry, no empty plural
// form) and both files hold the same (context, source) pairs.
TEST(Translations, TsSourcesAreComplete) {
  QSet<QString> keys[2];
  const QString langs[2] = {QStringLiteral("zh_CN"), QStringLiteral("de")};
  for (int i = 0; i < 2; ++i) {
    QFile f(QStringLiteral(SF_SOURCE_DIR "/translations/stepforge_%1.ts").arg(langs[i]));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    QXmlStreamReader xml(&f);
    QString context, source;
    int messages = 0;
    while (!xml.atEnd()) {
      if (xml.readNext() != QXmlStreamReader::StartElement) continue;
      const auto name = xml.name();
      if (name == QLatin1String("name")) {
        context = xml.readElementText();
      } else if (name == QLatin1String("source")) {
        source = xml.readElementText();
      } else if (name == QLatin1String("translation")) {
        ++messages;
        keys[i].insert(context + QLatin1Char('\x1f') + source);
        const QString type = xml.attributes().value(QLatin1String("type")).toString();
        EXPECT_TRUE(type.isEmpty()) << langs[i].toStdString() << " " << context.toStdString() << ": '"
                                    << source.toStdString() << "' is " << type.toStdString();
        // Plain translations: readElementText would fail on <numerusform> children, so check the text
        // of the forms one by one.
        bool anyForm = false;
        while (xml.readNext() != QXmlStreamReader::EndElement || xml.name() != QLatin1String("translation")) {
          if (xml.atEnd()) break;
          if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) {
            anyForm = true;
            EXPECT_FALSE(xml.readElementText().isEmpty())
                << langs[i].toStdString() << ": " << source.toStdString();
          } else if (xml.isCharacters() && !xml.isWhitespace()) {
            anyForm = true;
          }
        }
        EXPECT_TRUE(anyForm) << langs[i].toStdString() << ": empty translation of '" << source.toStdString()
                             << "'";
      }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_GE(messages, 150) << langs[i].toStdString();
  }
  EXPECT_EQ(keys[0], keys[1]);
}

TEST(Translations, SystemLocaleChoosesAShippedLanguage) {
  EXPECT_EQ(effectiveLanguage({}, QLocale(QLocale::German, QLocale::Austria)), QStringLiteral("de"));
  EXPECT_EQ(effectiveLanguage({}, QLocale(QLocale::Chinese, QLocale::China)), QStringLiteral("zh_CN"));
  EXPECT_EQ(effectiveLanguage({}, QLocale(QLocale::Chinese, QLocale::Singapore)), QStringLiteral("zh_CN"));
  EXPECT_EQ(
      effectiveLanguage({}, QLocale(QLocale::Chinese, QLocale::TraditionalChineseScript, QLocale::Taiwan)),
      QStringLiteral("en"));
  EXPECT_EQ(effectiveLanguage({}, QLocale(QLocale::French, QLocale::France)), QStringLiteral("en"));
  EXPECT_EQ(effectiveLanguage({}, QLocale(QLocale::English, QLocale::UnitedStates)), QStringLiteral("en"));
  // An explicit preference wins over the system locale.
  EXPECT_EQ(effectiveLanguage(QStringLiteral("de"), QLocale(QLocale::Chinese, QLocale::China)),
            QStringLiteral("de"));
  EXPECT_EQ(effectiveLanguage(QStringLiteral("en"), QLocale(QLocale::German, QLocale::Germany)),
            QStringLiteral("en"));
  EXPECT_EQ(effectiveLanguage(QStringLiteral("xx"), QLocale(QLocale::German, QLocale::Germany)),
            QStringLiteral("de"));
}

TEST(Settings, LanguageSwitchPersists) {
  EnglishAfter restore;
  QSettings().remove(QLatin1String(kLanguageKey));
  EXPECT_EQ(languageSetting(), QString());
  {
    SettingsDialog d;
    EXPECT_EQ(d.selectedLanguage(), QString());  // "System default (…)"
    EXPECT_EQ(d.languageBox()->count(), 4);
    const int de = d.languageBox()->findData(QStringLiteral("de"));
    ASSERT_GE(de, 0);
    EXPECT_EQ(d.languageBox()->itemText(de), QStringLiteral("Deutsch"));
    d.languageBox()->setCurrentIndex(de);
    d.accept();
  }
  EXPECT_EQ(languageSetting(), QStringLiteral("de"));
  // On disk, as the next start reads it.
  const QString file = QSettings().fileName();
  ASSERT_TRUE(QFile::exists(file)) << file.toStdString();
  EXPECT_EQ(QSettings(file, QSettings::IniFormat).value(QLatin1String(kLanguageKey)).toString(),
            QStringLiteral("de"));
  {
    SettingsDialog d;  // reopening shows the stored choice
    EXPECT_EQ(d.selectedLanguage(), QStringLiteral("de"));
    d.languageBox()->setCurrentIndex(d.languageBox()->findData(QStringLiteral("zh_CN")));
    d.reject();  // cancelled: nothing changes
  }
  EXPECT_EQ(languageSetting(), QStringLiteral("de"));
  setLanguageSetting(QStringLiteral("zh_CN"));
  EXPECT_EQ(languageSetting(), QStringLiteral("zh_CN"));
  setLanguageSetting(QStringLiteral("klingon"));  // unknown: back to following the system
  EXPECT_EQ(languageSetting(), QString());
  QSettings().setValue(QLatin1String(kLanguageKey), QStringLiteral("tlh"));  // a hand-edited bad value
  EXPECT_EQ(languageSetting(), QString());
}

}  // namespace
}  // namespace sf::widgets
