// LlmSettingsDialog's keys (the system keychain, the environment variable, a key found in the file) and its
// connection test. Apart from llm_settings_dialog.cpp (the profiles and the file) for the size of a file.
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include <cstdlib>
#include <memory>

#include "key_store.h"
#include "kope/llm/config.h"
#include "llm_settings_dialog.h"
#include "profile_form.h"
#include "models/qtext.h"

namespace kope::ui {

namespace {

bool isLocal(const std::string& url) {
  return url.find("://localhost") != std::string::npos || url.find("://127.0.0.1") != std::string::npos ||
         url.find("://[::1]") != std::string::npos;
}

}  // namespace

// Where the profile's key comes from at run time: the keychain's entry first, else the variable (as the command
// line reads it), else none for a server on this machine.
void LlmSettingsDialog::refreshKeyStatus() {
  if (current_.isEmpty()) return;
  const QString profile = current_;
  const quint64 query = ++key_query_;
  KeyStore::read(profile, this, [this, profile, query](const KeyResult& r) {
    if (query != key_query_ || profile != current_) return;  // a later question was asked
    const llm::Profile p = form_->profile();
    const QString var = q(p.api_key_env);
    const bool set = !var.isEmpty() && std::getenv(p.api_key_env.c_str()) && *std::getenv(p.api_key_env.c_str());
    QString text;
    if (r.ok) {
      text = tr("Stored in %1; sent in place of $%2.").arg(KeyStore::where(), var);
    } else {
      const QString env = set ? tr("read from $%1, which is set").arg(var)
                          : isLocal(p.base_url) ? tr("$%1 is not set: none is sent (a server on this machine may need none)").arg(var)
                                                : tr("$%1 is not set: store a key, or set the variable").arg(var);
      text = r.missing ? tr("Not in %1; %2.").arg(KeyStore::where(), env)
                       // the keychain's own words on a line of their own, as the machine check quotes findings
                       : tr("%1 cannot be reached; %2.").arg(KeyStore::where(), env) + "\n  - " + r.error;
    }
    if (file_.has(profile.toStdString()) && file_.stored_key(profile.toStdString()))
      text += "\n" + tr("The settings file holds a key for this profile: move it to the keychain (above).");
    key_status_->setText(text);
    remove_key_->setEnabled(r.ok);
    emit keyStatusShown();
  });
}

void LlmSettingsDialog::storeKey() {
  if (current_.isEmpty()) return;
  const std::optional<QString> key = askKey(current_);
  if (!key) return;
  KeyStore::write(current_, *key, this, [this](const KeyResult& r) {
    if (!r.ok) key_status_->setText(tr("Not stored in %1: %2").arg(KeyStore::where(), r.error));
    else refreshKeyStatus();
    emit keyStored(r.ok);
  });
}

void LlmSettingsDialog::removeKey() {
  if (current_.isEmpty()) return;
  KeyStore::remove(current_, this, [this](const KeyResult& r) {
    if (!r.ok && !r.missing) key_status_->setText(tr("Not removed from %1: %2").arg(KeyStore::where(), r.error));
    else refreshKeyStatus();
    emit keyStored(r.ok || r.missing);
  });
}

// A key the file holds (the command line refuses such a file) is offered a move.
void LlmSettingsDialog::showBanner() {
  QStringList names;
  if (load_error_.isEmpty())
    for (const std::string& n : file_.names())
      if (file_.stored_key(n)) names << q(n);
  banner_->setVisible(!names.isEmpty());
  banner_text_->setText(tr("The settings file holds API keys (profiles %1). Keys are kept in the system keychain or "
                           "an environment variable, never in the file: the command line refuses it as it is.")
                            .arg(names.join(", ")));
}

// Each key goes to the keychain first; only once all are there do they leave the file, which is then saved.
void LlmSettingsDialog::moveKeysToKeychain() {
  auto names = std::make_shared<QStringList>();
  for (const std::string& n : file_.names())
    if (file_.stored_key(n)) *names << q(n);
  if (names->isEmpty()) return;
  move_keys_->setEnabled(false);
  // Each step holds the next only weakly; the keychain's callback in flight holds it strongly.
  auto next = std::make_shared<std::function<void(int)>>();
  std::weak_ptr<std::function<void(int)>> weak = next;
  *next = [this, names, weak](int i) {
    if (i == names->size()) {
      // Saved as Save saves (so the document and the file agree after, renames and deletes follow in the keychain);
      // refused while another problem stops a save.
      for (const QString& n : *names) file_.remove_stored_key(n.toStdString());
      const bool ok = save();
      if (!ok) {
        setDirty(true);
        banner_text_->setText(tr("The keys are in the keychain, but the file was not saved: %1").arg(problems_->text()));
      }
      move_keys_->setEnabled(true);
      if (ok) showBanner();
      refreshKeyStatus();
      emit keyStored(ok);
      return;
    }
    const QString name = names->at(i);
    auto self = weak.lock();
    KeyStore::write(name, q(*file_.stored_key(name.toStdString())), this, [this, self, i, name](const KeyResult& r) {
      if (!r.ok) {
        banner_text_->setText(tr("Not moved: %1 cannot store the key of %2 (%3). The file is unchanged.")
                                  .arg(KeyStore::where(), name, r.error));
        move_keys_->setEnabled(true);
        emit keyStored(false);
        return;
      }
      (*self)(i + 1);
    });
  };
  (*next)(0);
}

// The profile as the form holds it, with the key a run would use: the keychain's, else the variable's.
void LlmSettingsDialog::testConnection() {
  if (tester_->running()) {
    tester_->cancel();
    test_->setText(tr("&Test connection"));
    test_result_->setText(tr("Test cancelled."));
    test_result_->setStyleSheet(QString());
    emit testFinished(false);
    return;
  }
  if (current_.isEmpty()) return;
  llm::Profile p = form_->profile();
  p.name = current_.toStdString();
  for (const llm::FieldProblem& f : llm::check_profile(p)) {
    test_result_->setText(tr("Fix the profile first: %1").arg(q(f.text())));
    test_result_->setStyleSheet("color: #b00020;");
    emit testFinished(false);
    return;
  }
  test_->setText(tr("Cancel the test"));
  test_result_->setStyleSheet(QString());
  test_result_->setText(tr("Reading the key…"));
  KeyStore::read(current_, this, [this, p](const KeyResult& r) {
    startTest(p, r.ok ? std::optional<QString>(r.key) : std::nullopt);
  });
}

void LlmSettingsDialog::startTest(const llm::Profile& profile, const std::optional<QString>& keychainKey) {
  llm::Profile p = profile;
  std::string key;
  if (keychainKey) p.api_key = llm::ApiKey{keychainKey->toStdString(), KeyStore::kOrigin};
  try {
    key = llm::api_key_for(p);
  } catch (const std::exception& e) {
    ConnectionResult r;
    r.error = QString::fromUtf8(e.what());
    showTestResult(r);
    return;
  }
  test_result_->setText(tr("Sending one request to %1…").arg(q(llm::Client(p, "").endpoint())));
  tester_->start(p, key);
}

void LlmSettingsDialog::showTestResult(const ConnectionResult& r) {
  test_->setText(tr("&Test connection"));
  if (r.ok) {
    const QString usage = r.usageFromServer ? tr("as the server counted them") : tr("estimated: the server sent no usage");
    QString text = tr("Connected. Model %1 answered in %2 s: \"%3\"\nTokens: %4 in, %5 out (%6).")
                       .arg(r.modelNamed ? r.model : tr("%1 (the server did not name it)").arg(r.model))
                       .arg(r.latencySeconds, 0, 'f', 2)
                       .arg(r.answer.left(200))
                       .arg(r.tokensIn)
                       .arg(r.tokensOut)
                       .arg(usage);
    if (r.cost) text += "\n" + tr("Cost: %1").arg(*r.cost, 0, 'f', 6);
    test_result_->setText(text);
    test_result_->setStyleSheet("color: #1b6e20;");
  } else {
    QString head = r.httpStatus > 0 ? tr("Failed: HTTP %1 (%2).").arg(r.httpStatus).arg(r.kind)
                   : r.kind.isEmpty() ? tr("Failed.")
                                      : tr("Failed (%1, no HTTP answer).").arg(r.kind);
    test_result_->setText(head + "\n" + r.error);
    test_result_->setStyleSheet("color: #b00020;");
  }
  emit testFinished(r.ok);
}

}  // namespace kope::ui
