// Settings > LLM profiles: the profiles of the settings file the command line reads (llm::settings_path()),
// added, edited, renamed, deleted and made the default, saved atomically with everything else in the file kept;
// each field checked, a problem naming its profile and field. API keys go to the system keychain (KeyStore), or
// are read from the profile's environment variable; never into the file (a key found there is offered a move to
// the keychain). "Test connection" sends one tiny request through the core's client and says who answered, how
// fast and for how many tokens, or exactly what failed, while the window stays live.
#pragma once

#include <QDialog>
#include <QMessageBox>

#include <filesystem>
#include <functional>
#include <optional>

#include "connection_test.h"
#include "kope/llm/settings_file.h"

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace kope::ui {

class ProfileForm;

class LlmSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit LlmSettingsDialog(std::filesystem::path file, QWidget* parent = nullptr);
  ~LlmSettingsDialog() override;

  // Asked before a profile is deleted and before unsaved edits are dropped; message boxes by default, tests
  // replace them.
  std::function<bool(const QString& question)> confirmDelete;
  std::function<QMessageBox::StandardButton(const QString& question)> askUnsaved;
  // Asked for a key to store; a password field by default. An empty optional cancels.
  std::function<std::optional<QString>(const QString& profile)> askKey;

  QListWidget* profileList() const { return list_; }
  ProfileForm* form() const { return form_; }
  QLabel* problemsLabel() const { return problems_; }
  QLabel* fileLabel() const { return file_label_; }
  QLabel* keyStatus() const { return key_status_; }
  QLabel* testResult() const { return test_result_; }
  QPushButton* testButton() const { return test_; }
  QPushButton* saveButton() const { return save_; }
  QPushButton* moveKeysButton() const { return move_keys_; }
  QWidget* keyBanner() const { return banner_; }
  const llm::SettingsFile& settings() const { return file_; }
  QString currentProfile() const { return current_; }
  bool isDirty() const { return dirty_; }

  void selectProfile(const QString& name);
  void addProfile();
  void deleteProfile();
  void setDefaultProfile();
  bool save();
  void storeKey();   // asks for the key (askKey) and writes it to the keychain
  void removeKey();
  void moveKeysToKeychain();
  void testConnection();

 signals:
  void saved();                 // the file was written: the run controller re-reads its profiles
  void keyStatusShown();        // the current profile's key status is known
  void keyStored(bool ok);      // storeKey, removeKey, moveKeysToKeychain finished
  void testFinished(bool ok);

 protected:
  void done(int result) override;
  void changeEvent(QEvent* event) override;

 private:
  void buildUi();
  void retranslate();
  void fillList();
  void formEdited();
  void nameEdited();
  void showProblems();
  void refreshKeyStatus();
  void showTestResult(const ConnectionResult& r);
  void startTest(const llm::Profile& p, const std::optional<QString>& keychainKey);
  void setDirty(bool dirty);
  void showBanner();

  std::filesystem::path path_;
  llm::SettingsFile file_;
  QString load_error_;
  QString current_;
  bool dirty_ = false;
  // Keychain entries to follow the file once it is saved: profiles deleted (their key goes) and renamed (moved).
  QStringList removed_;
  QList<QPair<QString, QString>> renamed_;
  ConnectionTest* tester_ = nullptr;
  quint64 key_query_ = 0;  // the latest key-status query; older answers are dropped

  QLabel* file_label_ = nullptr;
  QWidget* banner_ = nullptr;
  QLabel* banner_text_ = nullptr;
  QPushButton* move_keys_ = nullptr;
  QListWidget* list_ = nullptr;
  QPushButton* add_ = nullptr;
  QPushButton* delete_ = nullptr;
  QPushButton* default_ = nullptr;
  ProfileForm* form_ = nullptr;
  QLabel* key_title_ = nullptr;
  QLabel* key_status_ = nullptr;
  QPushButton* store_key_ = nullptr;
  QPushButton* remove_key_ = nullptr;
  QPushButton* test_ = nullptr;
  QLabel* test_result_ = nullptr;
  QLabel* problems_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QPushButton* save_ = nullptr;
};

}  // namespace kope::ui
