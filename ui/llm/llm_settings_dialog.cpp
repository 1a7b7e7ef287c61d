#include "llm_settings_dialog.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "kope/base/error.h"
#include "key_store.h"
#include "profile_form.h"
#include "models/qtext.h"

namespace kope::ui {

namespace {

// Problems that stop a save; a field kope does not know is kept as it is and only said.
bool blocks(const llm::FieldProblem& p) { return p.message != "unknown field"; }

}  // namespace

LlmSettingsDialog::LlmSettingsDialog(std::filesystem::path file, QWidget* parent)
    : QDialog(parent), path_(std::move(file)) {
  setObjectName("llm-settings");
  confirmDelete = [this](const QString& question) {
    return QMessageBox::question(this, windowTitle(), question) == QMessageBox::Yes;
  };
  askUnsaved = [this](const QString& question) {
    QMessageBox box(QMessageBox::Question, windowTitle(), question,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setTextFormat(Qt::PlainText);
    return static_cast<QMessageBox::StandardButton>(box.exec());
  };
  askKey = [this](const QString& profile) -> std::optional<QString> {
    bool ok = false;
    const QString key = QInputDialog::getText(this, tr("API key of %1").arg(profile),
                                              tr("The key, kept in %1 (never in the settings file):").arg(KeyStore::where()),
                                              QLineEdit::Password, QString(), &ok);
    if (!ok || key.trimmed().isEmpty()) return std::nullopt;
    return key.trimmed();
  };
  try {
    file_ = llm::SettingsFile::load(path_);
  } catch (const std::exception& e) {
    load_error_ = QString::fromUtf8(e.what());
  }
  tester_ = new ConnectionTest(this);
  connect(tester_, &ConnectionTest::finished, this, &LlmSettingsDialog::showTestResult);
  buildUi();
  retranslate();
  fillList();
  if (list_->count() > 0) selectProfile(list_->item(0)->data(Qt::UserRole).toString());
  else form_->setEnabled(false);
  showProblems();
  showBanner();
  setDirty(false);
}

LlmSettingsDialog::~LlmSettingsDialog() = default;

void LlmSettingsDialog::buildUi() {
  resize(900, 640);
  file_label_ = new QLabel;
  file_label_->setTextFormat(Qt::PlainText);
  file_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  file_label_->setWordWrap(true);

  banner_ = new QWidget;
  banner_->setObjectName("key-banner");
  banner_->setStyleSheet("#key-banner { background: #fff4d6; border: 1px solid #e0b040; border-radius: 3px; }");
  banner_text_ = new QLabel;
  banner_text_->setTextFormat(Qt::PlainText);
  banner_text_->setWordWrap(true);
  move_keys_ = new QPushButton;
  auto* bl = new QHBoxLayout(banner_);
  bl->addWidget(banner_text_, 1);
  bl->addWidget(move_keys_);
  connect(move_keys_, &QPushButton::clicked, this, &LlmSettingsDialog::moveKeysToKeychain);

  list_ = new QListWidget;
  list_->setObjectName("llm-profiles");
  list_->setMinimumWidth(170);
  connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item && item->data(Qt::UserRole).toString() != current_) selectProfile(item->data(Qt::UserRole).toString());
  });
  add_ = new QPushButton;
  delete_ = new QPushButton;
  default_ = new QPushButton;
  connect(add_, &QPushButton::clicked, this, &LlmSettingsDialog::addProfile);
  connect(delete_, &QPushButton::clicked, this, &LlmSettingsDialog::deleteProfile);
  connect(default_, &QPushButton::clicked, this, &LlmSettingsDialog::setDefaultProfile);
  auto* left = new QVBoxLayout;
  left->addWidget(list_, 1);
  left->addWidget(add_);
  left->addWidget(delete_);
  left->addWidget(default_);

  form_ = new ProfileForm;
  connect(form_, &ProfileForm::edited, this, &LlmSettingsDialog::formEdited);
  connect(form_, &ProfileForm::nameEdited, this, &LlmSettingsDialog::nameEdited);
  key_title_ = new QLabel;
  key_status_ = new QLabel;
  key_status_->setObjectName("key-status");
  key_status_->setTextFormat(Qt::PlainText);
  key_status_->setWordWrap(true);
  store_key_ = new QPushButton;
  remove_key_ = new QPushButton;
  connect(store_key_, &QPushButton::clicked, this, &LlmSettingsDialog::storeKey);
  connect(remove_key_, &QPushButton::clicked, this, &LlmSettingsDialog::removeKey);
  auto* key_buttons = new QHBoxLayout;
  key_buttons->addWidget(store_key_);
  key_buttons->addWidget(remove_key_);
  key_buttons->addStretch(1);
  test_ = new QPushButton;
  test_->setObjectName("test-connection");
  connect(test_, &QPushButton::clicked, this, &LlmSettingsDialog::testConnection);
  test_result_ = new QLabel;
  test_result_->setObjectName("test-result");
  test_result_->setTextFormat(Qt::PlainText);  // the server's words: never markup
  test_result_->setWordWrap(true);
  test_result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The fields scroll when the window is short (1024x700); the key and the test's answer stay in sight below them.
  auto* scroll = new QScrollArea;
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* right = new QVBoxLayout;
  right->addWidget(scroll, 1);
  right->addSpacing(4);
  right->addWidget(key_title_);
  right->addWidget(key_status_);
  right->addLayout(key_buttons);
  right->addSpacing(4);
  auto* test_row = new QHBoxLayout;
  test_row->addWidget(test_);
  test_row->addStretch(1);
  right->addLayout(test_row);
  right->addWidget(test_result_);

  auto* middle = new QHBoxLayout;
  middle->addLayout(left);
  middle->addLayout(right, 1);

  problems_ = new QLabel;
  problems_->setObjectName("llm-problems");
  problems_->setTextFormat(Qt::PlainText);
  problems_->setWordWrap(true);
  problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
  save_ = buttons_->button(QDialogButtonBox::Save);
  connect(save_, &QPushButton::clicked, this, &LlmSettingsDialog::save);
  connect(buttons_->button(QDialogButtonBox::Close), &QPushButton::clicked, this, &QDialog::reject);

  auto* l = new QVBoxLayout(this);
  l->addWidget(file_label_);
  l->addWidget(banner_);
  l->addLayout(middle, 1);
  l->addWidget(problems_);
  l->addWidget(buttons_);
}

