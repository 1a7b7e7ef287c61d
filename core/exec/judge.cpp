// The judge: its construction (library, arenas, the exact CPU clock), the workers it holds and their start and
// death, and the case loop. Over 600 lines on purpose: these share the Worker and its memory arenas, whose life
// is read best in one file; the calls are in judge_calls.cpp, a case's steps in judge_case.cpp, the checks in
// judge_checks.cpp.
#include "kope/exec/judge.h"
#include "kope/exec/judge_checks.h"
#include "judge_internal.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <new>
#include <mutex>
#include <sstream>

#include "kope/exec/cache.h"
#include "kope/base/error.h"
#include "kope/exec/fast_inputs.h"
#include "kope/model/inputs.h"
#include "kope/exec/ledger.h"
#include "kope/base/sized_cache.h"
#include "kope/base/process.h"
#include "kope/exec/worker.h"
#include "kope/exec/worker_protocol.h"

namespace kope::exec {

namespace fs = std::filesystem;
using namespace judge_detail;

namespace {
std::mutex held_mutex;
std::size_t held_limit = 1;  // Judge::hold_baselines
// The oldest past the limit move to `dropped` (which the caller drops after it releases held_mutex).
template <class List>
void keep_limit(List& list, List& dropped) {
  while (list.size() > held_limit) {
    dropped.push_back(std::move(list.front()));
    list.erase(list.begin());
  }
}
}  // namespace

// Held baselines, the most recently used last: one per task in flight (hold_baselines), so that tasks evaluated
// side by side do not drop each other's. Dropping one (the oldest past the limit, another workspace) kills its
// tree. Static destruction at exit drops the rest; PR_SET_PDEATHSIG and bubblewrap's --die-with-parent end them
// otherwise.
std::vector<std::unique_ptr<Judge::Held>>& Judge::held_list() {
  static std::vector<std::unique_ptr<Held>> list;
  return list;
}

void Judge::hold_baselines(std::size_t n) {
  std::vector<std::unique_ptr<Held>> dropped;
  std::lock_guard<std::mutex> lock(held_mutex);
  held_limit = std::max<std::size_t>(1, n);
  keep_limit(held_list(), dropped);
}

std::unique_ptr<Judge::Held> Judge::take_held(const std::string& key, std::size_t in_size, std::size_t out_size) {
  std::unique_ptr<Held> h;
  {
    std::lock_guard<std::mutex> lock(held_mutex);
    auto& list = held_list();
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e->key == key; });
    if (it == list.end()) return nullptr;
    h = std::move(*it);
    list.erase(it);
  }
  bool usable = h->inputs.size >= in_size && h->base && h->base->alive() && h->base->out.size >= out_size;
  if (usable && h->base->pidfd >= 0) {
    pollfd p{h->base->pidfd, POLLIN, 0};
    usable = poll(&p, 1, 0) == 0;  // it died while held (the OOM killer, a signal): start anew
  }
  if (!usable) return nullptr;  // h is dropped here
  return h;
}

void Judge::put_held(std::unique_ptr<Held> h) {
  std::vector<std::unique_ptr<Held>> dropped;  // dropped after the lock is released
  std::lock_guard<std::mutex> lock(held_mutex);
  auto& list = held_list();
  for (auto it = list.begin(); it != list.end();)  // the same baseline, held by an evaluation that ran beside
    if ((*it)->key == h->key) {
      dropped.push_back(std::move(*it));
      it = list.erase(it);
    } else {
      ++it;
    }
  list.push_back(std::move(h));
  keep_limit(list, dropped);
}

void Judge::release_worker(Worker& w) {
  if (w.child) {
    w.child->kill_all();
    w.child->wait();
    w.child.reset();
  }
  if (w.pidfd >= 0) close(w.pidfd);
  w.pidfd = -1;
  if (w.perf_fd >= 0) close(w.perf_fd);
  w.perf_fd = -1;
  if (w.out.base) munmap(w.out.base, w.out.size);
  w.out.base = nullptr;
  if (w.out.fd >= 0) close(w.out.fd);
  w.out.fd = -1;
}

