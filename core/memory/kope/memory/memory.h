// The Experience Graph Memory's store: Cases, Journal entries, the graph over them, curation by a person, and
// what the agent was shown per attempt. Lives in the workspace's kope.db beside the evaluations, with its own
// schema version in memory_meta (the workspace's PRAGMA user_version is not ours), so a Case is written in the
// same transaction as its evaluation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/memory/graph.h"
#include "kope/store/db.h"

struct sqlite3;

namespace kope::memory {

inline constexpr int kMemorySchemaVersion = 1;

// A Case as stored (listing fields; the diff, feedback and scene are filled by MemoryStore::get_case only).
struct CaseRow {
  int64_t id = 0;
  std::string uid;                       // "<workspace uuid>:<id there>": stable across export and import
  std::optional<int64_t> evaluation_id;  // the local evaluation it records; absent for foreign Cases
  std::optional<int64_t> prev_case_id;   // the Case whose state this attempt started from; absent: the baseline
  std::string origin;                    // "local", or the workspace uuid it was imported from
  std::string task, task_digest, device, hardware_digest;
  std::optional<int64_t> kernel_id;      // the full source, by reference to the kernels table
  std::string kernel_sha256, kernel_name, thought;
  std::vector<std::string> tags, layers;
  std::string status;
  bool compiled = false, correct = false;
  double a = 0.0, c = 0.0;               // absolute speedup (0 when incorrect), confidence
  std::optional<double> interval_lo, interval_hi;
  std::optional<int64_t> run_id;
  int64_t step = 0;
  std::string created_at;
  // the graph
  double r = 1.0, d = 0.0;
  std::string label;
  int depth = 0;
  // curation
  bool pruned = false, pinned = false;
  std::string flag;                      // "", "cheat" or "invalid"
  // full view only
  std::string diff, feedback;
  nlohmann::json scene;                  // per case: inputs/outputs with dtype and shape, attrs; null if unknown
  nlohmann::json hardware;
  bool operator==(const CaseRow&) const = default;
};

// What a new Case is made of, whoever made it (an evaluation, an import, the synthetic generator).
struct CaseInput {
  std::string uid;                       // empty: "<this workspace's uuid>:<new id>"
  std::optional<int64_t> evaluation_id;
  std::optional<int64_t> origin_id;      // memory_origins row for foreign Cases
  std::optional<int64_t> prev_case_id;
  std::string task, task_digest, device;
  nlohmann::json hardware;               // null: this host's fingerprint
  std::optional<int64_t> kernel_id;
  std::string kernel_sha256, kernel_name, thought;
  std::vector<std::string> tags;         // empty: derived from the thought
  std::string diff, status;
  bool compiled = false, correct = false;
  std::string feedback;
  double a = 0.0, c = 0.0;
  std::optional<double> interval_lo, interval_hi;
  std::optional<int64_t> run_id;
  int64_t step = 0;
  std::string created_at;                // empty: now
  std::string journal;                   // empty: written from the fields
  std::string flag;
  bool pruned = false;
};

struct CaseFilter {
  std::optional<std::string> task, device, label;
  bool include_excluded = true;  // pruned and flagged Cases too
  int limit = 100;
  std::optional<int64_t> after_id;  // only Cases recorded after this one (a window reading what a run added)
  std::vector<int64_t> ids;         // only these Cases (none: any)
};

struct JournalEntry {
  int64_t id = 0;
  std::optional<int64_t> case_id;
  std::string task, kind, created_at, markdown;
};

struct CurationAct {
  int64_t id = 0;
  int64_t case_id = 0;
  std::string act;  // prune, unprune, pin, unpin, cheat, invalid, clear
  bool subtree = false;
  int affected = 0;
  std::string who, at, why;
};

// What curation sets on a Case (prune, pin, mark): what an undo puts back.
struct CurationState {
  bool pruned = false, pinned = false;
  std::string flag;  // "", "cheat" or "invalid"
  bool operator==(const CurationState&) const = default;
};

// What changes when Cases are added, removed or curated: a window polls it to know when to re-read.
struct ChangeStamp {
  int64_t max_case = 0, cases = 0, max_curation = 0;
  bool operator==(const ChangeStamp&) const = default;
};

struct ContextRow {
  int64_t evaluation_id = 0;
  int rank = 0;
  int64_t case_id = 0;
  std::string provenance, kind;
  double score = 0.0;
};

struct KnownFailure {
  int64_t case_id = 0;
  std::string status, feedback;
};

class MemoryStore {
 public:
  // Borrows a connection to a workspace's kope.db. Call ensure_schema once per connection first.
  explicit MemoryStore(sqlite3* db);

  // Creates or migrates the memory's tables in one transaction, turning every finished evaluation that has no
  // Case yet into a Case and a Journal entry. `use_fts` false behaves as if SQLite had no FTS5.
  static void ensure_schema(sqlite3* db, bool use_fts = true);
  int schema_version() const;
  std::string workspace_id() const;
  bool fts_enabled() const;

  // Notes the input scene of a task version (shapes and dtypes per case), keyed by the task's digest.
  void note_scene(const std::string& task, const std::string& task_digest, const nlohmann::json& scene);

