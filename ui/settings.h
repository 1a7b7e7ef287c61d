// Typed settings keys with their defaults, stored with QSettings under a schema version.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QVariant>

namespace kope::ui {

inline constexpr int kSettingsSchema = 1;

template <typename T>
class Setting {
 public:
  constexpr Setting(const char* key, T fallback) : key_(key), fallback_(fallback) {}
  T get() const {
    QSettings s;
    return s.value(key_, QVariant::fromValue(fallback_)).template value<T>();
  }
  void set(const T& v) const {
    QSettings s;
    s.setValue("meta/schema", kSettingsSchema);
    s.setValue(key_, QVariant::fromValue(v));
  }
  const char* key() const { return key_; }

 private:
  const char* key_;
  T fallback_;
};

inline const Setting<QString> kLastKernelDir{"paths/last_kernel_dir", QString()};
inline const Setting<QByteArray> kWindowGeometry{"window/geometry", QByteArray()};
inline const Setting<QByteArray> kWindowState{"window/state", QByteArray()};
inline const Setting<int> kWarmup{"eval/warmup", 1};
inline const Setting<int> kReps{"eval/reps", 5};
inline const Setting<int> kTimeoutSeconds{"eval/timeout_s", 60};
// The run controller's tasks in flight at once and device pool, as last started.
inline const Setting<int> kRunJobs{"run/jobs", 1};
inline const Setting<QString> kRunDevices{"run/devices", QStringLiteral("cpu")};
// The run controller's other choices, as last set: policy (offline or a profile's name), memory arm, attempts per
// task, the budgets (0: none) and whether each candidate is held for approval.
inline const Setting<QString> kRunPolicy{"run/policy", QStringLiteral("offline")};
inline const Setting<QString> kRunMemory{"run/memory", QStringLiteral("off")};
inline const Setting<int> kRunMaxAttempts{"run/max_attempts", 8};
inline const Setting<int> kRunPatience{"run/patience", 0};
inline const Setting<int> kRunTokenBudgetK{"run/token_budget_k", 0};
inline const Setting<int> kRunWallMinutes{"run/wall_minutes", 0};
inline const Setting<bool> kRunHold{"run/hold", false};

}  // namespace kope::ui
