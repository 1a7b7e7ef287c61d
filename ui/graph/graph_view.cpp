// Items and view of the Experience Graph. See graph_view.h.
#include "graph_view.h"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QSvgGenerator>
#include <QThreadPool>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "kope/base/error.h"

namespace kope::graph {

QColor NodeItem::labelColor(const std::string& label) {
  if (label == "effective") return QColor(0x2e, 0x9d, 0x48);
  if (label == "partial") return QColor(0xa8, 0xc8, 0x3c);
  if (label == "ineffective") return QColor(0xf0, 0xa0, 0x30);
  if (label == "negative") return QColor(0xd6, 0x45, 0x41);
  return QColor(0x9e, 0x9e, 0x9e);
}

NodeItem::NodeItem(const NodeData* data) : data_(data) {
  setFlags(ItemIsSelectable);
  setNodeData(data);
}

void NodeItem::setNodeData(const NodeData* d) {
  data_ = d;
  // Sized by d(v): a leaf of ratio 1 has d = 0.5; long improving chains reach 2 and more.
  const double s = std::clamp(0.55 + 0.2 * std::max(0.0, d->row.d), 0.55, 1.0);
  prepareGeometryChange();
  size_ = QSizeF(kCellW * s, kCellH * s);
  setOpacity(d->row.pruned ? 0.35 : 1.0);
  // One depth for every node (they do not overlap): Qt then keeps its list of them in insertion order, and adding
  // a node does not sort 100,000 of them back into it.
  update();
}

QRectF NodeItem::boundingRect() const {
  const double w = size_.width(), h = size_.height();
  return QRectF(-w / 2 - 4, -h / 2 - 9, w + 14, h + 13);  // room for the outline and the badges at the top right
}

QColor NodeItem::plainColor() const {
  if (isSelected()) return QColor(0x20, 0x60, 0xff);
  if (data_->incumbent) return QColor(0xff, 0xc1, 0x07);
  QColor fill = labelColor(data_->row.label);
  return data_->row.correct ? fill : fill.lighter(135);
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) {
  const auto& r = data_->row;
  const double lod = opt->levelOfDetailFromTransform(p->worldTransform());
  const QRectF box(-size_.width() / 2, -size_.height() / 2, size_.width(), size_.height());
  QColor fill = labelColor(r.label);
  if (!r.correct) fill = fill.lighter(135);
  const bool selected = isSelected();
  if (lod < kPlainLod) {  // far away: one filled rectangle, no pen, no text
    p->fillRect(box, plainColor());
    return;
  }
  p->setRenderHint(QPainter::Antialiasing, lod > 1.2);
  p->setBrush(fill);
  QPen pen(QColor(0x33, 0x33, 0x33), 1.2);
  if (data_->foreign()) pen = QPen(QColor(0x00, 0x80, 0x80), 2, Qt::DotLine);
  if (r.pinned) pen = QPen(QColor(0x15, 0x65, 0xc0), 2.5);
  if (!r.flag.empty()) pen = QPen(QColor(0xb0, 0x00, 0xb0), 2.5, Qt::DashDotLine);
  if (r.pruned) pen = QPen(QColor(0x55, 0x55, 0x55), 1.5, Qt::DashLine);
  if (data_->incumbent) pen = QPen(QColor(0xff, 0xb3, 0x00), 4);
  if (selected) pen = QPen(QColor(0x20, 0x60, 0xff), 3.5);
  p->setPen(pen);
  p->drawRoundedRect(box, 5, 5);
  if (!r.correct) {  // incorrect: hatched and crossed
    p->setPen(Qt::NoPen);
    p->setBrush(QBrush(QColor(0, 0, 0, 90), Qt::BDiagPattern));
    p->drawRoundedRect(box, 5, 5);
    p->setPen(QPen(QColor(0x8b, 0x00, 0x00), 1.6));
    p->drawLine(box.topLeft() + QPointF(3, 3), box.bottomRight() - QPointF(3, 3));
    p->drawLine(box.topRight() + QPointF(-3, 3), box.bottomLeft() + QPointF(3, -3));
  }
  // Badges, right to left at the top right corner: I(nvalid)/C(heat), P(inned), F(oreign), X (pruned), ★.
  std::vector<std::pair<QString, QColor>> badges;
  if (data_->incumbent) badges.push_back({QStringLiteral("★"), QColor(0xff, 0xb3, 0x00)});
  if (r.pinned) badges.push_back({QStringLiteral("P"), QColor(0x15, 0x65, 0xc0)});
  if (r.flag == "cheat") badges.push_back({QStringLiteral("C"), QColor(0xb0, 0x00, 0xb0)});
  if (r.flag == "invalid") badges.push_back({QStringLiteral("I"), QColor(0x6a, 0x1b, 0x9a)});
  if (data_->foreign()) badges.push_back({QStringLiteral("F"), QColor(0x00, 0x80, 0x80)});
  if (r.pruned) badges.push_back({QStringLiteral("✂"), QColor(0x55, 0x55, 0x55)});
  QFont f = p->font();
  f.setPixelSize(8);
  f.setBold(true);
  p->setFont(f);
  double bx = box.right() + 2;
  for (const auto& [txt, col] : badges) {
    const QRectF c(bx - 10, box.top() - 7, 11, 11);
    p->setPen(Qt::NoPen);
    p->setBrush(col);
    p->drawEllipse(c);
    p->setPen(Qt::white);
    p->drawText(c, Qt::AlignCenter, txt);
    bx -= 12;
  }
  if (lod < kTextLod) return;
  f.setPixelSize(9);
  f.setBold(data_->incumbent);
  p->setFont(f);
  p->setPen(QColor(0x10, 0x10, 0x10));
  const QString speed = r.correct ? QString::number(r.a, 'f', 2) + QStringLiteral("×") : statusWord(r.status);
  p->drawText(box.adjusted(2, 1, -2, -box.height() / 2), Qt::AlignCenter,
              QStringLiteral("#%1").arg(r.id));
  f.setBold(false);
  f.setPixelSize(8);
  p->setFont(f);
  p->drawText(box.adjusted(2, box.height() / 2 - 2, -2, -1), Qt::AlignCenter,
              p->fontMetrics().elidedText(speed, Qt::ElideRight, static_cast<int>(box.width() - 4)));
}

EdgesItem::EdgesItem() {
  setFlag(ItemUsesExtendedStyleOption);
  setZValue(0);
}

QRectF EdgesItem::boundsOf(const std::vector<QLineF>& lines) {
  if (lines.empty()) return {};
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (const auto& l : lines) {
    x0 = std::min({x0, l.x1(), l.x2()});
    y0 = std::min({y0, l.y1(), l.y2()});
    x1 = std::max({x1, l.x1(), l.x2()});
    y1 = std::max({y1, l.y1(), l.y2()});
  }
  return QRectF(QPointF(x0, y0), QPointF(x1, y1)).adjusted(-2, -2, 2, 2);
}

void EdgesItem::setLines(std::vector<QLineF> lines) {
  prepareGeometryChange();
  lines_ = std::move(lines);
  bounds_ = boundsOf(lines_);
  update();
}

void EdgesItem::addLines(const std::vector<QLineF>& lines) {
  if (lines.empty()) return;
  prepareGeometryChange();
  lines_.insert(lines_.end(), lines.begin(), lines.end());
  bounds_ |= boundsOf(lines);  // a null rectangle unites as nothing
  update();
}

void EdgesItem::paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) {
  const QRectF ex = opt->exposedRect.isNull() ? bounds_ : opt->exposedRect;
  std::vector<QLineF> vis;
  vis.reserve(std::min<std::size_t>(lines_.size(), 8192));
  for (const auto& l : lines_) {
    const QRectF lb = QRectF(l.p1(), l.p2()).normalized().adjusted(-1, -1, 1, 1);
    if (lb.intersects(ex)) vis.push_back(l);
  }
  const double lod = opt->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(QColor(0x70, 0x70, 0x70), 0);  // cosmetic: one pixel at any zoom
  if (lod > 1.2) {
    pen.setWidthF(1.2);
    pen.setCosmetic(false);
    p->setRenderHint(QPainter::Antialiasing, true);
  }
  p->setPen(pen);
  p->drawLines(vis.data(), static_cast<int>(vis.size()));
}

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), scene_(new QGraphicsScene(this)) {
  scene_->setItemIndexMethod(QGraphicsScene::NoIndex);  // measured: the BSP index costs seconds per frame at 20k
  setScene(scene_);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
  setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
  setBackgroundBrush(QColor(0xfa, 0xfa, 0xf7));
  setFocusPolicy(Qt::StrongFocus);
  // A person moving a scroll bar leaves the fitted view (setValue from code emits no actionTriggered).
  for (QScrollBar* b : {horizontalScrollBar(), verticalScrollBar()})
    connect(b, &QAbstractSlider::actionTriggered, this, [this] { followFit_ = false; });
}

