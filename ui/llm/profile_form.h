// The fields of one LLM profile as a form: name, protocol, base URL, model, context window, output tokens,
// temperature, prices, requests in flight, the transport's timeouts and retries, and the key's environment
// variable. Typed widgets, so a value is always of its field's type; what else is wrong (a missing model, a URL
// without http://) the dialog names from llm::check_profile.
#pragma once

#include <QMap>
#include <QWidget>

#include "kope/llm/client.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace kope::ui {

class ProfileForm : public QWidget {
  Q_OBJECT
 public:
  explicit ProfileForm(QWidget* parent = nullptr);

  void setProfile(const llm::Profile& p);  // emits nothing
  llm::Profile profile() const;            // the name as typed (renames are the dialog's)

  QLineEdit* nameEdit() const { return name_; }
  QComboBox* providerBox() const { return provider_; }
  QLineEdit* baseUrlEdit() const { return base_url_; }
  QLineEdit* modelEdit() const { return model_; }
  QSpinBox* contextWindow() const { return context_; }
  QSpinBox* maxOutput() const { return output_; }
  QDoubleSpinBox* temperature() const { return temperature_; }
  QDoubleSpinBox* priceIn() const { return price_in_; }
  QDoubleSpinBox* priceOut() const { return price_out_; }
  QSpinBox* maxInFlight() const { return in_flight_; }
  QDoubleSpinBox* connectTimeout() const { return connect_; }
  QDoubleSpinBox* lowSpeedTime() const { return low_speed_; }
  QSpinBox* maxRetries() const { return retries_; }
  QLineEdit* keyEnvEdit() const { return key_env_; }
  // The label of a field by its settings-file name ("model", "base_url", ...), to mark the one in error.
  QLabel* labelOf(const QString& field) const;
  void markErrors(const QStringList& fields);
  void retranslate();

 signals:
  void edited();       // any field but the name
  void nameEdited();   // the name, once editing finished

 private:
  void providerChanged();

  QFormLayout* form_ = nullptr;
  QMap<QString, QLabel*> labels_;  // by the field's name in the settings file
  QLineEdit* name_ = nullptr;
  QComboBox* provider_ = nullptr;
  QLineEdit* base_url_ = nullptr;
  QLineEdit* model_ = nullptr;
  QSpinBox* context_ = nullptr;
  QSpinBox* output_ = nullptr;
  QDoubleSpinBox* temperature_ = nullptr;
  QDoubleSpinBox* price_in_ = nullptr;
  QDoubleSpinBox* price_out_ = nullptr;
  QSpinBox* in_flight_ = nullptr;
  QDoubleSpinBox* connect_ = nullptr;
  QDoubleSpinBox* low_speed_ = nullptr;
  QSpinBox* retries_ = nullptr;
  QLineEdit* key_env_ = nullptr;
  bool loading_ = false;
  llm::Provider shown_provider_ = llm::Provider::OpenAI;
};

}  // namespace kope::ui
