#include "kope/exec/worker.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kope/exec/worker_protocol.h"
#include "kope_kernel.h"

namespace kope::exec {

namespace {

using KernelFn = int (*)(const kope_args*);

const unsigned char* g_in_base = nullptr;
std::size_t g_in_size = 0;
wire::Control* g_ctl = nullptr;

// A write into the read-only input mapping faults here: say which input, then end with a code of our own.
void on_fault(int sig, siginfo_t* info, void*) {
  const auto* addr = static_cast<const unsigned char*>(info->si_addr);
  if (g_in_base && addr >= g_in_base && addr < g_in_base + g_in_size) {
    const auto* layout = reinterpret_cast<const wire::Layout*>(g_in_base);
    const char* which = "an input";
    const std::size_t off = static_cast<std::size_t>(addr - (g_in_base + wire::kLayoutBytes));
    for (uint32_t i = 0; i < layout->n_inputs && i < wire::kMaxTensors; ++i)
      if (off >= layout->inputs[i].offset && off < layout->inputs[i].offset + layout->inputs[i].bytes)
        which = layout->inputs[i].name;
    if (g_ctl) {
      char* m = g_ctl->message;
      const char* pre = "the kernel wrote into its input ";
      std::size_t n = 0;
      for (const char* p = pre; *p && n + 1 < sizeof g_ctl->message; ++p) m[n++] = *p;
      for (const char* p = which; *p && n + 1 < sizeof g_ctl->message && p < which + wire::kNameBytes; ++p) m[n++] = *p;
      m[n] = 0;
    }
    const char msg[] = "kope-worker: the kernel wrote into an input tensor (mapped read-only)\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(wire::kWorkerInputsModified);
  }
  // Anything else: the default action, so the judge sees the real signal.
  signal(sig, SIG_DFL);
  raise(sig);
}

[[noreturn]] void fail(int code, const std::string& why) {
  std::fprintf(stderr, "kope-worker: %s\n", why.c_str());
  std::fflush(stderr);
  if (g_ctl) {
    std::snprintf(g_ctl->message, sizeof g_ctl->message, "%s", why.c_str());
    if (code == wire::kWorkerLoadError) {
      g_ctl->state.store(static_cast<uint32_t>(wire::WorkerState::LoadError), std::memory_order_seq_cst);
      wire::futex_wake(&g_ctl->state);
    }
  }
  _exit(code);
}

void* map_fd(int fd, bool writable, std::size_t* size) {
  struct stat st{};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) return nullptr;
  *size = static_cast<std::size_t>(st.st_size);
  void* p = mmap(nullptr, *size, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

struct Args {
  std::vector<std::string> names;
  std::vector<kope_tensor> in, out;
  std::vector<kope_attr> attrs;
  kope_args args{};
};

bool describe(const wire::TensorDesc& d, unsigned char* base, std::size_t limit, kope_tensor& t, std::string& name) {
  if (d.ndim < 0 || d.ndim > KOPE_MAX_DIMS || d.offset > limit || d.bytes > limit - d.offset) return false;
  name.assign(d.name, strnlen(d.name, wire::kNameBytes));
  t = kope_tensor{};
  t.data = base + d.offset;
  t.dtype = d.dtype;
  t.ndim = d.ndim;
  for (int i = 0; i < d.ndim; ++i) t.shape[i] = d.shape[i];
  t.numel = d.numel;
  return true;
}

// Builds the call's arguments from the layout the judge wrote; false when it does not fit the arenas.
bool build_args(const wire::Layout& l, unsigned char* in_data, std::size_t in_limit, unsigned char* out_data,
                std::size_t out_limit, Args& a) {
  if (l.magic != wire::kMagic || l.n_inputs > wire::kMaxTensors || l.n_outputs > wire::kMaxTensors ||
      l.n_attrs > wire::kMaxAttrs)
    return false;
  a.names.assign(l.n_inputs + l.n_outputs + l.n_attrs, {});
  a.in.assign(l.n_inputs, {});
  a.out.assign(l.n_outputs, {});
  a.attrs.assign(l.n_attrs, {});
  std::size_t k = 0;
  for (uint32_t i = 0; i < l.n_inputs; ++i)
    if (!describe(l.inputs[i], in_data, in_limit, a.in[i], a.names[k++])) return false;
  for (uint32_t i = 0; i < l.n_outputs; ++i)
    if (!describe(l.outputs[i], out_data, out_limit, a.out[i], a.names[k++])) return false;
  for (uint32_t i = 0; i < l.n_attrs; ++i) {
    a.names[k].assign(l.attrs[i].name, strnlen(l.attrs[i].name, wire::kNameBytes));
    a.attrs[i].value = l.attrs[i].value;
    ++k;
  }
  k = 0;
  for (auto& t : a.in) t.name = a.names[k++].c_str();
  for (auto& t : a.out) t.name = a.names[k++].c_str();
  for (auto& at : a.attrs) at.name = a.names[k++].c_str();
  a.args.n_inputs = static_cast<int32_t>(a.in.size());
  a.args.inputs = a.in.data();
  a.args.n_outputs = static_cast<int32_t>(a.out.size());
  a.args.outputs = a.out.data();
  a.args.n_attrs = static_cast<int32_t>(a.attrs.size());
  a.args.attrs = a.attrs.data();
  return true;
}

}  // namespace

namespace {
int64_t elapsed_ns(const timespec& from) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - from.tv_sec) * 1000000000LL + (now.tv_nsec - from.tv_nsec);
}
}  // namespace

