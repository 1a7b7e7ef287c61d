// The graph browser's toolbar: a combo per filter (task, device, label, idea, run, origin) offering the values
// the Cases have, and the search field. The browser appends its own actions (fit, zoom, export, undo) after them.
#pragma once

#include <QToolBar>

#include "graph_model.h"

class QComboBox;
class QLineEdit;

namespace kope::graph {

class FilterBar : public QToolBar {
  Q_OBJECT
 public:
  explicit FilterBar(QWidget* parent = nullptr);
  // Offers these values, keeping each current pick that is still among them.
  void setChoices(const FilterChoices& c);
  // Shows `f` without emitting filterChanged.
  void setFilter(const GraphFilter& f);
  GraphFilter filter() const;  // what the combos say
  QLineEdit* searchField() const { return search_; }

 signals:
  void filterChanged(const kope::graph::GraphFilter& f);  // a pick by the user
  void searchRequested(const QString& text);

 private:
  QComboBox* combo(const QString& name, const QString& tip);
  QComboBox *task_, *device_, *label_, *tag_, *run_, *origin_;
  QLineEdit* search_;
  bool updating_ = false;
};

}  // namespace kope::graph
