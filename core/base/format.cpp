#include "kope/base/format.h"

#include <iomanip>
#include <sstream>

namespace kope::format {

std::string duration_ns(std::optional<double> ns) {
  if (!ns) return "-";
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::fixed << std::setprecision(1);
  if (*ns < 1e3) s << *ns << " ns";
  else if (*ns < 1e6) s << *ns / 1e3 << " us";
  else if (*ns < 1e9) s << *ns / 1e6 << " ms";
  else s << *ns / 1e9 << " s";
  return s.str();
}

std::string seconds(double v) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::fixed;
  if (v < 1.0) s << std::setprecision(1) << v * 1e3 << " ms";
  else s << std::setprecision(2) << v << " s";
  return s.str();
}

std::string fixed(double v, int decimals) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::fixed << std::setprecision(decimals) << v;
  return s.str();
}

std::string speedup(std::optional<double> v) {
  if (!v) return "-";
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::fixed << std::setprecision(2) << *v << "x";
  return s.str();
}

std::string interval(const std::optional<std::pair<double, double>>& iv) {
  if (!iv) return {};
  return "[" + speedup(iv->first) + " .. " + speedup(iv->second) + "]";
}

std::string sci(double v) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::setprecision(3) << v;
  return s.str();
}

std::string percent(std::optional<double> v) {
  if (!v) return "-";
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::fixed << std::setprecision(0) << *v * 100.0 << "%";
  return s.str();
}

}  // namespace kope::format
