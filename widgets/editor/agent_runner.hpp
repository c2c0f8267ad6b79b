// The agent at the expert's side (issue 18), its engine half: the preferences it uses (the backend — an LLM
// endpoint or the built-in synthesizer —, the memory of a chosen campaign workspace, the session workspace the
// rounds are logged to, the golden set to promote into) and AgentRunner, which runs learn::InteractiveSession
// rounds (Propose / Repair / Optimise, optionally with an Ask… instruction) on a worker thread of its own,
// never the GUI thread. The answer streams back as it arrives (AgentDelta); cancel() aborts the HTTP transfer
// at once (the CancelToken is polled by the transport every 20 ms). Decisions (accepted / rejected /
// restored) and golden promotions run on the same thread, after the round in flight. See docs/gui.md.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/learn/interactive.hpp"

class QThread;

namespace sf::widgets {

// QSettings keys (Edit → Preferences…, section Agent).
inline constexpr char kAgentBackendKey[] = "agent/backend";         // backend config JSON (llm::BackendConfig)
inline constexpr char kAgentMemoryKey[] = "agent/memory_workspace";  // "" = no memory
inline constexpr char kAgentSessionKey[] = "agent/session_workspace";
inline constexpr char kAgentGoldenKey[] = "agent/golden_file";

struct AgentSettings {
  nlohmann::json backend = nlohmann::json{{"kind", "builtin"}, {"model", "builtin"}};
  QString memoryWorkspace;  // a campaign workspace whose memory.json is used read-only ("" = none)
  QString sessionDir;       // the session workspace the rounds' events are appended to
  QString goldenFile;       // the golden set "Promote to golden" adds to
};
// The stored preferences; defaults: the builtin backend, no memory, defaultAgentSessionDir(), and
// <session>/golden.json.
// `withDefaults` = false: the stored values as they are ("" where the default applies).
AgentSettings agentSettings(bool withDefaults = true);
void setAgentSettings(const AgentSettings& s);
QString defaultAgentSessionDir();  // <AppDataLocation>/agent-session
// "" when `backend` is a usable backend config (llm::backend_config_from_json + validate), else the reason.
QString agentBackendError(const nlohmann::json& backend);

// The OS keyring (qtkeychain; optional at build time: keyringAvailable() says whether it was compiled in).
// Keys live under the service "StepForge", one entry per environment-variable NAME; the core gets them as
// strings (llm::set_session_key), used when the environment does not set that variable. QSettings keeps only
// the names (agent/keyringNames), never a key.
bool keyringAvailable();
// Hands `key` to the core for `keyEnv` at once (this session) and stores it in the keyring; `done(ok, message)`
// follows on `context`'s thread. Without the keyring compiled in: the session only, ok = false.
void storeKeyInKeyring(const QString& keyEnv, const QString& key, QObject* context,
                       std::function<void(bool ok, const QString& message)> done);
// Reads the key of every stored name from the keyring into the core (asynchronous; at start-up).
void loadKeysFromKeyring();

struct AgentJob {
  learn::InteractiveAction action = learn::InteractiveAction::Propose;
  QString document;     // the editor's text: a task document or a solution file (task: + impl:)
  QString path;         // its file ("" = untitled), for messages
  QString instruction;  // Ask…: a free-text instruction ("" = none)
  AgentSettings settings;
  QString chip = QStringLiteral("default");
};

// A piece of the answer as it arrives (llm::StreamDelta), or (`totals`) the round's running totals after a
// finished call (tokens of all calls so far, their cost).
struct AgentDelta {
  QString text, reasoning, progress;
  qint64 outputTokens = 0, inputTokens = 0;
  bool done = false;
  bool totals = false;
  double costUsd = 0;
  bool priced = false;
};

struct AgentOutcome {
  quint64 job = 0;
  learn::InteractiveAction action = learn::InteractiveAction::Propose;
  QString instruction;
  // Null when the round could not start (then `error` says why: no task in the document, a bad backend
  // configuration, an unreadable memory or session workspace).
  std::shared_ptr<const learn::InteractiveResult> result;
  QString error;
  QString document;  // the document the round was asked on
  QString program;   // its program (impl body, "" when none)
  QString taskId;
  QString model;
  QString sessionDir;  // where the round's events went ("" = not logged)
  double costUsd = 0;  // all calls of the round (0 when unpriced)
  bool priced = false;
};

class AgentRunner : public QObject {
  Q_OBJECT
 public:
  explicit AgentRunner(QObject* parent = nullptr);
  ~AgentRunner() override;  // cancels a running round and joins the thread

  // Starts a round; returns its job number, 0 when a round is already running.
  quint64 start(const AgentJob& job);
  // Cancels the running round (thread-safe, immediate: the transfer is aborted, not waited out).
  void cancel();
  bool busy() const { return running_ != 0; }
  quint64 runningJob() const { return running_; }

  // Appends the user's decision on `round` ("accepted", "rejected", "restored") to the session log.
  void recordDecision(int round, const QString& taskId, const QString& decision);
  // Verifies `impl` for the task of `document` and adds it to `goldenFile` (learn::promote_to_golden).
  void promoteToGolden(const QString& goldenFile, const QString& document, const QString& impl, const QString& model,
                       const QString& sessionDir, int round, std::optional<std::int64_t> cycles = std::nullopt,
                       std::optional<double> speedup = std::nullopt);

  // The task and program of an editor document (a task document or a solution file resolved against the bundled
  // catalogue): false with `error` when there is no task. A document without `impl:` gives an empty program.
  static bool taskOf(const QString& document, step::TaskDoc& task, std::string& program, QString& error);

 Q_SIGNALS:
  void delta(quint64 job, const sf::widgets::AgentDelta& d);
  void finished(const sf::widgets::AgentOutcome& o);
  void decisionRecorded(int round, const QString& decision, const QString& error);
  void promoted(bool ok, const QString& message);  // message: the status text (GoldenPromotion::message)

 private:
  struct State;
  void post(std::function<void()> fn);  // runs `fn` on the worker thread, in order

  QThread* thread_;
  QObject* ctx_;                  // lives on thread_: the context of posted work
  std::shared_ptr<State> state_;  // used on the worker thread only
  quint64 running_ = 0, next_ = 0;
  llm::CancelToken cancel_;
};

}  // namespace sf::widgets
