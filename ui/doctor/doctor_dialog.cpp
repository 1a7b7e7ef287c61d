// The machine check dialog: runs `kope doctor`'s checks on a worker thread, shows a row per check and the
// summary, all as plain text (the system's text is never read as markup).
#include "doctor/doctor_dialog.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <memory>

#include "doctor/doctor_model.h"

using namespace kope::doctor;

namespace kope::ui {

DoctorDialog::DoctorDialog(QWidget* parent, DoctorOptions options) : QDialog(parent), options_(std::move(options)) {
  setObjectName("doctor-dialog");
  model_ = new DoctorModel(this);
  table_ = new QTableView;
  table_->setModel(model_);
  table_->setWordWrap(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(DoctorModel::VerdictColumn, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(DoctorModel::Check, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(DoctorModel::Found, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(DoctorModel::Todo, QHeaderView::Stretch);
  for (QLabel** l : {&intro_, &summary_, &state_}) {
    *l = new QLabel;
    (*l)->setTextFormat(Qt::PlainText);
    (*l)->setWordWrap(true);
    (*l)->setTextInteractionFlags(Qt::TextSelectableByMouse);
  }
  refresh_ = new QPushButton;
  close_ = new QPushButton;
  connect(refresh_, &QPushButton::clicked, this, &DoctorDialog::refresh);
  connect(close_, &QPushButton::clicked, this, &QDialog::accept);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(state_, 1);
  buttons->addWidget(refresh_);
  buttons->addWidget(close_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro_);
  layout->addWidget(table_, 1);
  layout->addWidget(summary_);
  layout->addLayout(buttons);
  resize(1240, 880);
  retranslate();
  refresh();
}

DoctorDialog::~DoctorDialog() {
  if (thread_) {  // the checks take about a second; the result is dropped
    thread_->wait();
    delete thread_;
  }
}

void DoctorDialog::refresh() {
  if (thread_) return;
  refresh_->setEnabled(false);
  state_->setText(tr("Checking this machine..."));
  auto result = std::make_shared<DoctorReport>();
  auto error = std::make_shared<std::string>();
  thread_ = QThread::create([result, error, opts = options_] {
    try {
      *result = run_doctor(opts);
    } catch (const std::exception& e) {
      *error = e.what();
    }
  });
  connect(thread_, &QThread::finished, this, [this, result, error] {
    thread_->deleteLater();
    thread_ = nullptr;
    display(std::move(*result), QString::fromStdString(*error));
  });
  thread_->start();
}

void DoctorDialog::display(DoctorReport report, const QString& error) {
  report_ = std::move(report);
  error_ = error;
  model_->setRows(report_.checks);
  refresh_->setEnabled(true);
  retranslate();
  emit checked();
}

QString DoctorDialog::summaryText() const {
  if (!error_.isEmpty()) return tr("The checks failed: %1").arg(error_);
  if (report_.checks.empty()) return {};
  QString s = tr("Verdicts on this machine are trustworthy because:");
  for (const auto& t : report_.trustworthy_because) s += "\n  - " + QString::fromStdString(t);
  s += "\n" + tr("Verdicts on this machine are weakened because:");
  for (const auto& t : report_.weakened_because) s += "\n  - " + QString::fromStdString(t);
  if (report_.weakened_because.empty()) s += "\n  " + tr("(nothing found)");
  if (!report_.verdicts_possible()) s += "\n" + tr("kope cannot give verdicts here until the failed checks are fixed.");
  return s;
}

void DoctorDialog::retranslate() {
  setWindowTitle(tr("Machine check"));
  intro_->setText(tr("What this machine gives kope, as `kope doctor` reports it: each check with its verdict and "
                     "what to do."));
  refresh_->setText(tr("&Refresh"));
  close_->setText(tr("Close"));
  if (!thread_) state_->setText(report_.checks.empty() ? QString() : tr("%1 checks run.").arg(report_.checks.size()));
  summary_->setText(summaryText());
  model_->retranslate();
}

void DoctorDialog::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && refresh_) {
    retranslate();
    model_->setRows(report_.checks);  // the verdict and title cells are translated
  }
  QDialog::changeEvent(event);
}

}  // namespace kope::ui
