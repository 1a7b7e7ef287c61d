// API keys of the LLM profiles in the system keychain (on Linux the Secret Service on D-Bus: GNOME Keyring,
// KWallet, KeePassXC) through QtKeychain, one entry per profile. Never in a file: the core never reads the
// keychain; the window reads the key here and hands it over with the profile (llm::Profile::api_key).
// Asynchronous: each call answers once, on the calling thread, unless `context` is gone by then.
#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QString>

#include <functional>

namespace kope::ui {

struct KeyResult {
  bool ok = false;       // read: a key was found; write, remove: done
  bool missing = false;  // read, remove: the keychain holds no key for the profile (not an error)
  QString key;           // read: the key
  QString error;         // otherwise: the keychain's own words (no Secret Service on D-Bus, access denied, ...)
};

class KeyStore {
  Q_DECLARE_TR_FUNCTIONS(KeyStore)

 public:
  using Done = std::function<void(const KeyResult&)>;
  // The keychain's service name of kope's entries; the entry of profile P is "llm-profile/P".
  static QString service();
  static QString where();  // "the system keychain", for a person (translated)
  static constexpr const char* kOrigin = "the system keychain";  // for the core's messages (llm::ApiKey::origin)
  static void read(const QString& profile, QObject* context, Done done);
  static void write(const QString& profile, const QString& key, QObject* context, Done done);
  static void remove(const QString& profile, QObject* context, Done done);
};

}  // namespace kope::ui
