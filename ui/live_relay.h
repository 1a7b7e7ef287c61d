// The agent's live hooks (kope/agent/live.h), called on the loop's threads, as LiveEvents on the GUI thread: in
// the order they happened, the deltas of one attempt merged while the GUI has not taken them yet, with at most
// one queued call in flight, so a fast stream never floods the event queue.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "kope/agent/live.h"
#include "models/live_models.h"

namespace kope::ui {

class LiveRelay : public std::enable_shared_from_this<LiveRelay> {
 public:
  using Sink = std::function<void(const LiveEvent&)>;  // called on `context`'s thread
  // `sink` is called on `context`'s thread, never after `context` is gone.
  static std::shared_ptr<LiveRelay> make(QObject* context, Sink sink);
  // The hooks for the policy; they hold the relay.
  agent::AttemptHooks hooks();

 private:
  LiveRelay(QObject* context, Sink sink) : context_(context), sink_(std::move(sink)) {}
  void push(LiveEvent e);
  void flush();

  QPointer<QObject> context_;
  Sink sink_;
  std::mutex mu_;
  std::vector<LiveEvent> pending_;
  bool posted_ = false;
};

}  // namespace kope::ui
