// The Experience Graph's arithmetic: step ratio, outcome label, downstream score. Pure functions, so the
// incremental update and the from-scratch rebuild share every floating-point operation and agree exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kope::memory {

// d(v) = w_self * r_v + w_succ * gamma * sum over successors u of d(u)   (METHOD.md; defaults from the paper)
struct GraphWeights {
  double w_self = 0.5;
  double w_succ = 0.5;
  double gamma = 0.7;
};

// Outcome labels by METHOD's thresholds on the step ratio; correctness is a separate field.
enum class Outcome { Effective = 0, Partial = 1, Ineffective = 2, Negative = 3 };
const char* outcome_name(Outcome o);
std::optional<Outcome> outcome_from_name(const std::string& s);
// effective r >= 1.05; partial 1 <= r < 1.05; ineffective 0.85 <= r < 1; negative r < 0.85
Outcome outcome_of(double r);

// r_v = a_v / a_prev. A Case that started from the baseline has a_prev = 1 (every speedup is measured against
// the baseline, so the baseline's own is 1), hence r_v = a_v there. A non-positive predecessor value gives 1.
double step_ratio(double a, std::optional<double> a_prev);

// The retrieval bucket: the outcome label for a correct Case, 4 for an incorrect one (a failure mode).
inline constexpr int kIncorrectBucket = 4;
int bucket_of(bool correct, Outcome o);

// w_self * r + w_succ * gamma * successor_sum, in this exact order of operations.
double downstream(double r, double successor_sum, const GraphWeights& w);

// One node for the rebuild: ids must be unique; parent may be absent (a root).
struct GraphNode {
  int64_t id = 0;
  std::optional<int64_t> parent;
  double a = 0.0;
  // outputs
  double r = 1.0;
  double d = 0.0;
};

// The from-scratch computation over a forest: r from the parent's a, d bottom-up, each node's successor sum
// folded over its children in ascending id order (the order the incremental update uses).
void rebuild_forest(std::vector<GraphNode>& nodes, const GraphWeights& w);

}  // namespace kope::memory
