// The new-campaign dialog (issue 8 item 6): backend, model, base URL, the NAME of the environment variable
// holding the API key (never the key itself), mode (every mode learn::parse_mode knows, sage included when the
// core has it), n, temperatures, m, selection, tasks, budgets, seed and the workspace folder. Starts from a
// bundled preset (resources/configs) and validates with the core's strict config parser as you type. Test
// connection sends one minimal request to the endpoint (llm::check_endpoint, off the GUI thread) and shows the
// reply time and the models it lists, or the cause and the fix. Choosing another backend kind resets the base
// URL to that kind's default.
#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

#include <functional>
#include <thread>

#include "core/llm/chat_types.hpp"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sf::widgets {

// A "Test connection" button with its result beside it: one minimal request to the endpoint of the backend
// JSON `backend()` returns (llm::check_endpoint on a worker thread, never the GUI thread), then the reply time
// and the models it lists, or the cause and the fix. The one test the new-campaign dialog and the preferences
// share.
class ConnectionTest : public QWidget {
  Q_OBJECT
 public:
  // `backend` gives the backend JSON to test; it may return a discarded JSON with `error` set.
  using BackendFn = std::function<nlohmann::json(QString* error)>;
  explicit ConnectionTest(BackendFn backend, QWidget* parent = nullptr);
  ~ConnectionTest() override;  // cancels and joins a test in flight

  void run();  // the button's action (one test at a time)
  QString result() const;
  QPushButton* button() const { return button_; }

 signals:
  void tested(bool ok, const QString& text);

 private:
  void show(bool ok, const QString& text);

  BackendFn backend_;
  QPushButton* button_;
  QLabel* result_;
  std::thread tester_;
  llm::CancelToken cancel_;
};

class CampaignDialog : public QDialog {
  Q_OBJECT
 public:
  explicit CampaignDialog(QWidget* parent = nullptr);

  // The modes offered: the candidates "single", "agent", "adaptive", "sage" that learn::parse_mode accepts.
  static QStringList availableModes();

  // Fills the fields from a config JSON (unknown extra keys are kept and passed through).
  void setConfig(const nlohmann::json& config);
  // The config built from the fields; `error` is empty when the core accepts it.
  nlohmann::json config(QString* error = nullptr) const;
  QByteArray configJson() const;
  void setWorkspaceDir(const QString& dir);
  QString workspaceDir() const;
  // "" when the config and the folder are acceptable, else the reason (shown in the dialog).
  QString validationError() const;

  void setField(const QString& name, const QString& value);  // tests: "model", "n", "mode", "tasks", ...

  // Test connection (the button): one minimal request to the configured endpoint on a worker thread;
  // connectionTested() follows with the result, also shown under the button.
  void testConnection();
  QString connectionResult() const;

 signals:
  void connectionTested(bool ok, const QString& text);

 private:
  void loadPreset(const QString& path);
  void revalidate();

  nlohmann::json base_;
  QComboBox* preset_;
  QLineEdit* name_;
  QComboBox* kind_;
  QLineEdit* model_;
  QLineEdit* baseUrl_;
  QLineEdit* keyEnv_;
  QComboBox* mode_;
  QSpinBox* n_;
  QDoubleSpinBox* t0_;
  QLineEdit* temps_;
  QSpinBox* m_;
  QComboBox* selection_;
  QLineEdit* tasks_;
  QDoubleSpinBox* budgetTokens_;
  QDoubleSpinBox* budgetCost_;
  QDoubleSpinBox* budgetWall_;
  QSpinBox* seed_;
  QLineEdit* dir_;
  ConnectionTest* test_;
  QLabel* error_;
  QDialogButtonBox* buttons_;
};

}  // namespace sf::widgets
