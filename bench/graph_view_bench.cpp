// The Experience Graph view at scale, in one run: a synthetic workspace of N Cases (default 20,000; lineage as a
// loop makes it: each attempt starts from its operator's incumbent), then time to first frame (load + layout with
// the engine picked for that size + first paint), frame times while panning and zooming (the view rendered to an
// offscreen QImage after each step: median and p95), the layout engines at a few sizes, and memory (VmRSS/VmHWM).
//
//   build/bin/bench_graph_view [N=20000] [STEPS=60] [--sfdp]
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "graph_layout.h"
#include "graph_widget.h"
#include "kope/memory/memory.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "layout_service.h"
#include "usage.h"

using namespace kope::workspace;

using namespace kope;
using namespace kope::graph;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

std::string proc_status(const char* key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(key, 0) == 0) return line.substr(std::strlen(key) + 1);
  return "?";
}

const char* kOps[] = {"exp", "gelu", "mish", "sigmoid", "swi_glu", "softmax", "rms_norm", "gather", "scatter", "top_k",
                      "conv_2d", "mha", "gru", "lstm", "transpose", "unique", "nms", "arg_max", "cummin", "gcd"};
const char* kThoughts[] = {"compute in fp32 so the loop vectorises", "split across 2 threads above 256k elements",
                           "block the reduction over 4096-element tiles", "Pade approximation of tanh clamped at 3",
                           "unroll by 8 with four accumulators", "prefetch two cache lines ahead",
                           "transpose to unit stride", "lookup table of 256 entries"};

void generate(const fs::path& dir, int n) {
  Workspace ws = Workspace::open(dir);
  memory::MemoryStore m(ws.handle());
  std::mt19937 g(42);
  const std::size_t ops = std::size(kOps);
  std::vector<std::optional<int64_t>> inc(ops);
  std::vector<double> inc_a(ops, 1.0);
  store::Txn txn(ws.handle());
  for (int i = 0; i < n; ++i) {
    const std::size_t op = g() % ops;
    memory::CaseInput in;
    in.task = kOps[op];
    in.task_digest = std::string("d-") + kOps[op];
    in.device = g() % 10 == 0 ? "ascend910c" : "cpu";
    in.thought = kThoughts[g() % std::size(kThoughts)];
    in.kernel_sha256 = std::to_string(g());
    in.kernel_name = std::string(kOps[op]) + ".cpp";
    // Mostly from the incumbent; sometimes from a recent sibling (deeper chains), sometimes a fresh root.
    const unsigned k = g() % 10;
    if (k < 7) in.prev_case_id = inc[op];
    else if (k < 9 && i > 0) in.prev_case_id = 1 + static_cast<int64_t>(g() % i);
    in.run_id = 1 + i / 200;
    in.step = i;
    in.correct = g() % 10 < 6;
    in.compiled = true;
    in.status = in.correct ? "passed" : "wrong";
    in.a = in.correct ? inc_a[op] * std::uniform_real_distribution<double>(0.7, 1.25)(g) : 0;
    in.c = in.correct ? 0.8 : 0;
    in.diff = "--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n";
    const int64_t id = m.add_case(in);
    if (in.correct && in.a > inc_a[op] * 1.02) { inc[op] = id; inc_a[op] = in.a; }
  }
  txn.commit();
}

double frame(GraphView* v, QImage& img) {
  const auto t = Clock::now();
  img.fill(Qt::white);
  QPainter p(&img);
  v->render(&p);
  p.end();
  return ms_since(t);
}

}  // namespace