namespace {

constexpr std::size_t kMaxLog = 64 << 10;
constexpr uint64_t kWorkerMaxFileBytes = uint64_t{64} << 20;  // any one file a worker writes

int make_memfd(const char* name, std::size_t size) {
  int fd = static_cast<int>(syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (fd < 0) throw Error(std::string("cannot create shared memory for the workers: ") + strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    close(fd);
    throw Error("cannot size " + std::to_string(size >> 20) + " MiB of shared memory for the workers: " +
                strerror(errno));
  }
  return fd;
}

unsigned char* map_rw(int fd, std::size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) throw Error(std::string("cannot map the workers' shared memory: ") + strerror(errno));
  return static_cast<unsigned char*>(p);
}

void copy_name(char (&dst)[wire::kNameBytes], const std::string& s) {
  std::memset(dst, 0, sizeof dst);
  std::memcpy(dst, s.data(), std::min(s.size(), sizeof dst - 1));
}

std::string read_small(const fs::path& p) {
  int fd = open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// Text from a worker, which the kernel could have written: printable ASCII only, bounded.
std::string clean(const char* p, std::size_t max) {
  std::string s;
  for (std::size_t i = 0; i < max && p[i]; ++i) {
    const unsigned char ch = static_cast<unsigned char>(p[i]);
    s += (ch >= 32 && ch < 127) || ch == '\n' ? static_cast<char>(ch) : '?';
  }
  return s;
}

std::string seconds_text(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

pid_t find_worker_pid(pid_t root, const fs::path& runner) {
  // The worker is the process below `root` that runs kope-runner's file (bubblewrap wraps it, and the worker may
  // not start processes of its own). Matched by device and inode, which nothing inside the sandbox can change
  // (its command line it could).
  struct stat want {};
  if (stat(runner.c_str(), &want) != 0) return -1;
  std::vector<pid_t> level = {root};
  for (int depth = 0; depth < 4 && !level.empty(); ++depth) {
    std::vector<pid_t> next;
    for (pid_t p : level) {
      struct stat got {};
      if (stat(("/proc/" + std::to_string(p) + "/exe").c_str(), &got) == 0 && got.st_dev == want.st_dev &&
          got.st_ino == want.st_ino)
        return p;
      std::error_code ec;
      for (const auto& t : fs::directory_iterator("/proc/" + std::to_string(p) + "/task", ec)) {
        std::istringstream kids(read_small(t.path() / "children"));
        for (pid_t k; kids >> k;) next.push_back(k);
      }
    }
    level = std::move(next);
  }
  return -1;
}

// How many seccomp filters the OS has on the process (its status file), or -1 where it does not say.
int seccomp_filters(pid_t p) {
  std::istringstream in(read_small("/proc/" + std::to_string(p) + "/status"));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("Seccomp_filters:", 0) == 0) return std::atoi(line.c_str() + 16);
  return -1;
}

}  // namespace


namespace judge_detail {

// A case's seeded correctness inputs (the ones its golden was computed from) are a pure function of the case:
// generated once per process, laid out as in the arena, and copied in on every later evaluation of the case.
std::shared_ptr<const std::vector<unsigned char>> correctness_inputs(const ConcreteCase& c) {
  static SizedCache<std::vector<unsigned char>> cache(std::size_t{512} << 20);
  std::ostringstream key;
  key.precision(17);
  key << c.seed;
  std::size_t bytes = 0;
  for (const ConcreteTensor& t : c.inputs) {
    key << '|' << static_cast<int>(t.dtype) << ',' << t.numel << ',' << static_cast<int>(t.init.kind) << ','
        << t.init.a << ',' << t.init.b << ',' << t.init.special_fraction;
    for (const std::string& v : t.init.special) key << ',' << v;
    bytes += wire::round_up(tensor_bytes(t), wire::kAlign);
  }
  if (auto held = cache.find(key.str())) return held;
  auto v = std::make_shared<std::vector<unsigned char>>(bytes);
  std::size_t off = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    generate_tensor(c.inputs[i], c.seed, i, v->data() + off);
    off += wire::round_up(tensor_bytes(c.inputs[i]), wire::kAlign);
  }
  cache.put(key.str(), v, bytes);
  return v;
}

}  // namespace judge_detail

