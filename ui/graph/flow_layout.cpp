// The wrapping layout. See flow_layout.h.
#include "flow_layout.h"

#include <QWidget>

#include <algorithm>

namespace kope::graph {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing)
    : QLayout(parent), hSpacing_(hSpacing), vSpacing_(vSpacing) {
  setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::takeAt(int index) {
  if (index < 0 || index >= items_.size()) return nullptr;
  return items_.takeAt(index);
}

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const {
  QSize s;
  for (const QLayoutItem* item : items_)
    if (!item->isEmpty()) s = s.expandedTo(item->minimumSize());
  const QMargins m = contentsMargins();
  return s + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
  int w = 0, h = 0, n = 0;
  for (const QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const QSize s = item->sizeHint();
    w += s.width() + (n++ ? hSpacing_ : 0);
    h = std::max(h, s.height());
  }
  const QMargins m = contentsMargins();
  return QSize(w + m.left() + m.right(), h + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool place) const {
  const QRect area = rect.marginsRemoved(contentsMargins());
  int x = area.x(), y = area.y(), rowHeight = 0;
  // Items of one row share its height and are centred in it; an item wider than the row gets the row's width.
  QList<QPair<QLayoutItem*, QRect>> row;
  auto flush = [&] {
    if (place)
      for (auto& [item, r] : row) item->setGeometry(QRect(r.x(), r.y() + (rowHeight - r.height()) / 2, r.width(), r.height()));
    row.clear();
  };
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    QSize s = item->sizeHint().expandedTo(item->minimumSize());
    s.setWidth(std::min(s.width(), std::max(1, area.width())));
    if (x > area.x() && x + s.width() > area.x() + area.width()) {  // no room left on this row
      flush();
      x = area.x();
      y += rowHeight + vSpacing_;
      rowHeight = 0;
    }
    row.append({item, QRect(QPoint(x, y), s)});
    x += s.width() + hSpacing_;
    rowHeight = std::max(rowHeight, s.height());
  }
  flush();
  const QMargins m = contentsMargins();
  return y + rowHeight - rect.y() + m.bottom();
}

}  // namespace kope::graph