void LlmSettingsDialog::retranslate() {
  setWindowTitle(tr("LLM profiles") + QStringLiteral("[*]"));  // [*]: unsaved edits
  file_label_->setText(tr("Settings file (the one `kope run --policy llm` reads): %1").arg(q(path_.string())));
  move_keys_->setText(tr("Move the keys to the keychain"));
  add_->setText(tr("&Add profile"));
  delete_->setText(tr("&Delete profile"));
  default_->setText(tr("Make de&fault"));
  key_title_->setText(tr("<b>API key</b>"));
  store_key_->setText(tr("Store a key in the keychain…"));
  remove_key_->setText(tr("Remove the key from the keychain"));
  test_->setText(tester_->running() ? tr("Cancel the test") : tr("&Test connection"));
  test_->setToolTip(tr("Send one tiny request with this profile as the form holds it (unsaved edits included)"));
  // Named here: Qt's own translations of the standard buttons are not installed with the workbench.
  save_->setText(tr("&Save"));
  buttons_->button(QDialogButtonBox::Close)->setText(tr("&Close"));
  form_->retranslate();
  showBanner();
  if (!current_.isEmpty()) refreshKeyStatus();
}

void LlmSettingsDialog::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && list_) retranslate();
  QDialog::changeEvent(event);
}

// The profiles in file order, the default marked.
void LlmSettingsDialog::fillList() {
  const QSignalBlocker b(list_);
  list_->clear();
  if (!load_error_.isEmpty()) return;
  const auto def = file_.default_profile();
  for (const std::string& name : file_.names()) {
    auto* item = new QListWidgetItem(def == name ? tr("%1 (default)").arg(q(name)) : q(name));
    item->setData(Qt::UserRole, q(name));
    list_->addItem(item);
    if (q(name) == current_) list_->setCurrentItem(item);
  }
}

void LlmSettingsDialog::selectProfile(const QString& name) {
  if (!file_.has(name.toStdString())) return;
  current_ = name;
  form_->setEnabled(true);
  form_->setProfile(file_.profile(name.toStdString()));
  for (int r = 0; r < list_->count(); ++r)
    if (list_->item(r)->data(Qt::UserRole).toString() == name) {
      const QSignalBlocker b(list_);
      list_->setCurrentRow(r);
    }
  test_result_->clear();
  key_status_->setText(tr("Looking in %1…").arg(KeyStore::where()));  // not the last profile's answer meanwhile
  showProblems();
  refreshKeyStatus();
}

void LlmSettingsDialog::formEdited() {
  if (current_.isEmpty()) return;
  llm::Profile p = form_->profile();
  p.name = current_.toStdString();
  file_.put(p);
  setDirty(true);
  showProblems();
  refreshKeyStatus();  // the variable or the URL may have changed what is said of the key
}

// A rename takes effect once the name is complete and free; the keychain entry follows on save.
void LlmSettingsDialog::nameEdited() {
  const QString name = form_->nameEdit()->text().trimmed();
  if (current_.isEmpty() || name == current_) return;
  llm::Profile p = form_->profile();
  std::vector<llm::FieldProblem> problems = llm::check_profile(p);
  if (file_.has(name.toStdString())) problems.insert(problems.begin(), {p.name, "name", "another profile has this name"});
  for (const auto& f : problems)
    if (f.field == "name") {
      problems_->setText(tr("Not renamed: %1").arg(q(f.text())));
      problems_->setStyleSheet("color: #b00020;");
      form_->nameEdit()->setText(current_);
      return;
    }
  file_.put(p, current_.toStdString());
  renamed_.append({current_, name});
  current_ = name;
  fillList();
  setDirty(true);
  showProblems();
}

