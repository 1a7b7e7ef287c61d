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
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

 private:
  static QRectF boundsOf(const std::vector<QLineF>& lines);
  std::vector<QLineF> lines_;
  QRectF bounds_;
};

// What the overview image shows, copied out of the scene on the GUI thread so the image can be painted on another:
// the edges, and every shown node's box grouped by colour and opacity (one fill call per group).
struct OverviewScene {
  QRectF bounds;
  std::vector<QLineF> lines;
  struct Kind {
    QRgb color;
    double opacity;
    std::vector<QRectF> boxes;
  };
  std::vector<Kind> kinds;
  static QPen edgePen();
  void paint(QPainter& p) const;
};

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);
  QGraphicsScene* graphScene() const { return scene_; }
  // The overview: the owner copies out every shown node and edge in scene coordinates (painted into the image on
  // a worker thread), and hides or shows its items when the view switches (signal overviewChanged). Fit frames
  // overviewBounds.
  std::function<OverviewScene()> overviewScene;
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
  // graph instead of 20k items; call when nodes, colours, filter or positions change. The image is painted on a
  // worker thread: until it arrives the view shows the one before (or nothing), never 100,000 items.
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
  void overviewRendered(QImage image, QRectF rect, double scale, quint64 generation);
  QGraphicsScene* scene_;
  QImage overview_;
  QRectF overviewRect_;
  double overviewScale_ = 0;
  quint64 overviewGeneration_ = 0;  // of the last image asked for
  bool overviewPending_ = false;    // asked for, not arrived
  double pendingScale_ = 0;         // its scale, which decides the zoom where the overview takes over
  bool overviewDirty_ = true, overviewOn_ = false;
  bool followFit_ = false;
};

}  // namespace kope::graph
