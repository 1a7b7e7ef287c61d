// "Test connection": one tiny request through the core's LLM client (the same one a run uses), on a thread of its
// own so the window never waits on the network; the answer reaches the UI thread as a signal: the model that
// answered, the latency and the token usage, or the exact error (HTTP status and what the server said, or the
// transport's words for DNS, TLS, a refused connection or a timeout).
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

#include "kope/llm/client.h"

namespace kope::ui {

struct ConnectionResult {
  bool ok = false;
  QString model;          // the model the server says answered (else the profile's, said so in `modelNamed`)
  bool modelNamed = false;
  QString answer;
  double latencySeconds = 0;
  qint64 tokensIn = 0, tokensOut = 0;
  bool usageFromServer = false;
  std::optional<double> cost;
  long httpStatus = 0;    // 0: no HTTP answer (DNS, TLS, refused, timeout) or not an HTTP failure
  QString kind;           // the core's error kind (auth, network, ...), empty when ok
  QString error;          // the core's message, whole
  bool cancelled = false;
};

class ConnectionTest : public QObject {
  Q_OBJECT
 public:
  explicit ConnectionTest(QObject* parent = nullptr);
  ~ConnectionTest() override;  // cancels a test in flight and waits for its thread (within ~0.1 s)

  // The request the test sends and the limits it runs under: a few output tokens, no retries, so an error is
  // the server's first answer.
  static llm::ChatRequest request();
  static llm::Profile testProfile(llm::Profile p);

  // Starts a test of `profile` with `key` (empty: none); a test already running is cancelled first.
  void start(const llm::Profile& profile, const std::string& key);
  void cancel();
  bool running() const { return running_; }

 signals:
  void finished(const kope::ui::ConnectionResult& result);

 private:
  void join();

  std::shared_ptr<std::atomic<bool>> cancel_;
  std::thread thread_;
  bool running_ = false;
  quint64 serial_ = 0;  // a cancelled test's late answer is dropped
};

}  // namespace kope::ui

Q_DECLARE_METATYPE(kope::ui::ConnectionResult)
