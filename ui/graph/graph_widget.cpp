// The Experience Graph browser: what it does (loading, live additions, layout, filter, search, selection,
// curation, exports). Its widgets and texts are built in graph_widget_build.cpp. See graph_widget.h.
#include "graph_widget.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <fstream>
#include <limits>

#include "agentview/agent_view.h"
#include "case_details.h"
#include "filter_bar.h"
#include "kope/base/error.h"
#include "kope/memory/share.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "layout_service.h"

using namespace kope::workspace;

namespace kope::graph {

using kope::memory::MemoryStore;

// An error from the engine may quote recorded text (an imported task name, a path): shown as text, never markup.
void GraphWidget::warnPlain(QWidget* parent, const QString& title, const QString& text) {
  QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
  box.setTextFormat(Qt::PlainText);
  box.exec();
}

GraphWidget::GraphWidget(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(2);
  model_ = new GraphModel(this);
  buildView();
  details_ = new CaseDetails(this);
  agent_ = new kope::agentview::AgentView(this);
  undo_ = new QUndoStack(this);
  poll_ = new QTimer(this);
  relayoutTimer_ = new QTimer(this);
  relayoutTimer_->setSingleShot(true);
  connect(relayoutTimer_, &QTimer::timeout, this, &GraphWidget::relayout);
  connect(poll_, &QTimer::timeout, this, &GraphWidget::pollDatabase);
  buildToolbar();
  buildSide();
  buildActions();
  connectModel();
  connect(view_->graphScene(), &QGraphicsScene::selectionChanged, this, &GraphWidget::followSelection);
  connect(view_, &GraphView::contextMenuAt, this, &GraphWidget::contextMenu);
  connect(view_, &GraphView::nodeDoubleClicked, this, &GraphWidget::caseActivated);
  connect(details_, &CaseDetails::openInEditor, this, &GraphWidget::openInEditor);
  connect(details_, &CaseDetails::compare, this, &GraphWidget::compare);
  connect(details_, &CaseDetails::forkFrom, this, &GraphWidget::forkFrom);
  connect(agent_, &kope::agentview::AgentView::caseActivated, this, [this](qint64 id) { selectCase(id, true); });
  askExportPath = [this](const QString& title, const QString& proposed, const QString& filter) {
    return QFileDialog::getSaveFileName(this, title, proposed, filter);
  };
  retranslate();
  reasonProvider = [this](const QString& title) -> std::optional<QString> {
    bool ok = false;
    QString s = QInputDialog::getText(this, title, tr("Reason (recorded with the act):"), QLineEdit::Normal, {}, &ok);
    if (!ok || s.trimmed().isEmpty()) return std::nullopt;
    return s.trimmed();
  };
}

GraphWidget::~GraphWidget() {
  poll_->stop();
  relayoutTimer_->stop();
  QObject::disconnect(view_->graphScene(), nullptr, this, nullptr);  // no selection signals while items die
  QObject::disconnect(view_->graphScene(), nullptr, view_, nullptr);
  QObject::disconnect(model_, nullptr, this, nullptr);
  QObject::disconnect(undo_, nullptr, this, nullptr);  // the stack, a child, clears itself after this is gone
  items_.clear();
  view_->graphScene()->clear();
  delete layout_;  // joins the worker before the scene goes
  layout_ = nullptr;
}


void GraphWidget::contextMenu(QPoint globalPos) {
  QMenu m(this);
  const auto sel = selectedCases();
  if (sel.size() == 1 && caseActions) {
    m.addActions(caseActions(sel.front()));
    m.addSeparator();
  }
  for (QAction* a : view_->actions()) {
    a->setEnabled(!sel.empty());
    m.addAction(a);
  }
  m.addSeparator();
  m.addAction(undoAct_);
  m.exec(globalPos);
}

// The scene follows the model: an item per row, made, refreshed and deleted as rows come, change and go.
void GraphWidget::connectModel() {
  connect(model_, &QAbstractItemModel::rowsInserted, this,
          [this](const QModelIndex&, int first, int last) { addItems(first, last); });
  connect(model_, &QAbstractItemModel::rowsAboutToBeRemoved, this,
          [this](const QModelIndex&, int first, int last) { removeItems(first, last); });
  connect(model_, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex& tl, const QModelIndex& br) { updateItems(tl.row(), br.row()); });
  connect(model_, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
    removeItems(0, model_->rowCount() - 1);
  });
  connect(model_, &QAbstractItemModel::modelReset, this, [this] { addItems(0, model_->rowCount() - 1); });
}

