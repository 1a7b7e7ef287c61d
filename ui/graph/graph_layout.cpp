// ForestLayout, GraphvizLayout (libgvc), the cache key and the cache files. See graph_layout.h.
#include "graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <locale.h>
#include <sstream>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/sha256.h"

namespace kope::graph {

namespace {

// Locale-free number text (Graphviz and the cache files read numbers in the classic locale).
std::string num(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
  return std::string(buf, r.ptr);
}

struct Tree {
  std::unordered_map<int64_t, std::vector<std::size_t>> children;  // parent id -> child indices (id order)
  std::vector<std::size_t> roots;
};

Tree tree_of(const LayoutInput& in) {
  std::unordered_map<int64_t, std::size_t> index;
  index.reserve(in.nodes.size());
  for (std::size_t i = 0; i < in.nodes.size(); ++i) index.emplace(in.nodes[i].id, i);
  Tree t;
  for (std::size_t i = 0; i < in.nodes.size(); ++i) {
    const auto& n = in.nodes[i];
    if (n.parent && index.count(*n.parent) && *n.parent != n.id)
      t.children[*n.parent].push_back(i);
    else
      t.roots.push_back(i);
  }
  auto by_id = [&](std::size_t a, std::size_t b) { return in.nodes[a].id < in.nodes[b].id; };
  for (auto& [p, c] : t.children) std::sort(c.begin(), c.end(), by_id);
  std::sort(t.roots.begin(), t.roots.end(), by_id);
  return t;
}

// A node's children (indices, id order), or none.
const std::vector<std::size_t>& kids_of(const Tree& t, const LayoutInput& in, std::size_t i) {
  static const std::vector<std::size_t> none;
  auto it = t.children.find(in.nodes[i].id);
  return it == t.children.end() ? none : it->second;
}

// The boxes of the forest layout, per node.
struct Boxes {
  explicit Boxes(std::size_t n) : bw(n, 0), bh(n, 0), offx(n, 0), offy(n, 0), blockw(n, 0) {}
  std::vector<double> bw, bh;      // subtree box
  std::vector<double> offx, offy;  // a child's box in its parent's children block
  std::vector<double> blockw;
};

// Packs the boxes of `k` on shelves; fills offx/offy (each row centred in the block); returns the block's size.
std::pair<double, double> pack(Boxes& b, const std::vector<std::size_t>& k, double gap, double rowgap) {
  if (k.empty()) return {0, 0};
  double total = 0, area = 0, widest = 0;
  for (std::size_t c : k) {
    total += b.bw[c] + gap;
    area += (b.bw[c] + gap) * (b.bh[c] + rowgap);
    widest = std::max(widest, b.bw[c]);
  }
  total -= gap;
  const double row_limit = k.size() <= 6 ? total : std::max(widest, std::sqrt(area) * 1.6);
  double x = 0, y = 0, shelf = 0, block_w = 0;
  std::size_t row_start = 0;
  auto close_row = [&](std::size_t end_idx, double row_w) {
    block_w = std::max(block_w, row_w);
    for (std::size_t j = row_start; j < end_idx; ++j) b.offy[k[j]] = y;
    row_start = end_idx;
  };
  std::vector<double> row_widths;
  std::vector<std::size_t> row_of(k.size());
  for (std::size_t j = 0; j < k.size(); ++j) {
    const std::size_t c = k[j];
    if (x > 0 && x + b.bw[c] > row_limit + 1e-6) {
      row_widths.push_back(x - gap);
      close_row(j, x - gap);
      y += shelf + rowgap;
      x = 0;
      shelf = 0;
    }
    b.offx[c] = x;
    row_of[j] = row_widths.size();
    x += b.bw[c] + gap;
    shelf = std::max(shelf, b.bh[c]);
  }
  row_widths.push_back(x - gap);
  close_row(k.size(), x - gap);
  for (std::size_t j = 0; j < k.size(); ++j) b.offx[k[j]] += (block_w - row_widths[row_of[j]]) / 2;
  return {block_w, y + shelf};
}

// Post-order over all trees, iterative.
std::vector<std::size_t> post_order(const Tree& t, const LayoutInput& in) {
  std::vector<std::size_t> order;
  order.reserve(in.nodes.size());
  std::vector<std::pair<std::size_t, bool>> st;
  for (auto r = t.roots.rbegin(); r != t.roots.rend(); ++r) st.push_back({*r, false});
  while (!st.empty()) {
    auto [i, done] = st.back();
    st.pop_back();
    if (done) { order.push_back(i); continue; }
    st.push_back({i, true});
    const auto& k = kids_of(t, in, i);
    for (auto c = k.rbegin(); c != k.rend(); ++c) st.push_back({*c, false});
  }
  return order;
}

}  // namespace

// Each subtree occupies a box (width, height) with its root at the top centre and its children's boxes packed
// on shelves below it: one row for a few children; for a wide fan, rows about as wide as the square root of
// their total area (times 1.6, a screen's aspect), so a parent with 700 attempts stays compact. The trees are
// packed the same way. Iterative post-order, so chains of thousands of attempts do not overflow the stack.
Positions ForestLayout::layout(const LayoutInput& in) {
  const std::size_t n = in.nodes.size();
  Positions out;
  if (n == 0) return out;
  Tree t = tree_of(in);
  Boxes b(n);
  const double rowgap = vgap * 0.5;
  for (std::size_t i : post_order(t, in)) {
    const auto [w, h] = pack(b, kids_of(t, in, i), hgap, rowgap);
    b.blockw[i] = w;
    b.bw[i] = std::max(in.nodes[i].w, w);
    b.bh[i] = in.nodes[i].h + (h > 0 ? vgap + h : 0);
  }
  // The trees, packed like children of a virtual root.
  pack(b, t.roots, hgap * 3, rowgap);
  out.reserve(n);
  std::vector<std::pair<std::size_t, Point>> st;  // node, top-left of its box
  for (std::size_t r : t.roots) st.push_back({r, {b.offx[r], b.offy[r]}});
  while (!st.empty()) {
    auto [i, tl] = st.back();
    st.pop_back();
    const auto& node = in.nodes[i];
    const double cx = tl.x + b.bw[i] / 2;
    out[node.id] = {cx, tl.y + node.h / 2};
    const double left = cx - b.blockw[i] / 2, top = tl.y + node.h + vgap;
    for (std::size_t c : kids_of(t, in, i)) st.push_back({c, {left + b.offx[c], top + b.offy[c]}});
  }
  return out;
}

GraphvizLayout::GraphvizLayout(std::string engine, int seed) : engine_(std::move(engine)), seed_(seed) {
  gvc_ = gvContext();
}

GraphvizLayout::~GraphvizLayout() {
  if (gvc_) gvFreeContext(static_cast<GVC_t*>(gvc_));
}

Positions GraphvizLayout::layout(const LayoutInput& in) {
  // Graphviz parses attribute numbers with the C library: use the classic locale on this thread.
  locale_t c_loc = newlocale(LC_ALL_MASK, "C", nullptr);
  locale_t old = uselocale(c_loc);
  struct Restore {
    locale_t old, mine;
    ~Restore() { uselocale(old); freelocale(mine); }
  } restore{old, c_loc};

  GVC_t* gvc = static_cast<GVC_t*>(gvc_);
  Agraph_t* g = agopen(const_cast<char*>("kope"), Agdirected, nullptr);
  agattr(g, AGRAPH, const_cast<char*>("rankdir"), const_cast<char*>("TB"));
  agattr(g, AGRAPH, const_cast<char*>("nodesep"), const_cast<char*>("0.2"));
  agattr(g, AGRAPH, const_cast<char*>("ranksep"), const_cast<char*>("0.5"));
  agattr(g, AGRAPH, const_cast<char*>("splines"), const_cast<char*>("false"));
  if (engine_ == "sfdp") {
    const std::string start = std::to_string(seed_);
    agattr(g, AGRAPH, const_cast<char*>("start"), const_cast<char*>(start.c_str()));
    // Measured: the default overlap removal and "prism" draw their own random numbers, so two runs with the
    // same seed differed; "scale" is deterministic.
    agattr(g, AGRAPH, const_cast<char*>("overlap"), const_cast<char*>("scale"));
  }
  agattr(g, AGNODE, const_cast<char*>("shape"), const_cast<char*>("box"));
  agattr(g, AGNODE, const_cast<char*>("fixedsize"), const_cast<char*>("true"));
  agattr(g, AGNODE, const_cast<char*>("label"), const_cast<char*>(""));
  agattr(g, AGNODE, const_cast<char*>("width"), const_cast<char*>("0.75"));
  agattr(g, AGNODE, const_cast<char*>("height"), const_cast<char*>("0.5"));
  std::unordered_map<int64_t, Agnode_t*> nodes;
  nodes.reserve(in.nodes.size());
  for (const auto& n : in.nodes) {
    std::string name = std::to_string(n.id);
    Agnode_t* an = agnode(g, name.data(), 1);
    // Scene units are points (72 per inch), as Graphviz's coordinates are.
    agsafeset(an, const_cast<char*>("width"), const_cast<char*>(num(n.w / 72.0).c_str()), const_cast<char*>(""));
    agsafeset(an, const_cast<char*>("height"), const_cast<char*>(num(n.h / 72.0).c_str()), const_cast<char*>(""));
    nodes[n.id] = an;
  }
  for (const auto& n : in.nodes)
    if (n.parent && nodes.count(*n.parent) && *n.parent != n.id) agedge(g, nodes[*n.parent], nodes[n.id], nullptr, 1);
  Positions out;
  if (gvLayout(gvc, g, engine_.c_str()) != 0) {
    agclose(g);
    throw Error("graphviz: layout engine \"" + engine_ + "\" failed (is its plugin installed? `dot -c` registers them)");
  }
  out.reserve(in.nodes.size());
  for (const auto& [id, an] : nodes) out[id] = {ND_coord(an).x, -ND_coord(an).y};  // Graphviz's y grows upwards
  gvFreeLayout(gvc, g);
  agclose(g);
  return out;
}

std::string engine_for(std::size_t n) { return n <= kDotMaxNodes ? "dot" : "forest"; }

std::string layout_hash(const LayoutInput& in, const std::string& engine) {
  std::vector<const LayoutNode*> v;
  v.reserve(in.nodes.size());
  for (const auto& n : in.nodes) v.push_back(&n);
  std::sort(v.begin(), v.end(), [](auto a, auto b) { return a->id < b->id; });
  std::string s = "kope-layout-1 " + engine + "\n";
  s.reserve(v.size() * 24);
  for (auto* n : v) {
    s += std::to_string(n->id);
    s += ' ';
    s += n->parent ? std::to_string(*n->parent) : "-";
    s += ' ' + num(n->w) + ' ' + num(n->h) + '\n';
  }
  return sha256_hex(s).substr(0, 32);
}

bool save_positions(const std::string& path, const Positions& p) {
  std::string s;
  s.reserve(p.size() * 28);
  for (const auto& [id, pt] : p) s += std::to_string(id) + ' ' + num(pt.x) + ' ' + num(pt.y) + '\n';
  try {
    write_file_atomic(path, s);
    return true;
  } catch (const std::exception&) {
    return false;  // a cache that cannot be written is only slower next time
  }
}

std::optional<Positions> load_positions(const std::string& path) {
  std::string s = read_file_or_empty(path);
  if (s.empty()) return std::nullopt;
  Positions p;
  const char* c = s.data();
  const char* end = c + s.size();
  while (c < end) {
    int64_t id;
    double x, y;
    auto r = std::from_chars(c, end, id);
    if (r.ec != std::errc() || *r.ptr != ' ') return std::nullopt;
    r = std::from_chars(r.ptr + 1, end, x);
    if (r.ec != std::errc() || *r.ptr != ' ') return std::nullopt;
    r = std::from_chars(r.ptr + 1, end, y);
    if (r.ec != std::errc() || r.ptr >= end || *r.ptr != '\n') return std::nullopt;
    p[id] = {x, y};
    c = r.ptr + 1;
  }
  return p;
}

}  // namespace kope::graph