void GraphView::zoomBy(double factor) {
  followFit_ = false;
  const double z = zoom() * factor;
  if (z < 0.002 || z > 20) return;
  scale(factor, factor);
  updateOverviewMode();
}

void GraphView::setZoom(double z) {
  followFit_ = false;
  setTransform(QTransform::fromScale(z, z));
  updateOverviewMode();
}

void GraphView::fit() {
  QRectF r = overviewBounds ? overviewBounds() : scene_->itemsBoundingRect();  // what the filter shows
  if (r.isEmpty()) return;
  const double m = std::max(40.0, 0.04 * std::max(r.width(), r.height()));  // room for outlines, badges, scroll bars
  fitInView(r.adjusted(-m, -m, m, m), Qt::KeepAspectRatio);
  followFit_ = true;
  updateOverviewMode();
}

void GraphView::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  if (followFit_) fit();  // a dock enlarged or a window maximised shows the whole graph at the new size
}

// The overview image is at most 2400 px on its long side; it replaces the items while a scene unit covers no
// more screen than a unit of the image, so it looks the same as drawing every item (measured: 77 ms per frame
// at fit for 20k items, a few ms for the image).
void GraphView::updateOverviewMode() {
  const bool big = itemCount && itemCount() > overviewMinItems;
  if (overviewDirty_ && big && zoom() <= 0.08) renderOverview();
  const double scale = overviewPending_ ? pendingScale_ : overviewScale_;
  const bool on = big && (overviewPending_ || !overview_.isNull()) && zoom() <= scale * 1.05;
  if (on != overviewOn_) {
    overviewOn_ = on;
    emit overviewChanged(on);
    viewport()->update();
  }
}

