// The kernel source editor: QScintilla with a C++ lexer that knows the kope ABI, CUDA and AscendC words.
#pragma once

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

namespace kope::ui {

class KernelLexer : public QsciLexerCPP {
 public:
  explicit KernelLexer(QObject* parent = nullptr);
  // Set 2 (identifiers styled as secondary keywords): the kope ABI plus CUDA and AscendC names.
  const char* keywords(int set) const override;
};

class KernelEditor : public QsciScintilla {
  Q_OBJECT
 public:
  explicit KernelEditor(QWidget* parent = nullptr);

  // Moves the cursor to a 1-based line and column and marks the line as holding a diagnostic.
  void goToDiagnostic(int line, int column);
  void clearDiagnosticMarks();
  int diagnosticMarkCount() const;

 private:
  void updateMarginWidth();
  int error_marker_ = 0;
};

}  // namespace kope::ui
