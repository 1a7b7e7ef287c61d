// The Cases as an item model and the filter and search as a predicate. See graph_model.h.
#include "graph_model.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>
#include <limits>

#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::graph {

using kope::memory::CaseRow;

QString outcomeText(const QString& label) {
  static const char* const words[] = {
      QT_TRANSLATE_NOOP("kope::graph::GraphModel", "effective"), QT_TRANSLATE_NOOP("kope::graph::GraphModel", "partial"),
      QT_TRANSLATE_NOOP("kope::graph::GraphModel", "ineffective"), QT_TRANSLATE_NOOP("kope::graph::GraphModel", "negative"),
      QT_TRANSLATE_NOOP("kope::graph::GraphModel", "incorrect")};
  for (const char* w : words)
    if (label == QLatin1String(w)) return GraphModel::tr(w);
  return label;
}

QString statusWord(const std::string& status) {
  return QCoreApplication::translate("Status", QString::fromStdString(status).replace('_', ' ').toUtf8().constData());
}

GraphModel::GraphModel(QObject* parent) : QAbstractTableModel(parent) {}

void GraphModel::load(const kope::memory::MemoryStore& store, const kope::workspace::Workspace& ws) {
  kope::memory::CaseFilter f;
  f.limit = std::numeric_limits<int>::max();
  std::vector<CaseRow> rows = store.cases(f);
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& r : rows) pairs.insert({r.task, r.device});
  std::set<int64_t> incumbents;
  for (const auto& [task, device] : pairs)
    if (auto inc = ws.incumbent(task, device))
      if (auto c = store.case_of_evaluation(inc->evaluation_id)) incumbents.insert(*c);
  setCases(std::move(rows), incumbents);
}

void GraphModel::setCases(std::vector<CaseRow> rows, const std::set<int64_t>& incumbents) {
  std::unordered_map<int64_t, NodeData> fresh;
  fresh.reserve(rows.size());
  for (auto& r : rows) {
    const int64_t id = r.id;
    NodeData d;
    d.incumbent = incumbents.count(id) > 0;
    d.row = std::move(r);
    fresh.emplace(id, std::move(d));
  }
  incumbents_ = incumbents;
  removeAbsent(fresh);
  updatePresent(fresh);  // takes the rows it used out of `fresh`
  insertNew(fresh);
}

void GraphModel::upsert(std::vector<CaseRow> rows, const std::set<int64_t>& incumbents) {
  std::unordered_map<int64_t, NodeData> fresh;
  fresh.reserve(rows.size());
  for (auto& r : rows) {
    const int64_t id = r.id;
    NodeData d;
    d.incumbent = incumbents.count(id) > 0;
    d.row = std::move(r);
    fresh.insert_or_assign(id, std::move(d));
  }
  // A node held that became, or stopped being, an incumbent though its row did not come again.
  std::vector<int64_t> flipped;
  std::set_symmetric_difference(incumbents_.begin(), incumbents_.end(), incumbents.begin(), incumbents.end(),
                                std::back_inserter(flipped));
  for (int64_t id : flipped)
    if (auto it = nodes_.find(id); it != nodes_.end() && !fresh.count(id)) {
      NodeData d = it->second;
      d.incumbent = incumbents.count(id) > 0;
      fresh.emplace(id, std::move(d));
    }
  incumbents_ = incumbents;
  for (auto it = fresh.begin(); it != fresh.end();) {
    auto held = nodes_.find(it->first);
    if (held == nodes_.end()) {
      ++it;
      continue;
    }
    if (!(held->second == it->second)) {
      countChoices(held->second, -1);
      countChoices(it->second, +1);
      held->second = std::move(it->second);  // in place: the scene's item keeps its pointer
      const int r = rowOf(held->first);
      emit dataChanged(index(r, 0), index(r, ColumnCount - 1));
    }
    it = fresh.erase(it);
  }
  insertNew(fresh);
}

void GraphModel::clear() {
  beginResetModel();
  incumbents_.clear();
  ids_.clear();
  nodes_.clear();
  counts_ = {};
  endResetModel();
}

