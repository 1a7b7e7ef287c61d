#include "profile_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <limits>

#include "kope/llm/config.h"
#include "models/qtext.h"

namespace kope::ui {

namespace {

QDoubleSpinBox* decimal(double lo, double hi, int decimals, double step) {
  auto* b = new QDoubleSpinBox;
  b->setRange(lo, hi);
  b->setDecimals(decimals);
  b->setSingleStep(step);
  return b;
}

QSpinBox* whole(int lo, int hi) {
  auto* b = new QSpinBox;
  b->setRange(lo, hi);
  b->setGroupSeparatorShown(true);
  return b;
}

// A price the settings file may leave out: the box's minimum (-1) reads "unknown".
QDoubleSpinBox* price() {
  QDoubleSpinBox* b = decimal(-1, 1e6, 4, 0.1);
  return b;
}

}  // namespace

ProfileForm::ProfileForm(QWidget* parent) : QWidget(parent) {
  name_ = new QLineEdit;
  provider_ = new QComboBox;
  provider_->addItem(QString(), QStringLiteral("openai"));
  provider_->addItem(QString(), QStringLiteral("anthropic"));
  base_url_ = new QLineEdit;
  model_ = new QLineEdit;
  context_ = whole(256, std::numeric_limits<int>::max());
  output_ = whole(16, std::numeric_limits<int>::max());
  temperature_ = decimal(0, 2, 2, 0.1);
  price_in_ = price();
  price_out_ = price();
  in_flight_ = whole(1, 256);
  connect_ = decimal(0.1, 600, 1, 1);
  low_speed_ = decimal(1, 3600, 0, 10);
  retries_ = whole(0, 100);
  key_env_ = new QLineEdit;
  form_ = new QFormLayout(this);
  form_->setContentsMargins(0, 0, 0, 0);
  form_->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
  const std::pair<const char*, QWidget*> rows[] = {
      {"name", name_}, {"provider", provider_}, {"base_url", base_url_}, {"model", model_},
      {"context_window", context_}, {"max_output_tokens", output_}, {"temperature", temperature_},
      {"price_in_per_mtok", price_in_}, {"price_out_per_mtok", price_out_}, {"max_in_flight", in_flight_},
      {"connect_timeout_s", connect_}, {"low_speed_time_s", low_speed_}, {"max_retries", retries_},
      {"api_key_env", key_env_}};
  for (const auto& [field, widget] : rows) {
    auto* label = new QLabel;
    label->setBuddy(widget);
    widget->setObjectName(QStringLiteral("profile-") + field);
    labels_[field] = label;
    form_->addRow(label, widget);
  }
  auto changed = [this] {
    if (!loading_) emit edited();
  };
  for (QLineEdit* e : {base_url_, model_, key_env_}) connect(e, &QLineEdit::textEdited, this, changed);
  for (QSpinBox* b : {context_, output_, in_flight_, retries_}) connect(b, &QSpinBox::valueChanged, this, changed);
  for (QDoubleSpinBox* b : {temperature_, price_in_, price_out_, connect_, low_speed_})
    connect(b, &QDoubleSpinBox::valueChanged, this, changed);
  connect(provider_, &QComboBox::currentIndexChanged, this, [this, changed] {
    if (loading_) return;
    providerChanged();
    changed();
  });
  connect(name_, &QLineEdit::editingFinished, this, [this] {
    if (!loading_) emit nameEdited();
  });
  retranslate();
}

// The base URL and the key's variable follow the protocol while they hold the other protocol's defaults.
void ProfileForm::providerChanged() {
  const auto now = llm::provider_from_name(provider_->currentData().toString().toStdString()).value_or(llm::Provider::OpenAI);
  if (base_url_->text() == q(llm::default_base_url(shown_provider_))) base_url_->setText(q(llm::default_base_url(now)));
  if (key_env_->text() == q(llm::default_key_env(shown_provider_))) key_env_->setText(q(llm::default_key_env(now)));
  shown_provider_ = now;
}

void ProfileForm::setProfile(const llm::Profile& p) {
  loading_ = true;
  name_->setText(q(p.name));
  provider_->setCurrentIndex(p.provider == llm::Provider::Anthropic ? 1 : 0);
  shown_provider_ = p.provider;
  base_url_->setText(q(p.base_url));
  model_->setText(q(p.model));
  context_->setValue(static_cast<int>(std::min<int64_t>(p.context_window, std::numeric_limits<int>::max())));
  output_->setValue(static_cast<int>(std::min<int64_t>(p.max_output_tokens, std::numeric_limits<int>::max())));
  temperature_->setValue(p.temperature);
  price_in_->setValue(p.price_in_per_mtok.value_or(-1));
  price_out_->setValue(p.price_out_per_mtok.value_or(-1));
  in_flight_->setValue(p.max_in_flight);
  connect_->setValue(p.connect_timeout_s);
  low_speed_->setValue(p.low_speed_time_s);
  retries_->setValue(p.max_retries);
  key_env_->setText(q(p.api_key_env));
  loading_ = false;
}

llm::Profile ProfileForm::profile() const {
  llm::Profile p;
  p.name = name_->text().trimmed().toStdString();
  p.provider = shown_provider_;
  p.base_url = base_url_->text().trimmed().toStdString();
  p.model = model_->text().trimmed().toStdString();
  p.context_window = context_->value();
  p.max_output_tokens = output_->value();
  p.temperature = temperature_->value();
  if (price_in_->value() >= 0) p.price_in_per_mtok = price_in_->value();
  if (price_out_->value() >= 0) p.price_out_per_mtok = price_out_->value();
  p.max_in_flight = in_flight_->value();
  p.connect_timeout_s = connect_->value();
  p.low_speed_time_s = low_speed_->value();
  p.max_retries = retries_->value();
  p.api_key_env = key_env_->text().trimmed().toStdString();
  return p;
}

QLabel* ProfileForm::labelOf(const QString& field) const { return labels_.value(field, nullptr); }

void ProfileForm::markErrors(const QStringList& fields) {
  for (auto it = labels_.begin(); it != labels_.end(); ++it)
    it.value()->setStyleSheet(fields.contains(it.key()) ? QStringLiteral("color: #b00020; font-weight: bold;") : QString());
}

void ProfileForm::retranslate() {
  provider_->setItemText(0, tr("OpenAI-compatible (Chat Completions API)"));
  provider_->setItemText(1, tr("Anthropic (Messages API)"));
  labels_["name"]->setText(tr("&Name"));
  labels_["provider"]->setText(tr("&Protocol"));
  labels_["base_url"]->setText(tr("&Base URL"));
  labels_["model"]->setText(tr("&Model"));
  labels_["context_window"]->setText(tr("Context window (tokens)"));
  labels_["max_output_tokens"]->setText(tr("Output tokens at most"));
  labels_["temperature"]->setText(tr("Temperature"));
  labels_["price_in_per_mtok"]->setText(tr("Price in (per million tokens)"));
  labels_["price_out_per_mtok"]->setText(tr("Price out (per million tokens)"));
  labels_["max_in_flight"]->setText(tr("Requests at once"));
  labels_["connect_timeout_s"]->setText(tr("Connect timeout (s)"));
  labels_["low_speed_time_s"]->setText(tr("Stalled stream dropped after (s)"));
  labels_["max_retries"]->setText(tr("Retries"));
  labels_["api_key_env"]->setText(tr("Key's environment variable"));
  base_url_->setPlaceholderText(tr("http://localhost:8000/v1"));
  model_->setPlaceholderText(tr("the model's name on that server"));
  price_in_->setSpecialValueText(tr("unknown"));
  price_out_->setSpecialValueText(tr("unknown"));
  in_flight_->setToolTip(tr("This profile's requests in flight at once over the whole process (max_in_flight)"));
  low_speed_->setToolTip(tr("A stream below 1 byte/s for this long is dropped and retried (low_speed_time_s)"));
  key_env_->setToolTip(tr("Read when the system keychain holds no key for this profile, as the command line does"));
}

}  // namespace kope::ui