void GraphWidget::addItems(int first, int last) {
  for (int r = first; r <= last; ++r) {  // in id order: parents before children
    const int64_t id = model_->idAt(r);
    auto* item = new NodeItem(model_->node(id));
    items_[id] = item;
    if (laidOut_) item->setPos(placeBelowParent(item->data()));
    item->setParentItem(nodeLayer_);
    if (laidOut_) growSceneRect(item->sceneBoundingRect());
    added_.push_back(id);
  }
}

void GraphWidget::removeItems(int first, int last) {
  for (int r = first; r <= last; ++r) {
    auto it = items_.find(model_->idAt(r));
    if (it == items_.end()) continue;
    delete it->second;
    shown_.erase(it->first);
    items_.erase(it);
  }
}

void GraphWidget::updateItems(int first, int last) {
  for (int r = first; r <= last; ++r)
    if (auto it = items_.find(model_->idAt(r)); it != items_.end()) {
      it->second->setNodeData(model_->node(it->first));
      changed_.push_back(it->first);
    }
}

void GraphWidget::openWorkspace(const std::filesystem::path& dir) {
  dir_ = dir;
  agent_->setStores(nullptr, nullptr);
  agentStore_.reset();
  store_.reset();
  ws_ = std::make_unique<kope::workspace::Workspace>(kope::workspace::Workspace::open(dir));
  MemoryStore::ensure_schema(ws_->handle());
  store_ = std::make_unique<MemoryStore>(ws_->handle());
  agentStore_ = kope::agent::AgentStore::reader(ws_->handle());
  delete layout_;
  layout_ = new LayoutService(dir / "cache" / "graph-layout", this);
  connectLayout();
  agent_->setStores(&*agentStore_, store_.get());
  model_->clear();
  overviewSelected_.clear();
  laidOut_ = false;
  fitOnLayout_ = true;
  seen_.reset();
  lastId_ = 0;
  pairs_.clear();
  undo_->clear();
  // The Cases are read on the reader's thread: a memory of 100,000 does not hold the window while it opens.
  delete reader_;
  reader_ = new CaseReader(dir, this);
  connect(reader_, &CaseReader::read, this, [this](quint64 id, std::shared_ptr<CaseSnapshot> s) {
    if (id != pendingRead_) return;  // a synchronous refresh came since: this reading is older than what is shown
    pendingRead_ = 0;
    apply(std::move(*s));
  });
  connect(reader_, &CaseReader::unchanged, this, [this](quint64 id) {
    if (id == pendingRead_) pendingRead_ = 0;
  });
  connect(reader_, &CaseReader::failed, this, [this](quint64 id, const QString& why) {
    if (id != pendingRead_) return;
    pendingRead_ = 0;  // e.g. the database busy under a running loop: the next poll asks again
    status_->setText(tr("could not read the memory: %1").arg(why));
  });
  pendingRead_ = reader_->request(std::nullopt, 0);
  poll_->start(poll_->interval() > 0 ? poll_->interval() : 1000);
}

