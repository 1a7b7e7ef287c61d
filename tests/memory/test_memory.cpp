// The Experience Graph Memory: graph formulas against hand-computed values, incremental == rebuild on random
// forests, retrieval ranking, pruning and curation, FTS5-less retrieval, the append-only Journal, migration of a
// version-1 workspace, export/import, and the loop run twice on one workspace.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/base/error.h"
#include "kope/loop/loop.h"
#include "kope/agent/memory_experience.h"
#include "kope/memory/memory.h"
#include "kope/memory/retrieve.h"
#include "kope/memory/share.h"
#include "kope/memory/text.h"
#include "kope/base/sha256.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::loop;
using namespace kope::workspace;
using namespace kope::cli;

namespace kope {
namespace {

namespace fs = std::filesystem;
using memory::CaseInput;
using memory::MemoryStore;
using nlohmann::json;
using test::TempDir;

std::string raw_error(sqlite3* db, const std::string& sql) {
  char* msg = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  std::string m = rc == SQLITE_OK ? "" : (msg ? msg : "?");
  sqlite3_free(msg);
  return m;
}

int64_t count(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  int64_t v = -1;
  if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

memory::RetrieveOptions opts(int per_bucket, int max_text = 0) {
  memory::RetrieveOptions o;
  o.per_bucket = per_bucket;
  o.max_text = max_text;
  return o;
}

CaseInput make_case(const std::string& task, double a, std::optional<int64_t> prev, bool correct = true,
                    const std::string& thought = "vectorise the loop with simd", double c = 0.9) {
  CaseInput in;
  in.task = task;
  in.task_digest = sha256_hex(task + "-digest");
  in.device = "cpu";
  in.kernel_sha256 = sha256_hex("sha-" + task + "-" + std::to_string(a) + "-" + thought);
  in.kernel_name = task + "/k.cpp";
  in.thought = thought;
  in.status = correct ? "passed" : "wrong";
  in.compiled = true;
  in.correct = correct;
  in.a = correct ? a : 0.0;
  in.c = correct ? c : 0.0;
  in.feedback = correct ? "correct on all 3 cases" : "case small: wrong: max rel err 0.5 exceeds threshold";
  in.prev_case_id = prev;
  in.diff = "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-old\n+new\n";
  return in;
}

class MemoryTest : public ::testing::Test {
 protected:
  TempDir dir;
  Workspace ws = Workspace::open(dir / "ws");
  MemoryStore mem{ws.handle()};
};

// ---- the graph ----

TEST(GraphFormulas, ThresholdsAndStepRatio) {
  using memory::Outcome;
  EXPECT_EQ(memory::outcome_of(1.05), Outcome::Effective);
  EXPECT_EQ(memory::outcome_of(1.0499), Outcome::Partial);
  EXPECT_EQ(memory::outcome_of(1.0), Outcome::Partial);
  EXPECT_EQ(memory::outcome_of(0.9999), Outcome::Ineffective);
  EXPECT_EQ(memory::outcome_of(0.85), Outcome::Ineffective);
  EXPECT_EQ(memory::outcome_of(0.8499), Outcome::Negative);
  EXPECT_DOUBLE_EQ(memory::step_ratio(3.0, 2.0), 1.5);
  EXPECT_DOUBLE_EQ(memory::step_ratio(3.0, std::nullopt), 3.0) << "from the baseline, whose speedup is 1";
  EXPECT_DOUBLE_EQ(memory::step_ratio(3.0, 0.0), 1.0) << "a non-positive predecessor gives 1";
  EXPECT_DOUBLE_EQ(memory::step_ratio(0.0, 2.0), 0.0);
}

TEST_F(MemoryTest, HandComputedSmallTree) {
  // A(2.0) -> B(2.2) -> D(2.2);  A -> C(1.0)
  const int64_t A = mem.add_case(make_case("gelu", 2.0, std::nullopt));
  const int64_t B = mem.add_case(make_case("gelu", 2.2, A));
  const int64_t C = mem.add_case(make_case("gelu", 1.0, A));
  const int64_t D = mem.add_case(make_case("gelu", 2.2, B));
  auto a = *mem.get_case(A), b = *mem.get_case(B), c = *mem.get_case(C), d = *mem.get_case(D);
  EXPECT_DOUBLE_EQ(a.r, 2.0);
  EXPECT_DOUBLE_EQ(b.r, 1.1);
  EXPECT_DOUBLE_EQ(c.r, 0.5);
  EXPECT_DOUBLE_EQ(d.r, 1.0);
  EXPECT_EQ(a.label, "effective");
  EXPECT_EQ(b.label, "effective");
  EXPECT_EQ(c.label, "negative");
  EXPECT_EQ(d.label, "partial");
  // d(D) = 0.5*1.0 = 0.5; d(B) = 0.5*1.1 + 0.5*0.7*0.5 = 0.725; d(C) = 0.5*0.5 = 0.25;
  // d(A) = 0.5*2.0 + 0.35*(0.725 + 0.25) = 1.34125
  EXPECT_DOUBLE_EQ(d.d, 0.5);
  EXPECT_DOUBLE_EQ(b.d, 0.725);
  EXPECT_DOUBLE_EQ(c.d, 0.25);
  EXPECT_DOUBLE_EQ(a.d, 1.34125);
  EXPECT_EQ(d.depth, 2);
  // Other weights: w_self 1, w_succ 1, gamma 0.5: d(D)=1, d(B)=1.1+0.5=1.6, d(C)=0.5, d(A)=2+0.5*2.1=3.05
  mem.set_weights({1.0, 1.0, 0.5});
  EXPECT_DOUBLE_EQ(mem.get_case(A)->d, 3.05);
  EXPECT_DOUBLE_EQ(mem.get_case(B)->d, 1.6);
  // An incorrect Case: a = 0, r = 0, negative, c = 0; correctness kept separately.
  const int64_t E = mem.add_case(make_case("gelu", 5.0, D, false));
  auto e = *mem.get_case(E);
  EXPECT_FALSE(e.correct);
  EXPECT_DOUBLE_EQ(e.r, 0.0);
  EXPECT_EQ(e.label, "negative");
  EXPECT_DOUBLE_EQ(e.c, 0.0);
}

TEST_F(MemoryTest, IncrementalEqualsRebuildOnRandomForests) {
  for (unsigned seed : {1u, 2u, 3u}) {
    TempDir d2;
    Workspace w2 = Workspace::open(d2 / "ws");
    MemoryStore m(w2.handle());
    if (seed == 3) m.set_weights({0.3, 0.9, 0.85});
    std::mt19937 g(seed);
    std::vector<int64_t> ids;
    for (int i = 0; i < 400; ++i) {
      std::optional<int64_t> prev;
      if (!ids.empty() && g() % 5 != 0) prev = ids[g() % ids.size()];
      const bool correct = g() % 4 != 0;
      const double a = std::uniform_real_distribution<double>(0.2, 4.0)(g);
      ids.push_back(m.add_case(make_case("t" + std::to_string(g() % 3), a, prev, correct, "idea",
                                         std::uniform_real_distribution<double>(0, 1)(g))));
    }
    std::map<int64_t, std::pair<double, double>> incremental;
    for (const auto& r : m.cases({std::nullopt, std::nullopt, std::nullopt, true, 100000})) incremental[r.id] = {r.r, r.d};
    // Scramble the stored values so the rebuild must write every row.
    ASSERT_EQ(raw_error(w2.handle(), "UPDATE memory_cases SET d = -1, r = -1"), "");
    EXPECT_EQ(m.rebuild_graph(), 400);
    for (const auto& r : m.cases({std::nullopt, std::nullopt, std::nullopt, true, 100000})) {
      EXPECT_EQ(r.r, incremental[r.id].first) << "case " << r.id;
      EXPECT_EQ(r.d, incremental[r.id].second) << "case " << r.id << " seed " << seed;
    }
  }
}

// A window reads what a run added since its last read, and a few Cases again by id (their ancestors' d changed).
TEST_F(MemoryTest, ListingAfterAnIdAndByIds) {
  const int64_t a = mem.add_case(make_case("gelu", 1.5, std::nullopt, true, "first", 0.5));
  const int64_t b = mem.add_case(make_case("gelu", 1.6, a, true, "second", 0.5));
  const int64_t c = mem.add_case(make_case("exp", 1.1, std::nullopt, true, "third", 0.5));
  memory::CaseFilter after;
  after.limit = 1000;
  after.after_id = a;
  std::vector<int64_t> got;
  for (const auto& r : mem.cases(after)) got.push_back(r.id);
  EXPECT_EQ(got, (std::vector<int64_t>{c, b}));  // newest first, as every listing
  memory::CaseFilter some;
  some.ids = {a, c};
  got.clear();
  for (const auto& r : mem.cases(some)) got.push_back(r.id);
  EXPECT_EQ(got, (std::vector<int64_t>{c, a}));
  some.after_id = a;
  EXPECT_EQ(mem.cases(some).size(), 1u);
}

// ---- retrieval ----

TEST_F(MemoryTest, RetrievalRanksByBucketThenDTimesC) {
  // Same operator: effective with different d*c, a partial, a negative and an incorrect one.
  const int64_t e1 = mem.add_case(make_case("gelu", 2.0, std::nullopt, true, "simd loop", 0.5));  // d=1.0, s=0.5
  const int64_t e2 = mem.add_case(make_case("gelu", 1.5, std::nullopt, true, "simd loop", 0.9));  // d=.75, s=.675
  const int64_t p1 = mem.add_case(make_case("gelu", 1.02, std::nullopt, true, "unroll"));
  const int64_t n1 = mem.add_case(make_case("gelu", 1.0, e1, true, "threads"));  // r = 0.5
  const int64_t w1 = mem.add_case(make_case("gelu", 0, e1, false, "approximate erf with a polynomial"));
  mem.add_case(make_case("exp", 3.0, std::nullopt));  // other operator: not in the exact pool
  auto items = memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "", "", {}}, opts(3));
  std::vector<int64_t> order;
  for (const auto& it : items) order.push_back(it.case_id);
  // e1 has d = 0.5*2 + 0.35*(d(n1)+d(w1)) = 1 + 0.35*(0.25 + 0) = 1.0875, score 0.54375 < e2's 0.675.
  EXPECT_EQ(order, (std::vector<int64_t>{e2, e1, p1, n1, w1}));
  for (const auto& it : items) {
    EXPECT_EQ(it.provenance, "exact");
    EXPECT_DOUBLE_EQ(it.score, it.d_v * it.c_v);
  }
  EXPECT_EQ(items[0].kind, "success");
  EXPECT_EQ(items[3].kind, "failure");
  EXPECT_NE(items[3].summary.find("slower"), std::string::npos) << items[3].summary;
  EXPECT_EQ(items[4].kind, "failure");
  EXPECT_NE(items[4].summary.find("This idea was wrong because wrong: case small"), std::string::npos) << items[4].summary;
  EXPECT_NE(items[4].journal_excerpt.find("this idea was wrong because"), std::string::npos) << items[4].journal_excerpt;
  EXPECT_NE(items[0].snippet.find("+new"), std::string::npos);
  // The incumbent is hot context already: not repeated.
  auto without = memory::retrieve(mem, {"gelu", "cpu", e2, "", "", {}}, opts(3));
  for (const auto& it : without) EXPECT_NE(it.case_id, e2);
  // Idea tags narrow the exact pool first: "unroll" puts p1 before nothing else in its bucket, and widening keeps
  // the others.
  auto tagged = memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "", "", {"unroll"}}, opts(1));
  ASSERT_FALSE(tagged.empty());
  EXPECT_EQ(tagged[0].case_id, e2);
}

