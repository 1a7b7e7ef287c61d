// The Experience Graph's scene and view: one item per Case (coloured by outcome label, crossed when incorrect,
// sized by d(v), outline and badges for incumbent, pruned, pinned, cheat/invalid and foreign) and ONE item for
// all lineage edges. NoIndex scene, level-of-detail painting, pan by drag, zoom by wheel and +/-, fit.
#pragma once

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>

#include <unordered_map>
#include <vector>

#include "kope/memory/memory.h"

namespace kope::graph {

// What the scene shows of a Case: the listing row plus what the widget knows about it.
struct NodeData {
  kope::memory::CaseRow row;
  bool incumbent = false;
  bool foreign() const { return row.origin != "local" && !row.origin.empty(); }
};

// The cell every node is laid out in; a node's drawn size is a fraction of it, growing with d(v).
inline constexpr double kCellW = 72, kCellH = 40;

class NodeItem : public QGraphicsItem {
 public:
  explicit NodeItem(const NodeData* data);
  int64_t caseId() const { return data_->row.id; }
  const NodeData& data() const { return *data_; }
  void setNodeData(const NodeData* d);
  QSizeF size() const { return size_; }
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;
  enum { Type = UserType + 1 };
  int type() const override { return Type; }

  static QColor labelColor(const std::string& label);
  // Below this level of detail a node is a plain filled rectangle without text or badges.
  static constexpr double kPlainLod = 0.45;
  static constexpr double kTextLod = 0.9;

 private:
  const NodeData* data_;
  QSizeF size_;
};

// All lineage edges in one item; paints only the lines that cross the exposed rectangle.
class EdgesItem : public QGraphicsItem {
 public:
  EdgesItem();
  void setLines(std::vector<QLineF> lines);
  std::size_t lineCount() const { return lines_.size(); }
  QPainterPath path() const;  // the same edges as one path (for exports and tests)
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

 private:
  std::vector<QLineF> lines_;
  QRectF bounds_;
};

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);
  QGraphicsScene* graphScene() const { return scene_; }
  void zoomBy(double factor);
  void fit();
  double zoom() const { return transform().m11(); }

 signals:
  void contextMenuAt(QPoint globalPos);

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

 private:
  QGraphicsScene* scene_;
};

}  // namespace kope::graph
