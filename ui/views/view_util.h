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
  // Compact rows (the text's height and a little): a 700-high window still shows several rows of every table.
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  t->verticalHeader()->setMinimumSectionSize(t->fontMetrics().height() + 2);
  return t;
}

}  // namespace kope::ui