TEST_F(MemoryTest, PrunedAndFlaggedAreExcludedPinnedAlwaysOffered) {
  const int64_t root = mem.add_case(make_case("gelu", 2.0, std::nullopt));
  const int64_t kid = mem.add_case(make_case("gelu", 2.5, root));
  const int64_t grandkid = mem.add_case(make_case("gelu", 2.6, kid));
  const int64_t other = mem.add_case(make_case("gelu", 1.2, std::nullopt, true, "threads"));
  const int64_t wrong = mem.add_case(make_case("gelu", 0, std::nullopt, false, "bit trick"));
  auto ids = [&](const memory::RetrieveOptions& o = {}) {
    std::set<int64_t> s;
    for (const auto& it : memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "", "", {}}, o)) s.insert(it.case_id);
    return s;
  };
  EXPECT_EQ(ids().size(), 5u);
  EXPECT_EQ(mem.prune(kid, true, "alice", "measured on a loaded machine"), 2);
  EXPECT_EQ(ids(), (std::set<int64_t>{root, other, wrong}));
  EXPECT_THROW(mem.prune(root, false, "alice", ""), Error) << "a reason is required";
  EXPECT_THROW(mem.prune(999, false, "alice", "x"), Error);
  // Kept in the record.
  EXPECT_TRUE(mem.get_case(grandkid)->pruned);
  EXPECT_EQ(mem.count_cases(), 5);
  EXPECT_EQ(mem.unprune(kid, true, "bob", "re-measured"), 2);
  EXPECT_EQ(ids().size(), 5u);
  EXPECT_EQ(mem.mark(other, "cheat", "carol", "calls the library's own kernel"), 1);
  EXPECT_EQ(mem.mark(root, "invalid", "carol", "timer patched"), 1);
  EXPECT_EQ(ids(), (std::set<int64_t>{kid, grandkid, wrong}));
  // A pruned failure is no longer a known failure.
  EXPECT_EQ(mem.known_failures("gelu", "cpu").size(), 1u);
  mem.prune(wrong, false, "alice", "flaky");
  EXPECT_TRUE(mem.known_failures("gelu", "cpu").empty());
  // Pinned: offered first, even for another operator's state.
  mem.pin(grandkid, true, "dave", "the reference trick");
  auto items = memory::retrieve(mem, {"exp", "cpu", std::nullopt, "", "", {}});
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0].case_id, grandkid);
  EXPECT_EQ(items[0].provenance, "pinned");
  EXPECT_TRUE(items[0].pinned);
  // Every act recorded: who, when, why; and appended to the Journal.
  auto acts = mem.curation(kid);
  ASSERT_EQ(acts.size(), 2u);
  EXPECT_EQ(acts[0].act, "prune");
  EXPECT_EQ(acts[0].who, "alice");
  EXPECT_EQ(acts[0].why, "measured on a loaded machine");
  EXPECT_TRUE(acts[0].subtree);
  EXPECT_EQ(acts[0].affected, 2);
  EXPECT_FALSE(acts[0].at.empty());
  EXPECT_EQ(acts[1].act, "unprune");
  EXPECT_EQ(mem.curation(other)[0].act, "cheat");
  auto journal = mem.journal(std::nullopt, kid);
  ASSERT_EQ(journal.size(), 3u);
  EXPECT_EQ(journal[1].kind, "curation");
  EXPECT_NE(journal[1].markdown.find("by alice"), std::string::npos);
}

