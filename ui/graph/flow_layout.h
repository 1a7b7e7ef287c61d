// A layout that places its items left to right and wraps onto a new row when the width runs out, so a row of
// filters or buttons stays whole in a narrow dock instead of being clipped or hidden behind a toolbar's "»".
// Its height follows its width (heightForWidth); its minimum width is its widest item's.
#pragma once

#include <QLayout>
#include <QList>

namespace kope::graph {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 6, int vSpacing = 3);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int index) const override { return items_.value(index); }
  QLayoutItem* takeAt(int index) override;
  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize minimumSize() const override;
  QSize sizeHint() const override;  // everything on one row
  void setGeometry(const QRect& rect) override;

 private:
  // Places the items in `rect` (or only measures, when `place` is false); returns the height used.
  int arrange(const QRect& rect, bool place) const;
  QList<QLayoutItem*> items_;
  int hSpacing_, vSpacing_;
};

}  // namespace kope::graph
