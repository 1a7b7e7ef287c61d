// Graph layout, apart from the view (after Cutter's GraphLayout/GraphvizLayout split): nodes with ids and sizes
// and the edges between them go in, positions come out. Pure C++ (no Qt), so the bench and tests can call it
// directly; the view reaches it only through LayoutService (layout_service.h), which runs it off the UI thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kope::graph {

struct LayoutNode {
  int64_t id = 0;
  std::optional<int64_t> parent;  // the lineage edge parent -> this; absent: a root
  double w = 60, h = 34;          // the cell the node must fit in, in scene units
};

struct LayoutInput {
  std::vector<LayoutNode> nodes;  // any order; ids unique; a parent not among the nodes makes a root
};

struct Point {
  double x = 0, y = 0;  // the node's centre; y grows downwards (as in Qt's scene)
};
using Positions = std::unordered_map<int64_t, Point>;

class GraphLayout {
 public:
  virtual ~GraphLayout() = default;
  virtual std::string name() const = 0;
  virtual Positions layout(const LayoutInput& in) = 0;
};

// A layered forest layout of our own, O(n): each subtree gets its own column band, children below their parent;
// a parent's leaf children are packed into a grid so wide fans stay compact. Deterministic: children in id
// order, trees by root id.
class ForestLayout : public GraphLayout {
 public:
  double hgap = 14, vgap = 40;
  std::string name() const override { return "forest"; }
  Positions layout(const LayoutInput& in) override;
};

// Graphviz through libgvc: "dot" (hierarchical) or "sfdp" (force-directed, seeded with start=seed).
// NOT thread-safe: call it from one thread only (LayoutService's worker owns the only instance).
class GraphvizLayout : public GraphLayout {
 public:
  explicit GraphvizLayout(std::string engine = "dot", int seed = 1);
  ~GraphvizLayout() override;
  GraphvizLayout(const GraphvizLayout&) = delete;
  GraphvizLayout& operator=(const GraphvizLayout&) = delete;
  std::string name() const override { return engine_; }
  Positions layout(const LayoutInput& in) override;

 private:
  std::string engine_;
  int seed_;
  void* gvc_ = nullptr;  // GVC_t*
};

// Up to this many nodes `dot` runs (measured: ~1 s at 1000 nodes of forest here; 101 s at 10k per STYLE.md);
// above, ForestLayout (20k nodes in a few ms).
inline constexpr std::size_t kDotMaxNodes = 1000;
// "dot" or "forest" for a graph of n nodes.
std::string engine_for(std::size_t n);

// A content hash of the structure that decides a layout (ids, parents, cell sizes, engine): the cache key.
std::string layout_hash(const LayoutInput& in, const std::string& engine);

// Cache files: one line per node "id x y", numbers in the classic locale.
bool save_positions(const std::string& path, const Positions& p);
std::optional<Positions> load_positions(const std::string& path);

}  // namespace kope::graph
