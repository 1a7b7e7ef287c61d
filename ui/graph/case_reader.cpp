// Reading the Cases, on the caller's connection or a thread of its own. See case_reader.h.
#include "case_reader.h"

#include <QMetaObject>

#include <chrono>
#include <limits>

#include "kope/store/db.h"
#include "kope/workspace/workspace.h"

namespace kope::graph {

using kope::memory::CaseFilter;
using kope::memory::CaseRow;
using kope::memory::ChangeStamp;

namespace {

// What a run added after `lastId`, with the ancestors of those additions the caller already holds; nullopt
// when the count shows Cases were removed meanwhile (then only a full reading is right).
std::optional<std::vector<CaseRow>> additions(const kope::memory::MemoryStore& store, const ChangeStamp& known,
                                              const ChangeStamp& now, int64_t lastId) {
  CaseFilter f;
  f.limit = std::numeric_limits<int>::max();
  f.after_id = lastId;
  std::vector<CaseRow> rows = store.cases(f);
  if (known.cases + static_cast<int64_t>(rows.size()) != now.cases) return std::nullopt;
  std::set<int64_t> seen;
  for (const auto& r : rows) seen.insert(r.id);
  std::vector<int64_t> wanted;
  for (const auto& r : rows)
    if (r.prev_case_id && !seen.count(*r.prev_case_id)) wanted.push_back(*r.prev_case_id);
  while (!wanted.empty()) {  // up the chains, a level at a time
    CaseFilter up;
    up.limit = std::numeric_limits<int>::max();
    up.ids.clear();
    for (int64_t id : wanted)
      if (seen.insert(id).second) up.ids.push_back(id);
    wanted.clear();
    if (up.ids.empty()) break;
    for (auto& r : store.cases(up)) {
      if (r.prev_case_id && !seen.count(*r.prev_case_id)) wanted.push_back(*r.prev_case_id);
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

}  // namespace

std::optional<CaseSnapshot> read_cases(const kope::memory::MemoryStore& store, const kope::workspace::Workspace& ws,
                                       const std::optional<ChangeStamp>& known, int64_t lastId, TaskDevices& pairs) {
  const auto start = std::chrono::steady_clock::now();
  store::ReadTxn snapshot(ws.handle());  // the stamp and the rows from one state of the file
  CaseSnapshot s;
  s.stamp = store.change_stamp();
  if (known && s.stamp == *known) return std::nullopt;
  std::optional<std::vector<CaseRow>> added;
  // Curation by another process changes rows anywhere: read them all then.
  if (known && s.stamp.max_curation == known->max_curation && s.stamp.max_case >= known->max_case)
    added = additions(store, *known, s.stamp, lastId);
  if (added) {
    s.full = false;
    s.rows = std::move(*added);
  } else {
    CaseFilter all;
    all.limit = std::numeric_limits<int>::max();
    s.rows = store.cases(all);
    pairs.clear();
  }
  s.lastId = s.full ? 0 : lastId;
  for (const auto& r : s.rows) {
    pairs.insert({r.task, r.device});
    s.lastId = std::max(s.lastId, r.id);
  }
  s.pairs = pairs;
  for (const auto& [task, device] : pairs)
    if (auto inc = ws.incumbent(task, device))
      if (auto c = store.case_of_evaluation(inc->evaluation_id)) s.incumbents.insert(*c);
  s.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return s;
}

CaseReader::CaseReader(std::filesystem::path workspace, QObject* parent)
    : QObject(parent), workspace_(std::move(workspace)) {
  qRegisterMetaType<std::shared_ptr<kope::graph::CaseSnapshot>>("std::shared_ptr<kope::graph::CaseSnapshot>");
  worker_ = std::thread([this] { run(); });
}

CaseReader::~CaseReader() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    queued_.reset();
  }
  cv_.notify_all();
  worker_.join();
}

quint64 CaseReader::request(std::optional<ChangeStamp> known, int64_t lastId) {
  std::lock_guard lk(mu_);
  queued_ = Job{++next_, known, lastId};
  cv_.notify_one();
  return next_;
}

bool CaseReader::busy() const {
  std::lock_guard lk(mu_);
  return working_ || queued_.has_value();
}

void CaseReader::run() {
  std::optional<kope::workspace::Workspace> ws;  // opened, used and closed on this thread only
  std::optional<kope::memory::MemoryStore> store;
  TaskDevices pairs;
  for (;;) {
    Job job;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return stop_ || queued_; });
      if (stop_) break;
      job = *queued_;
      queued_.reset();
      working_ = true;
    }
    std::shared_ptr<CaseSnapshot> out;
    QString error;
    try {
      if (!ws) {
        ws.emplace(kope::workspace::Workspace::open(workspace_));
        store.emplace(ws->handle());
      }
      if (auto s = read_cases(*store, *ws, job.known, job.lastId, pairs)) out = std::make_shared<CaseSnapshot>(std::move(*s));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    {
      std::lock_guard lk(mu_);
      working_ = false;
    }
    const quint64 id = job.id;
    QMetaObject::invokeMethod(this, [this, id, out, error] {
      if (!error.isEmpty()) emit failed(id, error);
      else if (out) emit read(id, out);
      else emit unchanged(id);
    }, Qt::QueuedConnection);
  }
  store.reset();
  ws.reset();
}

}  // namespace kope::graph