// The window's curation: one act on several Cases in one transaction (all or none), the state before it read in
// the same transaction, and the inverse acts that undo it, each recorded.
TEST_F(MemoryTest, CurateSeveralAtOnceAndRestoreThePreviousState) {
  const int64_t root = mem.add_case(make_case("gelu", 2.0, std::nullopt));
  const int64_t kid = mem.add_case(make_case("gelu", 2.5, root));
  const int64_t grandkid = mem.add_case(make_case("gelu", 2.6, kid));
  const int64_t other = mem.add_case(make_case("exp", 1.2, std::nullopt, true, "threads"));
  mem.pin(grandkid, true, "dave", "the reference trick");
  const memory::ChangeStamp stamp = mem.change_stamp();
  EXPECT_EQ(stamp.cases, 4);
  EXPECT_EQ(stamp.max_case, other);
  std::map<int64_t, memory::CurationState> before;
  EXPECT_EQ(mem.curate({kid, other}, "prune", true, "alice", "loaded machine", &before), 3);
  ASSERT_EQ(before.size(), 3u) << "kid, grandkid and other";
  EXPECT_TRUE(before.at(grandkid).pinned);
  EXPECT_FALSE(before.at(kid).pruned);
  EXPECT_TRUE(mem.curation_state(grandkid).pruned);
  EXPECT_FALSE(mem.curation_state(root).pruned);
  EXPECT_FALSE(mem.change_stamp() == stamp) << "a curation act changes the stamp";
  // All or none: an unknown Case among them changes nothing; a bad act is refused by name.
  EXPECT_THROW(mem.curate({root, 999}, "cheat", false, "carol", "x"), Error);
  EXPECT_EQ(mem.curation_state(root).flag, "");
  EXPECT_THROW(mem.curate({root}, "pin", true, "carol", "x"), Error) << "pin has no subtree";
  EXPECT_THROW(mem.curate({root}, "delete", false, "carol", "x"), Error);
  EXPECT_THROW(mem.curation_state(999), Error);
  // Undo: the inverse acts, recorded as well; a second restore has nothing to do.
  EXPECT_EQ(mem.restore_curation(before, "alice", "undo: prune"), 3);
  for (int64_t id : {kid, grandkid, other}) EXPECT_TRUE(mem.curation_state(id) == before.at(id)) << id;
  EXPECT_EQ(mem.restore_curation(before, "alice", "undo: prune"), 0);
  const auto acts = mem.curation(kid);
  ASSERT_EQ(acts.size(), 2u);
  EXPECT_EQ(acts[1].act, "unprune");
  EXPECT_EQ(acts[1].why, "undo: prune");
  // Marks come back too.
  before.clear();
  EXPECT_EQ(mem.curate({root}, "invalid", false, "carol", "timer patched", &before), 1);
  EXPECT_EQ(mem.restore_curation(before, "carol", "undo: invalid"), 1);
  EXPECT_EQ(mem.curation_state(root).flag, "");
  // A curation act's Journal entry belongs to its Case.
  EXPECT_EQ(mem.case_of_journal(mem.journal(std::nullopt, kid).back().id), kid);
  EXPECT_EQ(mem.case_of_journal(123456), std::nullopt);
}

