#include "models/study_models.h"

#include <QLocale>

namespace kope::ui {

namespace {

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + QStringLiteral("%"); }
QString times(const std::optional<double>& v) { return v ? QString::number(*v, 'f', 2) + QStringLiteral("x") : QStringLiteral("-"); }
QString text(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

QString StudyLevelModel::header(int column) const {
  switch (column) {
    case Arm: return tr("Arm");
    case Level: return tr("Level");
    case Compiled: return tr("Compiled");
    case Correct: return tr("Correct");
    case PassRate: return tr("Pass rate");
    case Fast1: return tr("fast_1");
    case Speedup: return tr("Speedup (geomean)");
    case Score: return tr("Score");
    case Attempts: return tr("Attempts");
    case Tokens: return tr("Tokens");
    case Wall: return tr("Wall time");
    default: return {};
  }
}

QVariant StudyLevelModel::cell(const study::LevelRow& r, int column, int role) const {
  if (role == RawRole) {
    switch (column) {
      case Arm: return text(r.arm);
      case Level: return r.level;
      case Compiled: return r.compiled;
      case Correct: return r.correct;
      case PassRate: return r.pass_rate;
      case Fast1: return r.fast_1;
      case Speedup: return r.geomean_speedup ? QVariant(*r.geomean_speedup) : QVariant();
      case Score: return r.score;
      case Attempts: return r.attempts;
      case Tokens: return qlonglong(r.tokens);
      case Wall: return r.wall_seconds;
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole && column == Fast1)
    return tr("operators correct and faster than the %1 baseline").arg(text(r.fast_1_against));
  if (role == Qt::TextAlignmentRole && column >= Compiled) return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Arm: return text(r.arm);
    case Level: return QStringLiteral("L%1").arg(r.level);
    case Compiled: return QStringLiteral("%1/%2").arg(r.compiled).arg(r.operators);
    case Correct: return QStringLiteral("%1/%2").arg(r.correct).arg(r.operators);
    case PassRate: return tr("%1 (%2/%3 cases)").arg(percent(r.pass_rate)).arg(r.cases_correct).arg(r.cases);
    case Fast1: return percent(r.fast_1);
    case Speedup: return times(r.geomean_speedup);
    case Score: return QString::number(r.score, 'f', 1);
    case Attempts: return r.attempts;
    case Tokens: return QLocale().toString(qlonglong(r.tokens));
    case Wall: return tr("%1 s").arg(QString::number(r.wall_seconds, 'f', 0));
    default: return {};
  }
}

QString StudyTaskModel::header(int column) const {
  switch (column) {
    case Arm: return tr("Arm");
    case Level: return tr("Level");
    case Task: return tr("Operator");
    case Kernel: return tr("Kernel");
    case Cases: return tr("Cases correct");
    case Speedup: return tr("Speedup");
    case Score: return tr("Score");
    case Attempts: return tr("Attempts");
    case Tokens: return tr("Tokens");
    default: return {};
  }
}

QVariant StudyTaskModel::cell(const study::TaskRow& r, int column, int role) const {
  if (role == RawRole) {
    switch (column) {
      case Arm: return text(r.arm);
      case Level: return r.level;
      case Task: return text(r.task);
      case Kernel: return text(r.kernel);
      case Cases: return r.cases ? double(r.cases_correct) / r.cases : 0.0;
      case Speedup: return r.speedup && r.correct ? QVariant(*r.speedup) : QVariant();
      case Score: return r.score;
      case Attempts: return r.attempts;
      case Tokens: return qlonglong(r.tokens);
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole && !r.error.empty()) return text(r.error);
  if (role == StatusRole) return r.correct ? QStringLiteral("passed") : r.compiled ? QStringLiteral("wrong") : QStringLiteral("compile_error");
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case Arm: return text(r.arm);
    case Level: return QStringLiteral("L%1").arg(r.level);
    case Task: return text(r.task);
    case Kernel: return r.kernel.empty() ? tr("(none)") : text(r.kernel);
    case Cases: return QStringLiteral("%1/%2").arg(r.cases_correct).arg(r.cases);
    case Speedup: return r.speedup && r.correct ? tr("%1 vs %2").arg(times(r.speedup), text(r.against)) : QStringLiteral("-");
    case Score: return QString::number(r.score, 'f', 1);
    case Attempts: return r.attempts;
    case Tokens: return QLocale().toString(qlonglong(r.tokens));
    default: return {};
  }
}

}  // namespace kope::ui
