#include "status.h"

#include <QCoreApplication>
#include <QTextDocument>

#include <cstring>

namespace kope::ui {

namespace {

struct Word {
  const char* key;
  const char* text;
};

// The words as lupdate sees them (context "Status").
constexpr Word kWords[] = {
    {"passed", QT_TRANSLATE_NOOP("Status", "passed")},
    {"wrong", QT_TRANSLATE_NOOP("Status", "wrong")},
    {"crash", QT_TRANSLATE_NOOP("Status", "crash")},
    {"timeout", QT_TRANSLATE_NOOP("Status", "timeout")},
    {"runtime_error", QT_TRANSLATE_NOOP("Status", "runtime error")},
    {"load_error", QT_TRANSLATE_NOOP("Status", "load error")},
    {"inputs_modified", QT_TRANSLATE_NOOP("Status", "inputs modified")},
    {"compile_error", QT_TRANSLATE_NOOP("Status", "compile error")},
    {"no_cases", QT_TRANSLATE_NOOP("Status", "no cases")},
    {"running", QT_TRANSLATE_NOOP("Status", "running")},
    {"interrupted", QT_TRANSLATE_NOOP("Status", "interrupted")},
    {"error", QT_TRANSLATE_NOOP("Status", "error")},
    {"cancelled", QT_TRANSLATE_NOOP("Status", "cancelled")},
    {"stopped", QT_TRANSLATE_NOOP("Status", "stopped")},
    {"done", QT_TRANSLATE_NOOP("Status", "done")},
    {"rejected", QT_TRANSLATE_NOOP("Status", "rejected")},
    {"needs_review", QT_TRANSLATE_NOOP("Status", "needs review")},
    {"proposing", QT_TRANSLATE_NOOP("Status", "proposing")},
    {"held", QT_TRANSLATE_NOOP("Status", "held for approval")},
    {"compiling", QT_TRANSLATE_NOOP("Status", "compiling")},
    {"waiting", QT_TRANSLATE_NOOP("Status", "waiting for its turn")},
    {"testing", QT_TRANSLATE_NOOP("Status", "testing")},
    {"timing", QT_TRANSLATE_NOOP("Status", "timing")},
    {"paused", QT_TRANSLATE_NOOP("Status", "paused")},
    {"starting", QT_TRANSLATE_NOOP("Status", "starting")},
    {"finished", QT_TRANSLATE_NOOP("Status", "finished")},
    {"goldens", QT_TRANSLATE_NOOP("Status", "computing goldens")},
    {"infrastructure", QT_TRANSLATE_NOOP("Status", "infrastructure failure")},
    {"awaiting_reply", QT_TRANSLATE_NOOP("Status", "waiting for the reply")},
    {"streaming", QT_TRANSLATE_NOOP("Status", "streaming")},
    {"candidate", QT_TRANSLATE_NOOP("Status", "candidate")},
    {"no_candidate", QT_TRANSLATE_NOOP("Status", "no candidate")},
};

}  // namespace

QString statusText(const std::string& s) {
  for (const Word& w : kWords)
    if (s == w.key) return QCoreApplication::translate("Status", w.text);
  return QString::fromStdString(s);
}

QString phaseText(const std::string& p) { return statusText(p); }

QColor statusColor(const std::string& s) {
  if (s == "passed" || s == "done") return QColor(0xd8, 0xf0, 0xd8);
  if (s == "running" || s == "stopped" || s == "cancelled" || s == "interrupted" || s == "rejected" ||
      s == "needs_review")
    return QColor(0xf0, 0xf0, 0xd0);
  if (s.empty()) return {};
  return QColor(0xf8, 0xd8, 0xd8);
}

QString plainToolTip(const QString& text) {
  if (!Qt::mightBeRichText(text)) return text;
  return QStringLiteral("<p style='white-space:pre-wrap'>") + text.toHtmlEscaped() + QStringLiteral("</p>");
}

}  // namespace kope::ui