QPen OverviewScene::edgePen() { return QPen(QColor(0x70, 0x70, 0x70), 0); }  // cosmetic: one pixel

void OverviewScene::paint(QPainter& p) const {
  p.setPen(edgePen());
  p.drawLines(lines.data(), static_cast<int>(lines.size()));  // as lines: no path to stroke
  p.setPen(Qt::NoPen);
  for (const Kind& k : kinds) {
    p.setOpacity(k.opacity);
    p.setBrush(QColor::fromRgba(k.color));
    p.drawRects(k.boxes.data(), static_cast<int>(k.boxes.size()));
  }
  p.setOpacity(1);
}

// The copy is taken here; the image is painted on the thread pool and comes back through the event loop. An
// image asked for later supersedes it.
void GraphView::renderOverview() {
  overviewDirty_ = false;
  if (!overviewScene) return;
  QElapsedTimer t;
  t.start();
  auto copy = std::make_shared<const OverviewScene>(overviewScene());
  QRectF r = copy->bounds;
  if (r.isEmpty()) {
    overview_ = QImage();
    overviewPending_ = false;
    ++overviewGeneration_;
    return;
  }
  // Room on the right and below for what a run adds (new roots go right, children below their parents), so
  // overlayOverview can take them without drawing every node again.
  r.adjust(-kCellW, -kCellH, kCellW + 0.05 * r.width() + 8 * kCellW, kCellH + 0.05 * r.height() + 8 * kCellH);
  const double scale = std::min(0.08, 2400.0 / std::max(r.width(), r.height()));
  const QSize size(int(std::ceil(r.width() * scale)), int(std::ceil(r.height() * scale)));
  const QRectF rect(r.topLeft(), QSizeF(size.width() / scale, size.height() / scale));
  const quint64 generation = ++overviewGeneration_;
  overviewPending_ = true;
  pendingScale_ = scale;
  const bool trace = qEnvironmentVariableIsSet("KOPE_GRAPH_TRACE");
  if (trace) qInfo("overview copied: %lld ms on the GUI thread", static_cast<long long>(t.elapsed()));
  QThreadPool::globalInstance()->start([self = QPointer<GraphView>(this), copy, rect, scale, size, generation, trace] {
    QElapsedTimer w;
    w.start();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
      QPainter p(&image);
      p.scale(scale, scale);
      p.translate(-rect.topLeft());
      copy->paint(p);
    }
    if (trace) qInfo("overview drawn: %lld ms on a worker", static_cast<long long>(w.elapsed()));
    if (auto* app = QCoreApplication::instance())
      QMetaObject::invokeMethod(
          app,
          [self, image = std::move(image), rect, scale, generation]() mutable {
            if (self) self->overviewRendered(std::move(image), rect, scale, generation);
          },
          Qt::QueuedConnection);
  });
}

