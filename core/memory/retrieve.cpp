// Retrieve(s, M): pinned Cases, the exact pool by outcome bucket, then the full-text pool for transfer.
#include "kope/memory/retrieve.h"

#include <sqlite3.h>

#include <iomanip>
#include <set>
#include <sstream>

#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"

namespace kope::memory {

using store::Stmt;

namespace {

std::string fmt(double v, int prec = 2) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(prec) << v;
  return s.str();
}

std::vector<std::string> split_ws(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

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
  it.tags = split_ws(s.text(11));
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
    m << "Correct but it made the kernel slower: " << fmt(it.a_v) << "x overall, step ratio " << fmt(r, 3) << " ("
      << it.label << ").";
  } else {
    m << "Worked: " << fmt(it.a_v) << "x overall, step ratio " << fmt(r, 3) << " (" << it.label << "), confidence "
      << fmt(it.c_v) << ", downstream " << fmt(it.d_v, 3) << ".";
  }
  it.summary = m.str();
  it.snippet = diff_excerpt(diff, 24);
  it.journal_excerpt = s.null(20) ? "" : interpretation_of(s.text(20));
  return it;
}

}  // namespace

std::vector<RetrievedItem> retrieve(const MemoryStore& store, const RetrieveState& state, const RetrieveOptions& o) {
  store::ReadTxn snapshot(store.db());
  std::vector<RetrievedItem> out;
  std::set<int64_t> taken;
  if (state.incumbent_case) taken.insert(*state.incumbent_case);  // already in the hot context
  auto item_c = store.stmt(kItemColumns);
  Stmt& item = *item_c;
  const std::string foreign = o.include_foreign ? "" : "AND c.origin_id IS NULL ";

  // Pinned: always offered (same operator first).
  {
    auto s = store.stmt("SELECT c.id FROM memory_cases c WHERE c.pinned=1 AND c.pruned=0 AND c.flag IS NULL " +
                        foreign + "ORDER BY c.task = ? DESC, c.score DESC, c.id DESC LIMIT ?");
    s->bind(1, state.task).bind(2, static_cast<int64_t>(o.max_pinned));
    std::vector<int64_t> ids;
    while (s->step()) ids.push_back(s->i64(0));
    for (int64_t id : ids)
      if (taken.insert(id).second) out.push_back(load_item(item, id, "pinned"));
  }

  // Exact pool: same operator and device; per outcome bucket by d*c; narrowed to shared idea tags when the state
  // has tags, widened to all tags when that leaves a bucket short.
  std::string tag_list;
  for (std::size_t i = 0; i < state.tags.size(); ++i) tag_list += (i ? ",?" : "?");
  const std::string base = "SELECT c.id FROM memory_cases c WHERE c.task=? AND c.bucket=? AND c.pruned=0 AND "
                           "c.flag IS NULL AND c.device=? " + foreign;
  // EXISTS, not IN: the rank index is walked in score order and stops at LIMIT, instead of materialising every
  // Case that carries a tag.
  auto with_tags_c = store.stmt(base + (tag_list.empty() ? "" : "AND EXISTS (SELECT 1 FROM memory_case_tags t WHERE "
                                                                "t.case_id = c.id AND t.tag IN (" + tag_list + ")) ") +
                                "ORDER BY c.score DESC, c.id DESC LIMIT ?");
  auto any_c = store.stmt(base + "ORDER BY c.score DESC, c.id DESC LIMIT ?");
  Stmt &with_tags = *with_tags_c, &any = *any_c;
  for (int bucket = 0; bucket <= kIncorrectBucket; ++bucket) {
    int got = 0;
    auto take = [&](Stmt& s, bool tagged) {
      s.reset();
      int i = 4;
      s.bind(1, state.task).bind(2, bucket).bind(3, state.device);
      if (tagged)
        for (const auto& t : state.tags) s.bind(i++, t);
      s.bind(i, static_cast<int64_t>(o.per_bucket + static_cast<int>(taken.size())));
      std::vector<int64_t> ids;
      while (s.step()) ids.push_back(s.i64(0));
      for (int64_t id : ids) {
        if (got >= o.per_bucket) break;
        if (taken.insert(id).second) {
          out.push_back(load_item(item, id, "exact"));
          ++got;
        }
      }
    };
    if (!state.tags.empty()) take(with_tags, true);
    if (got < o.per_bucket) take(any, false);
  }

  // Text pool: other operators (and devices) whose Journal or digest matches the state's words.
  if (o.max_text > 0) {
    std::vector<int64_t> pool;
    std::string provenance = "text";
    if (o.use_fts && store.fts_enabled()) {
      std::string text = state.feedback + " " + state.target;
      for (const auto& t : state.tags) text += " " + t;
      // Words that say something, rarest first, while the documents they match stay within a budget: bm25 is
      // computed for every matching document, so this bounds the work whatever the size of the memory. A word's
      // document count is probed with LIMIT budget+1 (fts5vocab would walk its whole posting list).
      std::vector<std::pair<int64_t, std::string>> by_df;
      for (const auto& term : query_terms(text, 8)) {
        auto v = store.stmt("SELECT COUNT(*) FROM (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)");
        v->bind(1, term).bind(2, static_cast<int64_t>(o.fts_budget) + 1);
        if (v->step() && v->i64(0) > 0 && v->i64(0) <= o.fts_budget) by_df.push_back({v->i64(0), term});
      }
      std::sort(by_df.begin(), by_df.end());
      std::string q;
      int64_t matched = 0;
      for (const auto& [df, term] : by_df) {
        if (matched + df > o.fts_budget) break;
        q += (q.empty() ? "" : " OR ") + term;
        matched += df;
      }
      if (!q.empty()) {
        // Other operators only: the task column holds each Case's operator.
        std::string task = state.task;
        for (char& ch : task)
          if (ch == '"') ch = ' ';
        q = "(" + q + ") NOT task : \"" + task + "\"";
        auto s = store.stmt("SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 0.0, 2.0, "
                            "1.0) LIMIT ?");
        s->bind(1, q).bind(2, static_cast<int64_t>(o.fts_pool));
        while (s->step()) pool.push_back(s->i64(0));
      }
    } else if (!state.tags.empty()) {
      // Without FTS5: Cases of other operators that share an idea tag.
      provenance = "tags";
      auto s = store.stmt("SELECT DISTINCT case_id FROM memory_case_tags WHERE tag IN (" + tag_list +
                          ") ORDER BY case_id DESC LIMIT ?");
      int i = 1;
      for (const auto& t : state.tags) s->bind(i++, t);
      s->bind(i, static_cast<int64_t>(o.fts_pool * 4));
      while (s->step()) pool.push_back(s->i64(0));
    }
    // Keep eligible ones, then order by bucket and d*c like the exact pool.
    struct Cand {
      int64_t id;
      int bucket;
      double score;
    };
    std::vector<Cand> cands;
    auto e_c = store.stmt("SELECT c.bucket, c.score FROM memory_cases c WHERE c.id=? AND c.task<>? AND c.pruned=0 AND "
                          "c.flag IS NULL " + foreign);
    Stmt& e = *e_c;
    for (int64_t id : pool) {
      if (taken.count(id)) continue;
      e.reset();
      e.bind(1, id).bind(2, state.task);
      if (e.step()) cands.push_back({id, static_cast<int>(e.i64(0)), e.f64(1)});
      if (cands.size() >= static_cast<std::size_t>(o.fts_pool)) break;
    }
    std::stable_sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) {
      if (a.bucket != b.bucket) return a.bucket < b.bucket;
      return a.score > b.score;
    });
    int got = 0;
    for (const auto& cnd : cands) {
      if (got >= o.max_text) break;
      if (taken.insert(cnd.id).second) {
        out.push_back(load_item(item, cnd.id, provenance));
        ++got;
      }
    }
  }
  return out;
}

}  // namespace kope::memory
