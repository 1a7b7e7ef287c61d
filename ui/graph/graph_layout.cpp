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

#include "kope/error.h"
#include "kope/fsutil.h"
#include "kope/sha256.h"

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

}  // namespace

// Each subtree occupies a box (width, height) with its root at the top centre. Below a node: its inner
// children's boxes side by side, then its leaf children in a grid. Iterative post-order, so deep chains of
// thousands of attempts do not overflow the stack.
Positions ForestLayout::layout(const LayoutInput& in) {
  const std::size_t n = in.nodes.size();
  Positions out;
  if (n == 0) return out;
  Tree t = tree_of(in);
  std::vector<double> bw(n, 0), bh(n, 0);  // subtree box
  struct Grid { int cols = 0; double cw = 0, ch = 0; };
  std::vector<Grid> grid(n);
  const std::vector<std::size_t> none;
  auto kids = [&](std::size_t i) -> const std::vector<std::size_t>& {
    auto it = t.children.find(in.nodes[i].id);
    return it == t.children.end() ? none : it->second;
  };
  auto is_leaf = [&](std::size_t i) { return kids(i).empty(); };
  // Post-order over all trees.
  std::vector<std::size_t> order;
  order.reserve(n);
  {
    std::vector<std::pair<std::size_t, bool>> st;
    for (auto r = t.roots.rbegin(); r != t.roots.rend(); ++r) st.push_back({*r, false});
    while (!st.empty()) {
      auto [i, done] = st.back();
      st.pop_back();
      if (done) { order.push_back(i); continue; }
      st.push_back({i, true});
      const auto& k = kids(i);
      for (auto c = k.rbegin(); c != k.rend(); ++c) st.push_back({*c, false});
    }
  }
  for (std::size_t i : order) {
    const auto& k = kids(i);
    double inner_w = 0, inner_h = 0;
    int leaves = 0;
    double cw = 0, ch = 0;
    for (std::size_t c : k) {
      if (is_leaf(c)) { ++leaves; cw = std::max(cw, in.nodes[c].w); ch = std::max(ch, in.nodes[c].h); continue; }
      inner_w += bw[c] + (inner_w > 0 ? hgap : 0);
      inner_h = std::max(inner_h, bh[c]);
    }
    double grid_w = 0, grid_h = 0;
    if (leaves > 0) {
      // Few leaves: one row; many: a near-square grid, a little wider than tall.
      int cols = leaves <= 8 ? leaves : static_cast<int>(std::ceil(std::sqrt(leaves * 2.0)));
      int rows = (leaves + cols - 1) / cols;
      grid[i] = {cols, cw + hgap, ch + vgap * 0.5};
      grid_w = cols * (cw + hgap) - hgap;
      grid_h = rows * (ch + vgap * 0.5) - vgap * 0.5;
    }
    double below_w = std::max(inner_w, grid_w);
    double below_h = 0;
    if (inner_w > 0) below_h += vgap + inner_h;
    if (leaves > 0) below_h += vgap + grid_h;
    bw[i] = std::max(in.nodes[i].w, below_w);
    bh[i] = in.nodes[i].h + below_h;
  }
  // Place top-down: trees side by side.
  out.reserve(n);
  std::vector<std::pair<std::size_t, Point>> st;  // node, top-left of its box
  double x = 0;
  for (std::size_t r : t.roots) {
    st.push_back({r, {x, 0}});
    x += bw[r] + hgap * 3;
  }
  while (!st.empty()) {
    auto [i, tl] = st.back();
    st.pop_back();
    const auto& node = in.nodes[i];
    const double cx = tl.x + bw[i] / 2;
    out[node.id] = {cx, tl.y + node.h / 2};
    const auto& k = kids(i);
    double inner_w = 0, inner_h = 0;
    for (std::size_t c : k)
      if (!is_leaf(c)) { inner_w += bw[c] + (inner_w > 0 ? hgap : 0); inner_h = std::max(inner_h, bh[c]); }
    double y = tl.y + node.h;
    if (inner_w > 0) {
      y += vgap;
      double cxl = cx - inner_w / 2;
      for (std::size_t c : k) {
        if (is_leaf(c)) continue;
        st.push_back({c, {cxl, y}});
        cxl += bw[c] + hgap;
      }
      y += inner_h;
    }
    const Grid& g = grid[i];
    if (g.cols > 0) {
      y += vgap;
      int leaves = 0;
      for (std::size_t c : k) leaves += is_leaf(c);
      const int cols = g.cols;
      const double gw = cols * g.cw - hgap;
      int j = 0;
      for (std::size_t c : k) {
        if (!is_leaf(c)) continue;
        const int row = j / cols, col = j % cols;
        // Centre a short last row.
        const int in_row = std::min(cols, leaves - row * cols);
        const double row_w = in_row * g.cw - hgap;
        const double left = cx - gw / 2 + (gw - row_w) / 2;
        out[in.nodes[c].id] = {left + col * g.cw + (g.cw - hgap) / 2, y + row * g.ch + in.nodes[c].h / 2};
        ++j;
      }
    }
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
