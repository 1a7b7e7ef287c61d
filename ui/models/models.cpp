#include "models.h"

#include <QColor>
#include <QString>

#include <algorithm>

#include "kope/base/format.h"
#include "status.h"
#include "qtext.h"

using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

namespace kope::ui {

namespace {

QVariant raw(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }
QString firstLine(const std::string& s) {
  const QString t = q(s);
  const int nl = t.indexOf('\n');
  return nl < 0 ? t : t.left(nl) + QStringLiteral(" ...");
}

}  // namespace

double maxRelErr(const CaseResult& c) {
  double m = 0;
  for (const auto& o : c.outputs) m = std::max(m, o.max_rel);
  return m;
}

// ---- cases ----

QString CaseModel::header(int column) const {
  switch (column) {
    case Name: return tr("Case");
    case Status: return tr("Status");
    case MaxRelErr: return tr("Max rel. error");
    case Baseline: return tr("Baseline");
    case Kernel: return tr("Kernel");
    case Speedup: return tr("Speedup");
    case Interval: return tr("95% interval");
    case Floor: return tr("Memory floor");
    case Hap: return tr("HAP");
    case Message: return tr("Message");
  }
  return {};
}

QVariant CaseModel::cell(const CaseResult& c, int column, int role) const {
  const std::string st(case_status_name(c.status));
  if (role == StatusRole) return q(st);
  if (role == Qt::BackgroundRole && column == Status) return statusColor(st);
  if (role == FullTextRole) return q(c.message);
  if (role == Qt::ToolTipRole && column == Message) return plainToolTip(q(c.message));
  if (role == RawRole) {
    switch (column) {
      case Name: return q(c.name);
      case Status: return q(st);
      case MaxRelErr: return c.outputs.empty() ? QVariant() : QVariant(maxRelErr(c));
      case Baseline: return raw(c.baseline_median_ns);
      case Kernel: return raw(c.kernel_median_ns);
      case Speedup: return raw(c.speedup);
      case Interval: return c.speedup_interval ? QVariant(QVariantList{c.speedup_interval->first, c.speedup_interval->second}) : QVariant();
      case Floor: return raw(c.hw_bound_ns);
      case Hap: return raw(c.hap);
      case Message: return q(c.message);
    }
    return {};
  }
  if (role == Qt::TextAlignmentRole && column >= MaxRelErr && column <= Hap)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Name: return q(c.name);
    case Status: return statusText(st);
    case MaxRelErr: return c.outputs.empty() ? QStringLiteral("-") : q(format::sci(maxRelErr(c)));
    case Baseline: return q(format::duration_ns(c.baseline_median_ns));
    case Kernel: return q(format::duration_ns(c.kernel_median_ns));
    case Speedup: return q(format::speedup(c.speedup));
    case Interval: return q(format::interval(c.speedup_interval));
    case Floor: return q(format::duration_ns(c.hw_bound_ns));
    case Hap: return q(format::percent(c.hap));
    case Message: return firstLine(c.message);
  }
  return {};
}

// ---- diagnostics ----

QString DiagnosticModel::header(int column) const {
  switch (column) {
    case File: return tr("File");
    case Line: return tr("Line");
    case Col: return tr("Column");
    case Severity: return tr("Severity");
    case Message: return tr("Message");
  }
  return {};
}

QVariant DiagnosticModel::cell(const Diagnostic& d, int column, int role) const {
  if (role == LineRole) return d.line;
  if (role == ColumnRole) return d.column;
  if (role == StatusRole) return q(d.severity);
  if (role == FullTextRole) return q(d.message);
  if (role == Qt::ForegroundRole && column == Severity)
    return d.severity == "warning" ? QColor(0xa0, 0x60, 0x00) : d.severity == "note" ? QColor(0x40, 0x60, 0xa0) : QColor(0xb0, 0x20, 0x20);
  if (role != Qt::DisplayRole && role != RawRole) return {};
  switch (column) {
    case File: return q(d.file);
    case Line: return d.line;
    case Col: return d.column;
    case Severity: return q(d.severity);
    case Message: return q(d.message);
  }
  return {};
}

// ---- attempts ----

QString AttemptModel::header(int column) const {
  switch (column) {
    case Task: return tr("Task");
    case Kernel: return tr("Kernel");
    case Status: return tr("Status");
    case Speedup: return tr("Speedup");
    case Promoted: return tr("Promoted");
    case Idea: return tr("Idea");
  }
  return {};
}

QVariant AttemptModel::cell(const AttemptRow& r, int column, int role) const {
  const Attempt& a = r.attempt;
  if (role == IdRole) return QVariant::fromValue<qlonglong>(a.evaluation_id);
  if (role == StatusRole) return q(a.status);
  if (role == FullTextRole) return q(a.message);
  if (role == Qt::BackgroundRole && column == Status) return statusColor(a.status);
  if (role == RawRole) {
    switch (column) {
      case Task: return q(r.task);
      case Kernel: return q(a.name);
      case Status: return q(a.status);
      case Speedup: return raw(a.speedup);
      case Promoted: return a.promoted;
      case Idea: return q(a.thought);
    }
    return {};
  }
  if (role == Qt::ToolTipRole) return plainToolTip(q(a.message));
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Task: return q(r.task);
    case Kernel: return q(a.name);
    case Status: return statusText(a.status);
    case Speedup: return q(format::speedup(a.speedup));
    case Promoted: return a.promoted ? tr("yes") : QString();
    case Idea: return q(a.thought);
  }
  return {};
}

// ---- history ----

QString HistoryModel::header(int column) const {
  switch (column) {
    case Id: return tr("Id");
    case Task: return tr("Task");
    case Status: return tr("Status");
    case Speedup: return tr("Speedup");
    case Started: return tr("Started");
    case Kernel: return tr("Kernel");
  }
  return {};
}

