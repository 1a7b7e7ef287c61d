#include "run_models.h"

#include <QColor>
#include <QString>

#include "kope/base/format.h"
#include "status.h"
#include "qtext.h"

using namespace kope::loop;

namespace kope::ui {

namespace {

// "12.3k" for a count of tokens: the column stays narrow while a run spends hundreds of thousands.
QString tokenText(int64_t n) {
  if (n < 10000) return QString::number(n);
  if (n < 10000000) return QString::number(static_cast<double>(n) / 1000.0, 'f', 1) + "k";
  return QString::number(static_cast<double>(n) / 1e6, 'f', 1) + "M";
}

}  // namespace

QString InFlightModel::header(int column) const {
  switch (column) {
    case Task: return tr("Task");
    case Phase: return tr("Phase");
    case Attempt: return tr("Attempt");
    case LastStatus: return tr("Last status");
    case Incumbent: return tr("Incumbent");
    case Tokens: return tr("Tokens");
  }
  return {};
}

QVariant InFlightModel::cell(const InFlightRow& r, int column, int role) const {
  if (role == StatusRole) return q(r.finished ? "finished" : r.phase);
  if (role == Qt::BackgroundRole && column == LastStatus)
    return r.last_status.empty() ? QVariant() : QVariant(statusColor(r.last_status));
  if (role == RawRole) {
    switch (column) {
      case Task: return q(r.task);
      case Phase: return q(r.phase);
      case Attempt: return r.attempts;
      case LastStatus: return q(r.last_status);
      case Incumbent: return r.incumbent ? QVariant(*r.incumbent) : QVariant();
      case Tokens: return QVariant::fromValue<qlonglong>(r.tokens);
    }
    return {};
  }
  if (role == Qt::ToolTipRole && column == Phase) return plainToolTip(q(r.detail));
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Task: return q(r.task);
    case Phase: {
      QString p = r.finished ? phaseText("finished") : phaseText(r.phase);
      if (r.stopped && !r.finished) p = tr("%1 (stopping)").arg(p);
      else if (r.paused && !r.finished && r.phase != "paused") p = tr("%1 (pause asked)").arg(p);
      return r.detail.empty() || r.finished ? p : tr("%1: %2").arg(p, q(r.detail));
    }
    case Attempt:
      return max_attempts_ > 0 ? tr("%1/%2").arg(r.attempts).arg(max_attempts_) : QString::number(r.attempts);
    case LastStatus: return statusText(r.last_status);
    case Incumbent: return r.incumbent ? q(format::speedup(r.incumbent)) : tr("baseline");
    case Tokens: return tokenText(r.tokens);
  }
  return {};
}

template <typename F>
void InFlightModel::update(const std::string& task, F change) {
  const int row = rowOf(task);
  if (row < 0) {
    InFlightRow r;
    r.task = task;
    change(r);
    append(std::move(r));
    return;
  }
  InFlightRow r = at(row);
  change(r);
  replace(row, std::move(r));
}

void InFlightModel::setPhase(const std::string& task, const std::string& phase, const std::string& detail) {
  update(task, [&](InFlightRow& r) {
    if (phase == "finished") {
      r.finished = true;
    } else {
      r.phase = phase;
      r.finished = false;
    }
    r.detail = detail;
  });
}

void InFlightModel::addAttempt(const std::string& task, const loop::Attempt& a) {
  update(task, [&](InFlightRow& r) {
    ++r.attempts;
    r.last_status = a.status;
    r.tokens += a.tokens;
    if (a.promoted && a.speedup) r.incumbent = a.speedup;
    r.detail.clear();
    // The last attempt a task may make: nothing follows it but the task's end.
    if (max_attempts_ > 0 && r.attempts >= max_attempts_) r.finished = true;
  });
}

void InFlightModel::setIncumbent(const std::string& task, double speedup) {
  update(task, [&](InFlightRow& r) { r.incumbent = speedup; });
}

void InFlightModel::setSteered(const std::string& task, bool paused, bool stopped) {
  update(task, [&](InFlightRow& r) {
    r.paused = paused;
    r.stopped = stopped;
  });
}

void InFlightModel::finish(const std::vector<TaskOutcome>& outcomes) {
  for (const TaskOutcome& o : outcomes)
    update(o.task, [&](InFlightRow& r) {
      r.finished = true;
      r.detail.clear();
      r.attempts = static_cast<int>(o.attempts.size());
      if (!o.attempts.empty()) r.last_status = o.attempts.back().status;
      if (!o.error.empty()) r.last_status = "error";
      // the baseline itself stays "baseline"; a kernel that beat it shows its speedup
      if (o.incumbent_name != "baseline") r.incumbent = o.incumbent_speedup;
    });
  for (int row = 0; row < rowCount(); ++row)  // a task stopped before its first attempt
    if (!at(row).finished) update(at(row).task, [](InFlightRow& r) { r.finished = true; });
}

int InFlightModel::rowOf(const std::string& task) const {
  for (int r = 0; r < rowCount(); ++r)
    if (at(r).task == task) return r;
  return -1;
}

int64_t InFlightModel::tokens() const {
  int64_t n = 0;
  for (const InFlightRow& r : rows()) n += r.tokens;
  return n;
}

int InFlightModel::attemptsDone() const {
  int n = 0;
  for (const InFlightRow& r : rows()) n += r.attempts;
  return n;
}

QString SlotModel::header(int column) const {
  switch (column) {
    case Slot: return tr("Slot");
    case State: return tr("State");
    case Doing: return tr("Doing");
    case Measurements: return tr("Measurements");
  }
  return {};
}

QVariant SlotModel::cell(const SlotState& s, int column, int role) const {
  const char* state = s.retired ? "retired" : s.busy ? "busy" : "idle";
  if (role == StatusRole) return QString::fromLatin1(state);
  if (role == Qt::BackgroundRole && column == State)
    return s.retired ? QColor(0xf8, 0xd8, 0xd8) : s.busy ? QColor(0xf0, 0xf0, 0xd0) : QVariant();
  if (role == Qt::ToolTipRole) return plainToolTip(q(s.retired ? s.why : s.doing));
  if (role == RawRole) {
    switch (column) {
      case Slot: return q(s.spec.name);
      case State: return QString::fromLatin1(state);
      case Doing: return q(s.retired ? s.why : s.doing);
      case Measurements: return QVariant::fromValue<qlonglong>(s.measurements);
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    // The one slot of an unpinned device is named "all cores" by the engine (kope/base/timing_slots.h); other
    // names are cores and hosts.
    case Slot: return s.spec.name == "all cores" ? tr("all cores") : q(s.spec.name);
    case State: return s.retired ? tr("retired") : s.busy ? tr("busy") : tr("idle");
    case Doing: return s.retired ? tr("out of the pool: %1").arg(q(s.why)) : q(s.doing);
    case Measurements: return QString::number(s.measurements);
  }
  return {};
}

void SlotModel::refresh(std::vector<SlotState> states) {
  if (states.size() != rows().size()) {
    setRows(std::move(states));
    return;
  }
  for (std::size_t i = 0; i < states.size(); ++i) {
    const SlotState& a = rows()[i];
    const SlotState& b = states[i];
    if (a.spec.name != b.spec.name || a.busy != b.busy || a.doing != b.doing || a.retired != b.retired ||
        a.why != b.why || a.measurements != b.measurements)
      replace(static_cast<int>(i), b);
  }
}

}  // namespace kope::ui
