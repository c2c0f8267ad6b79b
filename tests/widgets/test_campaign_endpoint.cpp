// Real endpoints in the GUI (issue 17) against the loopback OpenAI-compatible server: the new-campaign
// dialog's Test connection (reply time and model list; a wrong key named with its fix; a model the endpoint
// does not list), the base URL following the backend kind, and a campaign the engine paused on a 401 showing
// the pause banner whose Resume finishes the workspace.
// SF_TEST_PNG_DIR=<dir> saves the dialog and the campaign pane as PNGs there (to look at them).
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QLineEdit>
#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/loopback_server.hpp"
#include "widgets/campaign/campaign_dialog.hpp"
#include "widgets/campaign/campaign_docks.hpp"
#include "widgets/engine/engine_bridge.hpp"
#include "widgets/main_window.hpp"
#include "widgets/editor/agent_runner.hpp"
#include "widgets/settings_dialog.hpp"
#include "core/llm/backend_factory.hpp"

namespace campaign_endpoint_tests {

using namespace sf::widgets;
using sf::llm::testing::LoopbackServer;
using sf::llm::testing::Mode;

void savePng(QWidget* w, const QString& name) {
  const QString dir = qEnvironmentVariable("SF_TEST_PNG_DIR");
  if (!dir.isEmpty()) w->grab().save(QDir(dir).filePath(name));
}

// The connectionTested result of one Test connection.
std::pair<bool, QString> testOnce(CampaignDialog& d) {
  QSignalSpy spy(&d, &CampaignDialog::connectionTested);
  d.testConnection();
  EXPECT_TRUE(spy.size() == 1 || spy.wait(20000));
  if (spy.isEmpty()) return {false, QString()};
  return {spy.at(0).at(0).toBool(), spy.at(0).at(1).toString()};
}

// Waits for `want` among the recorded campaignStateChanged signals (from index `from`).
bool waitForCampaignState(QSignalSpy& spy, CampaignRunState want, int timeoutMs, QString* message = nullptr) {
  QElapsedTimer t;
  t.start();
  for (int seen = 0; t.elapsed() < timeoutMs; spy.wait(200)) {
    for (; seen < spy.size(); ++seen) {
      if (message) *message = spy.at(seen).at(1).toString();
      if (spy.at(seen).at(0).value<CampaignRunState>() == want) return true;
    }
  }
  return false;
}

TEST(CampaignEndpoint, TestConnectionShowsTheReplyTheModelsOrTheCauseAndTheFix) {
  LoopbackServer server;
  CampaignDialog d;
  d.setField(QStringLiteral("kind"), QStringLiteral("anthropic"));
  EXPECT_EQ(d.config()["backend"]["base_url"], "https://api.anthropic.com");  // the kind's default
  d.setField(QStringLiteral("kind"), QStringLiteral("openai"));
  EXPECT_EQ(d.config()["backend"]["base_url"], "https://api.openai.com/v1");
  d.setField(QStringLiteral("base_url"), QString::fromStdString(server.base_url()));
  d.setField(QStringLiteral("model"), QStringLiteral("test-model"));
  d.setField(QStringLiteral("key_env"), QString());

  auto [ok, text] = testOnce(d);
  EXPECT_TRUE(ok) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("test-model replied in"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("lists 2 model(s): test-model, other-model"))) << text.toStdString();
  EXPECT_EQ(d.connectionResult(), text);

  d.setField(QStringLiteral("model"), QStringLiteral("gpt-5-nano"));
  std::tie(ok, text) = testOnce(d);
  EXPECT_TRUE(ok);
  EXPECT_TRUE(text.contains(QStringLiteral("It does not list 'gpt-5-nano'"))) << text.toStdString();

