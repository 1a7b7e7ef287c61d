// Layouts off the UI thread: ONE dedicated worker thread owns every Graphviz call (libgvc is not thread-safe),
// a request supersedes any queued one (the latest graph wins), results are cached by content hash in memory and
// on disk (<workspace>/cache/graph-layout/<hash>.pos), and come back as a signal on the UI thread.
#pragma once

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "graph_layout.h"

namespace kope::graph {

class LayoutService : public QObject {
  Q_OBJECT
 public:
  // cache_dir empty: memory cache only.
  explicit LayoutService(std::filesystem::path cache_dir = {}, QObject* parent = nullptr);
  ~LayoutService() override;

  // Returns a request id; finished(id, ...) follows (at once, queued, when cached). `engine` empty: by size.
  quint64 request(LayoutInput in, std::string engine = {});
  // Layouts actually computed (cache hits not counted): what the tests assert a live add does not cause.
  int jobsComputed() const { return computed_.load(); }
  int cacheHits() const { return hits_.load(); }
  bool busy() const;
  std::string lastEngine() const;
  double lastMillis() const { return last_ms_.load(); }

 signals:
  void finished(quint64 request, std::shared_ptr<const kope::graph::Positions> positions, QString engine,
                double millis, bool cached);
  void failed(quint64 request, QString message);

 private:
  struct Job {
    quint64 id;
    LayoutInput in;
    std::string engine, hash;
  };
  void run();
  std::filesystem::path cache_file(const std::string& hash) const;

  std::filesystem::path cache_dir_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stop_ = false, working_ = false;
  std::map<std::string, std::shared_ptr<const Positions>> memory_;  // hash -> positions
  std::string last_engine_;
  std::atomic<int> computed_{0}, hits_{0};
  std::atomic<double> last_ms_{0};
  quint64 next_ = 0;
  std::thread worker_;
};

}  // namespace kope::graph
