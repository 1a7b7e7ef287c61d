#include "kernel_editor.h"

#include <QFontDatabase>

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
}

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

void KernelEditor::clearDiagnosticMarks() { markerDeleteAll(error_marker_); }

int KernelEditor::diagnosticMarkCount() const {
  int n = 0;
  for (int line = markerFindNext(0, 1 << error_marker_); line >= 0; line = markerFindNext(line + 1, 1 << error_marker_))
    ++n;
  return n;
}

}  // namespace kope::ui
