// The compile pane: the command and flags, the time, the compiler's full output (carets and notes included), a
// "compiled" line on success, and the diagnostics as a table whose rows jump to the editor.
#pragma once

#include <QWidget>

#include "kope/exec/compiler.h"
#include "models/models.h"

class QPlainTextEdit;
class QTableView;

namespace kope::ui {

class CompilePane : public QWidget {
  Q_OBJECT
 public:
  explicit CompilePane(QWidget* parent = nullptr);

  DiagnosticModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  QPlainTextEdit* output() const { return output_; }

  void showCompiling(const QString& kernel);
  // `source` and `file`: the compiled text and its name in the diagnostics, to show the source line and a caret
  // under each diagnostic where the compiler could not (it names the editor's file, which may not exist on disk).
  void showResult(const BuildResult& result, bool compiled, const QString& error, const QString& source = {},
                  const QString& file = {});
  void clear();
  void retranslate() { model_->retranslate(); }

 signals:
  void diagnosticActivated(int line, int column);

 private:
  DiagnosticModel* model_ = nullptr;
  QTableView* view_ = nullptr;
  QPlainTextEdit* output_ = nullptr;
};

}  // namespace kope::ui
