// The filter and search toolbar. See filter_bar.h.
#include "filter_bar.h"

#include <QComboBox>
#include <QLineEdit>

#include <algorithm>

namespace kope::graph {

FilterBar::FilterBar(QWidget* parent) : QToolBar(parent) {
  setIconSize(QSize(16, 16));
  task_ = combo("filterTask", tr("all tasks"));
  device_ = combo("filterDevice", tr("all devices"));
  label_ = combo("filterLabel", tr("all labels"));
  for (const char* l : {"effective", "partial", "ineffective", "negative"}) label_->addItem(tr(l), QString::fromLatin1(l));
  label_->addItem(tr("incorrect"), QStringLiteral("incorrect"));
  tag_ = combo("filterTag", tr("all ideas"));
  run_ = combo("filterRun", tr("all runs"));
  origin_ = combo("filterOrigin", tr("local and foreign"));
  origin_->addItem(tr("local"), QStringLiteral("local"));
  origin_->addItem(tr("foreign"), QStringLiteral("foreign"));
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("search #id or thought…"));
  search_->setClearButtonEnabled(true);
  search_->setMaximumWidth(220);
  connect(search_, &QLineEdit::returnPressed, this, [this] { emit searchRequested(search_->text()); });
  addWidget(search_);
}

QComboBox* FilterBar::combo(const QString& name, const QString& tip) {
  auto* c = new QComboBox(this);
  c->setObjectName(name);
  c->setToolTip(tip);
  c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  c->addItem(tip, QString());
  connect(c, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) emit filterChanged(filter());
  });
  addWidget(c);
  return c;
}

GraphFilter FilterBar::filter() const {
  GraphFilter f;
  f.task = task_->currentData().toString();
  f.device = device_->currentData().toString();
  f.label = label_->currentData().toString();
  f.tag = tag_->currentData().toString();
  f.origin = origin_->currentData().toString();
  if (const QString r = run_->currentData().toString(); !r.isEmpty()) f.run = r.toLongLong();
  return f;
}

void FilterBar::setChoices(const FilterChoices& choices) {
  updating_ = true;
  auto fill = [](QComboBox* c, const std::vector<QString>& vals) {
    const QString cur = c->currentData().toString();
    if (c->count() == static_cast<int>(vals.size()) + 1) {
      bool same = true;
      for (std::size_t i = 0; i < vals.size() && same; ++i) same = c->itemData(static_cast<int>(i) + 1).toString() == vals[i];
      if (same) return;
    }
    const QString first = c->itemText(0);
    c->clear();
    c->addItem(first, QString());
    for (const auto& v : vals) c->addItem(v, v);
    c->setCurrentIndex(std::max(0, c->findData(cur)));
  };
  fill(task_, choices.tasks);
  fill(device_, choices.devices);
  fill(tag_, choices.tags);
  std::vector<QString> runs;
  for (int64_t r : choices.runs) runs.push_back(QString::number(r));
  fill(run_, runs);
  updating_ = false;
}

void FilterBar::setFilter(const GraphFilter& f) {
  updating_ = true;
  auto pick = [](QComboBox* c, const QString& v) { c->setCurrentIndex(std::max(0, c->findData(v))); };
  pick(task_, f.task);
  pick(device_, f.device);
  pick(label_, f.label);
  pick(tag_, f.tag);
  pick(origin_, f.origin);
  pick(run_, f.run ? QString::number(*f.run) : QString());
  updating_ = false;
}

}  // namespace kope::graph