void GraphWidget::connectLayout() {
  connect(layout_, &LayoutService::finished, this,
          [this](quint64 id, std::shared_ptr<const Positions> p, QString engine, double ms, bool cached) {
            if (id != pendingLayout_) return;  // superseded
            QElapsedTimer at;
            at.start();
            applyPositions(*p);
            if (qEnvironmentVariableIsSet("KOPE_GRAPH_TRACE")) qInfo("apply positions: %lld ms", static_cast<long long>(at.elapsed()));
            liveChildren_.clear();
            const bool first = !laidOut_;
            laidOut_ = true;
            if (first || fitOnLayout_) view_->fit();
            fitOnLayout_ = false;
            status_->setText(tr("%1 Cases · layout %2 in %3 ms%4").arg(nodeCount()).arg(engine).arg(ms, 0, 'f', 0)
                                 .arg(cached ? tr(" (cached)") : QString()));
            emit layoutApplied(engine, ms, cached);
          });
  connect(layout_, &LayoutService::failed, this, [this](quint64, QString msg) {
    status_->setText(tr("layout failed: %1").arg(msg));
  });
}

void GraphWidget::setPollInterval(int ms) {
  if (ms <= 0) poll_->stop();
  else poll_->start(ms);
}

// The reader compares the stamp and reads what changed on its own thread; one reading at a time.
void GraphWidget::pollDatabase() {
  if (reader_ && !pendingRead_ && !applying_) pendingRead_ = reader_->request(seen_, lastId_);
}

LayoutInput GraphWidget::layoutInput() const {
  LayoutInput in;
  in.nodes.reserve(model_->ids().size());
  for (int64_t id : model_->ids()) in.nodes.push_back({id, model_->node(id)->row.prev_case_id, kCellW, kCellH});
  return in;
}

void GraphWidget::relayout() {
  if (!layout_) return;
  pendingLayout_ = layout_->request(layoutInput());
}

bool GraphWidget::waitForLayout(int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeoutMs) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    if (laidOut_ && !layout_->busy()) {
      QApplication::processEvents();
      return true;
    }
  }
  return false;
}

QPointF GraphWidget::placeBelowParent(const NodeData& d) {
  if (d.row.prev_case_id) {
    if (auto it = items_.find(*d.row.prev_case_id); it != items_.end() && it->second->scene()) {
      const int k = liveChildren_[*d.row.prev_case_id]++;
      // Below the parent, fanned out to alternate sides, one cell apart.
      const double dx = (k % 2 ? 1 : -1) * ((k + 1) / 2) * (kCellW + 10);
      return it->second->pos() + QPointF(dx, kCellH + 40 + (k / 8) * (kCellH + 10));
    }
  }
  const QRectF& b = sceneBounds_;
  return QPointF(b.isEmpty() ? 0 : b.right() + kCellW, b.isEmpty() ? 0 : b.top() + kCellH / 2);
}

void GraphWidget::refresh() {
  if (!store_) return;
  pendingRead_ = 0;  // a reading under way predates this one: dropped when it arrives
  try {
    if (auto s = read_cases(*store_, *ws_, seen_, lastId_, pairs_)) apply(std::move(*s));
  } catch (const std::exception& e) {  // e.g. the database busy under a running loop: the next poll retries
    seen_.reset();
    status_->setText(tr("could not read the memory: %1").arg(QString::fromUtf8(e.what())));
  }
}

// After a curation act: only the Cases it touched are read again, and only the curation part of the stamp is
// taken as seen, so what a run added meanwhile still arrives at the next poll.
void GraphWidget::refreshCases(const std::vector<int64_t>& ids) {
  if (!store_ || ids.empty()) return refresh();
  try {
    store::ReadTxn snapshot(ws_->handle());
    const kope::memory::ChangeStamp stamp = store_->change_stamp();
    std::vector<kope::memory::CaseRow> rows;
    for (std::size_t i = 0; i < ids.size(); i += 500) {  // SQLite's bound-parameter limit stays far away
      kope::memory::CaseFilter f;
      f.limit = std::numeric_limits<int>::max();
      f.ids.assign(ids.begin() + static_cast<std::ptrdiff_t>(i), ids.begin() + static_cast<std::ptrdiff_t>(std::min(ids.size(), i + 500)));
      for (auto& r : store_->cases(f)) rows.push_back(std::move(r));
    }
    CaseSnapshot s;
    s.full = false;
    s.rows = std::move(rows);
    for (const auto& [task, device] : pairs_)
      if (auto inc = ws_->incumbent(task, device))
        if (auto c = store_->case_of_evaluation(inc->evaluation_id)) s.incumbents.insert(*c);
    s.lastId = lastId_;
    s.stamp = seen_.value_or(stamp);
    s.stamp.max_curation = stamp.max_curation;
    pendingRead_ = 0;
    apply(std::move(s));
  } catch (const std::exception& e) {
    seen_.reset();
    status_->setText(tr("could not read the memory: %1").arg(QString::fromUtf8(e.what())));
  }
}