TEST_F(MemoryTest, FullTextPoolTransfersAcrossOperators) {
  ASSERT_TRUE(mem.fts_enabled()) << "this SQLite has FTS5";
  auto in = make_case("sigmoid", 2.4, std::nullopt, true, "stay in fp32 and let libmvec vectorise expf");
  const int64_t sig = mem.add_case(in);
  mem.add_case(make_case("mish", 1.3, std::nullopt, true, "pade approximation of tanh"));
  auto items = memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "the loop calls erff and does not vectorise",
                                      "libmvec", {}});
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0].case_id, sig);
  EXPECT_EQ(items[0].provenance, "text");
  EXPECT_EQ(items[0].task, "sigmoid");
  // Pruned: out of the text pool too.
  mem.prune(sig, false, "alice", "x");
  for (const auto& it : memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "", "libmvec", {}})) EXPECT_NE(it.case_id, sig);
}

TEST(MemoryNoFts, ExactRetrievalWorksWithoutFts5) {
  TempDir dir;
  setenv("KOPE_MEMORY_NO_FTS", "1", 1);
  Workspace ws = Workspace::open(dir / "ws");
  unsetenv("KOPE_MEMORY_NO_FTS");
  setenv("KOPE_MEMORY_NO_FTS", "1", 1);  // the store checks at construction too
  MemoryStore mem(ws.handle());
  EXPECT_FALSE(mem.fts_enabled());
  EXPECT_EQ(count(ws.handle(), "SELECT COUNT(*) FROM sqlite_master WHERE name='memory_fts'"), 0);
  const int64_t g = mem.add_case(make_case("gelu", 2.0, std::nullopt, true, "simd"));
  const int64_t w = mem.add_case(make_case("gelu", 0, std::nullopt, false, "bit trick"));
  const int64_t s = mem.add_case(make_case("sigmoid", 2.0, std::nullopt, true, "vectorise with simd"));
  auto items = memory::retrieve(mem, {"gelu", "cpu", std::nullopt, "libmvec", "", {"vectorize"}});
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].case_id, g);
  EXPECT_EQ(items[1].case_id, w);
  EXPECT_EQ(items[2].case_id, s);
  EXPECT_EQ(items[2].provenance, "tags") << "without FTS5 the transfer pool falls back to shared idea tags";
  unsetenv("KOPE_MEMORY_NO_FTS");
  // And the explicit option on a workspace that has FTS5.
  TempDir d2;
  Workspace w2 = Workspace::open(d2 / "ws");
  MemoryStore m2(w2.handle());
  m2.add_case(make_case("gelu", 2.0, std::nullopt));
  m2.add_case(make_case("sigmoid", 2.0, std::nullopt, true, "libmvec"));
  memory::RetrieveOptions o;
  o.use_fts = false;
  auto exact = memory::retrieve(m2, {"gelu", "cpu", std::nullopt, "libmvec", "", {}}, o);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(exact[0].provenance, "exact");
}

TEST_F(MemoryTest, JournalIsAppendOnly) {
  const int64_t id = mem.add_case(make_case("gelu", 2.0, std::nullopt, true, "simd"));
  auto j = mem.journal(std::string("gelu"));
  ASSERT_EQ(j.size(), 1u);
  for (const char* part : {"## Case ", "**Strategy:** simd", "**Code change:** from the baseline, +1 -1 lines",
                           "**Validation:** passed", "**Measurements:** speedup 2.00x", "**Interpretation:** effective"})
    EXPECT_NE(j[0].markdown.find(part), std::string::npos) << part << "\n" << j[0].markdown;
  EXPECT_NE(raw_error(ws.handle(), "UPDATE memory_journal SET markdown='x'").find("append-only"), std::string::npos);
  EXPECT_NE(raw_error(ws.handle(), "DELETE FROM memory_journal").find("append-only"), std::string::npos);
  EXPECT_EQ(mem.journal(std::string("gelu"))[0].markdown, j[0].markdown);
  (void)id;
}

// ---- migration of a version-1 workspace ----

// The schema of core/workspace.cpp as of commit 6996628 (workspace user_version 1).
const char* kV1Schema = R"sql(
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  command TEXT NOT NULL,
  device TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running',
  host TEXT NOT NULL,
  pid INTEGER NOT NULL);
