// Curation by a person: prune, unprune, pin, mark, each recorded (who, when, why) and appended to the Journal;
// one act on several Cases at once, and the inverse acts that undo it (the graph browser's undo stack).
#include <sqlite3.h>

#include <sstream>

#include "kope/memory/memory.h"
#include "kope/store/db.h"

namespace kope::memory {

using store::Stmt;

namespace {

std::vector<int64_t> targets(sqlite3* db, int64_t id, bool subtree) {
  std::vector<int64_t> ids;
  Stmt s(db, subtree ? "WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT c.id FROM memory_cases c JOIN sub "
                       "ON c.prev_case_id = sub.id) SELECT id FROM sub"
                     : "SELECT ?");
  s.bind(1, id);
  while (s.step()) ids.push_back(s.i64(0));
  return ids;
}

std::string require_case(sqlite3* db, int64_t id) {
  Stmt s(db, "SELECT task FROM memory_cases WHERE id=?");
  s.bind(1, id);
  if (!s.step()) throw Error("no case " + std::to_string(id) + " in the memory (see kope memory cases)");
  return s.text(0);
}

// Sets `set` on the Case (and its subtree) where `unchanged_when` does not already hold; records the act.
int apply_act(sqlite3* db, MemoryStore& m, int64_t id, bool subtree, const std::string& act, const std::string& set,
              const std::string& unchanged_when, const std::string& who, const std::string& why) {
  store::Txn txn(db);
  const std::string task = require_case(db, id);
  int affected = 0;
  Stmt u(db, "UPDATE memory_cases SET " + set + " WHERE id=? AND NOT (" + unchanged_when + ")");
  for (int64_t t : targets(db, id, subtree)) {
    u.reset();
    u.bind(1, t).run();
    affected += store::changes(db);
  }
  const std::string at = store::now_utc();
  Stmt(db, "INSERT INTO memory_curation(case_id, act, subtree, affected, who, at, why) VALUES(?,?,?,?,?,?,?)")
      .bind(1, id).bind(2, act).bind(3, subtree).bind(4, affected).bind(5, who).bind(6, at).bind(7, why).run();
  std::ostringstream md;
  md << "### Case " << id << ": " << act << (subtree ? " (subtree)" : "") << " by " << who << " · " << at << "\n\n"
     << affected << " case(s) changed. Reason: " << (why.empty() ? "(none given)" : why) << "\n";
  m.append_journal(id, task, "curation", md.str());
  txn.commit();
  return affected;
}

}  // namespace

std::vector<CurationAct> MemoryStore::curation(int64_t case_id) const {
  Stmt s(db_, "SELECT id, case_id, act, subtree, affected, who, at, why FROM memory_curation WHERE case_id=? ORDER BY id");
  s.bind(1, case_id);
  std::vector<CurationAct> out;
  while (s.step())
    out.push_back({s.i64(0), s.i64(1), s.text(2), s.i64(3) != 0, static_cast<int>(s.i64(4)), s.text(5), s.text(6),
                   s.text(7)});
  return out;
}

int MemoryStore::prune(int64_t id, bool subtree, const std::string& who, const std::string& why) {
  if (why.empty()) throw Error("pruning case " + std::to_string(id) + " needs a reason (--reason TEXT)");
  return apply_act(db_, *this, id, subtree, "prune", "pruned=1", "pruned=1", who, why);
}

int MemoryStore::unprune(int64_t id, bool subtree, const std::string& who, const std::string& why) {
  return apply_act(db_, *this, id, subtree, "unprune", "pruned=0", "pruned=0", who, why);
}

int MemoryStore::pin(int64_t id, bool on, const std::string& who, const std::string& why) {
  return apply_act(db_, *this, id, false, on ? "pin" : "unpin", on ? "pinned=1" : "pinned=0",
                   on ? "pinned=1" : "pinned=0", who, why);
}

int MemoryStore::mark(int64_t id, const std::string& flag, const std::string& who, const std::string& why) {
  if (flag != "cheat" && flag != "invalid" && flag != "")
    throw Error("a case can be marked cheat or invalid (or cleared), not \"" + flag + "\"");
  if (!flag.empty() && why.empty())
    throw Error("marking case " + std::to_string(id) + " as " + flag + " needs a reason (--reason TEXT)");
  if (flag.empty()) return apply_act(db_, *this, id, false, "clear", "flag=NULL", "flag IS NULL", who, why);
  return apply_act(db_, *this, id, false, flag, "flag='" + flag + "'", "flag IS '" + flag + "'", who, why);
}

int MemoryStore::curate(const std::vector<int64_t>& ids, const std::string& act, bool subtree, const std::string& who,
                        const std::string& why, std::map<int64_t, CurationState>* before) {
  const bool prunes = act == "prune" || act == "unprune";
  if (!prunes && act != "pin" && act != "unpin" && act != "cheat" && act != "invalid" && act != "clear")
    throw Error("no curation act \"" + act + "\" (prune, unprune, pin, unpin, cheat, invalid or clear)");
  if (subtree && !prunes) throw Error("only prune and unprune act on a subtree, not " + act);
  store::Txn txn(db_);
  if (before)
    for (int64_t id : ids)
      for (int64_t t : targets(db_, id, subtree))
        if (!before->count(t)) before->emplace(t, curation_state(t));
  int changed = 0;
  for (int64_t id : ids) {
    if (act == "prune") changed += prune(id, subtree, who, why);
    else if (act == "unprune") changed += unprune(id, subtree, who, why);
    else if (act == "pin" || act == "unpin") changed += pin(id, act == "pin", who, why);
    else changed += mark(id, act == "clear" ? "" : act, who, why);
  }
  txn.commit();
  return changed;
}

CurationState MemoryStore::curation_state(int64_t id) const {
  Stmt s(db_, "SELECT pruned, pinned, COALESCE(flag,'') FROM memory_cases WHERE id=?");
  s.bind(1, id);
  if (!s.step()) throw Error("no case " + std::to_string(id) + " in the memory (see kope memory cases)");
  return {s.i64(0) != 0, s.i64(1) != 0, s.text(2)};
}

int MemoryStore::restore_curation(const std::map<int64_t, CurationState>& states, const std::string& who,
                                  const std::string& why) {
  store::Txn txn(db_);
  int changed = 0;
  for (const auto& [id, was] : states) {
    const CurationState now = curation_state(id);
    if (now == was) continue;
    ++changed;
    if (now.pruned != was.pruned) {
      if (was.pruned) prune(id, false, who, why);
      else unprune(id, false, who, why);
    }
    if (now.pinned != was.pinned) pin(id, was.pinned, who, why);
    if (now.flag != was.flag) mark(id, was.flag, who, why);
  }
  txn.commit();
  return changed;
}

}  // namespace kope::memory
