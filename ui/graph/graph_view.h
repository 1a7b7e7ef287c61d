// The Experience Graph's scene and view: one item per Case (coloured by outcome label, crossed when incorrect,
// sized by d(v), outline and badges for incumbent, pruned, pinned, cheat/invalid and foreign) and ONE item for
// all lineage edges. NoIndex scene, level-of-detail painting, pan by drag, zoom by wheel and +/-, fit.
#pragma once

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>

#include <functional>

#include <unordered_map>
#include <vector>

#include "graph_model.h"

namespace kope::graph {

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
  QColor plainColor() const;  // the colour of the plain rectangle drawn far away
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
  void addLines(const std::vector<QLineF>& lines);  // a run's new edges, without redoing the others
  std::size_t lineCount() const { return lines_.size(); }
  const std::vector<QLineF>& lines() const { return lines_; }
  QPainterPath path() const;  // the same edges as one path (for exports and tests)
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

 private:
  static QRectF boundsOf(const std::vector<QLineF>& lines);
  std::vector<QLineF> lines_;
  QRectF bounds_;
};

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);
  QGraphicsScene* graphScene() const { return scene_; }
  // The overview: the owner paints every shown node and edge plainly in scene coordinates, and hides or shows
  // its items when the view switches (signal overviewChanged).
  std::function<void(QPainter&)> overviewPainter;
  std::function<QRectF()> overviewBounds;
  std::size_t overviewMinItems = 2000;
  std::function<std::size_t()> itemCount;
  void zoomBy(double factor);
  void setZoom(double z);
  // Fits the graph into the view; until a person zooms or pans, the view fits again whenever it is resized.
  void fit();
  bool followsFit() const { return followFit_; }
  double zoom() const { return transform().m11(); }
  // Far out (zoom at or below the overview image's own scale) the view draws one cached image of the whole
  // graph instead of 20k items; call when nodes, colours, filter or positions change.
  void invalidateOverview() { overviewDirty_ = true; viewport()->update(); }
  // Paints onto the cached image what `paint` draws in scene coordinates within `sceneRect` (a run's new nodes
  // and edges), where the image holds that rectangle; otherwise the image is drawn again in full when next needed.
  void overlayOverview(const QRectF& sceneRect, const std::function<void(QPainter&)>& paint);
  bool overviewActive() const { return overviewOn_; }
  void updateOverviewMode();
  // What the viewport shows, as PNG or SVG. Throw kope::Error when the file cannot be written.
  void savePng(const QString& path) const;
  void saveSvg(const QString& path) const;

 signals:
  void contextMenuAt(QPoint globalPos);
  void overviewChanged(bool on);
  // A Case's node was double-clicked.
  void nodeDoubleClicked(qint64 caseId);

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;
  void drawBackground(QPainter* p, const QRectF& rect) override;

 private:
  void renderOverview();
  QGraphicsScene* scene_;
  QImage overview_;
  QRectF overviewRect_;
  double overviewScale_ = 0;
  bool overviewDirty_ = true, overviewOn_ = false;
  bool followFit_ = false;
};

}  // namespace kope::graph
