#include "kernel_editor.h"

#include <QFontDatabase>

#include <algorithm>

namespace kope::ui {

KernelLexer::KernelLexer(QObject* parent) : QsciLexerCPP(parent) {}

const char* KernelLexer::keywords(int set) const {
  if (set == 2)
    return "kope_kernel kope_args kope_tensor kope_attr kope_attr_or kope_real kope_dtype "
           "KOPE_F32 KOPE_F64 KOPE_F16 KOPE_BF16 KOPE_I32 KOPE_I64 KOPE_U8 KOPE_MAX_DIMS "
           "kope_f16_to_f32 kope_f32_to_f16 kope_bf16_to_f32 kope_f32_to_bf16 "
           "__global__ __device__ __host__ __shared__ __constant__ __restrict__ __syncthreads "
           "threadIdx blockIdx blockDim gridDim warpSize half bfloat16 "
           "__aicore__ __gm__ GM_ADDR AscendC TPipe TQue TBuf GlobalTensor LocalTensor DataCopy "
           "GetBlockIdx GetBlockNum int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t";
  return QsciLexerCPP::keywords(set);
}

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent) {
  const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  auto* lexer = new KernelLexer(this);
  lexer->setDefaultFont(mono);
  lexer->setFont(mono);
  lexer->setColor(QColor(0x8a, 0x3f, 0xb8), QsciLexerCPP::KeywordSet2);
  setLexer(lexer);
  // setLexer() resets the margins, so they are set after it.
  setMarginType(0, QsciScintilla::NumberMargin);
  setMarginsFont(mono);
  setMarginsBackgroundColor(QColor(0xf0, 0xf0, 0xf0));
  setMarginsForegroundColor(QColor(0x60, 0x60, 0x60));
  setMarginLineNumbers(0, true);
  updateMarginWidth();
  connect(this, &QsciScintilla::linesChanged, this, &KernelEditor::updateMarginWidth);
  setUtf8(true);
  setIndentationsUseTabs(false);
  setIndentationWidth(2);
  setTabWidth(2);
  setAutoIndent(true);
  setBraceMatching(QsciScintilla::SloppyBraceMatch);
  setCaretLineVisible(true);
  setCaretLineBackgroundColor(QColor(0xf5, 0xf8, 0xff));
  error_marker_ = markerDefine(QsciScintilla::Background);
  setMarkerBackgroundColor(QColor(0xff, 0xd8, 0xd8), error_marker_);
  // Margin 1 holds the error and warning symbols.
  setMarginType(1, QsciScintilla::SymbolMargin);
  setMarginWidth(1, 14);
  setMarginSensitivity(1, true);
  error_symbol_ = markerDefine(QsciScintilla::Circle);
  setMarkerBackgroundColor(QColor(0xd0, 0x20, 0x20), error_symbol_);
  setMarkerForegroundColor(QColor(0x80, 0x00, 0x00), error_symbol_);
  warning_marker_ = markerDefine(QsciScintilla::RightTriangle);
  setMarkerBackgroundColor(QColor(0xe0, 0xa0, 0x00), warning_marker_);
  setMarkerForegroundColor(QColor(0x80, 0x50, 0x00), warning_marker_);
  added_marker_ = markerDefine(QsciScintilla::Background);
  setMarkerBackgroundColor(QColor(0xd8, 0xf4, 0xd8), added_marker_);
  removed_marker_ = markerDefine(QsciScintilla::Background);
  setMarkerBackgroundColor(QColor(0xf8, 0xdc, 0xdc), removed_marker_);
  const int symbols = (1 << error_symbol_) | (1 << warning_marker_);
  setMarginMarkerMask(1, symbols);
  setMarginMarkerMask(0, 0);
  error_indicator_ = indicatorDefine(QsciScintilla::SquiggleIndicator);
  setIndicatorForegroundColor(QColor(0xd0, 0x20, 0x20), error_indicator_);
  warning_indicator_ = indicatorDefine(QsciScintilla::SquiggleIndicator);
  setIndicatorForegroundColor(QColor(0xc0, 0x80, 0x00), warning_indicator_);
}

void KernelEditor::showDiagnostics(const std::vector<kope::Diagnostic>& diagnostics, const std::string& file) {
  clearDiagnosticMarks();
  for (const auto& d : diagnostics) {
    if (d.file != file || d.line <= 0) continue;
    const int l = d.line - 1;
    if (l >= lines()) continue;
    const bool error = d.severity == "error" || d.severity == "fatal error";
    const bool warning = d.severity == "warning";
    if (!error && !warning) continue;
    if (error) {
      markerAdd(l, error_marker_);
      markerAdd(l, error_symbol_);
    } else {
      markerAdd(l, warning_marker_);
    }
    // The word at the column, or the rest of the line when the column is on a space.
    const QString text = this->text(l);
    int from = std::max(0, d.column - 1), to = from;
    while (to < text.size() && (text[to].isLetterOrNumber() || text[to] == '_')) ++to;
    if (to == from) to = std::max(from + 1, static_cast<int>(text.trimmed().isEmpty() ? from + 1 : text.size() - 1));
    fillIndicatorRange(l, from, l, to, error ? error_indicator_ : warning_indicator_);
  }
}

bool KernelEditor::hasIndicatorAt(int line, int column) const {
  const long pos = positionFromLineIndex(line, column);
  for (int ind : {error_indicator_, warning_indicator_})
    if (SendScintilla(QsciScintillaBase::SCI_INDICATORVALUEAT, static_cast<unsigned long>(ind), pos) != 0) return true;
  return false;
}

int KernelEditor::countMarker(int marker) const {
  int n = 0;
  for (int line = markerFindNext(0, 1 << marker); line >= 0; line = markerFindNext(line + 1, 1 << marker)) ++n;
  return n;
}

int KernelEditor::warningMarkCount() const { return countMarker(warning_marker_); }

void KernelEditor::markDiffLine(int line, bool added) { markerAdd(line, added ? added_marker_ : removed_marker_); }

int KernelEditor::diffMarkCount() const { return countMarker(added_marker_) + countMarker(removed_marker_); }

void KernelEditor::updateMarginWidth() {
  setMarginWidth(0, QString("0") + QString::number(lines() * 10));
}

void KernelEditor::goToDiagnostic(int line, int column) {
  const int l = line > 0 ? line - 1 : 0;
  const int c = column > 0 ? column - 1 : 0;
  markerAdd(l, error_marker_);
  setCursorPosition(l, c);
  ensureLineVisible(l);
  setFocus();
}

void KernelEditor::clearDiagnosticMarks() {
  markerDeleteAll(error_marker_);
  markerDeleteAll(error_symbol_);
  markerDeleteAll(warning_marker_);
  if (lines() > 0) {
    const int last = lines() - 1;
    clearIndicatorRange(0, 0, last, text(last).size(), error_indicator_);
    clearIndicatorRange(0, 0, last, text(last).size(), warning_indicator_);
  }
}

int KernelEditor::diagnosticMarkCount() const { return countMarker(error_marker_); }

}  // namespace kope::ui
