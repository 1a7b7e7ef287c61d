// The kernel source editor: QScintilla with a C++ lexer that knows the kope ABI, CUDA and AscendC words.
#pragma once

#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

#include <string>
#include <vector>

#include "kope/exec/compiler.h"

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
  // Marks every diagnostic of `file` in the margin (error or warning symbol, the line tinted) and underlines
  // the text from its column to the end of the word with a squiggle; its message is the marker's tooltip.
  void showDiagnostics(const std::vector<kope::Diagnostic>& diagnostics, const std::string& file);
  void clearDiagnosticMarks();
  int diagnosticMarkCount() const;  // lines marked as holding an error
  int warningMarkCount() const;
  // Whether the error or warning squiggle covers the 0-based position.
  bool hasIndicatorAt(int line, int column) const;
  // Lines tinted as added or removed (the comparison's sides).
  void markDiffLine(int line, bool added);
  int diffMarkCount() const;

 private:
  void updateMarginWidth();
  int countMarker(int marker) const;
  int error_marker_ = 0;
  int error_symbol_ = 0;
  int warning_marker_ = 0;
  int added_marker_ = 0;
  int removed_marker_ = 0;
  int error_indicator_ = 0;
  int warning_indicator_ = 0;
};

}  // namespace kope::ui