int main(int argc, char** argv) {
  kope::bench::answer_help(argc, argv, "[N=20000] [STEPS=60] [--sfdp]");
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 60;
  const bool sfdp = argc > 3 && std::string(argv[3]) == "--sfdp";
  const fs::path dir = fs::temp_directory_path() / "kope_graph_view_bench";
  fs::remove_all(dir);
  std::printf("graph view bench: %d Cases in %s\n", n, dir.c_str());
  std::printf("memory at start: VmRSS %s, VmHWM %s\n", proc_status("VmRSS:").c_str(), proc_status("VmHWM:").c_str());
  auto t = Clock::now();
  generate(dir, n);
  std::printf("generate: %.0f ms\n", ms_since(t));
  std::printf("memory before the view: VmRSS %s, VmHWM %s\n", proc_status("VmRSS:").c_str(), proc_status("VmHWM:").c_str());

  GraphWidget w;
  w.setPollInterval(0);
  w.setRelayoutDelay(-1);
  w.resize(1600, 1000);
  w.show();
  QApplication::processEvents();
  QImage img(w.view()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
  t = Clock::now();
  w.openWorkspace(dir);
  const double load_ms = ms_since(t);
  if (!w.waitForLayout(600000)) { std::printf("layout did not finish\n"); return 1; }
  const double layout_ms = ms_since(t) - load_ms;
  const double first_paint = frame(w.view(), img);
  const double first = ms_since(t);
  std::printf("time to first frame: %.0f ms  (load %d Cases %.0f ms, layout %s %.0f ms [worker %.0f ms], first paint %.1f ms)\n",
              first, w.nodeCount(), load_ms, w.layoutService()->lastEngine().c_str(), layout_ms,
              w.layoutService()->lastMillis(), first_paint);
  img.save((dir / "first_frame.png").c_str());

  // Frames: at fit (everything visible), then zoomed in to text level, panning; then a zoom sweep.
  auto run = [&](const char* what, auto step) {
    std::vector<double> ft;
    for (int i = 0; i < steps; ++i) {
      step(i);
      ft.push_back(frame(w.view(), img));
    }
    std::printf("%-34s median %6.1f ms  p95 %6.1f ms  max %6.1f ms  (%d frames, zoom %.4f%s)\n", what, pct(ft, 0.5),
                pct(ft, 0.95), *std::max_element(ft.begin(), ft.end()), steps, w.view()->zoom(), w.view()->overviewActive() ? ", overview image" : "");
  };
  GraphView* v = w.view();
  v->fit();
  run("pan at fit (all nodes, plain LOD)", [&](int i) { v->horizontalScrollBar()->setValue(v->horizontalScrollBar()->value() + (i % 2 ? 40 : -40)); });
  v->setZoom(1.0);
  v->centerOn(w.item(w.nodeCount() > 0 ? w.store()->cases({}).front().id : 0));
  run("pan at 1:1 (text and badges)", [&](int i) {
    v->horizontalScrollBar()->setValue(v->horizontalScrollBar()->value() + (i % 10 < 5 ? 60 : -60));
    v->verticalScrollBar()->setValue(v->verticalScrollBar()->value() + (i % 7 < 3 ? 30 : -30));
  });
  v->setZoom(0.3);
  run("pan at 0.3 (rects, some edges)", [&](int i) { v->horizontalScrollBar()->setValue(v->horizontalScrollBar()->value() + (i % 2 ? 200 : -200)); });
  v->fit();
  const double fitz = v->zoom();
  run("zoom sweep fit <-> 2x", [&](int i) {
    const double target = i % 20 < 10 ? 1.35 : 1 / 1.35;
    if ((v->zoom() < 2 && target > 1) || (v->zoom() > fitz && target < 1)) v->zoomBy(target);
  });
  const QRectF sr = v->graphScene()->itemsBoundingRect();
  std::printf("edges: %zu lines in one item; scene %.0f x %.0f units\n", w.edges()->lineCount(), sr.width(), sr.height());
  std::printf("memory after: VmRSS %s, VmHWM %s\n", proc_status("VmRSS:").c_str(), proc_status("VmHWM:").c_str());

  // Layout engines alone, on the same graph's structure (first K nodes).
  LayoutInput all;
  for (const auto& r : w.store()->cases({.limit = 100000000}))
    all.nodes.push_back({r.id, r.prev_case_id, kCellW, kCellH});
  std::sort(all.nodes.begin(), all.nodes.end(), [](auto& a, auto& b) { return a.id < b.id; });
  for (int k : {500, 1000, 2000, n}) {
    if (k > n) continue;
    LayoutInput in;
    in.nodes.assign(all.nodes.begin(), all.nodes.begin() + k);
    t = Clock::now();
    ForestLayout().layout(in);
    const double f = ms_since(t);
    double d = -1;
    if (k <= 2000) {
      GraphvizLayout dot("dot");
      t = Clock::now();
      dot.layout(in);
      d = ms_since(t);
    }
    std::printf("layout %6d nodes: forest %8.1f ms   dot %s\n", k, f, d < 0 ? "(skipped: minutes)" : (std::to_string(static_cast<int>(d)) + " ms").c_str());
  }
  if (sfdp) {
    GraphvizLayout s("sfdp", 1);
    t = Clock::now();
    s.layout(all);
    std::printf("layout %6zu nodes: sfdp %.0f ms\n", all.nodes.size(), ms_since(t));
  }
  return 0;
}