Judge::Judge(const EvalPaths& paths, const fs::path& candidate_so, const fs::path& baseline_so,
             const std::vector<ConcreteCase>& cases, const JudgeOptions& options)
    : options_(options), runner_(paths.runner) {
  std::random_device rd;
  nonce_ = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(Clock::now().time_since_epoch().count());
  std::size_t max_in = 0, max_out = 0;
  for (const ConcreteCase& c : cases) {
    if (c.inputs.size() > wire::kMaxTensors || c.outputs.size() > wire::kMaxTensors || c.attrs.size() > wire::kMaxAttrs)
      throw Error("case '" + c.name + "' has more tensors or attributes than a worker takes (" +
                  std::to_string(wire::kMaxTensors) + " tensors, " + std::to_string(wire::kMaxAttrs) + " attributes)");
    std::size_t in = 0, out = 0;
    for (const auto& t : c.inputs) in += wire::round_up(tensor_bytes(t), wire::kAlign);
    for (const auto& t : c.outputs) out += wire::round_up(tensor_bytes(t), wire::kAlign);
    max_in = std::max(max_in, in);
    max_out = std::max(max_out, out);
  }
  snapshot_.resize(max_out);

  // The job folder holds the two kernels and nothing else, each in a folder of its own.
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100 && job_dir_.empty(); ++attempt) {
    fs::path d = paths.jobs / ("eval-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" +
                               std::to_string(rd() % 1000000));
    std::error_code ec;
    if (fs::create_directory(d, ec)) job_dir_ = d;
  }
  if (job_dir_.empty()) throw Error("cannot create a job folder under '" + paths.jobs.string() + "'");

  const std::size_t in_size = wire::kLayoutBytes + std::max<std::size_t>(max_in, wire::kAlign);
  const std::size_t out_size = wire::kControlBytes + std::max<std::size_t>(max_out, wire::kAlign);

  max_out_ = max_out;
  // The baseline is trusted code and the same for every evaluation of a task: a baseline worker left running by
  // the previous evaluation of the same baseline build (same runner, workspace and memory limit) serves this one
  // too, with the inputs arena it reads. It stays in its own sandbox and address space; the candidate's worker
  // maps that arena read-only as before and shares nothing else with it.
  held_key_ = runner_.string() + '\n' + fs::absolute(baseline_so).string() + '\n' + paths.jobs.string() + '\n' +
              std::to_string(options_.memory_bytes);
  for (const char* v : {"KOPE_SANDBOX", "KOPE_WORKER_SPAWN", "KOPE_CGROUP"})  // how it was confined
    if (const char* e = std::getenv(v)) held_key_ += std::string("\n") + v + "=" + e;
  if (std::unique_ptr<Held> h = take_held(held_key_, in_size, out_size)) {
    inputs_ = h->inputs;
    h->inputs = Arena{};
    base_ = std::move(h->base);
    held_lib_ = std::move(h->lib);
    held_lib_so_ = h->lib_so;
    base_dir_ = std::move(h->dir);
    h->dir.clear();
  } else {
    inputs_.size = in_size;
    inputs_.fd = make_memfd("kope-inputs", inputs_.size);
    inputs_.base = map_rw(inputs_.fd, inputs_.size);
    // From here on nobody can map the inputs writable or resize them; the judge keeps its one writable mapping.
    fcntl(inputs_.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL);
    for (int attempt = 0; attempt < 100 && base_dir_.empty(); ++attempt) {
      fs::path d = paths.jobs / ("baseline-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" +
                                 std::to_string(rd() % 1000000));
      std::error_code ec;
      if (fs::create_directory(d, ec)) base_dir_ = d;
    }
    if (base_dir_.empty()) throw Error("cannot create a job folder under '" + paths.jobs.string() + "'");
    base_ = make_worker("baseline", baseline_so, base_dir_ / "baseline", "baseline.so", out_size);
  }
  cand_ = make_worker("kernel", candidate_so, job_dir_ / "kernel", "kernel.so", out_size);

  flush_method_ = options_.flush == "auto" ? (can_flush_lines() ? "lines" : "read") : options_.flush;
  if (flush_method_ != "lines" && flush_method_ != "read")
    throw Error("unknown flush method \"" + options_.flush + "\" (lines, read or auto)");
  if (flush_method_ == "lines" && !can_flush_lines()) flush_method_ = "read";
  if (flush_method_ == "read")
    flush_buf_.assign(options_.flush_bytes ? options_.flush_bytes : default_flush_bytes(), 1);
  // The copy bandwidth behind the memory-bound floor: measured once per kope process, not per case.
  static const double bandwidth = [] {
    std::vector<unsigned char> scratch(default_flush_bytes(), 1);
    return copy_bandwidth(scratch);
  }();
  bandwidth_ = bandwidth;
}