  // The Case and Journal entry of a finished evaluation, read from the evaluations and kernels tables; joins the
  // caller's open transaction. `report` saves re-parsing the stored one. No-op for an evaluation without an
  // outcome (running, interrupted, error) or one already recorded. Returns the Case id.
  std::optional<int64_t> record_evaluation(int64_t evaluation_id, const nlohmann::json* report = nullptr);

  // Adds a Case with its Journal entry and updates the graph along its ancestor path only.
  int64_t add_case(const CaseInput& in);

  std::optional<CaseRow> get_case(int64_t id) const;   // full
  std::optional<int64_t> case_of_evaluation(int64_t evaluation_id) const;
  std::optional<int64_t> case_by_uid(const std::string& uid) const;
  std::vector<CaseRow> cases(const CaseFilter& f) const;  // listing: no diff, feedback or scene
  std::vector<int64_t> children(int64_t id) const;
  int64_t count_cases() const;
  ChangeStamp change_stamp() const;

  std::vector<JournalEntry> journal(const std::optional<std::string>& task, std::optional<int64_t> case_id = {},
                                    int limit = 1000000) const;
  std::vector<CurationAct> curation(int64_t case_id) const;
  // The Case a Journal entry belongs to; nullopt for an unknown entry or one of no Case.
  std::optional<int64_t> case_of_journal(int64_t journal_id) const;
  // Appends a Journal entry (entries are never changed or removed; triggers refuse it).
  int64_t append_journal(std::optional<int64_t> case_id, const std::string& task, const std::string& kind,
                         const std::string& markdown);

  // The graph. The weights live in memory_meta; changing them rebuilds.
  GraphWeights weights() const;
  void set_weights(const GraphWeights& w);
  // Recomputes r, label and d of every Case from scratch; returns the number of Cases.
  int64_t rebuild_graph();

  // Curation by a person; each act is recorded (who, when, why) and appended to the Journal. Throws
  // kope::Error for an unknown Case. Returns the number of Cases changed.
  int prune(int64_t id, bool subtree, const std::string& who, const std::string& why);
  int unprune(int64_t id, bool subtree, const std::string& who, const std::string& why);
  int pin(int64_t id, bool on, const std::string& who, const std::string& why);
  // flag: "cheat", "invalid", or "" to clear.
  int mark(int64_t id, const std::string& flag, const std::string& who, const std::string& why);
  // One act on several Cases in one transaction, all or none: `act` as curation() records it (prune, unprune,
  // pin, unpin, cheat, invalid, clear); `subtree` for prune and unprune only. `before`, when given, receives the
  // state of every Case the act may change, read in the same transaction (what restore_curation takes to undo
  // it). Returns the number of Cases changed.
  int curate(const std::vector<int64_t>& ids, const std::string& act, bool subtree, const std::string& who,
             const std::string& why, std::map<int64_t, CurationState>* before = nullptr);
  CurationState curation_state(int64_t id) const;  // throws kope::Error for an unknown Case
  // Puts each Case back into `states` with the inverse acts, each recorded with `why` (which pruning and marking
  // need), in one transaction. Returns the number of Cases changed.
  int restore_curation(const std::map<int64_t, CurationState>& states, const std::string& who,
                       const std::string& why);

  // Incorrect local Cases of this task and device per kernel sha256 (the most recent), unless pruned or flagged;
  // imported Cases never make a kernel count as failed here.
  std::map<std::string, KnownFailure> known_failures(const std::string& task, const std::string& device) const;

  // What the agent was shown before an attempt.
  void record_context(int64_t evaluation_id, const std::vector<ContextRow>& rows);
  std::vector<ContextRow> context(int64_t evaluation_id) const;

  sqlite3* db() const { return db_; }

  // Used by the graph update; public for tests and the bench.
  void update_ancestors(int64_t parent, const GraphWeights& w);

  // A prepared statement kept for this store's lifetime, reset when the returned guard dies.
  class Cached {
   public:
    explicit Cached(store::Stmt& s) : s_(s) {}
    ~Cached() { s_.reset(); }
    store::Stmt* operator->() { return &s_; }
    store::Stmt& operator*() { return s_; }

   private:
    store::Stmt& s_;
  };
  Cached stmt(const std::string& sql) const;

 private:
  sqlite3* db_;
  bool fts_ = false;
  mutable std::unordered_map<std::string, std::unique_ptr<store::Stmt>> stmts_;
  mutable std::optional<GraphWeights> weights_;
  mutable std::string workspace_id_;
  mutable std::unordered_map<std::string, int64_t> hardware_ids_;
};

// The Journal entry of a Case, in Markdown: strategy, code change, validation, measurements, interpretation.
std::string journal_markdown(const CaseInput& in, int64_t case_id, double r, const std::string& label,
                             std::optional<double> prev_a);

// c_v from the per-case speedup intervals of a report (see README): 0 when incorrect or without an interval,
// else clamp(1 - median over cases of (hi - lo) / speedup, 0, 1).
double confidence_of(const nlohmann::json& report);

// "$USER", else "unknown".
std::string current_user();

}  // namespace kope::memory
