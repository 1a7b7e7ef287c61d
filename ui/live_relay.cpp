#include "live_relay.h"

#include <QMetaObject>

namespace kope::ui {

std::shared_ptr<LiveRelay> LiveRelay::make(QObject* context, Sink sink) {
  return std::shared_ptr<LiveRelay>(new LiveRelay(context, std::move(sink)));
}

agent::AttemptHooks LiveRelay::hooks() {
  std::shared_ptr<LiveRelay> self = shared_from_this();
  agent::AttemptHooks h;
  h.prompt = [self](const agent::LiveAttempt& a, const agent::Prompt& p) {
    LiveEvent e;
    e.kind = LiveEvent::Kind::Prompt;
    e.who = a;
    e.prompt = std::make_shared<const agent::Prompt>(p);
    self->push(std::move(e));
  };
  h.delta = [self](const agent::LiveAttempt& a, const agent::LiveDelta& d) {
    LiveEvent e;
    e.kind = LiveEvent::Kind::Delta;
    e.who = a;
    e.answer = std::string(d.answer);
    e.reasoning = std::string(d.reasoning);
    e.restart = d.restart;
    e.usage = d.usage;
    self->push(std::move(e));
  };
  h.end = [self](const agent::LiveAttempt& a, const agent::LiveEnd& end) {
    LiveEvent e;
    e.kind = LiveEvent::Kind::End;
    e.who = a;
    e.status = end.status;
    e.error = end.error;
    e.usage = end.usage;
    self->push(std::move(e));
  };
  return h;
}

// A delta joins the one before it when that is of the same attempt and not yet taken: its text appended, its
// usage the later one.
void LiveRelay::push(LiveEvent e) {
  std::lock_guard<std::mutex> lock(mu_);
  if (e.kind == LiveEvent::Kind::Delta && !e.restart && !pending_.empty()) {
    LiveEvent& last = pending_.back();
    if (last.kind == LiveEvent::Kind::Delta && last.who.transcript_id == e.who.transcript_id &&
        last.who.task == e.who.task) {
      last.answer += e.answer;
      last.reasoning += e.reasoning;
      last.usage = e.usage;
      return;
    }
  }
  pending_.push_back(std::move(e));
  if (posted_) return;
  posted_ = true;
  // Held by the queued call: the events of a run's last attempt arrive after its policy is gone.
  std::shared_ptr<LiveRelay> self = shared_from_this();
  QMetaObject::invokeMethod(context_.data(), [self] { self->flush(); }, Qt::QueuedConnection);
}

void LiveRelay::flush() {
  std::vector<LiveEvent> events;
  {
    std::lock_guard<std::mutex> lock(mu_);
    events.swap(pending_);
    posted_ = false;
  }
  if (!context_) return;
  for (const LiveEvent& e : events) sink_(e);
}

}  // namespace kope::ui