// What a reading found, into the model (the scene follows through its signals), the filter choices, the layout.
constexpr std::size_t kApplyChunk = 2500;  // Cases a turn of the event loop: tens of milliseconds at 100,000

// A first reading of a large memory goes into the model (and the scene, through its signals) by chunks, one per
// turn of the event loop, so the window keeps painting and answering while 100,000 Cases arrive; the filter
// choices, the filter and the layout follow once, with the last chunk. Any later reading replaces it.
void GraphWidget::apply(CaseSnapshot s) {
  ++applyGeneration_;
  applying_ = false;
  const bool full = s.full;
  if (!full || model_->rowCount() > 0 || s.rows.size() <= kApplyChunk) return applyNow(std::move(s), full);
  applying_ = true;
  applyInChunks(std::make_shared<CaseSnapshot>(std::move(s)), 0, applyGeneration_);
}

void GraphWidget::applyInChunks(std::shared_ptr<CaseSnapshot> s, std::size_t from, quint64 generation) {
  if (generation != applyGeneration_) return;  // a newer reading was applied meanwhile
  const std::size_t to = std::min(s->rows.size(), from + kApplyChunk);
  std::vector<kope::memory::CaseRow> part(std::make_move_iterator(s->rows.begin() + static_cast<std::ptrdiff_t>(from)),
                                          std::make_move_iterator(s->rows.begin() + static_cast<std::ptrdiff_t>(to)));
  if (to < s->rows.size()) {
    model_->upsert(std::move(part), s->incumbents);  // the model started empty: these are new nodes
    QTimer::singleShot(0, this, [this, s, to, generation] { applyInChunks(s, to, generation); });
    return;
  }
  applying_ = false;
  CaseSnapshot last;
  last.full = false;  // the earlier chunks are in: the last one is added like a run's new Cases
  last.rows = std::move(part);
  last.pairs = std::move(s->pairs);
  last.incumbents = std::move(s->incumbents);
  last.stamp = s->stamp;
  last.lastId = s->lastId;
  last.millis = s->millis;
  applyNow(std::move(last), true);
}

// A whole reading filters every node again; a run's new Cases or a curation act's changes filter only those
// nodes and add only their edges, so a new Case costs the same at 100 Cases as at 100,000.
void GraphWidget::applyNow(CaseSnapshot s, bool refilterAll) {
  QElapsedTimer lt;
  lt.start();
  added_.clear();
  changed_.clear();
  if (s.full) model_->setCases(std::move(s.rows), s.incumbents);
  else model_->upsert(std::move(s.rows), s.incumbents);
  const qint64 modelMs = lt.elapsed();
  seen_ = s.stamp;
  lastId_ = s.lastId;
  if (!s.pairs.empty()) pairs_ = std::move(s.pairs);
  bar_->setChoices(model_->choices());
  const bool whole = refilterAll || !laidOut_;
  if (whole) applyFilter();
  else applyFilterTo(added_, changed_);
  const qint64 filterMs = lt.elapsed();
  if (!laidOut_) {
    if (!pendingLayout_ || !layout_->busy()) relayout();
  } else if (!added_.empty() && relayoutDelayMs_ >= 0) {
    relayoutTimer_->start(relayoutDelayMs_);  // a background re-layout once the run goes quiet
  }
  // The details are read again when the reading may have changed the Case shown (a curation act on it).
  const std::vector<int64_t> sel = selectedCases();
  if (whole || std::any_of(changed_.begin(), changed_.end(),
                           [&](int64_t id) { return std::find(sel.begin(), sel.end(), id) != sel.end(); }))
    showSelection();
  if (laidOut_)
    status_->setText(tr("%1 Cases, %2 shown").arg(nodeCount()).arg(visibleCount()));
  if (qEnvironmentVariableIsSet("KOPE_GRAPH_TRACE"))
    qInfo("read cases: %.0f ms on the reader, applied in %lld ms (model and scene %lld, filter %lld)", s.millis,
          static_cast<long long>(lt.elapsed()), static_cast<long long>(modelMs),
          static_cast<long long>(filterMs - modelMs));
}