std::unique_ptr<Judge::Worker> Judge::make_worker(const char* role, const fs::path& so, const fs::path& dir,
                                                   const char* file, std::size_t out_size) {
  auto w = std::make_unique<Worker>();
  w->role = role;
  fs::create_directories(dir);
  w->so = dir / file;
  std::error_code ec;
  fs::copy_file(so, w->so, fs::copy_options::overwrite_existing, ec);
  if (ec) throw Error("cannot copy " + so.string() + " into the job folder: " + ec.message());
  fs::permissions(w->so, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec, ec);
  w->out.size = out_size;
  w->out.fd = make_memfd(role, w->out.size);
  w->out.base = map_rw(w->out.fd, w->out.size);
  return w;
}

void Judge::add_library(const fs::path& library_so) {
  // Trusted like the baseline, and as slow to start (the library's own load): kept with it between evaluations
  // of the same task, in the baseline's folder, when it loaded the same build.
  const std::size_t out_size = wire::kControlBytes + std::max<std::size_t>(max_out_, wire::kAlign);
  lib_so_ = fs::absolute(library_so);
  if (held_lib_ && held_lib_so_ == lib_so_ && held_lib_->alive() && held_lib_->load_error.empty() &&
      held_lib_->out.size >= out_size) {
    lib_ = std::move(held_lib_);
    return;
  }
  if (held_lib_) release_worker(*held_lib_);
  held_lib_.reset();
  lib_ = make_worker("library", library_so, base_dir_ / "library", "library.so", out_size);
}

Judge::~Judge() {
  if (cand_) release_worker(*cand_);
  if (held_lib_) release_worker(*held_lib_);
  std::error_code ec;
  if (!job_dir_.empty()) fs::remove_all(job_dir_, ec);
  if (base_ && base_->alive() && base_->load_error.empty() && inputs_.base) {
    // Kept for the next evaluation of the same baseline (see the constructor).
    auto h = std::make_unique<Held>();
    h->key = held_key_;
    h->inputs = inputs_;
    h->base = std::move(base_);
    if (lib_ && lib_->alive() && lib_->load_error.empty()) {
      h->lib = std::move(lib_);
      h->lib_so = lib_so_;
    }
    if (lib_) release_worker(*lib_);
    h->dir = base_dir_;
    put_held(std::move(h));
    return;
  }
  if (lib_) release_worker(*lib_);
  if (base_) release_worker(*base_);
  if (inputs_.base) munmap(inputs_.base, inputs_.size);
  if (inputs_.fd >= 0) close(inputs_.fd);
  if (!base_dir_.empty()) fs::remove_all(base_dir_, ec);
}

void Judge::write_layout(const ConcreteCase& c) {
  auto* l = reinterpret_cast<wire::Layout*>(inputs_.base);
  std::memset(static_cast<void*>(l), 0, sizeof(wire::Layout));
  l->magic = wire::kMagic;
  l->n_inputs = static_cast<uint32_t>(c.inputs.size());
  l->n_outputs = static_cast<uint32_t>(c.outputs.size());
  l->n_attrs = static_cast<uint32_t>(c.attrs.size());
  auto fill = [](wire::TensorDesc& d, const ConcreteTensor& t, std::size_t off) {
    d.offset = off;
    d.bytes = tensor_bytes(t);
    d.dtype = static_cast<int32_t>(t.dtype);
    d.ndim = static_cast<int32_t>(std::min<std::size_t>(t.shape.size(), 8));
    for (int i = 0; i < d.ndim; ++i) d.shape[i] = t.shape[static_cast<std::size_t>(i)];
    d.numel = t.numel;
    copy_name(d.name, t.name);
  };
  in_off_.clear();
  out_off_.clear();
  std::size_t off = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    in_off_.push_back(off);
    fill(l->inputs[i], c.inputs[i], off);
    off += wire::round_up(tensor_bytes(c.inputs[i]), wire::kAlign);
  }
  in_bytes_ = off;
  off = 0;
  for (std::size_t i = 0; i < c.outputs.size(); ++i) {
    out_off_.push_back(off);
    fill(l->outputs[i], c.outputs[i], off);
    off += wire::round_up(tensor_bytes(c.outputs[i]), wire::kAlign);
  }
  out_bytes_ = off;
  for (std::size_t i = 0; i < c.attrs.size(); ++i) {
    copy_name(l->attrs[i].name, c.attrs[i].first);
    l->attrs[i].value = c.attrs[i].second;
  }
}