  // A wrong key: the cause and the fix, never a campaign.
  ::setenv("SF_WIDGET_TEST_KEY", "not-the-key", 1);
  d.setField(QStringLiteral("key_env"), QStringLiteral("SF_WIDGET_TEST_KEY"));
  server.script({Mode::Unauthorized});
  std::tie(ok, text) = testOnce(d);
  ::unsetenv("SF_WIDGET_TEST_KEY");
  EXPECT_FALSE(ok);
  EXPECT_TRUE(text.contains(QStringLiteral("authentication failed (HTTP 401)"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("check SF_WIDGET_TEST_KEY"))) << text.toStdString();
  d.resize(560, d.sizeHint().height());
  savePng(&d, QStringLiteral("campaign_dialog_test_connection.png"));

  // A key variable that is not set is the config's problem, named before any request.
  const int hits = server.hits();
  d.setField(QStringLiteral("key_env"), QStringLiteral("SF_WIDGET_TEST_UNSET_KEY"));
  std::tie(ok, text) = testOnce(d);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(text.contains(QStringLiteral("SF_WIDGET_TEST_UNSET_KEY"))) << text.toStdString();
  EXPECT_EQ(server.hits(), hits);
}

TEST(CampaignEndpoint, PreferencesTestTheAgentsConnectionWithTheSameCheck) {
  LoopbackServer server;
  SettingsDialog d;
  d.agentKindBox()->setCurrentIndex(d.agentKindBox()->findData(QStringLiteral("openai")));
  d.agentField(QStringLiteral("model"))->setText(QStringLiteral("test-model"));
  d.agentField(QStringLiteral("base_url"))->setText(QString::fromStdString(server.base_url()));
  d.agentField(QStringLiteral("key_env"))->setText(QString());
  ConnectionTest* t = d.agentConnectionTest();
  ASSERT_NE(t, nullptr);
  auto once = [&] {
    QSignalSpy spy(t, &ConnectionTest::tested);
    t->button()->click();
    EXPECT_TRUE(spy.size() == 1 || spy.wait(20000));
    return spy.isEmpty() ? std::pair<bool, QString>{false, QString()}
                         : std::pair<bool, QString>{spy.at(0).at(0).toBool(), spy.at(0).at(1).toString()};
  };
  auto [ok, text] = once();
  EXPECT_TRUE(ok) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("test-model replied in"))) << text.toStdString();
  EXPECT_EQ(t->result(), text);
  const int hits = server.hits();
  EXPECT_GE(hits, 1);  // the request went to the endpoint
  d.resize(560, d.sizeHint().height());
  savePng(&d, QStringLiteral("preferences_test_connection.png"));
  // A pasted key in the variable field: refused before any request, and not repeated.
  d.agentField(QStringLiteral("key_env"))->setText(QStringLiteral("sk-proj-AbCdEf0123456789xyzXYZ0123456789"));
  std::tie(ok, text) = once();
  EXPECT_FALSE(ok);
  EXPECT_TRUE(text.contains(QStringLiteral("looks like an API key"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("AbCdEf0123")));
  EXPECT_EQ(server.hits(), hits);
}