void GraphView::overviewRendered(QImage image, QRectF rect, double scale, quint64 generation) {
  if (generation != overviewGeneration_) return;  // a later one is under way
  overviewPending_ = false;
  overview_ = std::move(image);
  overviewRect_ = rect;
  overviewScale_ = scale;
  updateOverviewMode();
  viewport()->update();
}

void GraphView::overlayOverview(const QRectF& sceneRect, const std::function<void(QPainter&)>& paint) {
  if (overviewDirty_ || overviewPending_ || overview_.isNull() || !overviewRect_.contains(sceneRect))
    return invalidateOverview();  // an image under way lacks what is added now: the next one has it
  QPainter p(&overview_);
  p.scale(overviewScale_, overviewScale_);
  p.translate(-overviewRect_.topLeft());
  paint(p);
  viewport()->update();
}

void GraphView::drawBackground(QPainter* p, const QRectF& rect) {
  QGraphicsView::drawBackground(p, rect);
  if (overviewOn_ && overviewDirty_) renderOverview();
  if (overviewOn_ && !overview_.isNull()) {
    p->setRenderHint(QPainter::SmoothPixmapTransform, true);
    p->drawImage(overviewRect_, overview_);
  }
}

void GraphView::wheelEvent(QWheelEvent* e) {
  zoomBy(std::pow(1.0015, e->angleDelta().y()));
  e->accept();
}

void GraphView::keyPressEvent(QKeyEvent* e) {
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); return;
    case Qt::Key_Minus: zoomBy(0.8); return;
    case Qt::Key_F:
      if (e->modifiers() == Qt::NoModifier) { fit(); return; }
      break;
    default: break;
  }
  QGraphicsView::keyPressEvent(e);
}

// Drag pans; Shift+drag draws a rubber band; Ctrl+click adds to the selection (QGraphicsView's default).
void GraphView::mousePressEvent(QMouseEvent* e) {
  if (e->modifiers() & Qt::ShiftModifier) setDragMode(QGraphicsView::RubberBandDrag);
  QGraphicsView::mousePressEvent(e);
}

void GraphView::mouseMoveEvent(QMouseEvent* e) {
  if ((e->buttons() & Qt::LeftButton) && dragMode() == QGraphicsView::ScrollHandDrag) followFit_ = false;  // panning
  QGraphicsView::mouseMoveEvent(e);
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
  QGraphicsView::mouseReleaseEvent(e);
  setDragMode(QGraphicsView::ScrollHandDrag);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (QGraphicsItem* it = itemAt(e->pos()); it && it->type() == NodeItem::Type) {
    scene_->clearSelection();
    it->setSelected(true);
    emit nodeDoubleClicked(static_cast<NodeItem*>(it)->caseId());
    e->accept();
    return;
  }
  QGraphicsView::mouseDoubleClickEvent(e);
}

void GraphView::contextMenuEvent(QContextMenuEvent* e) {
  if (QGraphicsItem* it = itemAt(e->pos()); it && it->type() == NodeItem::Type && !it->isSelected()) {
    scene_->clearSelection();
    it->setSelected(true);
  }
  emit contextMenuAt(e->globalPos());
}

void GraphView::savePng(const QString& path) const {
  const QRect vp = viewport()->rect();
  QImage img(vp.size(), QImage::Format_ARGB32_Premultiplied);
  img.fill(Qt::white);
  {
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene_->render(&p, QRectF(img.rect()), mapToScene(vp).boundingRect());
  }
  if (!img.save(path, "PNG")) throw Error("cannot write the PNG '" + path.toStdString() + "'");
}

void GraphView::saveSvg(const QString& path) const {
  const QRect vp = viewport()->rect();
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(vp.size());
  svg.setViewBox(QRect(QPoint(0, 0), vp.size()));
  svg.setTitle(QStringLiteral("Kope experience graph"));
  svg.setDescription(QStringLiteral("The current view of the Experience Graph"));
  QPainter p;
  if (!p.begin(&svg)) throw Error("cannot write the SVG '" + path.toStdString() + "'");
  scene_->render(&p, QRectF(QPointF(0, 0), QSizeF(vp.size())), mapToScene(vp).boundingRect());
  p.end();
}

}  // namespace kope::graph
