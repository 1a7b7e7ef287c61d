// Index outputs checked by what they point at (issue 21): top-k, sort and NMS leave the index of tied elements
// open, so an index is right when it points at the value the golden's index points at.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "kope/model/check.h"

namespace kope {

namespace {

struct Lines {
  int64_t outer = 1, inner = 1, k = 1, n = 1;  // out [outer, k, inner] indexes source [outer, n, inner]
};

Lines lines_of(const ConcreteTensor& out, const ConcreteTensor& source) {
  Lines l;
  const auto ax = static_cast<std::size_t>(out.index_axis);
  for (std::size_t d = 0; d < ax; ++d) l.outer *= out.shape[d];
  for (std::size_t d = ax + 1; d < out.shape.size(); ++d) l.inner *= out.shape[d];
  l.k = out.shape[ax];
  l.n = source.shape[ax];
  return l;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

}  // namespace

OutputCheck check_index_output(const ConcreteTensor& out, const void* got, const double* ref,
                               const ConcreteTensor& source, const void* source_data) {
  OutputCheck c;
  c.name = out.name;
  const Lines l = lines_of(out, source);
  auto fail = [&](int64_t e, double g, double v, std::string why) {
    if (c.mismatches++ == 0) {
      c.worst_index = e;
      c.expected = g;
      c.got = v;
      c.note = std::move(why);
    }
    c.max_ulps = std::max(c.max_ulps, std::fabs(v - g));
  };
  auto at = [&](int64_t o, int64_t j, int64_t i) {
    return load_as_double(source.dtype, source_data, static_cast<std::size_t>((o * l.n + j) * l.inner + i));
  };
  const std::string range = "[0, " + std::to_string(l.n) + ")";
  std::vector<std::pair<int64_t, int64_t>> seen;  // (index, element) of the line's in-range indices
  for (int64_t o = 0; o < l.outer; ++o)
    for (int64_t i = 0; i < l.inner; ++i) {
      seen.clear();
      for (int64_t k = 0; k < l.k; ++k) {
        const int64_t e = (o * l.k + k) * l.inner + i;
        const double g = ref[e], v = load_as_double(out.dtype, got, static_cast<std::size_t>(e));
        if (!(g >= 0 && g < static_cast<double>(l.n))) {
          if (v != g) fail(e, g, v, "expected " + number(g) + " (outside " + range + ", as the golden has it), got " + number(v));
          continue;
        }
        if (!(v >= 0 && v < static_cast<double>(l.n))) {
          fail(e, g, v, "index " + number(v) + " is outside " + range);
          continue;
        }
        const double sv = at(o, static_cast<int64_t>(v), i), sg = at(o, static_cast<int64_t>(g), i);
        if (!(sv == sg || (std::isnan(sv) && std::isnan(sg)))) {
          fail(e, g, v, "index " + number(v) + " points at " + source.name + " = " + number(sv) + " where index " +
                            number(g) + " points at " + number(sg));
          continue;
        }
        seen.emplace_back(static_cast<int64_t>(v), e);
      }
      std::sort(seen.begin(), seen.end());
      for (std::size_t s = 1; s < seen.size(); ++s)
        if (seen[s].first == seen[s - 1].first) {
          const int64_t e = std::max(seen[s].second, seen[s - 1].second);
          fail(e, ref[e], static_cast<double>(seen[s].first),
               "index " + std::to_string(seen[s].first) + " appears twice along axis " + std::to_string(out.index_axis));
        }
    }
  const auto numel = static_cast<double>(out.numel);
  c.mean_rel = numel > 0 ? static_cast<double>(c.mismatches) / numel : 0.0;
  c.max_rel = c.mismatches ? std::numeric_limits<double>::infinity() : 0.0;
  c.ok = c.mismatches == 0;
  set_accuracy(c, out.dtype);
  return c;
}

OutputCheck check_case_output(const ConcreteCase& c, std::size_t i, const void* got, const double* ref,
                              double threshold, const std::vector<const void*>& inputs) {
  const ConcreteTensor& out = c.outputs[i];
  if (out.index_of >= 0) {
    const auto s = static_cast<std::size_t>(out.index_of);
    return check_index_output(out, got, ref, c.inputs.at(s), inputs.at(s));
  }
  return check_output(out.name, out.dtype, got, ref, static_cast<std::size_t>(out.numel), threshold);
}

}  // namespace kope
