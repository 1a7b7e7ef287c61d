// The Experience Graph's Cases as an item model, and the toolbar's filter and search as a predicate over it (after
// hotspot's models/ library: models without widgets, tested under QAbstractItemModelTester). One row per Case in
// id order, so a parent comes before its children; a reload adds, changes and removes rows as the memory did
// (never a reset), so the graph view keeps its items, positions and selection. GraphWidget draws from it.
#pragma once

#include <QAbstractTableModel>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "kope/memory/memory.h"

namespace kope::workspace {
class Workspace;
}

namespace kope::graph {

// What the scene shows of a Case: the listing row, and whether it is its task's and device's incumbent.
struct NodeData {
  kope::memory::CaseRow row;
  bool incumbent = false;
  bool foreign() const { return row.origin != "local" && !row.origin.empty(); }
  bool operator==(const NodeData&) const = default;
};

// A Case's outcome label ("effective", "partial", "ineffective", "negative", or "incorrect") in the interface's
// language; anything else as it is.
QString outcomeText(const QString& label);
// An evaluation's status ("passed", "runtime_error", ...) in the window's status words (context "Status", kept by
// ui/models/status.cpp), where "runtime_error" reads "runtime error"; an unknown one as it is.
QString statusWord(const std::string& status);

struct GraphFilter {
  QString task, device, label, tag, origin;  // empty: any. label may be "incorrect"; origin "local"/"foreign"
  std::optional<int64_t> run;
};

// The values the filter can take among the Cases loaded, sorted.
struct FilterChoices {
  std::vector<QString> tasks, devices, tags;
  std::vector<int64_t> runs;
};

class GraphModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Id, Task, Device, Label, Speedup, Status, Run, Origin, Curation, Thought, ColumnCount };
  enum Role {
    CaseIdRole = Qt::UserRole + 1,  // qint64
    ParentIdRole,                   // qint64, or null for a root
    IncumbentRole,                  // bool
    PrunedRole,
    PinnedRole,
    FlagRole,                       // "", "cheat", "invalid"
    ForeignRole,
    CorrectRole,
  };

  explicit GraphModel(QObject* parent = nullptr);

  // Reads every Case of the memory (listing fields) and the incumbent of each task and device.
  void load(const kope::memory::MemoryStore& store, const kope::workspace::Workspace& ws);
  // The same from rows already read; `incumbents` holds Case ids. Rows may come in any order.
  void setCases(std::vector<kope::memory::CaseRow> rows, const std::set<int64_t>& incumbents);
  // Adds the rows not held yet and changes those held, leaving every other row as it is (what a run added, or
  // what a curation act changed); `incumbents` is complete, so a node that stopped being one is changed too.
  void upsert(std::vector<kope::memory::CaseRow> rows, const std::set<int64_t>& incumbents);
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  // A Case's node; the pointer stays valid until its row is removed. nullptr for an unknown id.
  const NodeData* node(int64_t id) const;
  const NodeData& nodeAt(int row) const { return nodes_.at(ids_.at(static_cast<std::size_t>(row))); }
  int64_t idAt(int row) const { return ids_.at(static_cast<std::size_t>(row)); }
  int rowOf(int64_t id) const;  // -1 if absent
  const std::vector<int64_t>& ids() const { return ids_; }
  FilterChoices choices() const;

 private:
  void removeAbsent(const std::unordered_map<int64_t, NodeData>& fresh);
  void updatePresent(std::unordered_map<int64_t, NodeData>& fresh);
  void insertNew(std::unordered_map<int64_t, NodeData>& fresh);
  void countChoices(const NodeData& d, int delta);  // keeps choices() a walk over distinct values, not nodes

  struct ChoiceCounts {
    std::map<std::string, int> tasks, devices, tags;
    std::map<int64_t, int> runs;
  };

  std::vector<int64_t> ids_;                    // ascending: the rows
  std::unordered_map<int64_t, NodeData> nodes_;  // node-based: pointers to values survive inserts
  std::set<int64_t> incumbents_;                 // as last set
  ChoiceCounts counts_;                          // how many nodes hold each value the filter can take
};

// The toolbar's filter (task, device, label, idea tag, run, origin) as a predicate over nodes, and the search over
// what it lets through. A predicate, not a proxy model: a proxy's row mapping over 100,000 rows, rebuilt as a
// filter clears or a run adds a Case, is work no view of the graph reads.
class CaseMatcher {
 public:
  void setFilter(const GraphFilter& f);
  const GraphFilter& filter() const { return filter_; }
  bool accepts(const NodeData& d) const;
  // "#id" or "id": that Case, whether the filter shows it or not; else the Cases of `model` the filter lets through
  // whose thought contains the text (any case). In id order.
  std::vector<int64_t> search(const GraphModel& model, const QString& text) const;

 private:
  GraphFilter filter_;
  std::string task_, device_, label_, tag_;  // filter_'s texts as the rows hold them, compared without converting
};

}  // namespace kope::graph