CREATE TABLE kernels(
  id INTEGER PRIMARY KEY,
  task TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  source TEXT NOT NULL,
  origin TEXT NOT NULL,
  thought TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  UNIQUE(task, sha256));
CREATE TABLE evaluations(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  prev_evaluation_id INTEGER REFERENCES evaluations(id),
  task TEXT NOT NULL,
  task_digest TEXT NOT NULL,
  device TEXT NOT NULL,
  status TEXT NOT NULL,
  compiled INTEGER,
  correct INTEGER,
  speedup REAL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  report TEXT);
CREATE INDEX evaluations_by_task ON evaluations(task, id);
CREATE TABLE case_results(
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  case_name TEXT NOT NULL,
  status TEXT NOT NULL,
  correct INTEGER NOT NULL,
  mean_rel_err REAL,
  max_rel_err REAL,
  baseline_median_ns REAL,
  kernel_median_ns REAL,
  speedup REAL,
  message TEXT NOT NULL,
  PRIMARY KEY(evaluation_id, case_name));
CREATE TABLE incumbents(
  task TEXT NOT NULL,
  device TEXT NOT NULL,
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  speedup REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY(task, device));
PRAGMA user_version=1;
)sql";

std::string passed_report(double s1, double lo1, double hi1, double s2, double lo2, double hi2) {
  json cases = json::array({
      {{"name", "small"}, {"status", "passed"}, {"correct", true}, {"message", ""}, {"speedup", s1},
       {"speedup_ci95", {lo1, hi1}}},
      {{"name", "large"}, {"status", "passed"}, {"correct", true}, {"message", ""}, {"speedup", s2},
       {"speedup_ci95", {lo2, hi2}}}});
  return json{{"task", "gelu"}, {"status", "passed"}, {"compiled", true}, {"correct", true},
              {"speedup", std::sqrt(s1 * s2)}, {"cases", cases}, {"errors", json::array()},
              {"warnings", json::array()}}.dump();
}

TEST(MemoryMigration, Version1WorkspaceEvaluationsBecomeCasesAndJournals) {
  TempDir dir;
  fs::create_directories(dir / "ws");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir / "ws" / "kope.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(raw_error(db, kV1Schema), "");
    const std::string wrong = json{{"status", "wrong"}, {"compiled", true}, {"correct", false}, {"speedup", nullptr},
                                   {"errors", {"case small: max rel err 0.5"}},
                                   {"cases", {{{"name", "small"}, {"status", "wrong"}, {"correct", false},
                                               {"message", "max rel err 0.5 at element 3"}}}}}.dump();
    std::ostringstream sql;
    sql << "INSERT INTO runs VALUES(1,'2026-01-01T00:00:00Z','2026-01-01T00:01:00Z','kope run','cpu','done','h',1);"
        << "INSERT INTO kernels VALUES(1,'gelu','s1','// thought: fp32 erff\nint a;\n','offline:gelu/01.cpp',"
           "'fp32 erff','2026-01-01T00:00:00Z');"
        << "INSERT INTO kernels VALUES(2,'gelu','s2','// thought: vectorise with simd\nint a;\nint b;\n',"
           "'offline:gelu/02.cpp','vectorise with simd','2026-01-01T00:00:00Z');"
        << "INSERT INTO kernels VALUES(3,'gelu','s3','int c;\n','offline:gelu/03.cpp','bit trick','2026-01-01T00:00:00Z');"
        << "INSERT INTO evaluations VALUES(1,1,1,NULL,'gelu','dg','cpu','passed',1,1,2.0,'t0','t1','"
        << passed_report(2.0, 1.9, 2.1, 2.0, 1.8, 2.2) << "');"
        << "INSERT INTO evaluations VALUES(2,1,2,1,'gelu','dg','cpu','passed',1,1,3.0,'t2','t3','"
        << passed_report(3.0, 2.9, 3.1, 3.0, 2.7, 3.3) << "');"
        << "INSERT INTO evaluations VALUES(3,1,3,2,'gelu','dg','cpu','wrong',1,0,NULL,'t4','t5','" << wrong << "');"
        << "INSERT INTO evaluations VALUES(4,1,3,2,'gelu','dg','cpu','error',NULL,NULL,NULL,'t6','t7','bad reference');"
        << "INSERT INTO evaluations VALUES(5,1,3,2,'gelu','dg','cpu','interrupted',NULL,NULL,NULL,'t8',NULL,NULL);"
        << "INSERT INTO incumbents VALUES('gelu','cpu',2,2,3.0,'t3');";
    ASSERT_EQ(raw_error(db, sql.str()), "");
    sqlite3_close(db);
  }
  Workspace ws = Workspace::open(dir / "ws");
  EXPECT_EQ(ws.schema_version(), kSchemaVersion) << "the memory does not touch the workspace's user_version";
  MemoryStore mem(ws.handle());
  EXPECT_EQ(mem.schema_version(), memory::kMemorySchemaVersion);
  EXPECT_EQ(mem.workspace_id().size(), 36u);
  ASSERT_EQ(mem.count_cases(), 3) << "passed, passed, wrong; no Case for an error or an interrupted evaluation";
  const auto c1 = *mem.get_case(*mem.case_of_evaluation(1));
  const auto c2 = *mem.get_case(*mem.case_of_evaluation(2));
  const auto c3 = *mem.get_case(*mem.case_of_evaluation(3));
  EXPECT_FALSE(c1.prev_case_id);
  EXPECT_EQ(c2.prev_case_id, c1.id);
  EXPECT_EQ(c3.prev_case_id, c2.id);
  EXPECT_DOUBLE_EQ(c1.a, 2.0);
  EXPECT_DOUBLE_EQ(c2.r, 1.5);
  EXPECT_EQ(c2.label, "effective");
  EXPECT_EQ(c2.step, 2);
  EXPECT_EQ(c2.run_id, 1);
  // c = clamp(1 - median((2.1-1.9)/2, (2.2-1.8)/2), 0, 1) = 1 - 0.15 = 0.85
  EXPECT_NEAR(c1.c, 0.85, 1e-12);
  EXPECT_DOUBLE_EQ(c3.c, 0.0);
  EXPECT_FALSE(c3.correct);
  EXPECT_NE(c3.feedback.find("max rel err 0.5"), std::string::npos) << c3.feedback;
  EXPECT_EQ(c2.tags, (std::vector<std::string>{"vectorize"}));
  EXPECT_EQ(c2.kernel_id, 2);
  EXPECT_NE(c2.diff.find("+int b;"), std::string::npos) << c2.diff;
  EXPECT_NE(c2.diff.find("-// thought: fp32 erff"), std::string::npos) << c2.diff;
  EXPECT_EQ(c2.hardware["cpu_model"].is_string(), true);
  EXPECT_EQ(mem.journal(std::string("gelu")).size(), 3u);
  // Opening again changes nothing.
  Workspace again = Workspace::open(dir / "ws");
  EXPECT_EQ(MemoryStore(again.handle()).count_cases(), 3);
}