// Runs of consecutive rows at a time, from the back, so the rows before a run keep their numbers.
void GraphModel::removeAbsent(const std::unordered_map<int64_t, NodeData>& fresh) {
  for (int last = rowCount() - 1; last >= 0;) {
    if (fresh.count(ids_[static_cast<std::size_t>(last)])) {
      --last;
      continue;
    }
    int first = last;
    while (first > 0 && !fresh.count(ids_[static_cast<std::size_t>(first - 1)])) --first;
    beginRemoveRows({}, first, last);
    for (int r = first; r <= last; ++r) {
      auto gone = nodes_.find(ids_[static_cast<std::size_t>(r)]);
      countChoices(gone->second, -1);
      nodes_.erase(gone);
    }
    ids_.erase(ids_.begin() + first, ids_.begin() + last + 1);
    endRemoveRows();
    last = first - 1;
  }
}

// A changed node is assigned in place (its address, which the scene's item holds, stays); one dataChanged per
// run of changed rows.
void GraphModel::updatePresent(std::unordered_map<int64_t, NodeData>& fresh) {
  int runStart = -1;
  auto flush = [&](int end) {
    if (runStart >= 0) emit dataChanged(index(runStart, 0), index(end - 1, ColumnCount - 1));
    runStart = -1;
  };
  for (int r = 0; r < rowCount(); ++r) {
    auto it = fresh.find(ids_[static_cast<std::size_t>(r)]);
    NodeData& cur = nodes_.at(it->first);
    if (cur == it->second) {
      flush(r);
    } else {
      countChoices(cur, -1);
      countChoices(it->second, +1);
      cur = std::move(it->second);
      if (runStart < 0) runStart = r;
    }
    fresh.erase(it);
  }
  flush(rowCount());
}

// New ids go in at their sorted place, a run of them per place (a live run only appends: one insert).
void GraphModel::insertNew(std::unordered_map<int64_t, NodeData>& fresh) {
  std::vector<int64_t> add;
  add.reserve(fresh.size());
  for (const auto& [id, d] : fresh) add.push_back(id);
  std::sort(add.begin(), add.end());
  for (std::size_t i = 0; i < add.size();) {
    const auto at = std::lower_bound(ids_.begin(), ids_.end(), add[i]);
    const int pos = static_cast<int>(at - ids_.begin());
    const int64_t before = at == ids_.end() ? std::numeric_limits<int64_t>::max() : *at;
    std::size_t j = i + 1;
    while (j < add.size() && add[j] < before) ++j;
    beginInsertRows({}, pos, pos + static_cast<int>(j - i) - 1);
    ids_.insert(at, add.begin() + static_cast<std::ptrdiff_t>(i), add.begin() + static_cast<std::ptrdiff_t>(j));
    for (std::size_t k = i; k < j; ++k)
      countChoices(nodes_.emplace(add[k], std::move(fresh.at(add[k]))).first->second, +1);
    endInsertRows();
    i = j;
  }
}

int GraphModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(ids_.size());
}

int GraphModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString curationText(const CaseRow& r) {
  QStringList parts;
  if (r.pruned) parts << QStringLiteral("pruned");
  if (r.pinned) parts << QStringLiteral("pinned");
  if (!r.flag.empty()) parts << qs(r.flag);
  return parts.join(QStringLiteral(", "));
}

QVariant display(const NodeData& d, int column) {
  const CaseRow& r = d.row;
  switch (column) {
    case GraphModel::Id: return QVariant::fromValue<qint64>(r.id);
    case GraphModel::Task: return qs(r.task);
    case GraphModel::Device: return qs(r.device);
    case GraphModel::Label: return qs(r.label);
    case GraphModel::Speedup: return r.a;
    case GraphModel::Status: return qs(r.status);
    case GraphModel::Run: return r.run_id ? QVariant::fromValue<qint64>(*r.run_id) : QVariant();
    case GraphModel::Origin: return d.foreign() ? qs(r.origin) : QStringLiteral("local");
    case GraphModel::Curation: return curationText(r);
    case GraphModel::Thought: return qs(r.thought);
  }
  return {};
}

}  // namespace

