// One way to write numbers, durations and speedups, shared by the `kope` CLI and the workbench window.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace kope::format {

// "850.0 ns", "12.3 us", "4.5 ms", "1.2 s"; "-" when absent.
std::string duration_ns(std::optional<double> ns);
// Seconds as a duration: "0.41 s", "12.0 ms".
std::string seconds(double s);
// A number with `decimals` digits after the point: "1.23".
std::string fixed(double v, int decimals = 2);
// "1.23x"; "-" when absent.
std::string speedup(std::optional<double> v);
// "[1.10x .. 1.30x]"; empty when absent.
std::string interval(const std::optional<std::pair<double, double>>& iv);
// Three significant digits: "0.000123", "1.5e-07".
std::string sci(double v);
// A fraction in [0, 1] as a percentage: "73%".
std::string percent(std::optional<double> v);

}  // namespace kope::format