void Judge::drain(Worker& w) {
  if (!w.child) return;
  char buf[4096];
  for (int fd : {w.child->stdout_fd(), w.child->stderr_fd()}) {
    if (fd < 0) continue;
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) break;
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) break;
      if (w.log.size() < kMaxLog) w.log.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), kMaxLog - w.log.size()));
      else w.log_dropped += static_cast<std::size_t>(n);
    }
  }
}

int64_t Judge::worker_cpu_ns(const Worker& w) const {
  if (w.perf_fd >= 0) {
    uint64_t v = 0;
    if (read(w.perf_fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v)) return static_cast<int64_t>(v);
  }
  // The worker process's clock (it may start no processes), else the whole tree where a cgroup counts it.
  if (w.tree_by_cgroup && w.child) {
    const double tree = w.child->cpu_seconds();
    if (tree >= 0) return static_cast<int64_t>(tree * 1e9);
  }
  if (!w.has_cpu_clock) return 0;
  timespec ts{};
  if (clock_gettime(w.cpu_clock, &ts) != 0) return 0;
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void Judge::watch_worker(Worker& w, bool is_kernel) {
  // Before the kernel is loaded, so nothing of it has run yet. The CPU it uses, read in the judge's ledger: a
  // perf task-clock counter on the worker, inherited by every thread started after it, exact to the ns even
  // while a thread runs; else the worker process's clock, which Linux brings up to date for a running thread
  // only at ticks and switches. The worker confined itself: one seccomp filter of its own (no new processes)
  // on top of the one it was started under. Where that is not so, a process the kernel starts would escape
  // both, so the tree's cgroup is read instead, as coarse as the process clock.
  const pid_t p = find_worker_pid(w.child->pid(), runner_);
  w.has_cpu_clock = p > 0 && clock_getcpuclockid(p, &w.cpu_clock) == 0;
  if (w.perf_fd >= 0) close(w.perf_fd);
  w.perf_fd = -1;
  std::string perf_why = "the worker process was not found under /proc";
  if (p > 0) {
    w.perf_fd = open_task_clock(p, perf_why);
    if (w.perf_fd < 0) perf_why += " (see /proc/sys/kernel/perf_event_paranoid; kope doctor says more)";
  }
  const auto& active = w.child->isolation().active;
  const bool spawn_filter = std::find(active.begin(), active.end(), std::string("seccomp")) != active.end();
  const int filters = p > 0 ? seccomp_filters(p) : -1;
  const bool no_processes = filters >= (spawn_filter ? 2 : 1);
  w.tree_by_cgroup = !no_processes && w.child->cpu_seconds() >= 0;
  if (w.tree_by_cgroup && w.perf_fd >= 0) close(w.perf_fd), w.perf_fd = -1;
  if (!w.has_cpu_clock && w.child->cpu_seconds() >= 0) w.tree_by_cgroup = w.has_cpu_clock = true;
  if (w.perf_fd >= 0) w.has_cpu_clock = true;
  if (!is_kernel) return;
  auto add = [&](bool ok, const std::string& name, const std::string& why) {
    if (ok) {
      const auto at = isolation_.find("; missing: ");
      isolation_.insert(at == std::string::npos ? isolation_.size() : at, ", " + name);
      return;
    }
    missing_.push_back({name, why});
    isolation_ += (isolation_.find("; missing: ") == std::string::npos ? "; missing: " : ", ") + name + " (" + why + ")";
  };
  add(no_processes, "no-new-processes",
      filters < 0 ? "the OS does not report the worker's seccomp filters" : "the worker could not install its seccomp filter");
  add(w.perf_fd >= 0, "exact-cpu-clock", perf_why);
}

// Long on purpose: a worker's start is one handshake (spawn, hello, the isolation it reports, its filters), each
// failure of which becomes the case's outcome with its own message.
bool Judge::ensure_started(Worker& w, CaseResult& r, Clock::time_point deadline) {
  if (w.alive()) return true;
  Spend spend(kStart);
  const bool is_kernel = &w == cand_.get();
  if (!w.load_error.empty()) {
    r.status = CaseStatus::LoadError;
    r.message = w.load_error;
    return false;
  }
  auto* ctl = new (w.out.base) wire::Control();
  w.ctl = ctl;
  w.seq = 0;
  SandboxSpec spec;
  spec.argv = {runner_.string(), "--worker", "--kernel", w.so.string(), "--inputs-fd", std::to_string(inputs_.fd),
               "--outputs-fd", std::to_string(w.out.fd)};
  spec.ro_paths = {w.so.parent_path(), runner_};
  spec.keep_fds = {inputs_.fd, w.out.fd};
  spec.cwd = w.so.parent_path();
  spec.env = {"PATH=/usr/bin:/bin", "LC_ALL=C", "OMP_WAIT_POLICY=passive", "OMP_NUM_THREADS=" +
              std::to_string(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)))};
  spec.network = false;
  spec.memory_bytes = options_.memory_bytes;
  spec.max_processes = 256;
  spec.max_file_bytes = kWorkerMaxFileBytes;
  try {
    w.child = spawn_worker_process(spec);
  } catch (const Error& e) {
    r.status = CaseStatus::LoadError;
    r.message = std::string("the ") + w.role + " worker could not start: " + e.what();
    return false;
  }
  for (int fd : {w.child->stdout_fd(), w.child->stderr_fd()})
    if (fd >= 0) {
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
      fcntl(fd, F_SETPIPE_SZ, 1 << 20);
    }
  w.log.clear();
  w.log_dropped = 0;
  w.pidfd = static_cast<int>(syscall(SYS_pidfd_open, w.child->pid(), 0));
  w.has_cpu_clock = w.tree_by_cgroup = false;
  if (is_kernel) {
    const Isolation& iso = w.child->isolation();
    std::string s = "isolated: ";
    for (std::size_t i = 0; i < iso.active.size(); ++i) s += (i ? ", " : "") + iso.active[i];
    if (!iso.missing.empty()) {
      s += "; missing: ";
      for (std::size_t i = 0; i < iso.missing.size(); ++i)
        s += (i ? ", " : "") + iso.missing[i].first + " (" + iso.missing[i].second + ")";
    }
    isolation_ = s;
    missing_ = iso.missing;
  }
  // Wait until it has loaded its kernel (constructors run here: a crash or hang in one is the kernel's).
  for (;;) {
    const auto st = static_cast<wire::WorkerState>(ctl->state.load(std::memory_order_acquire));
    if (st == wire::WorkerState::Confined && ctl->load.load(std::memory_order_relaxed) == 0) {
      watch_worker(w, is_kernel);
      ctl->load.store(1, std::memory_order_seq_cst);
      wire::futex_wake(&ctl->load);
    }
    if (st == wire::WorkerState::Ready) {
      if (ctl->load.load(std::memory_order_relaxed) == 0) {
        // Ready without waiting for the judge's word: not the worker kope built. Nothing it says is believed.
        Call c;
        c.end = CallEnd::Died;
        record_death(w, c, "loading", r);
        r.status = CaseStatus::LoadError;
        r.message = std::string("the ") + w.role + " worker did not follow the start-up protocol";
        return false;
      }
      w.cpu_mark = worker_cpu_ns(w);
      return true;
    }
    bool dead = false;
    if (w.pidfd >= 0) {
      pollfd p{w.pidfd, POLLIN, 0};
      dead = poll(&p, 1, 0) > 0;
    }
    if (st == wire::WorkerState::LoadError || dead) {
      const std::string note = clean(ctl->message, sizeof ctl->message);
      Call c;
      c.end = CallEnd::Died;
      record_death(w, c, "loading", r);
      if (st == wire::WorkerState::LoadError) {
        r.status = CaseStatus::LoadError;
        r.message = std::string("the ") + w.role + " could not be loaded: " + note;
      }
      if (r.status == CaseStatus::LoadError) w.load_error = r.message;
      return false;
    }
    if (cancel_requested() || Clock::now() >= deadline) {
      Call c;
      c.end = cancel_requested() ? CallEnd::Cancelled : CallEnd::TimedOut;
      record_death(w, c, "loading", r);
      return false;
    }
    timespec ts{0, 10 * 1000 * 1000};
    wire::futex_wait(&ctl->state, static_cast<uint32_t>(st), &ts);
    drain(w);
  }
}