QVariant GraphModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const NodeData& d = nodeAt(index.row());
  switch (role) {
    case Qt::DisplayRole: return display(d, index.column());
    case CaseIdRole: return QVariant::fromValue<qint64>(d.row.id);
    case ParentIdRole: return d.row.prev_case_id ? QVariant::fromValue<qint64>(*d.row.prev_case_id) : QVariant();
    case IncumbentRole: return d.incumbent;
    case PrunedRole: return d.row.pruned;
    case PinnedRole: return d.row.pinned;
    case FlagRole: return qs(d.row.flag);
    case ForeignRole: return d.foreign();
    case CorrectRole: return d.row.correct;
  }
  return {};
}

QVariant GraphModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount) return {};
  static const char* const names[ColumnCount] = {
      QT_TR_NOOP("Case"), QT_TR_NOOP("task"), QT_TR_NOOP("device"), QT_TR_NOOP("label"), QT_TR_NOOP("speedup"),
      QT_TR_NOOP("status"), QT_TR_NOOP("run"), QT_TR_NOOP("origin"), QT_TR_NOOP("curation"), QT_TR_NOOP("thought")};
  return tr(names[section]);
}

const NodeData* GraphModel::node(int64_t id) const {
  auto it = nodes_.find(id);
  return it == nodes_.end() ? nullptr : &it->second;
}

int GraphModel::rowOf(int64_t id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? static_cast<int>(it - ids_.begin()) : -1;
}

void GraphModel::countChoices(const NodeData& d, int delta) {
  auto count = [delta](auto& counts, const auto& value) {
    auto it = counts.emplace(value, 0).first;
    if ((it->second += delta) <= 0) counts.erase(it);
  };
  count(counts_.tasks, d.row.task);
  count(counts_.devices, d.row.device);
  for (const auto& t : std::set<std::string>(d.row.tags.begin(), d.row.tags.end())) count(counts_.tags, t);
  if (d.row.run_id) count(counts_.runs, *d.row.run_id);
}

FilterChoices GraphModel::choices() const {
  FilterChoices c;
  auto fill = [](std::vector<QString>& out, const std::map<std::string, int>& in) {
    for (const auto& [s, n] : in) out.push_back(qs(s));
  };
  fill(c.tasks, counts_.tasks);
  fill(c.devices, counts_.devices);
  fill(c.tags, counts_.tags);
  for (const auto& [run, n] : counts_.runs) c.runs.push_back(run);
  return c;
}

void CaseMatcher::setFilter(const GraphFilter& f) {
  filter_ = f;
  task_ = f.task.toStdString();
  device_ = f.device.toStdString();
  label_ = f.label.toStdString();
  tag_ = f.tag.toStdString();
}

bool CaseMatcher::accepts(const NodeData& d) const {
  const CaseRow& r = d.row;
  const GraphFilter& f = filter_;
  if (!task_.empty() && r.task != task_) return false;
  if (!device_.empty() && r.device != device_) return false;
  if (!label_.empty() && !(label_ == "incorrect" ? !r.correct : (r.correct && r.label == label_))) return false;
  if (!tag_.empty() && std::find(r.tags.begin(), r.tags.end(), tag_) == r.tags.end()) return false;
  if (f.run && r.run_id != f.run) return false;
  if (f.origin == QLatin1String("local") && d.foreign()) return false;
  if (f.origin == QLatin1String("foreign") && !d.foreign()) return false;
  return true;
}

std::vector<int64_t> CaseMatcher::search(const GraphModel& model, const QString& text) const {
  const QString q = text.trimmed();
  if (q.isEmpty()) return {};
  bool isNumber = false;
  const qint64 want = (q.startsWith('#') ? q.mid(1) : q).toLongLong(&isNumber);
  if (isNumber && model.node(want)) return {want};
  std::vector<int64_t> hits;
  for (int64_t id : model.ids())
    if (const NodeData& d = *model.node(id); accepts(d) && qs(d.row.thought).contains(q, Qt::CaseInsensitive))
      hits.push_back(id);
  return hits;
}

}  // namespace kope::graph
