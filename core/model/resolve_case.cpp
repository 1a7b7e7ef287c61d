// A case resolved against its task: each dimension expression evaluated with the case's "dims", each tensor
// with its dtype, shape, element count, input distribution and threshold. task.cpp checked the expressions.
#include <cctype>
#include <map>
#include <sstream>

#include "kope/base/error.h"
#include "kope/model/inputs.h"
#include "kope/model/task.h"
#include "task_internal.h"

namespace kope {

using task_internal::parse_count;

namespace {

int64_t eval_dim(const std::string& expr, const std::map<std::string, int64_t>& dims, const Case& c,
                 const std::string& origin, const std::string& where) {
  int64_t value = 1;
  std::stringstream ss(expr);
  std::string term;
  while (std::getline(ss, term, '*')) {
    term.erase(0, term.find_first_not_of(' '));
    term.erase(term.find_last_not_of(' ') + 1);
    int64_t v = 0;
    if (std::isdigit(static_cast<unsigned char>(term[0]))) {
      auto n = parse_count(term);
      if (!n)
        throw Error("task '" + origin + "': case '" + c.name + "': " + where + " = \"" + expr + "\": \"" + term +
                    "\" is not a whole number that fits in 64 bits");
      v = *n;
    } else {
      auto it = dims.find(term);
      if (it == dims.end())
        throw Error("task '" + origin + "': case '" + c.name + "': dimension \"" + term + "\" used at " + where +
                    " has no value in the case's \"dims\"");
      v = it->second;
    }
    if (v != 0 && value > kMaxTensorElements / v)
      throw Error("task '" + origin + "': case '" + c.name + "': " + where + " = \"" + expr + "\" is too large");
    value *= v;
  }
  return value;
}

// An "index_of" output: the input it points into, found among the case's inputs (expanded before the outputs),
// whose shape must be the output's except along the axis.
void index_into(const Task& task, const Case& c, const std::vector<ConcreteTensor>& inputs, const TensorSpec& s,
                ConcreteTensor& ct) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name != s.index_of->input) continue;
    bool same = inputs[i].shape.size() == ct.shape.size();
    for (std::size_t d = 0; same && d < ct.shape.size(); ++d)
      same = static_cast<int>(d) == s.index_of->axis || inputs[i].shape[d] == ct.shape[d];
    if (!same)
      throw Error("task '" + task.origin + "': case '" + c.name + "': output \"" + s.name + "\" indexes input \"" +
                  inputs[i].name + "\" along axis " + std::to_string(s.index_of->axis) +
                  ", so their shapes must agree on every other axis");
    ct.index_of = static_cast<int>(i);
    ct.index_axis = s.index_of->axis;
    return;
  }
  throw Error("task '" + task.origin + "': case '" + c.name + "': output \"" + s.name + "\": no input \"" +
              s.index_of->input + "\"");
}

}  // namespace

ConcreteCase resolve_case(const Task& task, const Case& c) {
  ConcreteCase out;
  out.name = c.name;
  out.seed = c.seed;
  out.memory_bound = c.memory_bound;
  auto expand = [&](const std::vector<TensorSpec>& specs, std::vector<ConcreteTensor>& into, const char* kind) {
    for (std::size_t si = 0; si < specs.size(); ++si) {
      const TensorSpec& s = specs[si];
      std::string where = std::string("/") + kind + "/" + std::to_string(si);
      int64_t count = s.count.empty() ? 1 : eval_dim(s.count, c.dims, c, task.origin, where + "/count");
      if (count < 1 || count > 1024)
        throw Error("task '" + task.origin + "': case '" + c.name + "': " + where + "/count must be 1..1024");
      ConcreteTensor ct;
      ct.dtype = s.dtype;
      for (std::size_t d = 0; d < s.shape.size(); ++d)
        ct.shape.push_back(eval_dim(s.shape[d], c.dims, c, task.origin, where + "/shape/" + std::to_string(d)));
      ct.numel = 1;
      for (int64_t d : ct.shape) {
        if (d != 0 && ct.numel > kMaxTensorElements / d)
          throw Error("task '" + task.origin + "': case '" + c.name + "': tensor \"" + s.name +
                      "\" has more than " + std::to_string(kMaxTensorElements) + " elements");
        ct.numel *= d;
      }
      if (auto di = c.dtypes.find(s.name); di != c.dtypes.end()) ct.dtype = di->second;
      auto ci = c.init.find(s.name);
      ct.init = ci != c.init.end() ? ci->second : s.init.value_or(InitSpec{});
      if (!ct.init.below.empty()) {
        ct.init.b = static_cast<double>(eval_dim(ct.init.below, c.dims, c, task.origin, where + "/init/below")) - 1.0;
        ct.init.below.clear();
        if (ct.init.b < ct.init.a)
          throw Error("task '" + task.origin + "': case '" + c.name + "': tensor \"" + s.name +
                      "\": randint \"below\" leaves an empty range");
      }
      for (const std::string& tok : ct.init.special) {  // every token must fit the tensor's dtype now
        try {
          special_value(ct.dtype, ct.init, tok);
        } catch (const Error& e) {
          throw Error("task '" + task.origin + "': case " + c.name + ": input \"" + s.name + "\": " + e.what());
        }
      }
      ct.threshold = s.threshold.value_or(default_threshold(ct.dtype));
      if (s.index_of) index_into(task, c, out.inputs, s, ct);
      for (int64_t k = 0; k < count; ++k) {
        ConcreteTensor e = ct;
        e.name = s.count.empty() ? s.name : s.name + "." + std::to_string(k);
        into.push_back(std::move(e));
      }
    }
  };
  expand(task.inputs, out.inputs, "inputs");
  expand(task.outputs, out.outputs, "outputs");
  for (const auto& [k, v] : task.attrs) {
    auto it = c.attrs.find(k);
    out.attrs.emplace_back(k, it != c.attrs.end() ? it->second : v);
  }
  return out;
}

}  // namespace kope