void LlmSettingsDialog::addProfile() {
  if (!load_error_.isEmpty()) return;
  QString name = QStringLiteral("profile");
  for (int n = 2; file_.has(name.toStdString()); ++n) name = QStringLiteral("profile-%1").arg(n);
  llm::Profile p;
  p.name = name.toStdString();
  p.base_url = llm::default_base_url(p.provider);
  p.api_key_env = llm::default_key_env(p.provider);
  file_.put(p);  // without a model: named as the problem to fix
  fillList();
  selectProfile(name);
  setDirty(true);
  form_->modelEdit()->setFocus();
}

void LlmSettingsDialog::deleteProfile() {
  if (current_.isEmpty()) return;
  if (!confirmDelete(tr("Delete the profile %1? Its key in %2 goes too once the file is saved.")
                         .arg(current_, KeyStore::where())))
    return;
  removed_ << current_;
  file_.remove(current_.toStdString());
  current_.clear();
  fillList();
  if (list_->count() > 0) {
    selectProfile(list_->item(0)->data(Qt::UserRole).toString());
  } else {
    form_->setEnabled(false);
    key_status_->clear();
  }
  setDirty(true);
  showProblems();
}

void LlmSettingsDialog::setDefaultProfile() {
  if (current_.isEmpty()) return;
  file_.set_default(current_.toStdString());
  fillList();
  setDirty(true);
  showProblems();
}

// Each problem names its profile and field; those of the profile on show mark their labels in the form.
void LlmSettingsDialog::showProblems() {
  if (!load_error_.isEmpty()) {
    problems_->setText(tr("The settings file cannot be edited here until it is fixed by hand: %1").arg(load_error_));
    problems_->setStyleSheet("color: #b00020;");
    for (QWidget* w : std::initializer_list<QWidget*>{list_, add_, delete_, default_, form_, save_, test_})
      w->setEnabled(false);
    return;
  }
  QStringList lines, fields;
  bool blocking = false;
  for (const llm::FieldProblem& f : file_.problems()) {
    if (f.field == "api_key") continue;  // the banner offers the move
    blocking = blocking || blocks(f);
    lines << (blocks(f) ? q(f.text()) : tr("%1 (kept as it is; the command line refuses the file until it goes)").arg(q(f.text())));
    if (q(f.profile) == current_) fields << q(f.field);
  }
  form_->markErrors(fields);
  problems_->setText(lines.join('\n'));
  problems_->setStyleSheet(blocking ? "color: #b00020;" : "color: #8a5a00;");
  save_->setEnabled(dirty_ && !blocking);
}

void LlmSettingsDialog::setDirty(bool dirty) {
  dirty_ = dirty;
  bool blocking = !load_error_.isEmpty();
  if (!blocking)
    for (const llm::FieldProblem& f : file_.problems()) blocking = blocking || (blocks(f) && f.field != "api_key");
  save_->setEnabled(dirty_ && !blocking);
  setWindowModified(dirty);
}

// Written only without problems; then the keychain follows: deleted profiles' keys go, renamed ones move.
bool LlmSettingsDialog::save() {
  if (!load_error_.isEmpty()) return false;
  for (const llm::FieldProblem& f : file_.problems())
    if (blocks(f) && f.field != "api_key") {
      showProblems();
      return false;
    }
  try {
    file_.save();
  } catch (const std::exception& e) {
    problems_->setText(tr("Not saved: %1").arg(QString::fromUtf8(e.what())));
    problems_->setStyleSheet("color: #b00020;");
    return false;
  }
  for (const auto& [from, to] : renamed_) {
    KeyStore::read(from, this, [this, from, to](const KeyResult& r) {
      if (!r.ok) return;
      KeyStore::write(to, r.key, this, [this, from](const KeyResult& w) {
        if (w.ok) KeyStore::remove(from, this, [](const KeyResult&) {});
      });
    });
  }
  for (const QString& name : removed_)
    if (!file_.has(name.toStdString())) KeyStore::remove(name, this, [](const KeyResult&) {});
  renamed_.clear();
  removed_.clear();
  setDirty(false);
  showProblems();
  emit saved();
  return true;
}

void LlmSettingsDialog::done(int result) {
  if (dirty_) {
    switch (askUnsaved(tr("The LLM profiles have unsaved changes. Save them?"))) {
      case QMessageBox::Save:
        if (!save()) return;
        break;
      case QMessageBox::Discard: break;
      default: return;
    }
  }
  tester_->cancel();
  QDialog::done(result);
}

}  // namespace kope::ui
