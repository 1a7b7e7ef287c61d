// The graph browser's toolbar: a combo per filter (task, device, label, idea, run, origin) offering the values
// the Cases have, and the search field. The browser appends its own buttons (fit, zoom, export, undo) after them,
// in groups that stay together. Everything wraps onto further rows in a narrow dock (FlowLayout): nothing is cut
// or hidden behind an overflow arrow.
#pragma once

#include <QWidget>

#include "graph_model.h"

class QAction;
class QComboBox;
class QLineEdit;
class QToolButton;

namespace kope::graph {

class FlowLayout;

class FilterBar : public QWidget {
  Q_OBJECT
 public:
  explicit FilterBar(QWidget* parent = nullptr);
  // Offers these values, keeping each current pick that is still among them.
  void setChoices(const FilterChoices& c);
  // Shows `f` without emitting filterChanged.
  void setFilter(const GraphFilter& f);
  GraphFilter filter() const;  // what the combos say
  QLineEdit* searchField() const { return search_; }
  // A button for `action` (its text, tooltip and enabled state follow the action).
  QToolButton* button(QAction* action);
  // Widgets kept side by side on one row, after what is there.
  void addGroup(const QList<QWidget*>& widgets);
  void retranslate();

 signals:
  void filterChanged(const kope::graph::GraphFilter& f);  // a pick by the user
  void searchRequested(const QString& text);

 private:
  QComboBox* combo(const QString& name);
  QComboBox *task_, *device_, *label_, *tag_, *run_, *origin_;
  QLineEdit* search_;
  FlowLayout* flow_;
  bool updating_ = false;
};

}  // namespace kope::graph