void GraphWidget::applyPositions(const Positions& p) {
  sceneBounds_ = QRectF();
  for (auto& [id, item] : items_) {
    auto it = p.find(id);
    if (it == p.end()) continue;
    item->setPos(it->second.x, it->second.y);
    sceneBounds_ |= item->sceneBoundingRect();
  }
  for (auto& [id, item] : items_)
    if (!p.count(id)) {
      item->setPos(placeBelowParent(item->data()));
      sceneBounds_ |= item->sceneBoundingRect();
    }
  view_->graphScene()->setSceneRect(sceneBounds_);
  rebuildEdges();
}

void GraphWidget::growSceneRect(const QRectF& r) {
  if (sceneBounds_.contains(r)) return;
  sceneBounds_ |= r;
  view_->graphScene()->setSceneRect(sceneBounds_);
}

std::optional<QLineF> GraphWidget::edgeTo(int64_t id, const NodeItem& item) const {
  const auto& row = item.data().row;
  if (!shown(id) || !row.prev_case_id || !shown(*row.prev_case_id)) return std::nullopt;
  auto p = items_.find(*row.prev_case_id);
  if (p == items_.end()) return std::nullopt;
  return QLineF(p->second->pos() + QPointF(0, p->second->size().height() / 2),
                item.pos() - QPointF(0, item.size().height() / 2));
}

QRectF GraphWidget::plainBox(const NodeItem& n) {
  const QSizeF s = n.size();
  return QRectF(n.pos() - QPointF(s.width() / 2, s.height() / 2), s);
}

void GraphWidget::paintPlain(QPainter& p, const NodeItem& n) {
  p.setOpacity(n.opacity());
  p.fillRect(plainBox(n), n.plainColor());
  p.setOpacity(1);
}

void GraphWidget::rebuildEdges() {
  std::vector<QLineF> lines;
  lines.reserve(items_.size());
  for (const auto& [id, item] : items_)
    if (auto l = edgeTo(id, *item)) lines.push_back(*l);
  edges_->setLines(std::move(lines));
  view_->invalidateOverview();
  view_->updateOverviewMode();
}

void GraphWidget::setFilter(const GraphFilter& f) {
  bar_->setFilter(f);
  match_.setFilter(f);
  applyFilter();
}

// Items follow what the filter lets through. A selected Case the filter hides is deselected, so its details do
// not stay on show and a curation act cannot reach a Case no longer in sight.
void GraphWidget::applyFilter() {
  shown_.clear();
  shown_.reserve(model_->ids().size());
  for (int64_t id : model_->ids())
    if (match_.accepts(*model_->node(id))) shown_.insert(id);
  const std::vector<int64_t> selectedBefore = selectedCases();
  {
    QSignalBlocker b(view_->graphScene());  // one showSelection below, not one per item
    for (auto& [id, item] : items_) {
      const bool ok = shown(id);
      if (!ok) item->setSelected(false);  // before hiding: Qt may or may not drop the selection of a hidden item
      item->setVisible(ok);  // under a hidden layer (the overview on) only a flag: Qt shows it with the layer
    }
  }
  rebuildEdges();
  if (selectedCases() != selectedBefore) followSelection();
}

