// Small helpers the panes share.
#pragma once

#include <QHeaderView>
#include <QTableView>

namespace kope::ui {

inline QTableView* makeTableView(QWidget* parent) {
  auto* t = new QTableView(parent);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->verticalHeader()->hide();
  t->horizontalHeader()->setStretchLastSection(true);
  t->setAlternatingRowColors(true);
  t->setWordWrap(false);
  return t;
}

}  // namespace kope::ui
