// Curation from the graph browser as undoable commands: each act goes through MemoryStore (which records it and
// appends it to the Journal, and which retrieval reads, so the loop sees it at once); undo puts every Case the
// act touched back with the inverse acts, recorded as well ("undo: ..."). No widgets: tested in
// tests/test_graph_model.cpp.
#pragma once

#include <QString>
#include <QUndoCommand>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "kope/memory/memory.h"

namespace kope::graph {

enum class CurationAct { Prune, PruneSubtree, Unprune, UnpruneSubtree, Pin, Unpin, Cheat, Invalid, ClearFlag };

// "prune", "prune subtree", ... as the memory's curation log and Journal record the act (never translated).
const char* act_name(CurationAct a);
// The act as the window names it, in the interface's language ("Prune", "剪枝", ...).
QString act_text(CurationAct a);
// Whether the act asks for a reason (pruning and marking do).
bool needs_reason(CurationAct a);

// One act on some Cases. The first redo() (QUndoStack::push runs it) applies it and remembers the state before,
// and throws kope::Error out of push() when the store refuses the act (nothing changed then). A later redo()
// applies it again, recorded as "redo: <why>"; undo() and that redo() run from the stack's actions, where an
// exception has nowhere to go: they hand the error to `failed` (the store's transaction left the memory as it
// was). `changed` runs after each of them (the window re-reads the memory).
class CurationCommand : public QUndoCommand {
 public:
  CurationCommand(kope::memory::MemoryStore& store, CurationAct act, std::vector<int64_t> ids, QString why,
                  std::function<void()> changed = {}, std::function<void(const QString&)> failed = {});
  int changedCases() const { return changedCases_; }  // by the last redo()
  // Every Case the act may have changed (the subtree's too), known once the first redo() ran.
  std::vector<int64_t> touched() const;

  void redo() override;
  void undo() override;

 private:
  void guarded(const std::function<void()>& f);
  kope::memory::MemoryStore& store_;
  CurationAct act_;
  std::vector<int64_t> ids_;
  QString why_;
  std::function<void()> changed_;
  std::function<void(const QString&)> failed_;
  bool first_ = true;
  int changedCases_ = 0;
  std::map<int64_t, kope::memory::CurationState> before_;
};

}  // namespace kope::graph