// The nodes a reading added or changed, and nothing else: shown or hidden as the filter says, deselected when
// hidden; the added ones' edges appended. A changed node that appeared or vanished (a pruned Case under a filter
// on labels, say) takes or leaves its children's edges with it: then all edges are drawn again.
void GraphWidget::applyFilterTo(const std::vector<int64_t>& added, const std::vector<int64_t>& changed) {
  bool flipped = false, deselected = false;
  {
    QSignalBlocker b(view_->graphScene());
    auto place = [&](int64_t id) {  // true: the node came into the filter's view or went out of it
      NodeItem* it = item(id);
      const bool ok = match_.accepts(it->data()), was = shown(id);
      if (ok) shown_.insert(id);
      else shown_.erase(id);
      if (!ok && it->isSelected()) {
        it->setSelected(false);  // before hiding, as in applyFilter
        deselected = true;
      }
      it->setVisible(ok);
      return ok != was;
    };
    for (int64_t id : changed) flipped = place(id) || flipped;
    for (int64_t id : added) place(id);
  }
  if (deselected) followSelection();
  if (flipped) return rebuildEdges();
  std::vector<QLineF> lines;
  for (int64_t id : added)
    if (auto l = edgeTo(id, *item(id))) lines.push_back(*l);
  edges_->addLines(lines);
  overlayNodes(changed, added, lines);
  view_->updateOverviewMode();
}

// The overview image takes a few nodes without being drawn again over 100,000: `redrawn` over their old selves
// (each box cleared first: only its own edge ends lay under it), `added` and `lines` on top.
void GraphWidget::overlayNodes(const std::vector<int64_t>& redrawn, const std::vector<int64_t>& added,
                               const std::vector<QLineF>& lines) {
  QRectF touched;
  for (const QLineF& l : lines) touched |= QRectF(l.p1(), l.p2()).normalized();
  for (const auto* ids : {&redrawn, &added})
    for (int64_t id : *ids)
      if (shown(id)) touched |= plainBox(*item(id));
  if (touched.isNull()) return;
  view_->overlayOverview(touched.adjusted(-1, -1, 1, 1), [&](QPainter& p) {
    p.setPen(OverviewScene::edgePen());
    for (const QLineF& l : lines) p.drawLine(l);
    for (int64_t id : redrawn)
      if (shown(id)) {
        const NodeItem& n = *item(id);
        p.setCompositionMode(QPainter::CompositionMode_Clear);
        p.fillRect(plainBox(n), Qt::transparent);
        p.setCompositionMode(QPainter::CompositionMode_SourceOver);
        paintPlain(p, n);
      }
    for (int64_t id : added)
      if (shown(id)) paintPlain(p, *item(id));
  });
}

// The details, and the overview's colours of the Cases whose selection changed.
void GraphWidget::followSelection() {
  showSelection();
  std::vector<int64_t> now = selectedCases(), flipped;
  std::set_symmetric_difference(overviewSelected_.begin(), overviewSelected_.end(), now.begin(), now.end(),
                                std::back_inserter(flipped));
  overviewSelected_ = std::move(now);
  overlayNodes(flipped, {}, {});
}

NodeItem* GraphWidget::item(int64_t id) const {
  auto it = items_.find(id);
  return it == items_.end() ? nullptr : it->second;
}

std::optional<QPointF> GraphWidget::positionOf(int64_t id) const {
  if (auto* i = item(id)) return i->pos();
  return std::nullopt;
}

int GraphWidget::search(const QString& text) {
  const QString q = text.trimmed();
  if (q.isEmpty()) return 0;
  const std::vector<int64_t> hits = match_.search(*model_, q);
  QSignalBlocker b(view_->graphScene());
  view_->graphScene()->clearSelection();
  for (int64_t id : hits) items_.at(id)->setSelected(true);
  b.unblock();
  if (!hits.empty()) view_->centerOn(items_.at(hits.front()));
  followSelection();
  status_->setText(tr("%n match(es) for \"%1\"", nullptr, static_cast<int>(hits.size())).arg(q));
  return static_cast<int>(hits.size());
}

void GraphWidget::selectCase(int64_t id, bool center) {
  auto* it = item(id);
  if (!it) return;
  if (!shown(id)) setFilter({});
  QSignalBlocker b(view_->graphScene());
  view_->graphScene()->clearSelection();
  it->setSelected(true);
  b.unblock();
  if (center) view_->centerOn(it);
  followSelection();
}

