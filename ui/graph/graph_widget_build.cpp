// The Experience Graph browser's widgets, toolbar, actions and texts (set again by retranslate() when the
// language changes), and how its panes share a narrow or wide dock. Apart from graph_widget.cpp (what the
// browser does), which stays under the size the house style asks of a file.
#include "graph_widget.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsRectItem>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <map>

#include "agentview/agent_view.h"
#include "case_details.h"
#include "filter_bar.h"

namespace kope::graph {

// The view, the one item for all edges, and the overview (every shown node as a plain rectangle).
void GraphWidget::buildView() {
  view_ = new GraphView(this);
  edges_ = new EdgesItem;
  view_->graphScene()->addItem(edges_);
  // The nodes are children of one item, not top-level items: Qt sorts its top-level list back into insertion
  // order before each addition once a frame has sorted it by depth (30 ms a Case at 100,000); a parent's
  // children it keeps in order when their depths are equal.
  nodeLayer_ = new QGraphicsRectItem;
  nodeLayer_->setFlag(QGraphicsItem::ItemHasNoContents);
  view_->graphScene()->addItem(nodeLayer_);
  // Set by applyPositions and grown as a run adds nodes; until the first layout a dot (every node sits at 0,0).
  view_->graphScene()->setSceneRect(QRectF(0, 0, 1, 1));
  view_->itemCount = [this] { return items_.size(); };
  view_->overviewBounds = [this] {
    QRectF r = edges_->boundingRect();
    for (const auto& [id, it] : items_)
      if (shown(id)) r |= QRectF(it->pos() - QPointF(kCellW / 2, kCellH / 2), QSizeF(kCellW, kCellH));
    return r;
  };
  view_->overviewScene = [this] {
    OverviewScene o;
    o.lines = edges_->lines();
    o.bounds = edges_->boundingRect();
    std::map<std::pair<QRgb, double>, std::size_t> kind;  // a handful of colours and opacities among the nodes
    for (const auto& [id, n] : items_) {
      if (!shown(id)) continue;
      const QRectF box = plainBox(*n);
      o.bounds |= box;
      auto [it, fresh] = kind.try_emplace({n->plainColor().rgba(), n->opacity()}, o.kinds.size());
      if (fresh) o.kinds.push_back({it->first.first, it->first.second, {}});
      o.kinds[it->second].boxes.push_back(box);
    }
    return o;
  };
  connect(view_, &GraphView::overviewChanged, this, [this](bool on) {
    edges_->setVisible(!on);
    nodeLayer_->setVisible(!on);  // the nodes the filter shows follow their parent
  });
}

// The legend, the view beside the side panel (the Case, what the agent was shown), the status line.
void GraphWidget::buildSide() {
  auto* lay = static_cast<QVBoxLayout*>(layout());
  legend_ = new QLabel(this);
  legend_->setTextFormat(Qt::RichText);
  legend_->setWordWrap(true);
  legend_->setObjectName("legend");
  auto* split = split_ = new QSplitter(Qt::Horizontal, this);
  split->setObjectName("graph-split");
  split->addWidget(view_);
  side_ = new QTabWidget(split);
  side_->setObjectName("graph-side");
  side_->addTab(details_, QString());
  side_->addTab(agent_, QString());
  split->addWidget(side_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  // Small enough that the graph's dock fits a 1024-wide window beside the editor, whether side by side or
  // stacked (see resizeEvent).
  view_->setMinimumWidth(200);
  side_->setMinimumSize(180, 150);
  split->setSizes({1000, 560});  // scaled to the real width at the first show
  lay->addWidget(legend_);
  lay->addWidget(split, 1);
  status_ = new QLabel(this);
  status_->setTextFormat(Qt::PlainText);  // error messages and search words: never markup
  lay->addWidget(status_);
}

// The filters and search, then the view's buttons and undo/redo, each group kept together; the bar wraps in a
// narrow dock.
void GraphWidget::buildToolbar() {
  bar_ = new FilterBar(this);
  connect(bar_, &FilterBar::filterChanged, this, [this](const GraphFilter& f) {
    match_.setFilter(f);
    applyFilter();
  });
  connect(bar_, &FilterBar::searchRequested, this, [this](const QString& text) { search(text); });
  auto action = [this](const QString& text, auto slot) {
    auto* a = new QAction(text, this);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  fit_ = action(QString(), [this] { view_->fit(); });
  zoomIn_ = action(QStringLiteral("+"), [this] { view_->zoomBy(1.25); });
  zoomOut_ = action(QStringLiteral("−"), [this] { view_->zoomBy(0.8); });
  relayout_ = action(QString(), [this] { relayout(); });
  export_ = buildExportButton();
  bar_->addGroup({bar_->button(fit_), bar_->button(zoomIn_), bar_->button(zoomOut_), bar_->button(relayout_), export_});
  // Undo and redo name the act they would take back or do again ("Undo prune 2 Cases"), in the current language.
  undoAct_ = action(QString(), [this] { undo_->undo(); });
  redoAct_ = action(QString(), [this] { undo_->redo(); });
  undoAct_->setShortcut(QKeySequence::Undo);
  redoAct_->setShortcut(QKeySequence::Redo);
  for (QAction* a : {undoAct_, redoAct_}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    a->setEnabled(false);
    addAction(a);
  }
  connect(undo_, &QUndoStack::canUndoChanged, undoAct_, &QAction::setEnabled);
  connect(undo_, &QUndoStack::canRedoChanged, redoAct_, &QAction::setEnabled);
  connect(undo_, &QUndoStack::undoTextChanged, this, &GraphWidget::nameUndo);
  connect(undo_, &QUndoStack::redoTextChanged, this, &GraphWidget::nameUndo);
  bar_->addGroup({bar_->button(undoAct_), bar_->button(redoAct_)});
  static_cast<QVBoxLayout*>(layout())->addWidget(bar_);
}

// The folder of the last export, kept with the window's other choices (QSettings).
static const char* const kLastExportDirKey = "paths/last_export_dir";

QString GraphWidget::exportFolder() const {
  const QString last = QSettings().value(kLastExportDirKey).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
  return dir_.empty() ? QDir::homePath() : QString::fromStdString(dir_.string());
}

QToolButton* GraphWidget::buildExportButton() {
  auto* exp = new QToolButton(bar_);
  exp->setAutoRaise(true);
  exp->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(exp);
  auto save = [this](const QString& filter, const QString& suffix, auto fn) {
    const QString p = askExportPath(tr("Export"), QDir(exportFolder()).filePath("experience-graph." + suffix), filter);
    if (p.isEmpty()) return;
    QSettings().setValue(kLastExportDirKey, QFileInfo(p).absolutePath());
    try {
      (this->*fn)(p);
      emit statusMessage(tr("Exported %1").arg(p));
    } catch (const std::exception& e) {
      warnPlain(this, tr("Export"), QString::fromUtf8(e.what()));
    }
  };
  menu->addAction(QString(), this, [=] { save("PNG (*.png)", "png", &GraphWidget::exportPng); });
  menu->addAction(QString(), this, [=] { save("SVG (*.svg)", "svg", &GraphWidget::exportSvg); });
  menu->addAction(QString(), this, [=] { save("GraphML (*.graphml)", "graphml", &GraphWidget::exportGraphml); });
  exp->setMenu(menu);
  return exp;
}

// The curation acts, offered by the view's context menu with their shortcuts.
void GraphWidget::buildActions() {
  auto add = [this](const QKeySequence& key, CurationAct act) {
    auto* a = new QAction(this);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    a->setData(static_cast<int>(act));
    connect(a, &QAction::triggered, this, [this, act] { curate(act); });
    view_->addAction(a);
  };
  add(QKeySequence(Qt::Key_Delete), CurationAct::Prune);
  add(QKeySequence(Qt::SHIFT | Qt::Key_Delete), CurationAct::PruneSubtree);
  add(QKeySequence(Qt::Key_U), CurationAct::Unprune);
  add(QKeySequence(Qt::SHIFT | Qt::Key_U), CurationAct::UnpruneSubtree);
  add(QKeySequence(Qt::Key_P), CurationAct::Pin);
  add(QKeySequence(Qt::SHIFT | Qt::Key_P), CurationAct::Unpin);
  add(QKeySequence(Qt::Key_C), CurationAct::Cheat);
  add(QKeySequence(Qt::Key_I), CurationAct::Invalid);
  add(QKeySequence(Qt::SHIFT | Qt::Key_C), CurationAct::ClearFlag);
  auto* find = new QAction(this);
  find->setShortcut(QKeySequence::Find);
  find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QAction::triggered, this, [this] {
    bar_->searchField()->setFocus();
    bar_->searchField()->selectAll();
  });
  addAction(find);
}

// A narrow dock stacks the Case and what the agent was shown below the graph, at the dock's full width (side by
// side, each would get half of too little); a wide one puts them beside it.
void GraphWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const Qt::Orientation o = width() < kSideBySideWidth ? Qt::Vertical : Qt::Horizontal;
  if (split_->orientation() == o) return;
  split_->setOrientation(o);
  // Stacked, the Case and the agent's prompt (text to read) get the larger part; side by side, the graph does.
  const int total = o == Qt::Vertical ? split_->height() : split_->width();
  const int graph = total * (o == Qt::Vertical ? 35 : 55) / 100;
  split_->setSizes({graph, total - graph});
}

// Every text of the browser, set again when the language changes (the window installs another translation).
void GraphWidget::retranslate() {
  auto sq = [](const char* col, const QString& name) {
    return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp; ").arg(col, name.toHtmlEscaped());
  };
  legend_->setText(sq("#2e9d48", outcomeText("effective")) + sq("#a8c83c", outcomeText("partial")) +
                   sq("#f0a030", outcomeText("ineffective")) + sq("#d64541", outcomeText("negative")) +
                   tr("╳ hatched: incorrect · ") + tr("<b style='color:#ffb300'>★ gold outline</b>: incumbent · ") +
                   tr("<b style='color:#555'>✂ faded, dashed</b>: pruned · ") + tr("<b style='color:#1565c0'>P</b>: pinned · ") +
                   tr("<b style='color:#b000b0'>C/I dash-dot</b>: cheat/invalid · ") +
                   tr("<b style='color:#008080'>F dotted</b>: foreign · ") + tr("size: d(v)"));
  side_->setTabText(0, tr("Case"));
  side_->setTabText(1, tr("What the agent was shown"));
  fit_->setText(tr("Fit"));
  fit_->setToolTip(tr("Fit the graph (F)"));
  zoomIn_->setToolTip(tr("Zoom in"));
  zoomOut_->setToolTip(tr("Zoom out"));
  relayout_->setText(tr("Re-layout"));
  relayout_->setToolTip(tr("Lay the graph out again"));
  export_->setText(tr("Export"));
  export_->setToolTip(tr("Save the view as PNG or SVG, or the graph as GraphML"));
  const QList<QAction*> exports = export_->menu()->actions();
  exports[0]->setText(tr("View as PNG…"));
  exports[1]->setText(tr("View as SVG…"));
  exports[2]->setText(tr("Graph as GraphML…"));
  static const char* const acts[] = {QT_TR_NOOP("Prune…"), QT_TR_NOOP("Prune subtree…"), QT_TR_NOOP("Unprune"),
                                     QT_TR_NOOP("Unprune subtree"), QT_TR_NOOP("Pin"), QT_TR_NOOP("Unpin"),
                                     QT_TR_NOOP("Mark as cheat…"), QT_TR_NOOP("Mark as invalid measurement…"),
                                     QT_TR_NOOP("Clear mark")};
  for (QAction* a : view_->actions())
    if (a->data().isValid()) a->setText(tr(acts[a->data().toInt()]));
  nameUndo();
  bar_->retranslate();
  details_->retranslate();
  agent_->retranslate();
  if (laidOut_) status_->setText(tr("%1 Cases, %2 shown").arg(nodeCount()).arg(visibleCount()));
}

void GraphWidget::nameUndo() {
  const QString u = undo_->undoText(), r = undo_->redoText();
  undoAct_->setText(u.isEmpty() ? tr("Undo") : tr("Undo %1").arg(u));
  redoAct_->setText(r.isEmpty() ? tr("Redo") : tr("Redo %1").arg(r));
}

void GraphWidget::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && legend_) retranslate();
  QWidget::changeEvent(event);
}

}  // namespace kope::graph
