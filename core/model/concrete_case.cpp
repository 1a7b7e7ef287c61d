// A resolved case as JSON: what the trusted side hands kope-runner in a job file. Kept apart from task loading,
// so the sandboxed runner links no more than it reads.
#include <nlohmann/json.hpp>

#include "kope/model/task.h"

namespace kope {

using nlohmann::json;

namespace {
json tensor_json(const ConcreteTensor& t) {
  json j = {{"name", t.name}, {"dtype", static_cast<int>(t.dtype)}, {"shape", t.shape}, {"numel", t.numel},
          {"init", {static_cast<int>(t.init.kind), t.init.a, t.init.b}}, {"threshold", t.threshold},
          {"special", t.init.special}, {"special_fraction", t.init.special_fraction}};
  if (t.index_of >= 0) j["index_of"] = {t.index_of, t.index_axis};  // only where set: other cases' JSON unchanged
  return j;
}
ConcreteTensor tensor_from_json(const json& j) {
  ConcreteTensor t;
  t.name = j.at("name").get<std::string>();
  t.dtype = static_cast<DType>(j.at("dtype").get<int>());
  t.shape = j.at("shape").get<std::vector<int64_t>>();
  t.numel = j.at("numel").get<int64_t>();
  t.init.kind = static_cast<InitSpec::Kind>(j.at("init").at(0).get<int>());
  t.init.a = j.at("init").at(1).get<double>();
  t.init.b = j.at("init").at(2).get<double>();
  t.threshold = j.at("threshold").get<double>();
  if (auto it = j.find("special"); it != j.end()) t.init.special = it->get<std::vector<std::string>>();
  if (auto it = j.find("special_fraction"); it != j.end()) t.init.special_fraction = it->get<double>();
  if (auto it = j.find("index_of"); it != j.end()) {
    t.index_of = it->at(0).get<int>();
    t.index_axis = it->at(1).get<int>();
  }
  return t;
}
}  // namespace

json to_json(const ConcreteCase& c) {
  json j = {{"name", c.name}, {"seed", c.seed}, {"inputs", json::array()}, {"outputs", json::array()},
            {"attrs", json::array()}};
  for (const auto& t : c.inputs) j["inputs"].push_back(tensor_json(t));
  for (const auto& t : c.outputs) j["outputs"].push_back(tensor_json(t));
  for (const auto& [k, v] : c.attrs) j["attrs"].push_back({k, v});
  return j;
}

ConcreteCase concrete_case_from_json(const json& j) {
  ConcreteCase c;
  c.name = j.at("name").get<std::string>();
  c.seed = j.at("seed").get<uint64_t>();
  for (const auto& t : j.at("inputs")) c.inputs.push_back(tensor_from_json(t));
  for (const auto& t : j.at("outputs")) c.outputs.push_back(tensor_from_json(t));
  for (const auto& a : j.at("attrs")) c.attrs.emplace_back(a.at(0).get<std::string>(), a.at(1).get<double>());
  return c;
}

}  // namespace kope