// Long on purpose: the worker's whole life in the sandbox, from its arguments to the call loop, as one sequence
// whose order is part of the protocol (map the arenas, install the filter, load the kernel, then serve calls).
int worker_main(int argc, char** argv) {
  std::string kernel;
  int in_fd = -1, out_fd = -1;
  for (int i = 1; i + 1 < argc; ++i) {
    std::string a = argv[i];
    if (a == "--kernel") kernel = argv[++i];
    else if (a == "--inputs-fd") in_fd = std::atoi(argv[++i]);
    else if (a == "--outputs-fd") out_fd = std::atoi(argv[++i]);
  }
  if (kernel.empty() || in_fd < 0 || out_fd < 0)
    fail(wire::kWorkerSetupError, "usage: kope-runner --worker --kernel SO --inputs-fd N --outputs-fd M");

  // Outputs and the handshake: read-write, this worker's alone.
  std::size_t out_size = 0;
  auto* out_base = static_cast<unsigned char*>(map_fd(out_fd, true, &out_size));
  if (!out_base || out_size < wire::kControlBytes) fail(wire::kWorkerSetupError, "cannot map the output arena");
  close(out_fd);
  g_ctl = reinterpret_cast<wire::Control*>(out_base);
  if (g_ctl->magic != wire::kMagic) fail(wire::kWorkerSetupError, "the output arena has no control block");

  // Inputs: reopened read-only, so the mapping can never be made writable (the judge also sealed it).
  const std::string self_fd = "/proc/self/fd/" + std::to_string(in_fd);
  int ro = open(self_fd.c_str(), O_RDONLY | O_CLOEXEC);
  if (ro < 0) fail(wire::kWorkerSetupError, "cannot reopen the input arena read-only: " + std::string(strerror(errno)));
  close(in_fd);
  std::size_t in_size = 0;
  auto* in_base = static_cast<const unsigned char*>(map_fd(ro, false, &in_size));
  close(ro);
  if (!in_base || in_size < wire::kLayoutBytes) fail(wire::kWorkerSetupError, "cannot map the input arena");
  g_in_base = in_base;
  g_in_size = in_size;

  static char altstack[64 << 10];
  stack_t ss{};
  ss.ss_sp = altstack;
  ss.ss_size = sizeof altstack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigaction(SIGSEGV, &sa, nullptr);
  sigaction(SIGBUS, &sa, nullptr);

  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // no ptrace or /proc/<pid>/mem from a sibling of the same user
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (std::string why = confine_worker(); !why.empty()) {
    std::fprintf(stderr, "kope-worker: not confined: %s\n", why.c_str());
    std::fflush(stderr);
  }
  // Wait for the judge's word before any kernel code runs (its constructors run in dlopen): it attaches its
  // CPU counter to this thread first, which then counts every thread the kernel starts.
  g_ctl->state.store(static_cast<uint32_t>(wire::WorkerState::Confined), std::memory_order_seq_cst);
  wire::futex_wake(&g_ctl->state);
  while (g_ctl->load.load(std::memory_order_acquire) == 0) wire::futex_wait(&g_ctl->load, 0, nullptr);

  void* h = dlopen(kernel.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    fail(wire::kWorkerLoadError, "cannot load " + kernel + ": " + (e ? e : "?"));
  }
  auto fn = reinterpret_cast<KernelFn>(dlsym(h, "kope_kernel"));
  if (!fn)
    fail(wire::kWorkerLoadError, kernel + " exports no kope_kernel (declare it extern \"C\" or include kope_kernel.h "
                                          "before defining it)");

  wire::Control& c = *g_ctl;
  g_ctl->state.store(static_cast<uint32_t>(wire::WorkerState::Ready), std::memory_order_seq_cst);
  wire::futex_wake(&g_ctl->state);

  const auto* layout = reinterpret_cast<const wire::Layout*>(in_base);
  auto* in_data = const_cast<unsigned char*>(in_base) + wire::kLayoutBytes;
  unsigned char* out_data = out_base + wire::kControlBytes;
  const std::size_t in_limit = in_size - wire::kLayoutBytes, out_limit = out_size - wire::kControlBytes;
  Args a;
  uint32_t seen = 0;  // a fresh control block: the first command is 1
  for (;;) {
    uint32_t w;
    while ((w = c.wake.load(std::memory_order_acquire)) == seen) wire::futex_wait(&c.wake, seen, nullptr);
    seen = w;
    if (c.command.load(std::memory_order_acquire) == static_cast<uint32_t>(wire::Command::Exit)) _exit(0);
    const bool ok = build_args(*layout, in_data, in_limit, out_data, out_limit, a);
    const int cpu = sched_getcpu();
    c.worker_cpu.store(cpu, std::memory_order_relaxed);
    c.ack.store(w, std::memory_order_seq_cst);
    // Spin briefly for go (the judge sets it right after seeing the ack), then sleep. The spin is CPU spent
    // outside any call, which the judge accounts against the kernel's (Ledger): it is short and bounded in time,
    // and skipped when the judge sleeps for the ack (it says so first; then it also needs waking). Sharing a CPU
    // with the judge, spinning would only keep it from saying go: yield instead.
    const bool judge_asleep = c.judge_waits_ack.load(std::memory_order_seq_cst) != 0;
    if (judge_asleep) wire::futex_wake(&c.ack);
    const bool shared = cpu >= 0 && cpu == c.judge_cpu.load(std::memory_order_relaxed);
    timespec from{};
    clock_gettime(CLOCK_MONOTONIC, &from);
    for (int spins = 0; c.go.load(std::memory_order_acquire) != w;) {
      if (!judge_asleep && (++spins & 15) != 0) {
        if (shared) sched_yield();
        else wire::cpu_relax();
        continue;
      }
      if (!judge_asleep && elapsed_ns(from) < wire::kGoSpinNs) continue;
      c.worker_sleeping.store(1, std::memory_order_seq_cst);
      uint32_t g = c.go.load(std::memory_order_seq_cst);
      if (g != w) wire::futex_wait(&c.go, g, nullptr);
      c.worker_sleeping.store(0, std::memory_order_relaxed);
    }
    const int rc = ok ? fn(&a.args) : wire::kBadLayout;
    c.rc.store(rc, std::memory_order_relaxed);
    c.done.store(w, std::memory_order_seq_cst);
    if (c.judge_sleeping.load(std::memory_order_seq_cst)) wire::futex_wake(&c.done);
  }
}

}  // namespace kope::exec