// ---- sharing ----

TEST_F(MemoryTest, ExportImportRoundTripIdempotentAndAllOrNothing) {
  const int64_t a = mem.add_case(make_case("gelu", 2.0, std::nullopt));
  const int64_t b = mem.add_case(make_case("gelu", 3.0, a));
  mem.add_case(make_case("gelu", 0, b, false, "bit trick"));
  mem.mark(b, "invalid", "alice", "noisy");
  const fs::path file = dir / "mem.jsonl";
  {
    std::ofstream f(file);
    auto st = memory::export_jsonl(mem, f);
    EXPECT_EQ(st.cases, 3);
  }
  TempDir other;
  Workspace w2 = Workspace::open(other / "ws");
  MemoryStore m2(w2.handle());
  const int64_t local = m2.add_case(make_case("exp", 1.5, std::nullopt));
  auto st = memory::import_jsonl(m2, file);
  EXPECT_EQ(st.added, 3);
  EXPECT_EQ(st.skipped, 0);
  EXPECT_EQ(st.origin, mem.workspace_id());
  auto rows = m2.cases({std::string("gelu"), std::nullopt, std::nullopt, true, 100});
  ASSERT_EQ(rows.size(), 3u);
  std::reverse(rows.begin(), rows.end());
  EXPECT_EQ(rows[0].origin, mem.workspace_id());
  EXPECT_EQ(rows[0].uid, mem.get_case(a)->uid);
  EXPECT_EQ(rows[1].prev_case_id, rows[0].id);
  EXPECT_DOUBLE_EQ(rows[1].r, 1.5);
  EXPECT_DOUBLE_EQ(rows[1].d, mem.get_case(b)->d);
  EXPECT_EQ(rows[1].flag, "invalid");
  EXPECT_EQ(rows[1].hardware_digest, mem.get_case(b)->hardware_digest);
  EXPECT_FALSE(m2.journal(std::nullopt, rows[1].id).empty());
  auto items = memory::retrieve(m2, {"gelu", "cpu", std::nullopt, "", "", {}});
  ASSERT_FALSE(items.empty());
  EXPECT_TRUE(items[0].foreign);
  // Idempotent.
  auto again = memory::import_jsonl(m2, file);
  EXPECT_EQ(again.added, 0);
  EXPECT_EQ(again.skipped, 3);
  EXPECT_EQ(m2.count_cases(), 4);
  // Truncated: the last line cut in half. Nothing is imported, and the error names the line.
  std::string text;
  {
    std::ifstream f(file);
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  TempDir third;
  Workspace w3 = Workspace::open(third / "ws");
  MemoryStore m3(w3.handle());
  const fs::path cut = dir / "cut.jsonl";
  test::write_text(cut, text.substr(0, text.size() - 40));
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  try {
    memory::import_jsonl(m3, cut);
    FAIL() << "a truncated file must not import";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line " + std::to_string(lines)), std::string::npos) << e.what();
  }
  EXPECT_EQ(m3.count_cases(), 0);
  EXPECT_EQ(count(w3.handle(), "SELECT COUNT(*) FROM memory_origins"), 0);
  // Garbled in the middle; and a wrong schema version.
  std::string garbled = text;
  garbled.replace(garbled.find("\"kind\":\"case\""), 13, "\"kind\":\"cas\"");
  test::write_text(cut, garbled);
  EXPECT_THROW(memory::import_jsonl(m3, cut), Error);
  EXPECT_EQ(m3.count_cases(), 0);
  std::string schema = text;
  schema.replace(schema.find("\"schema\":1"), 10, "\"schema\":9");
  test::write_text(cut, schema);
  try {
    memory::import_jsonl(m3, cut);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1: schema version 9 is not supported"), std::string::npos) << e.what();
  }
  (void)local;
}

TEST_F(MemoryTest, GraphMlAndDotExports) {
  const int64_t a = mem.add_case(make_case("gelu", 2.0, std::nullopt, true, "a \"quoted\" <idea> & more"));
  mem.add_case(make_case("gelu", 3.0, a));
  std::ostringstream g, d;
  memory::export_graphml(mem, g);
  memory::export_dot(mem, d);
  const std::string gs = g.str(), ds = d.str();
  EXPECT_NE(gs.find("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\""), std::string::npos);
  EXPECT_NE(gs.find("<key id=\"d\" for=\"node\" attr.name=\"d\" attr.type=\"double\"/>"), std::string::npos);
  EXPECT_NE(gs.find("<edge id=\"e2\" source=\"n1\" target=\"n2\">"), std::string::npos);
  EXPECT_NE(gs.find("a &quot;quoted&quot; &lt;idea&gt; &amp; more"), std::string::npos);
  // Every data key used is declared.
  std::set<std::string> declared, used;
  for (std::size_t p = gs.find("<key id=\""); p != std::string::npos; p = gs.find("<key id=\"", p + 1))
    declared.insert(gs.substr(p + 9, gs.find('"', p + 9) - p - 9));
  for (std::size_t p = gs.find("<data key=\""); p != std::string::npos; p = gs.find("<data key=\"", p + 1))
    used.insert(gs.substr(p + 11, gs.find('"', p + 11) - p - 11));
  for (const auto& u : used) EXPECT_TRUE(declared.count(u)) << u;
  EXPECT_NE(ds.find("digraph memory {"), std::string::npos);
  EXPECT_NE(ds.find("n1 -> n2;"), std::string::npos);
  // dot accepts it, when installed.
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    test::write_text(dir / "g.dot", ds);
    EXPECT_EQ(std::system(("dot -Tsvg -o /dev/null " + (dir / "g.dot").string()).c_str()), 0);
  }
}