// The OS keyring (issue 17 item 8, optional at build time): the key goes to the core for this session at once
// and to the keyring; never into QSettings or a widget. The headless test machine has no keyring service, so
// the store itself may fail: then the message says the key serves this session only.
TEST(CampaignEndpoint, AKeyForTheKeyringReachesTheCoreAndNoFile) {
  SettingsDialog d;
  QLineEdit* key = d.agentField(QStringLiteral("key"));
  if (!keyringAvailable()) {
    EXPECT_EQ(key, nullptr);  // no field without the keyring
    GTEST_SKIP() << "built without qtkeychain";
  }
  ASSERT_NE(key, nullptr);
  const std::string name = "SF_WIDGET_KEYRING_TEST_KEY";
  ::unsetenv(name.c_str());
  sf::llm::set_session_key(name, "");
  d.agentKindBox()->setCurrentIndex(d.agentKindBox()->findData(QStringLiteral("openai")));
  d.agentField(QStringLiteral("model"))->setText(QStringLiteral("test-model"));
  auto* store = d.findChild<QPushButton*>(QStringLiteral("AgentKeyStore"));
  ASSERT_NE(store, nullptr);
  // No variable name: refused, nothing kept.
  d.agentField(QStringLiteral("key_env"))->clear();
  key->setText(QStringLiteral("sk-keyring-secret-0042"));
  store->click();
  EXPECT_FALSE(sf::llm::has_session_key(""));
  d.agentField(QStringLiteral("key_env"))->setText(QString::fromStdString(name));
  QSignalSpy spy(&d, &SettingsDialog::keyStored);
  store->click();
  EXPECT_TRUE(key->text().isEmpty());  // the key stays in no widget
  ASSERT_TRUE(spy.size() == 1 || spy.wait(30000));
  EXPECT_TRUE(sf::llm::has_session_key(name));  // the core has it (this session), whatever the keyring said
  EXPECT_FALSE(spy.at(0).at(1).toString().contains(QStringLiteral("secret-0042")));
  d.resize(560, d.sizeHint().height());
  savePng(&d, QStringLiteral("preferences_keyring.png"));
  QSettings settings;
  settings.sync();
  QFile file(settings.fileName());
  if (file.open(QIODevice::ReadOnly)) {
    EXPECT_FALSE(file.readAll().contains("secret-0042"));
  }
  for (const QString& k : settings.allKeys()) EXPECT_FALSE(settings.value(k).toString().contains(QStringLiteral("secret-0042")));
  sf::llm::set_session_key(name, "");
}

TEST(CampaignEndpoint, APausedCampaignShowsTheBannerAndResumeFinishesIt) {
  LoopbackServer server;
  server.script({Mode::Ok, Mode::Unauthorized});  // the preflight answers, the first sample's call does not
  const QByteArray config = QByteArray(R"({"version":1,"name":"endpoint","mode":"single",
    "backend":{"kind":"openai","model":"test-model","max_retries":0,"timeout_s":10,"base_url":")") +
                            QByteArray::fromStdString(server.base_url()) +
                            R"("},"n":1,"tasks":["rope/neox_halves"],"seed":3,"in_flight":1,"verify_threads":1})";
  QTemporaryDir tmp;
  const QString dir = tmp.filePath(QStringLiteral("ws"));
  MainWindow w;
  w.resize(1200, 800);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  CampaignDocks* cd = w.campaignDocks();
  QSignalSpy states(w.bridge(), &EngineBridge::campaignStateChanged);
  cd->startCampaign(config, dir);
  QString msg;
  ASSERT_TRUE(waitForCampaignState(states, CampaignRunState::Halted, 60000, &msg)) << msg.toStdString();
  EXPECT_TRUE(msg.contains(QStringLiteral("authentication failed (HTTP 401)"))) << msg.toStdString();
  QTest::qWait(50);
  const QString banner = cd->pauseBannerText();
  EXPECT_TRUE(banner.contains(QStringLiteral("authentication failed (HTTP 401)"))) << banner.toStdString();
  EXPECT_TRUE(banner.contains(QStringLiteral("fix it, then Resume"))) << banner.toStdString();
  savePng(&w, QStringLiteral("campaign_pause_banner.png"));

  // The fix (the server answers again), then the banner's Resume: the workspace finishes.
  QPushButton* resume = cd->pauseBanner()->findChild<QPushButton*>();
  ASSERT_NE(resume, nullptr);
  states.clear();
  resume->click();
  ASSERT_TRUE(waitForCampaignState(states, CampaignRunState::Finished, 60000, &msg)) << msg.toStdString();
  QTest::qWait(50);
  EXPECT_TRUE(cd->pauseBannerText().isEmpty());
  EXPECT_EQ(server.hits(), 4);  // preflight, the 401, preflight, the sample
}

}  // namespace campaign_endpoint_tests
