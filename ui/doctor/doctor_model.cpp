// The machine check's table model: verdicts and titles translated, the system's text shown as the engine gives it.
#include "doctor/doctor_model.h"
#include "models/qtext.h"

#include <QColor>

using namespace kope::doctor;

namespace kope::ui {

namespace {

QColor verdictColor(const DoctorCheck& c) {
  switch (c.verdict) {
    case Verdict::Ok: return QColor(0xd8, 0xf0, 0xd8);
    case Verdict::Info: return c.unknown ? QColor(0xf0, 0xf0, 0xd0) : QColor(0xe4, 0xec, 0xf4);
    case Verdict::Warn: return QColor(0xf8, 0xe4, 0xc0);
    case Verdict::Fail: return QColor(0xf8, 0xd8, 0xd8);
  }
  return {};
}

}  // namespace

QString DoctorModel::verdictText(const DoctorCheck& c) {
  if (c.unknown && c.verdict == Verdict::Info) return tr("unknown");
  switch (c.verdict) {
    case Verdict::Ok: return tr("ok");
    case Verdict::Info: return tr("info");
    case Verdict::Warn: return tr("warn");
    case Verdict::Fail: return tr("fail");
  }
  return {};
}

QString DoctorModel::titleText(const DoctorCheck& c) {
  const std::string& id = c.id;
  if (id == "compiler") return tr("C++ compiler");
  if (id == "library-baseline") return tr("Library baseline (ATen)");
  if (id == "user-namespaces") return tr("User namespaces");
  if (id == "bubblewrap") return tr("Bubblewrap (namespaces)");
  if (id == "seccomp") return tr("Seccomp filter");
  if (id == "cpu-clock") return tr("Exact CPU clock on workers (perf task-clock)");
  if (id == "cgroups") return tr("Cgroups (whole-tree limits)");
  if (id == "caches") return tr("Cache sizes for the flush");
  if (id == "timer") return tr("Timer resolution");
  if (id == "governor") return tr("CPU frequency governor");
  if (id == "turbo") return tr("Turbo / boost");
  if (id == "isolated-cores") return tr("Isolated cores");
  if (id == "smt") return tr("SMT (hyper-threading)");
  if (id == "load") return tr("Load at the time");
  if (id == "devices") return tr("Devices");
  return q(c.title);
}

QString DoctorModel::header(int column) const {
  switch (column) {
    case VerdictColumn: return tr("Verdict");
    case Check: return tr("Check");
    case Found: return tr("Found");
    case Todo: return tr("What to do");
  }
  return {};
}

QVariant DoctorModel::cell(const DoctorCheck& c, int column, int role) const {
  if (role == StatusRole) return q(std::string(verdict_name(c.verdict)));
  if (role == Qt::BackgroundRole && column == VerdictColumn) return verdictColor(c);
  if (role == RawRole && column == Check) return q(c.id);
  if (role != Qt::DisplayRole && role != RawRole) return {};
  switch (column) {
    case VerdictColumn: return verdictText(c);
    case Check: return titleText(c);
    case Found: return q(c.found);
    case Todo: return c.verdict == Verdict::Ok ? QString() : q(c.todo);
  }
  return {};
}

}  // namespace kope::ui
