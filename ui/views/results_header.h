// The line above the results that says whose results they are: task, kernel version, evaluation; or that
// they are stale (the editor or the task changed since), so results are never shown as another version's.
#pragma once

#include <QLabel>

#include <string>

namespace kope::ui {

class ResultsHeader : public QLabel {
  Q_OBJECT
 public:
  explicit ResultsHeader(QWidget* parent = nullptr);

  // Results of `evaluationId` for `task`, kernel `kernel` (a file or origin, and its sha256 prefix).
  void setCurrent(const QString& task, const QString& kernel, const QString& sha, qint64 evaluationId,
                  const QString& status);
  // A build alone, recorded nowhere (the window's Compile, or a hand-made kernel that does not compile).
  void setCompiled(const QString& task, const QString& kernel, const QString& sha, bool compiled);
  // Running: no results yet for this task and kernel.
  void setRunning(const QString& task, const QString& kernel, const QString& phase);
  // The results stay visible but are marked as not describing what is in the editor / selected.
  void setStale(const QString& reason);
  void setEmpty(const QString& task);
  void retranslate();

  QString task() const { return task_; }
  qint64 evaluationId() const { return evaluation_; }
  bool isStale() const { return stale_; }
  bool isRunning() const { return running_; }
  bool isCompileOnly() const { return compile_only_; }

 private:
  void render();
  QString task_, kernel_, sha_, status_, phase_, stale_reason_;
  qint64 evaluation_ = 0;
  bool stale_ = false, running_ = false, compile_only_ = false, compiled_ = false;
};

}  // namespace kope::ui