TEST(MemoryText, IdeaTagsAndDiff) {
  EXPECT_EQ(memory::idea_tags("split the vectorised loop across 2 threads"),
            (std::vector<std::string>{"parallel", "vectorize"}));
  EXPECT_EQ(memory::idea_tags("Schraudolph's trick", "// kope:cxxflags -O3 -ffast-math\n"),
            (std::vector<std::string>{"approximation", "compiler-flags"}));
  EXPECT_TRUE(memory::idea_tags("").empty());
  const std::string d = memory::unified_diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n", "a/x", "b/x");
  EXPECT_EQ(d, "--- a/x\n+++ b/x\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n c\n d\n+e\n");
  EXPECT_EQ(memory::unified_diff("same\n", "same\n", "a", "b"), "");
  EXPECT_EQ(memory::diff_stat(d), (std::pair<int, int>{2, 1}));
  EXPECT_EQ(memory::query_terms("The loop calls ERFF; the \"erff\" call"), (std::vector<std::string>{"\"calls\"", "\"erff\"", "\"call\""}));
}

// ---- the loop and the CLI ----

std::string wrong_kernel() {
  return "// thought: approximate with a bit trick that is wrong\n" +
         test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];");
}
std::string right_kernel() {
  return "// thought: fused multiply-add in fp32\n" +
         test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = __builtin_fmaf(2.0f, x[i], 1.0f);");
}

