// Retrieve(s, M): pinned Cases, the exact pool by outcome bucket, then the full-text pool for transfer.
#include "kope/memory/retrieve.h"

#include <sqlite3.h>

#include <iomanip>
#include <set>
#include <sstream>

#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"
#include "kope/base/text.h"
#include "kope/base/format.h"

namespace kope::memory {

using store::Stmt;

namespace {

const char* kItemColumns =
    "SELECT c.id, c.task, c.device, c.label, c.correct, c.origin_id IS NOT NULL, c.pinned, c.a, c.c, c.d, c.score, "
    "c.tags, c.thought, c.status, c.feedback, c.diff, c.r, c.prev_case_id, c.step, c.kernel_name, "
    "(SELECT markdown FROM memory_journal j WHERE j.case_id = c.id ORDER BY j.id LIMIT 1) "
    "FROM memory_cases c WHERE c.id=?";

std::string interpretation_of(const std::string& md) {
  auto p = md.find("**Interpretation:** ");
  if (p == std::string::npos) return md.substr(0, 300);
  auto e = md.find('\n', p);
  std::string s = md.substr(p + 20, e == std::string::npos ? std::string::npos : e - p - 20);
  return s.size() > 400 ? s.substr(0, 400) + "..." : s;
}

RetrievedItem load_item(Stmt& s, int64_t id, const std::string& provenance) {
  s.reset();
  s.bind(1, id);
  s.step();
  RetrievedItem it;
  it.case_id = s.i64(0);
  it.task = s.text(1);
  it.device = s.text(2);
  it.label = s.text(3);
  it.correct = s.i64(4) != 0;
  it.foreign = s.i64(5) != 0;
  it.pinned = s.i64(6) != 0;
  it.a_v = s.f64(7);
  it.c_v = s.f64(8);
  it.d_v = s.f64(9);
  it.score = s.f64(10);
  it.tags = split_words(s.text(11));
  it.thought = s.text(12);
  const std::string status = s.text(13), feedback = s.text(14), diff = s.text(15);
  const double r = s.f64(16);
  const auto prev = s.opt_i64(17);
  it.provenance = provenance;
  const bool success = it.correct && (it.label == "effective" || it.label == "partial");
  it.kind = success ? "success" : "failure";
  std::string fb = feedback;
  for (char& c : fb)
    if (c == '\n') c = ' ';
  if (fb.size() > 300) fb = fb.substr(0, 300) + "...";
  std::ostringstream m;
  m << "Case " << it.case_id << " (" << it.task << " on " << it.device << (it.foreign ? ", foreign memory" : "")
    << "): tried \"" << it.thought << "\"";
  if (!it.tags.empty()) {
    m << " [";
    for (std::size_t i = 0; i < it.tags.size(); ++i) m << (i ? ", " : "") << it.tags[i];
    m << "]";
  }
  m << (prev ? ", starting from case " + std::to_string(*prev) : std::string(", starting from the baseline")) << ". ";
  if (!it.correct) {
    m << "This idea was wrong because " << status << ": " << fb;
  } else if (!success) {
    m << "Correct but it made the kernel slower: " << format::fixed(it.a_v) << "x overall, step ratio " << format::fixed(r, 3) << " ("
      << it.label << ").";
  } else {
    m << "Worked: " << format::fixed(it.a_v) << "x overall, step ratio " << format::fixed(r, 3) << " (" << it.label << "), confidence "
      << format::fixed(it.c_v) << ", downstream " << format::fixed(it.d_v, 3) << ".";
  }
  it.summary = m.str();
  it.snippet = diff_excerpt(diff, 24);
  it.journal_excerpt = s.null(20) ? "" : interpretation_of(s.text(20));
  return it;
}

// One retrieval in progress: what is already taken (never offered twice) and what has been offered, in order.
struct Picker {
  const MemoryStore& store;
  const RetrieveState& state;
  const RetrieveOptions& o;
  Stmt& item;
  std::string foreign;  // the filter that leaves out imported Cases (unless asked for) and other devices' (local)
  std::set<int64_t> taken;
  std::vector<RetrievedItem> out;