QVariant HistoryModel::cell(const EvaluationRow& r, int column, int role) const {
  if (role == IdRole) return QVariant::fromValue<qlonglong>(r.id);
  if (role == KernelIdRole) return QVariant::fromValue<qlonglong>(r.kernel_id);
  if (role == StatusRole) return q(r.status);
  if (role == Qt::BackgroundRole && column == Status) return statusColor(r.status);
  if (role == RawRole) {
    switch (column) {
      case Id: return QVariant::fromValue<qlonglong>(r.id);
      case Task: return q(r.task);
      case Status: return q(r.status);
      case Speedup: return raw(r.speedup);
      case Started: return q(r.started_at);
      case Kernel: return q(r.kernel_origin);
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Id: return QString::number(r.id);
    case Task: return q(r.task);
    case Status: return statusText(r.status);
    case Speedup: return q(format::speedup(r.speedup));
    case Started: return q(r.started_at);
    case Kernel: return q(r.kernel_origin);
  }
  return {};
}

// ---- runs ----

QString RunModel::header(int column) const {
  switch (column) {
    case Id: return tr("Run");
    case Command: return tr("Command");
    case Status: return tr("Status");
    case Started: return tr("Started");
    case Finished: return tr("Finished");
  }
  return {};
}

QVariant RunModel::cell(const RunRow& r, int column, int role) const {
  if (role == IdRole) return QVariant::fromValue<qlonglong>(r.id);
  if (role == StatusRole) return q(r.status);
  if (role == Qt::BackgroundRole && column == Status) return statusColor(r.status);
  if (role != Qt::DisplayRole && role != RawRole) return {};
  switch (column) {
    case Id: return role == RawRole ? QVariant::fromValue<qlonglong>(r.id) : QVariant(QString::number(r.id));
    case Command: return q(r.command);
    case Status: return role == RawRole ? QVariant(q(r.status)) : QVariant(statusText(r.status));
    case Started: return q(r.started_at);
    case Finished: return q(r.finished_at);
  }
  return {};
}

// ---- compare ----

QString CompareModel::header(int column) const {
  switch (column) {
    case Name: return tr("Case");
    case AStatus: return tr("A status");
    case BStatus: return tr("B status");
    case AMedian: return tr("A median");
    case BMedian: return tr("B median");
    case Speedup: return tr("B over A");
    case Interval: return tr("95% interval");
  }
  return {};
}

QVariant CompareModel::cell(const CaseComparison& c, int column, int role) const {
  if (role == Qt::BackgroundRole && column == AStatus) return statusColor(c.a_status);
  if (role == Qt::BackgroundRole && column == BStatus) return statusColor(c.b_status);
  if (role == RawRole) {
    switch (column) {
      case Name: return q(c.name);
      case AStatus: return c.in_a ? QVariant(q(c.a_status)) : QVariant();
      case BStatus: return c.in_b ? QVariant(q(c.b_status)) : QVariant();
      case AMedian: return raw(c.a_median_ns);
      case BMedian: return raw(c.b_median_ns);
      case Speedup: return raw(c.speedup);
      case Interval: return c.interval ? QVariant(QVariantList{c.interval->first, c.interval->second}) : QVariant();
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Name: return q(c.name);
    case AStatus: return c.in_a ? statusText(c.a_status) : QStringLiteral("-");
    case BStatus: return c.in_b ? statusText(c.b_status) : QStringLiteral("-");
    case AMedian: return q(format::duration_ns(c.a_median_ns));
    case BMedian: return q(format::duration_ns(c.b_median_ns));
    case Speedup: return q(format::speedup(c.speedup));
    case Interval: return q(format::interval(c.interval));
  }
  return {};
}

// ---- steering ----

QString SteeringModel::header(int column) const {
  switch (column) {
    case At: return tr("At");
    case Act: return tr("Act");
    case Detail: return tr("Detail");
  }
  return {};
}

QVariant SteeringModel::cell(const SteeringAct& a, int column, int role) const {
  if (role == StatusRole) return q(a.act);
  if (role != Qt::DisplayRole && role != RawRole) return {};
  switch (column) {
    case At: return q(a.at);
    case Act: return q(a.act);
    case Detail: return q(a.detail);
  }
  return {};
}

// ---- tasks ----

QString TaskModel::header(int column) const { return column == Name ? tr("Task") : QString(); }

QVariant TaskModel::cell(const TaskRow& t, int column, int role) const {
  if (column != Name) return {};
  switch (role) {
    case Qt::DisplayRole: return QStringLiteral("L%1  %2").arg(t.level).arg(q(t.name));
    case RawRole: return q(t.name);
    case Qt::ToolTipRole: return plainToolTip(q(t.summary));
    case Qt::CheckStateRole:
      if (!checkable_) return {};
      return static_cast<int>(t.checked ? Qt::Checked : Qt::Unchecked);
  }
  return {};
}

Qt::ItemFlags TaskModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren |
         (checkable_ ? Qt::ItemIsUserCheckable : Qt::NoItemFlags);
}

bool TaskModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!checkable_ || !checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::CheckStateRole) return false;
  TaskRow t = at(index.row());
  t.checked = value.toInt() == Qt::Checked;
  replace(index.row(), t);
  return true;
}

std::vector<std::string> TaskModel::checkedTasks() const {
  std::vector<std::string> out;
  for (const auto& t : rows())
    if (t.checked) out.push_back(t.name);
  return out;
}

int TaskModel::rowOf(const std::string& name) const {
  for (int i = 0; i < rowCount(); ++i)
    if (at(i).name == name) return i;
  return -1;
}

}  // namespace kope::ui
