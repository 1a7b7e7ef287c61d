#include "key_store.h"

#include <QPointer>

#include <qt6keychain/keychain.h>

namespace kope::ui {

namespace {

QString entry(const QString& profile) { return QStringLiteral("llm-profile/") + profile; }

// Starts `job`, answering `done` on `context`'s thread once it finished.
void run(QKeychain::Job* job, const QString& profile, QObject* context, KeyStore::Done done) {
  job->setAutoDelete(true);
  job->setKey(entry(profile));
  QPointer<QObject> guard(context);
  QObject::connect(job, &QKeychain::Job::finished, context, [guard, done](QKeychain::Job* j) {
    if (!guard) return;
    KeyResult r;
    r.ok = j->error() == QKeychain::NoError;
    r.missing = j->error() == QKeychain::EntryNotFound;
    if (!r.ok && !r.missing) r.error = j->errorString();
    if (r.ok)
      if (auto* read = qobject_cast<QKeychain::ReadPasswordJob*>(j)) r.key = read->textData();
    done(r);
  });
  job->start();
}

}  // namespace

QString KeyStore::service() { return QStringLiteral("kope"); }

QString KeyStore::where() { return tr("the system keychain"); }

void KeyStore::read(const QString& profile, QObject* context, Done done) {
  run(new QKeychain::ReadPasswordJob(service()), profile, context, std::move(done));
}

void KeyStore::write(const QString& profile, const QString& key, QObject* context, Done done) {
  auto* job = new QKeychain::WritePasswordJob(service());
  job->setTextData(key);
  run(job, profile, context, std::move(done));
}

void KeyStore::remove(const QString& profile, QObject* context, Done done) {
  run(new QKeychain::DeletePasswordJob(service()), profile, context, std::move(done));
}

}  // namespace kope::ui