  // Takes `id` under `provenance` unless it was taken before; true when it was new.
  bool offer(int64_t id, const std::string& provenance) {
    if (!taken.insert(id).second) return false;
    out.push_back(load_item(item, id, provenance));
    return true;
  }
};

// "?,?,?" for each of the state's tags (empty without tags).
std::string tag_placeholders(const RetrieveState& state) {
  std::string list;
  for (std::size_t i = 0; i < state.tags.size(); ++i) list += (i ? ",?" : "?");
  return list;
}

// Pinned: always offered (same operator first).
void add_pinned(Picker& p) {
  auto s = p.store.stmt("SELECT c.id FROM memory_cases c WHERE c.pinned=1 AND c.pruned=0 AND c.flag IS NULL " +
                        p.foreign + "ORDER BY c.task = ? DESC, c.score DESC, c.id DESC LIMIT ?");
  s->bind(1, p.state.task).bind(2, static_cast<int64_t>(p.o.max_pinned));
  std::vector<int64_t> ids;
  while (s->step()) ids.push_back(s->i64(0));
  for (int64_t id : ids) p.offer(id, "pinned");
}

// Exact pool: same operator and device; per outcome bucket by d*c; narrowed to shared idea tags when the state
// has tags, widened to all tags when that leaves a bucket short.
void add_exact(Picker& p, const std::string& tag_list) {
  const RetrieveState& state = p.state;
  const int per_bucket = p.o.per_bucket;
  const std::string base = "SELECT c.id FROM memory_cases c WHERE c.task=? AND c.bucket=? AND c.pruned=0 AND "
                           "c.flag IS NULL AND c.device" + std::string(p.o.devices == RetrieveOptions::Devices::Foreign ? "<>" : "=") +
                           "? " + p.foreign;
  // EXISTS, not IN: the rank index is walked in score order and stops at LIMIT, instead of materialising every
  // Case that carries a tag.
  auto with_tags_c = p.store.stmt(base + (tag_list.empty() ? "" : "AND EXISTS (SELECT 1 FROM memory_case_tags t WHERE "
                                                                  "t.case_id = c.id AND t.tag IN (" + tag_list + ")) ") +
                                  "ORDER BY c.score DESC, c.id DESC LIMIT ?");
  auto any_c = p.store.stmt(base + "ORDER BY c.score DESC, c.id DESC LIMIT ?");
  Stmt &with_tags = *with_tags_c, &any = *any_c;
  for (int bucket = 0; bucket <= kIncorrectBucket; ++bucket) {
    int got = 0;
    auto take = [&](Stmt& s, bool tagged) {
      s.reset();
      int i = 4;
      s.bind(1, state.task).bind(2, bucket).bind(3, state.device);
      if (tagged)
        for (const auto& t : state.tags) s.bind(i++, t);
      s.bind(i, static_cast<int64_t>(per_bucket + static_cast<int>(p.taken.size())));
      std::vector<int64_t> ids;
      while (s.step()) ids.push_back(s.i64(0));
      for (int64_t id : ids) {
        if (got >= per_bucket) break;
        if (p.offer(id, "exact")) ++got;
      }
    };
    if (!state.tags.empty()) take(with_tags, true);
    if (got < per_bucket) take(any, false);
  }
}

// The full-text query for the state's words: words that say something, rarest first, while the documents they
// match stay within a budget (empty when no word qualifies). bm25 is computed for every matching document, so this
// bounds the work whatever the size of the memory. A word's document count is probed with LIMIT budget+1
// (fts5vocab would walk its whole posting list).
std::string fts_query(const Picker& p) {
  std::string text = p.state.feedback + " " + p.state.target;
  for (const auto& t : p.state.tags) text += " " + t;
  std::vector<std::pair<int64_t, std::string>> by_df;
  for (const auto& term : query_terms(text, 8)) {
    auto v = p.store.stmt("SELECT COUNT(*) FROM (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)");
    v->bind(1, term).bind(2, static_cast<int64_t>(p.o.fts_budget) + 1);
    if (v->step() && v->i64(0) > 0 && v->i64(0) <= p.o.fts_budget) by_df.push_back({v->i64(0), term});
  }
  std::sort(by_df.begin(), by_df.end());
  std::string q;
  int64_t matched = 0;
  for (const auto& [df, term] : by_df) {
    if (matched + df > p.o.fts_budget) break;
    q += (q.empty() ? "" : " OR ") + term;
    matched += df;
  }
  return q;
}

// Cases whose Journal or digest matches the state's words, best bm25 first; other operators only.
std::vector<int64_t> fts_pool(const Picker& p) {
  std::vector<int64_t> pool;
  std::string q = fts_query(p);
  if (q.empty()) return pool;
  // Other operators only: the task column holds each Case's operator.
  std::string task = p.state.task;
  for (char& ch : task)
    if (ch == '"') ch = ' ';
  q = "(" + q + ") NOT task : \"" + task + "\"";
  auto s = p.store.stmt("SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 0.0, 2.0, "
                        "1.0) LIMIT ?");
  s->bind(1, q).bind(2, static_cast<int64_t>(p.o.fts_pool));
  while (s->step()) pool.push_back(s->i64(0));
  return pool;
}

// Without FTS5: Cases that share an idea tag, newest first.
std::vector<int64_t> tag_pool(const Picker& p, const std::string& tag_list) {
  std::vector<int64_t> pool;
  auto s = p.store.stmt("SELECT DISTINCT case_id FROM memory_case_tags WHERE tag IN (" + tag_list +
                        ") ORDER BY case_id DESC LIMIT ?");
  int i = 1;
  for (const auto& t : p.state.tags) s->bind(i++, t);
  s->bind(i, static_cast<int64_t>(p.o.fts_pool * 4));
  while (s->step()) pool.push_back(s->i64(0));
  return pool;
}

// Offers the eligible Cases of `pool` (other operators, not pruned or flagged) in bucket and d*c order, like the
// exact pool, up to max_text of them.
void add_from_pool(Picker& p, const std::vector<int64_t>& pool, const std::string& provenance) {
  struct Cand {
    int64_t id;
    int bucket;
    double score;
  };
  std::vector<Cand> cands;
  auto e_c = p.store.stmt("SELECT c.bucket, c.score FROM memory_cases c WHERE c.id=? AND c.task<>? AND c.pruned=0 AND "
                          "c.flag IS NULL " + p.foreign);
  Stmt& e = *e_c;
  for (int64_t id : pool) {
    if (p.taken.count(id)) continue;
    e.reset();
    e.bind(1, id).bind(2, p.state.task);
    if (e.step()) cands.push_back({id, static_cast<int>(e.i64(0)), e.f64(1)});
    if (cands.size() >= static_cast<std::size_t>(p.o.fts_pool)) break;
  }
  std::stable_sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) {
    if (a.bucket != b.bucket) return a.bucket < b.bucket;
    return a.score > b.score;
  });
  int got = 0;
  for (const auto& cnd : cands) {
    if (got >= p.o.max_text) break;
    if (p.offer(cnd.id, provenance)) ++got;
  }
}

