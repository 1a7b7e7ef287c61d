// An operator task: tensor specs, attributes, the naive reference, and cases that fix shapes and inputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/model/dtype.h"

namespace kope {

struct InitSpec {
  enum class Kind { Uniform, Normal, Bernoulli, RandInt };
  Kind kind = Kind::Uniform;
  double a = -1.0;  // low, mean, or p
  double b = 1.0;   // high or std
  // randint only: when set, high is this dimension expression's value in the case minus one, so index
  // inputs stay inside the dimension they index ("below": "R" draws from [low, R-1]).
  std::string below;
  // Special values (issue 16) placed at seeded positions among the drawn ones, in the seeded inputs and in every
  // timed call's fresh inputs alike: tokens "nan", "inf", "-inf", "-0", "0", "denormal", "-denormal",
  // "min_normal", "max", "lowest" (of the tensor's dtype), "low", "high" (the distribution's bounds), or a
  // number as text. Each appears at least once where the tensor has room; about special_fraction of all
  // elements are special.
  std::vector<std::string> special;
  double special_fraction = 0.0;
};

// An index output checked by what it points at (issue 21): each element is an index into `input` along `axis`
// (as torch.gather's dim), the output having the input's shape except along that axis. Where ties leave an index
// open (top-k, sorting, NMS), an index passes when the input element it points at equals the one the golden's
// index points at, and the output's in-range indices along the axis are distinct; an index the golden puts
// outside [0, size) (padding, e.g. -1) must be matched exactly.
struct IndexOf {
  std::string input;
  int axis = 0;  // normalised to [0, rank)
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::string> shape;  // each an integer or a product of integers and dimension symbols
  std::string count;               // empty for one tensor, else an integer or a symbol
  std::optional<InitSpec> init;
  std::optional<double> threshold;
  std::optional<IndexOf> index_of;  // outputs only
};

struct Case {
  std::string name;
  std::map<std::string, int64_t> dims;
  std::map<std::string, double> attrs;
  std::map<std::string, InitSpec> init;
  std::map<std::string, DType> dtypes;  // per-case dtype of a tensor, overriding its spec
  bool memory_bound = false;            // the task marks the case as memory-bound (reporting only)
  // Too big for the test command (an L4 golden takes minutes): `kope eval`, the main job and the benchmarks run
  // it; EvalOptions::skip_large (`--small`) leaves it out.
  bool large = false;
  uint64_t seed = 0;
};

// The library implementation of an operator on one device (on the CPU: ATen through libtorch), built like a
// kernel with extra include folders and link libraries.
struct LibraryImpl {
  std::string source;
  std::vector<std::string> link;          // library names for -l
  std::vector<std::string> include_dirs;  // extra -I folders
  int threads = 1;                        // the threads the library may use (the source sets them)
};

struct Task {
  std::string name;
  int level = 0;
  std::string summary;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::map<std::string, double> attrs;
  std::string reference;
  std::string baseline;  // empty: the reference built with kope_real=float
  std::map<std::string, std::string> baselines;  // per device kind ("cuda", "ascend"): that device's baseline
  // Per device ("cpu", ...): the library implementation, or nullopt where the task says there is none.
  std::map<std::string, std::optional<LibraryImpl>> library;
  std::string library_why;  // why a device has none, as the task says
  std::vector<Case> cases;
  std::string origin;  // where it was loaded from, for messages
  std::string digest;  // sha256 of the canonical JSON: changes whenever the task does
};

// One tensor of one case with every dimension resolved.
struct ConcreteTensor {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  int64_t numel = 1;
  InitSpec init;
  double threshold = 0.0;
  int index_of = -1;   // outputs with "index_of": the input's position in the case's inputs, else -1
  int index_axis = 0;  // and the axis along which it indexes
};

struct ConcreteCase {
  std::string name;
  uint64_t seed = 0;
  std::vector<ConcreteTensor> inputs;
  std::vector<ConcreteTensor> outputs;
  std::vector<std::pair<std::string, double>> attrs;
  bool memory_bound = false;  // as the task marks it; not sent to the runner
};

// The largest tensor a case may declare, in elements.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 28;

// Throws kope::Error naming `origin` and the JSON pointer of the offending field.
Task parse_task(const nlohmann::json& j, const std::string& origin);
Task parse_task_text(const std::string& text, const std::string& origin);
Task load_task_file(const std::filesystem::path& path);

ConcreteCase resolve_case(const Task& task, const Case& c);
const Case* find_case(const Task& task, const std::string& name);

nlohmann::json to_json(const ConcreteCase& c);
ConcreteCase concrete_case_from_json(const nlohmann::json& j);

// Whether the reference can be built with kope_real=float as the baseline.
bool reference_is_fp32_baseline(const Task& task);

}  // namespace kope
