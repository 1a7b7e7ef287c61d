#include "connection_test.h"

#include <QMetaObject>

#include <algorithm>

namespace kope::ui {

ConnectionTest::ConnectionTest(QObject* parent) : QObject(parent) {
  qRegisterMetaType<kope::ui::ConnectionResult>();
}

ConnectionTest::~ConnectionTest() {
  if (cancel_) cancel_->store(true);
  join();
}

void ConnectionTest::join() {
  if (thread_.joinable()) thread_.join();
}

llm::ChatRequest ConnectionTest::request() {
  return {"", {{"user", "Reply with the single word: ok"}}};
}

llm::Profile ConnectionTest::testProfile(llm::Profile p) {
  // Enough output for a reasoning model to say something, not enough to cost anything; no retries, so what comes
  // back is what the server said first.
  p.max_output_tokens = std::min<int64_t>(p.max_output_tokens, 64);
  p.max_retries = 0;
  p.max_in_flight = std::max(p.max_in_flight, 1);
  return p;
}

namespace {

ConnectionResult run_test(const llm::Profile& p, const std::string& key, const std::atomic<bool>* cancel) {
  ConnectionResult r;
  try {
    llm::Client client(p, key);
    const llm::ChatReply reply = client.chat(ConnectionTest::request(), cancel);
    r.ok = true;
    r.modelNamed = !reply.model.empty();
    r.model = QString::fromStdString(reply.model.empty() ? p.model : reply.model);
    r.answer = QString::fromStdString(reply.answer.empty() ? reply.reasoning : reply.answer).trimmed();
    r.latencySeconds = reply.latency_s;
    r.tokensIn = reply.usage.prompt_tokens;
    r.tokensOut = reply.usage.completion_tokens;
    r.usageFromServer = reply.usage.from_server;
    r.cost = reply.cost;
  } catch (const llm::LlmError& e) {
    r.httpStatus = e.status();
    r.kind = QString::fromStdString(std::string(llm::error_kind_name(e.kind())));
    r.error = QString::fromStdString(e.what());
    r.cancelled = e.kind() == llm::ErrorKind::Cancelled;
  } catch (const std::exception& e) {
    r.error = QString::fromStdString(e.what());
  }
  return r;
}

}  // namespace

void ConnectionTest::start(const llm::Profile& profile, const std::string& key) {
  cancel();
  join();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  running_ = true;
  const quint64 serial = ++serial_;
  const llm::Profile p = testProfile(profile);
  thread_ = std::thread([this, p, key, serial, flag = cancel_] {
    const ConnectionResult r = run_test(p, key, flag.get());
    // Queued to this object: dropped by Qt if it is destroyed first (its destructor joins this thread before).
    QMetaObject::invokeMethod(this, [this, r, serial] {
      if (serial != serial_) return;
      running_ = false;
      join();
      emit finished(r);
    }, Qt::QueuedConnection);
  });
}

void ConnectionTest::cancel() {
  if (cancel_) cancel_->store(true);
  if (running_) {
    ++serial_;  // its answer, when it comes, is not this test's
    running_ = false;
  }
}

}  // namespace kope::ui
