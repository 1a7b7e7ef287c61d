#include "kope/memory/graph.h"

#include <algorithm>
#include <unordered_map>

namespace kope::memory {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Effective: return "effective";
    case Outcome::Partial: return "partial";
    case Outcome::Ineffective: return "ineffective";
    case Outcome::Negative: return "negative";
  }
  return "partial";
}

std::optional<Outcome> outcome_from_name(const std::string& s) {
  for (Outcome o : {Outcome::Effective, Outcome::Partial, Outcome::Ineffective, Outcome::Negative})
    if (s == outcome_name(o)) return o;
  return std::nullopt;
}

Outcome outcome_of(double r) {
  if (r >= 1.05) return Outcome::Effective;
  if (r >= 1.0) return Outcome::Partial;
  if (r >= 0.85) return Outcome::Ineffective;
  return Outcome::Negative;
}

double step_ratio(double a, std::optional<double> a_prev) {
  const double p = a_prev.value_or(1.0);
  if (!(p > 0.0)) return 1.0;
  return a / p;
}

int bucket_of(bool correct, Outcome o) { return correct ? static_cast<int>(o) : kIncorrectBucket; }

double downstream(double r, double successor_sum, const GraphWeights& w) {
  return w.w_self * r + w.w_succ * w.gamma * successor_sum;
}

void rebuild_forest(std::vector<GraphNode>& nodes, const GraphWeights& w) {
  std::unordered_map<int64_t, std::size_t> at;
  at.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) at[nodes[i].id] = i;
  // Children in ascending id order.
  std::vector<std::vector<std::size_t>> kids(nodes.size());
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto p = nodes[i].parent ? at.find(*nodes[i].parent) : at.end();
    if (p == at.end()) {
      roots.push_back(i);
      nodes[i].r = step_ratio(nodes[i].a, std::nullopt);
    } else {
      kids[p->second].push_back(i);
      nodes[i].r = step_ratio(nodes[i].a, nodes[p->second].a);
    }
  }
  for (auto& k : kids)
    std::sort(k.begin(), k.end(), [&](std::size_t x, std::size_t y) { return nodes[x].id < nodes[y].id; });
  // Post-order without recursion (a lineage can be deep).
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // node, next child
  for (std::size_t root : roots) {
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (next < kids[n].size()) {
        std::size_t c = kids[n][next++];
        stack.push_back({c, 0});
        continue;
      }
      double sum = 0.0;
      for (std::size_t c : kids[n]) sum += nodes[c].d;
      nodes[n].d = downstream(nodes[n].r, sum, w);
      stack.pop_back();
    }
  }
}

}  // namespace kope::memory