void Judge::record_death(Worker& w, const Call& call, const std::string& phase, CaseResult& r) {
  const std::string who = &w == base_.get() ? "the baseline " : &w == lib_.get() ? "the library baseline " : "the kernel ";
  const std::string during = phase == "loading" ? " while loading" : " during the " + phase;
  r.failed_call = phase;
  if (call.end == CallEnd::Cancelled) {
    w.child->kill_all();
    w.child->wait();
    drain(w);
    r.status = CaseStatus::Cancelled;
    r.message = "cancelled" + during + "; the " + std::string(w.role) + " worker's whole process tree was killed";
  } else if (call.end == CallEnd::TimedOut) {
    w.child->kill_all();
    w.child->wait();
    drain(w);
    r.status = CaseStatus::Timeout;
    r.message = who + "timed out after " + seconds_text(options_.case_timeout_seconds) + " s" + during +
                "; its whole process tree was killed";
  } else {
    w.child->kill_all();  // the rest of its tree, if the main process died alone
    const int st = w.child->wait();
    drain(w);
    const std::string note = clean(w.ctl->message, sizeof w.ctl->message);
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + 65)) {
      const int sig = WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st) - 128;
      r.status = CaseStatus::Crash;
      r.message = who + "process was killed by " + signal_name(sig) + during;
      const uint64_t peak = w.child->peak_memory_bytes();
      // The signal says which limit first: the OS sends SIGXFSZ and SIGXCPU for those two alone.
      if (sig == SIGXFSZ)
        r.message += " (the sandbox's file size limit: " + std::to_string(kWorkerMaxFileBytes >> 20) + " MiB a file)";
      else if (sig == SIGXCPU)
        r.message += " (the sandbox's CPU time limit)";
      else if ((sig == SIGABRT && w.log.find("bad_alloc") != std::string::npos) || w.child->limit_hit() == "memory" ||
               (sig == SIGKILL && peak > 0 && peak >= options_.memory_bytes / 10 * 9))
        r.message += " (out of memory: the limit is " + std::to_string(options_.memory_bytes >> 20) + " MiB)";
      else if (const std::string hit = w.child->limit_hit(); !hit.empty())
        r.message += " (the sandbox's " + hit + " limit)";
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == wire::kWorkerInputsModified) {
      r.status = CaseStatus::InputsModified;
      r.message = (note.empty() ? "the kernel wrote into an input" : note) + during +
                  " (inputs are mapped read-only; the write faulted)";
      r.evidence = {{"kind", "input written"}, {"phase", phase}, {"fault", note}};
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == wire::kWorkerLoadError) {
      r.status = CaseStatus::LoadError;
      r.message = who + "could not be loaded: " + (note.empty() ? trim(tail(w.log, 600)) : note);
    } else {
      r.status = CaseStatus::RuntimeError;
      const std::string why = trim(tail(w.log, 600));
      r.message = who + "process ended with exit " + std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1) + during +
                  (why.empty() ? "" : ": " + why);
    }
  }
  if (w.pidfd >= 0) close(w.pidfd);
  w.pidfd = -1;
  if (w.perf_fd >= 0) close(w.perf_fd);
  w.perf_fd = -1;
  w.child.reset();  // the next case starts a fresh worker
}

}  // namespace kope::exec
