// Reads the memory's Cases for the graph browser, by the change stamp of what the browser already holds:
// everything when it holds nothing, or when Cases were removed or curated by another process; otherwise only
// what a run added since (the Cases after the last one held, with their ancestors, whose d(v) an addition
// changes) and every task's incumbent. At 100,000 Cases a full read takes a noticeable part of a second, so the
// browser reads on CaseReader's own thread and connection, and a live run costs a few rows per attempt instead of
// all of them. read_cases() is the same reading on the caller's connection.
#pragma once

#include <QObject>

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kope/memory/memory.h"

namespace kope::workspace {
class Workspace;
}

namespace kope::graph {

// The (task, device) pairs of the Cases read so far: where the incumbents are looked up.
using TaskDevices = std::set<std::pair<std::string, std::string>>;

struct CaseSnapshot {
  bool full = true;  // every Case: those the browser holds and this lacks are gone
  std::vector<kope::memory::CaseRow> rows;
  TaskDevices pairs;  // of every Case known after this reading
  std::set<int64_t> incumbents;  // every task and device's incumbent Case, complete in either kind
  kope::memory::ChangeStamp stamp;  // read before the rows: a later write shows as a change at the next read
  int64_t lastId = 0;               // the highest Case id now known
  double millis = 0;                // how long the reading took
};

// Nothing when the memory's stamp equals `known`. `lastId` is the highest Case id the caller holds.
std::optional<CaseSnapshot> read_cases(const kope::memory::MemoryStore& store, const kope::workspace::Workspace& ws,
                                       const std::optional<kope::memory::ChangeStamp>& known, int64_t lastId,
                                       TaskDevices& pairs);

class CaseReader : public QObject {
  Q_OBJECT
 public:
  explicit CaseReader(std::filesystem::path workspace, QObject* parent = nullptr);
  ~CaseReader() override;

  // Queues a reading (superseding a queued one); returns its id. read() follows when the memory changed since
  // `known`, else unchanged(); failed() when the database could not be read (busy under a writer: try again).
  quint64 request(std::optional<kope::memory::ChangeStamp> known, int64_t lastId);
  bool busy() const;

 signals:
  void read(quint64 request, std::shared_ptr<kope::graph::CaseSnapshot> snapshot);
  void unchanged(quint64 request);
  void failed(quint64 request, QString message);

 private:
  struct Job {
    quint64 id = 0;
    std::optional<kope::memory::ChangeStamp> known;
    int64_t lastId = 0;
  };
  void run();

  std::filesystem::path workspace_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Job> queued_;
  bool stop_ = false, working_ = false;
  quint64 next_ = 0;
  std::thread worker_;
};

}  // namespace kope::graph