// Text pool: other operators (and devices) whose Journal or digest matches the state's words, or, without FTS5,
// that share an idea tag.
void add_text(Picker& p, const std::string& tag_list) {
  if (p.o.max_text <= 0) return;
  std::vector<int64_t> pool;
  std::string provenance = "text";
  if (p.o.use_fts && p.store.fts_enabled()) {
    pool = fts_pool(p);
  } else if (!p.state.tags.empty()) {
    provenance = "tags";
    pool = tag_pool(p, tag_list);
  }
  add_from_pool(p, pool, provenance);
}

}  // namespace

std::vector<RetrievedItem> retrieve(const MemoryStore& store, const RetrieveState& state, const RetrieveOptions& o) {
  store::ReadTxn snapshot(store.db());
  auto item_c = store.stmt(kItemColumns);
  std::string filter = o.include_foreign ? "" : "AND c.origin_id IS NULL ";
  if (o.devices != RetrieveOptions::Devices::Both) {  // a device name is an identifier (parse_device_spec)
    std::string dev = state.device;
    for (std::size_t i = 0; (i = dev.find('\'', i)) != std::string::npos; i += 2) dev.insert(i, 1, '\'');
    filter += std::string("AND c.device ") + (o.devices == RetrieveOptions::Devices::Local ? "=" : "<>") + " '" + dev + "' ";
  }
  Picker p{store, state, o, *item_c, filter, {}, {}};
  if (state.incumbent_case) p.taken.insert(*state.incumbent_case);  // already in the hot context
  add_pinned(p);
  const std::string tag_list = tag_placeholders(state);
  add_exact(p, tag_list);
  add_text(p, tag_list);
  return std::move(p.out);
}

std::optional<RetrieveOptions::Devices> device_memory_from_name(const std::string& s) {
  if (s == "both") return RetrieveOptions::Devices::Both;
  if (s == "local") return RetrieveOptions::Devices::Local;
  if (s == "foreign") return RetrieveOptions::Devices::Foreign;
  return std::nullopt;
}

const char* device_memory_name(RetrieveOptions::Devices d) {
  switch (d) {
    case RetrieveOptions::Devices::Local: return "local";
    case RetrieveOptions::Devices::Foreign: return "foreign";
    case RetrieveOptions::Devices::Both: break;
  }
  return "both";
}

}  // namespace kope::memory
