// The filter and search toolbar. See filter_bar.h.
#include "filter_bar.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

#include <algorithm>

#include "flow_layout.h"

namespace kope::graph {

FilterBar::FilterBar(QWidget* parent) : QWidget(parent) {
  setObjectName("graph-toolbar");
  flow_ = new FlowLayout(this);
  flow_->setContentsMargins(2, 2, 2, 2);
  task_ = combo("filterTask");
  device_ = combo("filterDevice");
  label_ = combo("filterLabel");
  for (const char* l : {"effective", "partial", "ineffective", "negative", "incorrect"})
    label_->addItem(QString(), QString::fromLatin1(l));
  tag_ = combo("filterTag");
  run_ = combo("filterRun");
  origin_ = combo("filterOrigin");
  origin_->addItem(QString(), QStringLiteral("local"));
  origin_->addItem(QString(), QStringLiteral("foreign"));
  search_ = new QLineEdit(this);
  search_->setClearButtonEnabled(true);
  connect(search_, &QLineEdit::returnPressed, this, [this] { emit searchRequested(search_->text()); });
  flow_->addWidget(search_);
  retranslate();
}

// The combos' first entries ("all tasks", ...) are their tooltips as well.
void FilterBar::retranslate() {
  const std::pair<QComboBox*, QString> firsts[] = {
      {task_, tr("all tasks")}, {device_, tr("all devices")}, {label_, tr("all labels")},
      {tag_, tr("all ideas")},  {run_, tr("all runs")},       {origin_, tr("local and foreign")}};
  for (const auto& [c, text] : firsts) {
    c->setItemText(0, text);
    c->setToolTip(text);
  }
  for (int i = 1; i < label_->count(); ++i) label_->setItemText(i, outcomeText(label_->itemData(i).toString()));
  origin_->setItemText(1, tr("local"));
  origin_->setItemText(2, tr("foreign"));
  search_->setPlaceholderText(tr("search #id or thought…"));
  search_->setMinimumWidth(search_->fontMetrics().horizontalAdvance(search_->placeholderText()) + 40);
  search_->setMaximumWidth(search_->minimumWidth() + 80);
}

QToolButton* FilterBar::button(QAction* action) {
  auto* b = new QToolButton(this);
  b->setDefaultAction(action);
  b->setAutoRaise(true);
  return b;
}

void FilterBar::addGroup(const QList<QWidget*>& widgets) {
  auto* group = new QWidget(this);
  auto* row = new QHBoxLayout(group);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(1);
  for (QWidget* w : widgets) row->addWidget(w);
  flow_->addWidget(group);
}

QComboBox* FilterBar::combo(const QString& name) {
  auto* c = new QComboBox(this);
  c->setObjectName(name);
  c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  c->addItem(QString(), QString());
  connect(c, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) emit filterChanged(filter());
  });
  flow_->addWidget(c);
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
