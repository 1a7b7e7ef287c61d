// Curation as undoable commands. See curation.h.
#include "curation.h"

#include <QCoreApplication>

namespace kope::graph {

const char* act_name(CurationAct a) {
  switch (a) {
    case CurationAct::Prune: return "prune";
    case CurationAct::PruneSubtree: return "prune subtree";
    case CurationAct::Unprune: return "unprune";
    case CurationAct::UnpruneSubtree: return "unprune subtree";
    case CurationAct::Pin: return "pin";
    case CurationAct::Unpin: return "unpin";
    case CurationAct::Cheat: return "mark cheat";
    case CurationAct::Invalid: return "mark invalid";
    case CurationAct::ClearFlag: return "clear mark";
  }
  return "?";
}

QString act_text(CurationAct a) {
  static const char* const texts[] = {
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "prune"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "prune subtree"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "unprune"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "unprune subtree"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "pin"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "unpin"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "mark cheat"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "mark invalid"),
      QT_TRANSLATE_NOOP("kope::graph::CurationCommand", "clear mark")};
  return QCoreApplication::translate("kope::graph::CurationCommand", texts[static_cast<int>(a)]);
}

namespace {

// "Prune 2 Cases" as the undo stack names the command.
QString commandText(CurationAct a, int cases) {
  return QCoreApplication::translate("kope::graph::CurationCommand", "%1 %n Case(s)", nullptr, cases).arg(act_text(a));
}

}  // namespace

bool needs_reason(CurationAct a) {
  return a == CurationAct::Prune || a == CurationAct::PruneSubtree || a == CurationAct::Cheat || a == CurationAct::Invalid;
}

namespace {

// The act as MemoryStore::curate records it, and whether it reaches the subtree.
std::pair<const char*, bool> store_act(CurationAct a) {
  switch (a) {
    case CurationAct::Prune: return {"prune", false};
    case CurationAct::PruneSubtree: return {"prune", true};
    case CurationAct::Unprune: return {"unprune", false};
    case CurationAct::UnpruneSubtree: return {"unprune", true};
    case CurationAct::Pin: return {"pin", false};
    case CurationAct::Unpin: return {"unpin", false};
    case CurationAct::Cheat: return {"cheat", false};
    case CurationAct::Invalid: return {"invalid", false};
    case CurationAct::ClearFlag: return {"clear", false};
  }
  return {"?", false};
}

}  // namespace

CurationCommand::CurationCommand(kope::memory::MemoryStore& store, CurationAct act, std::vector<int64_t> ids,
                                 QString why, std::function<void()> changed,
                                 std::function<void(const QString&)> failed)
    : store_(store), act_(act), ids_(std::move(ids)), why_(std::move(why)), changed_(std::move(changed)),
      failed_(std::move(failed)) {
  setText(commandText(act, static_cast<int>(ids_.size())));
}

std::vector<int64_t> CurationCommand::touched() const {
  std::vector<int64_t> ids;
  ids.reserve(before_.size());
  for (const auto& [id, state] : before_) ids.push_back(id);
  return ids;
}

void CurationCommand::redo() {
  const auto [act, subtree] = store_act(act_);
  if (first_) {
    changedCases_ = store_.curate(ids_, act, subtree, kope::memory::current_user(), why_.toStdString(), &before_);
    first_ = false;
  } else {
    guarded([&] {
      changedCases_ = store_.curate(ids_, act, subtree, kope::memory::current_user(), "redo: " + why_.toStdString());
    });
  }
  if (changed_) changed_();
}

void CurationCommand::undo() {
  const std::string why =
      "undo: " + std::string(act_name(act_)) + (why_.isEmpty() ? "" : " (" + why_.toStdString() + ")");
  guarded([&] { store_.restore_curation(before_, kope::memory::current_user(), why); });
  if (changed_) changed_();
}

void CurationCommand::guarded(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    if (!failed_) throw;
    failed_(QString::fromUtf8(e.what()));
  }
}

}  // namespace kope::graph
