// The layout worker thread. See layout_service.h.
#include "layout_service.h"

#include <QMetaObject>
#include <QPointer>

#include <chrono>

namespace kope::graph {

LayoutService::LayoutService(std::filesystem::path cache_dir, QObject* parent)
    : QObject(parent), cache_dir_(std::move(cache_dir)) {
  qRegisterMetaType<std::shared_ptr<const kope::graph::Positions>>("std::shared_ptr<const kope::graph::Positions>");
  worker_ = std::thread([this] { run(); });
}

LayoutService::~LayoutService() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  worker_.join();
}

std::filesystem::path LayoutService::cache_file(const std::string& hash) const {
  return cache_dir_.empty() ? std::filesystem::path() : cache_dir_ / (hash + ".pos");
}

bool LayoutService::busy() const {
  std::lock_guard lk(mu_);
  return working_ || !queue_.empty();
}

std::string LayoutService::lastEngine() const {
  std::lock_guard lk(mu_);
  return last_engine_;
}

// The hash over 100,000 nodes, the lookups and the layout all happen on the worker: the GUI thread only queues.
quint64 LayoutService::request(LayoutInput in, std::string engine) {
  if (engine.empty()) engine = engine_for(in.nodes.size());
  quint64 id = 0;
  {
    std::lock_guard lk(mu_);
    id = ++next_;
    queue_.clear();  // superseded: only the latest graph matters
    queue_.push_back(Job{id, std::move(in), std::move(engine), {}});
  }
  cv_.notify_one();
  return id;
}

void LayoutService::run() {
  std::unique_ptr<GraphvizLayout> dot, sfdp;  // created on this thread, used only here
  ForestLayout forest;
  for (;;) {
    Job j;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      j = std::move(queue_.front());
      queue_.pop_front();
      working_ = true;
    }
    std::shared_ptr<const Positions> result;
    bool cached = false;
    QString error;
    const auto t0 = std::chrono::steady_clock::now();
    j.hash = layout_hash(j.in, j.engine);
    {
      std::lock_guard lk(mu_);
      if (auto it = memory_.find(j.hash); it != memory_.end()) result = it->second;
    }
    if (result) {  // laid out in this window before: no file, no engine
      ++hits_;
      {
        std::lock_guard lk(mu_);
        working_ = false;
      }
      const quint64 id = j.id;
      const QString engine = QString::fromStdString(j.engine);
      QMetaObject::invokeMethod(this, [this, id, result, engine] { emit finished(id, result, engine, 0.0, true); },
                                Qt::QueuedConnection);
      continue;
    }
    try {
      const auto file = cache_file(j.hash);
      if (!file.empty()) {
        if (auto p = load_positions(file.string()); p && p->size() == j.in.nodes.size()) {
          result = std::make_shared<const Positions>(std::move(*p));
          cached = true;
        }
      }
      if (!result) {
        Positions p;
        if (j.engine == "dot") {
          if (!dot) dot = std::make_unique<GraphvizLayout>("dot");
          p = dot->layout(j.in);
        } else if (j.engine == "sfdp") {
          if (!sfdp) sfdp = std::make_unique<GraphvizLayout>("sfdp", 1);
          p = sfdp->layout(j.in);
        } else {
          p = forest.layout(j.in);
        }
        ++computed_;
        if (!file.empty()) {
          std::error_code ec;
          std::filesystem::create_directories(cache_dir_, ec);
          save_positions(file.string(), p);
        }
        result = std::make_shared<const Positions>(std::move(p));
      } else {
        ++hits_;
      }
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    {
      std::lock_guard lk(mu_);
      working_ = false;
      if (result) {
        memory_[j.hash] = result;
        if (memory_.size() > 16) memory_.erase(memory_.begin());
        last_engine_ = j.engine;
      }
    }
    last_ms_ = ms;
    const quint64 id = j.id;
    const QString engine = QString::fromStdString(j.engine);
    if (result)
      QMetaObject::invokeMethod(this, [this, id, result, engine, ms, cached] { emit finished(id, result, engine, ms, cached); },
                                Qt::QueuedConnection);
    else
      QMetaObject::invokeMethod(this, [this, id, error] { emit failed(id, error); }, Qt::QueuedConnection);
  }
}

}  // namespace kope::graph