std::vector<int64_t> GraphWidget::selectedCases() const {
  std::vector<int64_t> out;
  for (QGraphicsItem* i : view_->graphScene()->selectedItems())
    if (i->type() == NodeItem::Type) out.push_back(static_cast<NodeItem*>(i)->caseId());
  std::sort(out.begin(), out.end());
  return out;
}

void GraphWidget::showSelection() {
  const auto sel = selectedCases();
  if (sel.empty() || !store_) {  // nothing selected: neither pane keeps showing a Case
    details_->clear();
    agent_->showEvaluation(0);
    return;
  }
  // The focus Case: the one most recently selected (the highest id when several were selected at once).
  int64_t id = sel.back();
  if (details_->caseId() && std::count(sel.begin(), sel.end(), *details_->caseId()) && sel.size() > 1) {
    for (int64_t s : sel)
      if (s != *details_->caseId()) id = s;
  }
  auto row = store_->get_case(id);
  if (!row) {  // gone (another workspace opened, or removed meanwhile)
    details_->clear();
    return;
  }
  CaseDetailsData d;
  d.row = *row;
  const NodeData* node = model_->node(id);
  d.incumbent = node && node->incumbent;
  if (auto inc = ws_->incumbent(row->task, row->device)) d.incumbentEvaluation = inc->evaluation_id;
  for (int64_t s : sel)
    if (const NodeData* other = model_->node(s); s != id && other && other->row.evaluation_id)
      d.otherEvaluation = other->row.evaluation_id;
  d.journal = store_->journal(std::nullopt, id);
  d.curation = store_->curation(id);
  if (row->evaluation_id)
    if (auto ev = ws_->evaluation(*row->evaluation_id)) d.report = ev->report;
  if (row->kernel_id)
    if (auto src = ws_->kernel_source(*row->kernel_id)) d.kernelSource = *src;
  details_->showCase(d);
  agent_->showEvaluation(row->evaluation_id.value_or(0));
  emit caseSelected(id);
}

int GraphWidget::curate(CurationAct act, std::vector<int64_t> ids) {
  if (!store_) return 0;
  if (ids.empty()) ids = selectedCases();
  if (ids.empty()) return 0;
  QString why;
  if (needs_reason(act)) {
    auto r = reasonProvider ? reasonProvider(tr("%1 %n Case(s)", nullptr, static_cast<int>(ids.size())).arg(act_text(act)))
                            : std::nullopt;
    if (!r) return 0;
    why = *r;
  }
  try {
    auto self = std::make_shared<CurationCommand*>(nullptr);  // the command, once made: what it touched
    auto cmd = std::make_unique<CurationCommand>(
        *store_, act, ids, why, [this, self] { *self ? refreshCases((*self)->touched()) : refresh(); },
        [this](const QString& msg) { warnPlain(this, tr("Curation"), msg); });
    *self = cmd.get();
    undo_->push(cmd.get());  // runs redo(); throws, keeping nothing, when the store refuses the act
    const int n = cmd.release()->changedCases();
    emit statusMessage(tr("%1: %n Case(s) changed", nullptr, n).arg(act_text(act)));
    return n;
  } catch (const std::exception& e) {
    warnPlain(this, tr("Curation"), QString::fromUtf8(e.what()));
    return 0;
  }
}

void GraphWidget::exportPng(const QString& path) const { view_->savePng(path); }

void GraphWidget::exportSvg(const QString& path) const { view_->saveSvg(path); }

void GraphWidget::exportGraphml(const QString& path) const {
  if (!store_) throw Error("no workspace open");
  std::ofstream out(path.toStdString(), std::ios::binary);
  if (!out) throw Error("cannot write the GraphML '" + path.toStdString() + "'");
  kope::memory::GraphExportOptions o;
  if (const QString task = match_.filter().task; !task.isEmpty()) o.task = task.toStdString();
  kope::memory::export_graphml(*store_, out, o);
  if (!out.flush()) throw Error("cannot write the GraphML '" + path.toStdString() + "'");
}

}  // namespace kope::graph
