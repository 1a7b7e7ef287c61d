// The details of one Case: thought and tags, the unified diff against its parent (coloured), feedback, per-case
// speedups with their 95% intervals (from the evaluation's stored report), the Journal entry and the curation
// history; buttons that emit what the main window connects to the editor, the compare view and the run controller.
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "kope/memory/memory.h"

class QTextBrowser;
class QPushButton;
class QLabel;

namespace kope::graph {

struct CaseDetailsData {
  kope::memory::CaseRow row;                       // full (diff, feedback)
  bool incumbent = false;
  std::optional<int64_t> incumbentEvaluation;      // of the same task and device
  std::optional<int64_t> otherEvaluation;          // a second selected node's evaluation, if any
  std::vector<kope::memory::JournalEntry> journal;
  std::vector<kope::memory::CurationAct> curation;
  std::string report;                              // the evaluation's JSON report; empty if none
  std::string kernelSource;
};

class CaseDetails : public QWidget {
  Q_OBJECT
 public:
  explicit CaseDetails(QWidget* parent = nullptr);
  void showCase(const CaseDetailsData& d);
  void clear();
  // The buttons and the shown Case again, in the current language.
  void retranslate();
  QString text() const;  // the shown text, plain (tests)
  std::optional<int64_t> caseId() const { return caseId_; }

 signals:
  void openInEditor(qint64 kernelId, QString source);
  void compare(qint64 evaluationA, qint64 evaluationB);
  void forkFrom(qint64 evaluationId);

 private:
  QLabel* title_;
  QTextBrowser* body_;
  QPushButton *open_, *compareIncumbent_, *compareOther_, *fork_;
  std::optional<int64_t> caseId_, eval_, incEval_, otherEval_, kernelId_;
  QString source_;
  std::optional<CaseDetailsData> shown_;  // what showCase() last showed, for retranslate()
};

// HTML of a unified diff, + lines green, - lines red, hunk headers blue (escaped).
QString diffHtml(const std::string& diff);

}  // namespace kope::graph