TEST(MemoryLoop, SecondRunSkipsWhatTheFirstLearnedFailed) {
  TempDir dir;
  std::string affine2 = test::affine_task_json();
  affine2.replace(affine2.find("\"affine\""), 8, "\"affine2\"");
  test::write_text(dir / "suite" / "affine.json", test::affine_task_json());
  test::write_text(dir / "suite" / "affine2.json", affine2);
  for (const char* t : {"affine", "affine2"}) {
    test::write_text(dir / "kernels" / t / "01_wrong.cpp", wrong_kernel());
    test::write_text(dir / "kernels" / t / "02_fma.cpp", right_kernel());
  }
  const std::vector<std::string> args = {"run", "--suite", (dir / "suite").string(), "--kernels",
                                         (dir / "kernels").string(), "--workspace", (dir / "ws").string(),
                                         "--warmup", "1", "--reps", "3", "--tasks", "affine,affine2"};
  std::ostringstream out1, err1, out2, err2;
  run_cli(args, out1, err1);
  EXPECT_EQ(err1.str().find("skipped"), std::string::npos) << err1.str();
  EXPECT_NE(err1.str().find("offline:affine/01_wrong.cpp"), std::string::npos) << err1.str();
  run_cli(args, out2, err2);
  const std::string e2 = err2.str();
  EXPECT_NE(e2.find("skipped offline:affine/01_wrong.cpp: failed here before (case 1: wrong"), std::string::npos) << e2;
  EXPECT_NE(e2.find("skipped offline:affine2/01_wrong.cpp: failed here before (case 3: wrong"), std::string::npos) << e2;
  EXPECT_NE(e2.find("offline:affine/02_fma.cpp"), std::string::npos) << e2;
  // Cases of both runs, with what the agent was shown recorded for the second run's attempts.
  Workspace ws = Workspace::open(dir / "ws");
  MemoryStore mem(ws.handle());
  EXPECT_EQ(mem.count_cases(), 6);
  const auto rows = ws.evaluations(std::nullopt, 100);
  ASSERT_EQ(rows.size(), 6u);
  for (const auto& r : rows) EXPECT_EQ(r.report, "") << "a listing loads no report";
  EXPECT_FALSE(ws.evaluation(rows[0].id)->report.empty());
  const auto last = *mem.get_case(*mem.case_of_evaluation(rows[0].id));
  EXPECT_EQ(last.task, "affine2");
  EXPECT_TRUE(last.scene.is_array());
  EXPECT_EQ(last.scene.size(), 3u);
  EXPECT_EQ(last.scene[0]["inputs"][0]["dtype"], "fp32");
  auto shown = mem.context(rows[0].id);
  ASSERT_FALSE(shown.empty()) << "the second run's attempt was shown the first run's Cases";
  bool saw_failure = false;
  for (const auto& s : shown) saw_failure = saw_failure || s.kind == "failure";
  EXPECT_TRUE(saw_failure);
  // --recheck evaluates them again.
  std::ostringstream out3, err3;
  auto with_recheck = args;
  with_recheck.push_back("--recheck");
  with_recheck.push_back("--max-attempts");
  with_recheck.push_back("1");
  run_cli(with_recheck, out3, err3);
  EXPECT_EQ(err3.str().find("skipped"), std::string::npos) << err3.str();
  EXPECT_NE(err3.str().find("offline:affine/01_wrong.cpp"), std::string::npos) << err3.str();

  // The CLI over that workspace.
  auto cli = [&](std::vector<std::string> a, int want, std::string* text = nullptr) {
    a.insert(a.begin(), "memory");
    a.push_back("--workspace");
    a.push_back((dir / "ws").string());
    std::ostringstream o, e;
    EXPECT_EQ(run_cli(a, o, e), want) << a[1] << ": " << e.str();
    if (text) *text = o.str() + e.str();
  };
  std::string t;
  cli({"cases", "--json"}, 0, &t);
  EXPECT_EQ(json::parse(t).size(), 8u);
  cli({"show", "1"}, 0, &t);
  EXPECT_NE(t.find("this idea was wrong because"), std::string::npos) << t;
  cli({"show", "99"}, 2, &t);
  EXPECT_NE(t.find("no case 99"), std::string::npos);
  cli({"show", "x"}, 2);
  cli({"prune", "2", "--reason", "noisy", "--by", "tester", "--json"}, 0);
  cli({"prune", "2"}, 2);
  cli({"show", "2", "--json"}, 0, &t);
  EXPECT_EQ(json::parse(t)["curation"][0]["who"], "tester");
  cli({"unprune", "2"}, 0);
  cli({"pin", "2"}, 0);
  cli({"mark", "2", "cheat"}, 2);
  cli({"retrieve", "--task", "affine", "--json"}, 0, &t);
  EXPECT_EQ(json::parse(t)["items"][0]["provenance"], "pinned");
  cli({"retrieve", "--task", "affine", "--no-fts"}, 0);
  cli({"graph", "--format", "dot"}, 0, &t);
  EXPECT_NE(t.find("digraph memory"), std::string::npos);
  EXPECT_NE(t.find("n1 ["), std::string::npos);
  cli({"graph", "--rebuild"}, 0);
  cli({"journal", "--task", "affine"}, 0, &t);
  EXPECT_NE(t.find("## Case 1 · affine"), std::string::npos);
  cli({"journal", "--export", (dir / "md").string()}, 0);
  EXPECT_TRUE(fs::exists(dir / "md" / "affine.md"));
  cli({"export", (dir / "m.jsonl").string()}, 0);
  cli({"import", (dir / "m.jsonl").string(), "--json"}, 0, &t);
  EXPECT_NE(t.find("\"added\":0"), std::string::npos) << t;
  test::write_text(dir / "bad.jsonl", "{\"kind\":\"kope-memory\",\"schema\":1,\"workspace_id\":\"w\"}\n{not json\n");
  cli({"import", (dir / "bad.jsonl").string()}, 2, &t);
  EXPECT_NE(t.find("line 2"), std::string::npos) << t;
  cli({"import", (dir / "missing.jsonl").string()}, 2);
  cli({"frobnicate"}, 2);
}

TEST_F(MemoryTest, CrossHardwareMemoryLocalForeignOrBoth) {
  // gelu learned on an Ascend board and on the CPU; the agent now works on the CPU.
  auto on = [&](const std::string& device, const std::string& task, double a, const std::string& thought) {
    CaseInput in = make_case(task, a, std::nullopt, true, thought);
    in.device = device;
    return mem.add_case(in);
  };
  const int64_t npu = on("ascend", "gelu", 3.0, "double-buffer the UB tiles of the erf pipeline");
  const int64_t cpu = on("cpu", "gelu", 1.5, "vectorise erf with libmvec");
  const int64_t npu_other = on("ascend", "sigmoid", 2.0, "double-buffer the UB tiles of the exp pipeline");
  const memory::RetrieveState state{"gelu", "cpu", std::nullopt, "pipeline tiles", "", {}};
  auto ids = [&](memory::RetrieveOptions::Devices d) {
    memory::RetrieveOptions o = opts(3, 4);
    o.devices = d;
    std::set<int64_t> out;
    for (const auto& it : memory::retrieve(mem, state, o)) out.insert(it.case_id);
    return out;
  };
  using D = memory::RetrieveOptions::Devices;
  EXPECT_EQ(ids(D::Local), (std::set<int64_t>{cpu}));
  EXPECT_EQ(ids(D::Foreign), (std::set<int64_t>{npu, npu_other}));
  EXPECT_EQ(ids(D::Both), (std::set<int64_t>{cpu, npu_other}))
      << "both: the same operator on this device, other operators on any";
  // Offered to the agent, a Case of another device says which, and is cold context, not this device's warm one.
  memory::RetrieveOptions o = opts(3, 4);
  o.devices = D::Foreign;
  const auto items = agent::context_items(memory::retrieve(mem, state, o), "gelu", "cpu");
  ASSERT_FALSE(items.empty());
  for (const auto& c : items) {
    EXPECT_NE(c.text.find("measured on ascend, not on cpu"), std::string::npos) << c.text;
    EXPECT_EQ(c.tier, agent::Tier::Cold);
  }
  EXPECT_EQ(memory::device_memory_from_name("foreign"), D::Foreign);
  EXPECT_FALSE(memory::device_memory_from_name("remote"));
}

}  // namespace
}  // namespace kope
