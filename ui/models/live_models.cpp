#include "live_models.h"

#include "status.h"
#include "qtext.h"

namespace kope::ui {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

QString LiveReplyModel::header(int column) const {
  switch (column) {
    case Task: return tr("Task");
    case Attempt: return tr("Attempt");
    case Phase: return tr("Reply");
    case TokensIn: return tr("Tokens in");
    case TokensOut: return tr("Tokens out");
    case Cost: return tr("Cost");
    case Time: return tr("Time");
  }
  return {};
}

double LiveReplyModel::seconds(const LiveReplyRow& r) {
  return r.live() ? std::chrono::duration<double>(Clock::now() - r.started).count() : r.seconds;
}

QString LiveReplyModel::timeText(double seconds) {
  const qint64 s = static_cast<qint64>(seconds);
  return QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

// "~1234 in · ~56 out" while kope estimates, without the tilde once the server's figures came.
QString LiveReplyModel::tokensText(const LiveReplyRow& r) {
  const QString approx = r.usage.from_server ? QString() : QStringLiteral("~");
  return tr("%1%2 in · %1%3 out").arg(approx).arg(r.usage.prompt_tokens).arg(r.usage.completion_tokens);
}

QString LiveReplyModel::costText(const LiveReplyRow& r) {
  if (!r.who.priced() || !r.usage.cost) return tr("no price set");
  return QStringLiteral("%1$%2").arg(r.usage.from_server ? QString() : QStringLiteral("~")).arg(*r.usage.cost, 0, 'f', 4);
}

QVariant LiveReplyModel::cell(const LiveReplyRow& r, int column, int role) const {
  if (role == StatusRole) return q(r.phase);
  if (role == IdRole) return QVariant::fromValue<qlonglong>(r.who.transcript_id);
  if (role == Qt::BackgroundRole && column == Phase && !r.live()) return statusColor(r.phase == "candidate" ? "passed" : r.phase);
  if (role == Qt::ToolTipRole && column == Phase && !r.error.empty()) return plainToolTip(q(r.error));
  if (role == RawRole) {
    switch (column) {
      case Task: return q(r.who.task);
      case Attempt: return r.who.iteration;
      case Phase: return q(r.phase);
      case TokensIn: return QVariant::fromValue<qlonglong>(r.usage.prompt_tokens);
      case TokensOut: return QVariant::fromValue<qlonglong>(r.usage.completion_tokens);
      case Cost: return r.who.priced() && r.usage.cost ? QVariant(*r.usage.cost) : QVariant();
      case Time: return seconds(r);
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  const QString approx = r.usage.from_server ? QString() : QStringLiteral("~");
  switch (column) {
    case Task: return q(r.who.task);
    case Attempt: return r.who.iteration;
    case Phase: return statusText(r.phase);
    case TokensIn: return approx + QString::number(r.usage.prompt_tokens);
    case TokensOut: return approx + QString::number(r.usage.completion_tokens);
    case Cost: return costText(r);
    case Time: return timeText(seconds(r));
  }
  return {};
}

int LiveReplyModel::rowOf(const std::string& task) const {
  for (int i = 0; i < rowCount(); ++i)
    if (at(i).who.task == task) return i;
  return -1;
}

void LiveReplyModel::apply(const LiveEvent& e) {
  int row = rowOf(e.who.task);
  if (e.kind == LiveEvent::Kind::Prompt) {
    LiveReplyRow r;
    r.who = e.who;
    r.phase = "awaiting_reply";
    r.prompt = e.prompt;
    r.usage.prompt_tokens = e.who.prompt_estimate;
    if (e.who.priced()) r.usage.cost = e.who.prompt_estimate * *e.who.price_in_per_mtok / 1e6;  // nothing out yet
    r.started = Clock::now();
    if (row < 0) {
      append(std::move(r));
      row = rowCount() - 1;
    } else {
      replace(row, std::move(r));
    }
    emit promptArrived(row);
    return;
  }
  // A delta or end of an attempt whose prompt did not reach this model (it was cleared meanwhile): dropped.
  if (row < 0 || at(row).who.transcript_id != e.who.transcript_id) return;
  LiveReplyRow& r = rowRef(row);
  if (e.kind == LiveEvent::Kind::Delta) {
    if (e.restart) {
      r.answer.clear();
      r.reasoning.clear();
    }
    r.answer += e.answer;
    r.reasoning += e.reasoning;
    r.usage = e.usage;
    if (!r.answer.empty() || !r.reasoning.empty()) r.phase = "streaming";
    emit dataChanged(index(row, Phase), index(row, Time));
    emit textAppended(row, q(e.answer), q(e.reasoning), e.restart);
    return;
  }
  r.seconds = seconds(r);
  r.phase = e.status;
  r.error = e.error;
  r.usage = e.usage;
  emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
  emit ended(row);
}

void LiveReplyModel::tick() {
  for (int i = 0; i < rowCount(); ++i)
    if (at(i).live()) emit dataChanged(index(i, Time), index(i, Time));
}

}  // namespace kope::ui
