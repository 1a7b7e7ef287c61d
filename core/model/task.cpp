#include "kope/model/task.h"

#include "task_internal.h"

#include "kope/model/inputs.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/sha256.h"

namespace kope {

using nlohmann::json;
using task_internal::parse_count;

namespace {

// A task file nests a few levels deep; anything deeper is hostile or broken, and recursion over it (dumping,
// destroying) could exhaust the stack.
constexpr int kMaxDepth = 64;

// Counts [ and { outside strings, so a file nested too deeply is refused before anything is built from it.
void check_nesting(const std::string& text, const std::string& origin) {
  int depth = 0, line = 1;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (ch == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') in_string = true;
    else if (ch == '[' || ch == '{') {
      if (++depth > kMaxDepth)
        throw Error("task '" + origin + "': line " + std::to_string(line) + ": nested more than " +
                    std::to_string(kMaxDepth) + " levels deep");
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
}

// The same for a value already built (parse_task is also given JSON directly); bounded recursion.
bool deeper_than(const json& v, int limit) {
  if (!v.is_structured()) return false;
  if (limit == 0) return true;
  for (const auto& e : v) if (deeper_than(e, limit - 1)) return true;
  return false;
}

class Parser {
 public:
  explicit Parser(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error("task '" + origin_ + "': at " + (where.empty() ? "/" : where) + ": " + what);
  }

  const json& member(const json& obj, const std::string& where, const char* key) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing required field \"") + key + "\"");
    return *it;
  }

  std::string string_at(const json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "expected a string, got " + std::string(v.type_name()));
    return v.get<std::string>();
  }

  double number_at(const json& v, const std::string& where) const {
    if (!v.is_number()) fail(where, "expected a number, got " + std::string(v.type_name()));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(where, "expected a finite number, got " + v.dump());
    return d;
  }

  // A JSON integer in [lo, hi]; a float, a negative number or one that overflows int64 is refused by name.
  int64_t integer_at(const json& v, const std::string& where, int64_t lo, int64_t hi, const char* what) const {
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
    if (!v.is_number_integer()) fail(where, std::string("expected ") + what + " (an integer in " + range + "), got " + v.dump());
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi))
      fail(where, std::string("expected ") + what + " (an integer in " + range + "), got " + v.dump());
    const int64_t n = v.get<int64_t>();
    if (n < lo || n > hi) fail(where, std::string("expected ") + what + " (an integer in " + range + "), got " + v.dump());
    return n;
  }

  // Task and case names become file and folder names: a name, never a path.
  void check_name(const std::string& s, const std::string& where) const {
    bool ok = !s.empty() && s.size() <= 100 &&
              (std::isalnum(static_cast<unsigned char>(s[0])) || s[0] == '_') && s.find("..") == std::string::npos;
    for (char ch : s)
      ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-');
    if (!ok)
      fail(where, "\"" + s + "\" is not a valid name (1 to 100 of letters, digits, '_', '.' and '-', starting with "
                  "a letter, digit or '_', without \"..\"; it names files and folders, so it cannot be a path)");
  }

  void check_identifier(const std::string& s, const std::string& where, bool allow_dot = false) const {
    bool ok = !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0]));
    for (char ch : s)
      ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || (allow_dot && ch == '.'));
    if (!ok) fail(where, "\"" + s + "\" is not a valid name (letters, digits and '_', not starting with a digit)");
  }

  void check_keys(const json& obj, const std::string& where, std::initializer_list<const char*> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      for (const char* k : allowed) known = known || it.key() == k;
      if (!known) {
        std::string list;
        for (const char* k : allowed) list += std::string(list.empty() ? "" : ", ") + k;
        fail(where + "/" + it.key(), "unknown field \"" + it.key() + "\" (known: " + list + ")");
      }
    }
  }

  InitSpec init_at(const json& v, const std::string& where) const {
    if (!v.is_object()) fail(where, "expected an object such as {\"dist\": \"uniform\", \"low\": -1, \"high\": 1}");
    std::string dist = string_at(member(v, where, "dist"), where + "/dist");
    InitSpec s;
    auto num = [&](const char* key, double fallback) {
      auto it = v.find(key);
      return it == v.end() ? fallback : number_at(*it, where + "/" + key);
    };
    if (dist == "randint" && v.contains("below")) {  // high = the case's value of a dimension expression - 1
      check_keys(v, where, {"dist", "low", "below", "special", "special_fraction"});
      s.kind = InitSpec::Kind::RandInt;
      s.a = num("low", 0.0);
      s.below = dim_expr_at(v.at("below"), where + "/below");
    } else if (dist == "uniform" || dist == "randint") {
      check_keys(v, where, {"dist", "low", "high", "special", "special_fraction"});
      s.kind = dist == "uniform" ? InitSpec::Kind::Uniform : InitSpec::Kind::RandInt;
      s.a = num("low", dist == "uniform" ? -1.0 : 0.0);
      s.b = num("high", dist == "uniform" ? 1.0 : 10.0);
      if (!(s.a < s.b)) fail(where + "/low", "\"low\" must be below \"high\"");
      if (dist == "randint" && (std::fabs(s.a) > 9.0e15 || std::fabs(s.b) > 9.0e15))
        fail(where, "randint bounds must lie within +-9e15");
    } else if (dist == "normal") {
      check_keys(v, where, {"dist", "mean", "std", "special", "special_fraction"});
      s.kind = InitSpec::Kind::Normal;
      s.a = num("mean", 0.0);
      s.b = num("std", 1.0);
      if (!(s.b > 0)) fail(where + "/std", "must be positive");
    } else if (dist == "bernoulli") {
      check_keys(v, where, {"dist", "p", "special", "special_fraction"});
      s.kind = InitSpec::Kind::Bernoulli;
      s.a = num("p", 0.5);
      if (!(s.a >= 0 && s.a <= 1)) fail(where + "/p", "must lie in [0, 1]");
    } else {
      fail(where + "/dist", "unknown distribution \"" + dist + "\" (known: uniform, normal, bernoulli, randint)");
    }
    special_at(v, where, s);
    return s;
  }

  // "special": a list of special-value tokens or numbers; "special_fraction": the share of special elements.
  void special_at(const json& v, const std::string& where, InitSpec& s) const {
    auto it = v.find("special");
    if (it == v.end()) {
      if (v.contains("special_fraction")) fail(where + "/special_fraction", "needs a \"special\" list");
      return;
    }
    if (!it->is_array() || it->empty())
      fail(where + "/special", "expected a non-empty list such as [\"nan\", \"inf\", \"-inf\", 1e30]");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& e = (*it)[i];
      const std::string w = where + "/special/" + std::to_string(i);
      if (e.is_number()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", number_at(e, w));
        s.special.emplace_back(buf);
      } else {
        s.special.push_back(string_at(e, w));
      }
    }
    s.special_fraction = 0.05;
    if (auto f = v.find("special_fraction"); f != v.end()) {
      s.special_fraction = number_at(*f, where + "/special_fraction");
      if (!(s.special_fraction >= 0.0 && s.special_fraction <= 1.0))
        fail(where + "/special_fraction", "must lie in [0, 1]");
    }
  }

  std::string dim_expr_at(const json& v, const std::string& where) const {
    if (v.is_number()) return std::to_string(integer_at(v, where, 0, kMaxTensorElements, "a dimension"));
    std::string s = string_at(v, where);
    std::string term;
    std::stringstream ss(s);
    bool any = false;
    while (std::getline(ss, term, '*')) {
      term.erase(0, term.find_first_not_of(' '));
      term.erase(term.find_last_not_of(' ') + 1);
      if (term.empty()) fail(where, "malformed dimension expression \"" + s + "\"");
      if (std::isdigit(static_cast<unsigned char>(term[0]))) {
        auto n = parse_count(term);
        if (!n || *n > kMaxTensorElements)
          fail(where, "\"" + term + "\" in \"" + s + "\" is not a whole number from 0 to " +
                      std::to_string(kMaxTensorElements));
      } else {
        check_identifier(term, where);
      }
      any = true;
    }
    if (!any) fail(where, "empty dimension expression");
    return s;
  }

  TensorSpec tensor_at(const json& v, const std::string& where, bool is_input) const {
    if (!v.is_object()) fail(where, "expected a tensor object with \"name\", \"dtype\" and \"shape\"");
    if (is_input)
      check_keys(v, where, {"name", "dtype", "shape", "count", "init", "doc"});
    else
      check_keys(v, where, {"name", "dtype", "shape", "count", "threshold", "index_of", "doc"});
    TensorSpec t;
    t.name = string_at(member(v, where, "name"), where + "/name");
    check_identifier(t.name, where + "/name");
    std::string dt = string_at(member(v, where, "dtype"), where + "/dtype");
    auto parsed = parse_dtype(dt);
    if (!parsed) fail(where + "/dtype", "unknown dtype \"" + dt + "\" (known: fp32, fp16, bf16, fp64, int32, int64, uint8, int8)");
    t.dtype = *parsed;
    const json& shape = member(v, where, "shape");
    if (!shape.is_array()) fail(where + "/shape", "expected an array of dimensions");
    if (shape.size() > 8) fail(where + "/shape", "at most 8 dimensions are supported");
    for (std::size_t i = 0; i < shape.size(); ++i)
      t.shape.push_back(dim_expr_at(shape[i], where + "/shape/" + std::to_string(i)));
    if (auto it = v.find("count"); it != v.end()) t.count = dim_expr_at(*it, where + "/count");
    if (auto it = v.find("init"); it != v.end()) t.init = init_at(*it, where + "/init");
    if (auto it = v.find("threshold"); it != v.end()) {
      double th = number_at(*it, where + "/threshold");
      // 0 means exact, for any dtype (check_output's rule): L2's cummin compares its fp32 values exactly.
      if (!(th >= 0)) fail(where + "/threshold", "must be non-negative (0: exact)");
      t.threshold = th;
    }
    if (auto it = v.find("index_of"); it != v.end()) t.index_of = index_of_at(*it, where + "/index_of", t);
    return t;
  }

  // {"input": "x", "axis": -1}: the output holds indices into input x along that axis (see IndexOf).
  IndexOf index_of_at(const json& v, const std::string& where, const TensorSpec& out) const {
    if (!v.is_object()) fail(where, "expected {\"input\": <input name>, \"axis\": <axis>}");
    check_keys(v, where, {"input", "axis", "doc"});
    if (is_floating(out.dtype)) fail(where, "an index output needs an integer dtype");
    if (out.threshold && *out.threshold != 0.0) fail(where, "an index output is checked exactly: no threshold");
    IndexOf x;
    x.input = string_at(member(v, where, "input"), where + "/input");
    const auto rank = static_cast<int64_t>(out.shape.size());
    x.axis = static_cast<int>(integer_at(member(v, where, "axis"), where + "/axis", -rank, rank - 1,
                                         "an axis of the output"));
    if (x.axis < 0) x.axis += static_cast<int>(rank);
    return x;
  }

  std::string source_at(const json& v, const std::string& where) const {
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_array()) fail(where, "expected source code: a string or an array of lines");
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += string_at(v[i], where + "/" + std::to_string(i)) + "\n";
    if (out.size() > (std::size_t{1} << 20)) fail(where, "source longer than 1 MiB");
    return out;
  }

  std::map<std::string, double> attrs_at(const json& v, const std::string& where) const {
    if (!v.is_object()) fail(where, "expected an object of attribute names to numbers");
    std::map<std::string, double> out;
    for (auto it = v.begin(); it != v.end(); ++it) {
      check_identifier(it.key(), where + "/" + it.key());
      out[it.key()] = it->is_boolean() ? (it->get<bool>() ? 1.0 : 0.0) : number_at(*it, where + "/" + it.key());
    }
    return out;
  }

  std::vector<std::string> strings_at(const json& v, const std::string& where) const {
    if (!v.is_array()) fail(where, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(string_at(v[i], where + "/" + std::to_string(i)));
    return out;
  }

  // {"cpu": {"source": [...], "link": [...], "include_dirs": [...], "threads": 1}, "why": "..."}; a device
  // mapped to null has no library implementation, and "why" says so.
  std::map<std::string, std::optional<LibraryImpl>> library_at(const json& v, const std::string& where,
                                                              std::string& why) const {
    if (!v.is_object()) fail(where, "expected an object of devices to library implementations (or null)");
    std::map<std::string, std::optional<LibraryImpl>> out;
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string w = where + "/" + it.key();
      if (it.key() == "why" || it.key() == "doc") {
        if (it.key() == "why") why = string_at(*it, w);
        continue;
      }
      check_identifier(it.key(), w);
      if (it->is_null()) {
        out[it.key()] = std::nullopt;
        continue;
      }
      if (!it->is_object()) fail(w, "expected {\"source\": [...], \"link\": [...]} or null");
      check_keys(*it, w, {"source", "link", "include_dirs", "threads", "doc"});
      LibraryImpl lib;
      lib.source = source_at(member(*it, w, "source"), w + "/source");
      if (lib.source.find("kope_kernel") == std::string::npos)
        fail(w + "/source", "the library source must define int kope_kernel(const kope_args*)");
      if (auto l = it->find("link"); l != it->end()) lib.link = strings_at(*l, w + "/link");
      for (std::size_t i = 0; i < lib.link.size(); ++i) check_identifier(lib.link[i], w + "/link/" + std::to_string(i));
      if (auto d = it->find("include_dirs"); d != it->end()) lib.include_dirs = strings_at(*d, w + "/include_dirs");
      for (std::size_t i = 0; i < lib.include_dirs.size(); ++i)
        if (lib.include_dirs[i].empty() || lib.include_dirs[i][0] != '/')
          fail(w + "/include_dirs/" + std::to_string(i), "expected an absolute folder");
      if (auto th = it->find("threads"); th != it->end()) {
        if (!th->is_number_integer() || th->get<int>() < 1) fail(w + "/threads", "expected a positive integer");
        lib.threads = th->get<int>();
      }
      out[it.key()] = std::move(lib);
    }
    for (const auto& [dev, impl] : out)
      if (!impl && why.empty()) fail(where + "/why", "say why device \"" + dev + "\" has no library implementation");
    return out;
  }

 private:
  std::string origin_;
};

// "inputs" then "outputs": non-empty arrays of tensors whose names are unique across both.
void parse_tensors(const Parser& p, const json& j, Task& t) {
  std::set<std::string> names;
  for (const char* key : {"inputs", "outputs"}) {
    const json& arr = p.member(j, "", key);
    std::string where = std::string("/") + key;
    if (!arr.is_array() || arr.empty()) p.fail(where, "expected a non-empty array of tensors");
    for (std::size_t i = 0; i < arr.size(); ++i) {
      std::string w = where + "/" + std::to_string(i);
      TensorSpec s = p.tensor_at(arr[i], w, key[0] == 'i');
      if (!names.insert(s.name).second) p.fail(w + "/name", "tensor name \"" + s.name + "\" is used twice");
      (key[0] == 'i' ? t.inputs : t.outputs).push_back(std::move(s));
    }
  }
  for (std::size_t i = 0; i < t.outputs.size(); ++i) {
    if (!t.outputs[i].index_of) continue;
    const std::string w = "/outputs/" + std::to_string(i) + "/index_of/input";
    const IndexOf& x = *t.outputs[i].index_of;
    auto in = std::find_if(t.inputs.begin(), t.inputs.end(), [&](const TensorSpec& s) { return s.name == x.input; });
    if (in == t.inputs.end()) p.fail(w, "no input is named \"" + x.input + "\"");
    if (!in->count.empty()) p.fail(w, "input \"" + x.input + "\" is a list; an index output points into one tensor");
    if (in->shape.size() != t.outputs[i].shape.size())
      p.fail(w, "input \"" + x.input + "\" has " + std::to_string(in->shape.size()) + " dimensions, the output " +
                    std::to_string(t.outputs[i].shape.size()) + ": they must have the same rank");
  }
}

// "reference", "baseline" and the per-device "baselines"; a task without an explicit baseline must be one whose
// reference can double as it.
void parse_sources(const Parser& p, const json& j, Task& t) {
  t.reference = p.source_at(p.member(j, "", "reference"), "/reference");
  if (t.reference.find("kope_kernel") == std::string::npos)
    p.fail("/reference", "the reference must define int kope_kernel(const kope_args*)");
  if (auto it = j.find("baseline"); it != j.end()) t.baseline = p.source_at(*it, "/baseline");
  if (auto it = j.find("baselines"); it != j.end()) {  // per device: {"cuda": [source lines], "ascend": ...}
    if (!it->is_object()) p.fail("/baselines", "expected an object of device name -> source lines");
    for (const auto& [dev, src] : it->items()) {
      p.check_identifier(dev, "/baselines/" + dev);
      t.baselines[dev] = p.source_at(src, "/baselines/" + dev);
    }
  }
  if (t.baseline.empty() && !reference_is_fp32_baseline(t))
    p.fail("/baseline", "tensors other than fp32 need an explicit \"baseline\" source (the reference only "
                        "doubles as the baseline when every floating tensor is fp32)");
}

// A case's "dims", "attrs" (declared by the task) and "init" (of the task's inputs).
void parse_case_values(const Parser& p, const json& cj, const std::string& w, const Task& t, Case& c) {
  if (auto it = cj.find("dims"); it != cj.end()) {
    if (!it->is_object()) p.fail(w + "/dims", "expected an object of dimension symbols to sizes");
    for (auto d = it->begin(); d != it->end(); ++d) {
      p.check_identifier(d.key(), w + "/dims/" + d.key());
      c.dims[d.key()] = p.integer_at(*d, w + "/dims/" + d.key(), 1, kMaxTensorElements, "a positive integer");
    }
  }
  if (auto it = cj.find("attrs"); it != cj.end()) {
    c.attrs = p.attrs_at(*it, w + "/attrs");
    for (const auto& [k, v] : c.attrs)
      if (!t.attrs.count(k)) p.fail(w + "/attrs/" + k, "attribute \"" + k + "\" is not declared in the task's \"attrs\"");
  }
  if (auto it = cj.find("init"); it != cj.end()) {
    if (!it->is_object()) p.fail(w + "/init", "expected an object of input names to distributions");
    for (auto d = it->begin(); d != it->end(); ++d) {
      bool known = false;
      for (const auto& in : t.inputs) known = known || in.name == d.key();
      if (!known) p.fail(w + "/init/" + d.key(), "no input is named \"" + d.key() + "\"");
      c.init[d.key()] = p.init_at(*d, w + "/init/" + d.key());
    }
  }
}

// A case's "dtypes" (of the task's tensors), "memory_bound", "large" and "seed" (case i defaults to seed i+1).
void parse_case_run(const Parser& p, const json& cj, const std::string& w, std::size_t i, const Task& t, Case& c) {
  if (auto it = cj.find("dtypes"); it != cj.end()) {
    if (!it->is_object()) p.fail(w + "/dtypes", "expected an object of tensor names to dtypes");
    for (auto d = it->begin(); d != it->end(); ++d) {
      bool known = false;
      for (const auto* list : {&t.inputs, &t.outputs})
        for (const auto& ts : *list) known = known || ts.name == d.key();
      if (!known) p.fail(w + "/dtypes/" + d.key(), "no tensor is named \"" + d.key() + "\"");
      auto dt = parse_dtype(p.string_at(*d, w + "/dtypes/" + d.key()));
      if (!dt) p.fail(w + "/dtypes/" + d.key(), "unknown dtype " + d->dump());
      c.dtypes[d.key()] = *dt;
    }
  }
  if (auto it = cj.find("memory_bound"); it != cj.end()) {
    if (!it->is_boolean()) p.fail(w + "/memory_bound", "expected true or false");
    c.memory_bound = it->get<bool>();
  }
  if (auto it = cj.find("large"); it != cj.end()) {
    if (!it->is_boolean()) p.fail(w + "/large", "expected true or false");
    c.large = it->get<bool>();
  }
  if (auto it = cj.find("seed"); it != cj.end()) {
    if (!it->is_number_integer() || (!it->is_number_unsigned() && it->get<int64_t>() < 0))
      p.fail(w + "/seed", "expected a non-negative integer below 2^64, got " + it->dump());
    c.seed = it->get<uint64_t>();
  } else {
    c.seed = i + 1;
  }
}

// "cases": a non-empty array of uniquely named cases.
void parse_cases(const Parser& p, const json& j, Task& t) {
  const json& cases = p.member(j, "", "cases");
  if (!cases.is_array() || cases.empty()) p.fail("/cases", "expected a non-empty array of cases");
  std::set<std::string> case_names;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string w = "/cases/" + std::to_string(i);
    const json& cj = cases[i];
    if (!cj.is_object()) p.fail(w, "expected a case object with \"name\" and \"dims\"");
    p.check_keys(cj, w, {"name", "dims", "attrs", "init", "dtypes", "memory_bound", "large", "seed", "doc"});
    Case c;
    c.name = p.string_at(p.member(cj, w, "name"), w + "/name");
    p.check_name(c.name, w + "/name");
    if (!case_names.insert(c.name).second) p.fail(w + "/name", "case name \"" + c.name + "\" is used twice");
    parse_case_values(p, cj, w, t, c);
    parse_case_run(p, cj, w, i, t, c);
    t.cases.push_back(std::move(c));
  }
}

// A case that changes a tensor's dtype needs a baseline that reads any storage: an explicit one, or a reference
// that goes through kope_load/kope_store/kope_load_int (the fp32 build of it is then the baseline).
void check_dtype_baseline(const Parser& p, const Task& t) {
  for (std::size_t i = 0; i < t.cases.size() && t.baseline.empty(); ++i)
    for (const auto& [name, dt] : t.cases[i].dtypes)
      if (t.reference.find("kope_load") == std::string::npos)
        p.fail("/cases/" + std::to_string(i) + "/dtypes/" + name,
               "a case that changes a dtype needs an explicit \"baseline\", or a reference that reads and writes "
               "through kope_load/kope_store/kope_load_int");
}

}  // namespace

Task parse_task(const json& j, const std::string& origin) {
  Parser p(origin);
  if (!j.is_object()) p.fail("", "a task must be a JSON object");
  if (deeper_than(j, kMaxDepth)) p.fail("", "nested more than " + std::to_string(kMaxDepth) + " levels deep");
  p.check_keys(j, "", {"name", "level", "summary", "inputs", "outputs", "attrs", "reference", "baseline", "baselines", "library",
                        "cases", "doc"});
  Task t;
  t.origin = origin;
  t.name = p.string_at(p.member(j, "", "name"), "/name");
  p.check_name(t.name, "/name");
  if (auto it = j.find("level"); it != j.end()) t.level = static_cast<int>(p.integer_at(*it, "/level", 0, 100, "a level"));
  if (auto it = j.find("summary"); it != j.end()) t.summary = p.string_at(*it, "/summary");
  parse_tensors(p, j, t);
  if (auto it = j.find("attrs"); it != j.end()) t.attrs = p.attrs_at(*it, "/attrs");
  parse_sources(p, j, t);
  parse_cases(p, j, t);
  check_dtype_baseline(p, t);
  if (auto it = j.find("library"); it != j.end()) t.library = p.library_at(*it, "/library", t.library_why);
  for (std::size_t i = 0; i < t.cases.size(); ++i) {  // every shape must resolve now, not mid-run
    try {
      resolve_case(t, t.cases[i]);
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + " (at /cases/" + std::to_string(i) + ")");
    }
  }
  // The library baseline is how the task is compared, not what it asks: leave it out of the digest, so goldens
  // and records of a task stay valid when only its library source changes.
  json semantic = j;
  semantic.erase("library");
  t.digest = sha256_hex(semantic.dump());
  return t;
}

Task parse_task_text(const std::string& text, const std::string& origin) {
  check_nesting(text, origin);
  // The parser's events track the JSON pointer of the value being read, so a number that overflows (1e999,
  // which nlohmann refuses mid-parse) is reported at its field like every other bad number.
  struct Frame {
    bool array = false;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Frame> path;
  auto pointer = [&] {
    std::string p;
    for (const Frame& f : path) p += "/" + (f.array ? std::to_string(f.index) : f.key);
    return p.empty() ? std::string("/") : p;
  };
  auto element_done = [&] {
    if (!path.empty() && path.back().array) ++path.back().index;
  };
  json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: path.push_back({false, "", 0}); break;
      case json::parse_event_t::array_start: path.push_back({true, "", 0}); break;
      case json::parse_event_t::key: if (!path.empty()) path.back().key = parsed.get<std::string>(); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!path.empty()) path.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text, track);
  } catch (const json::out_of_range& e) {
    throw Error("task '" + origin + "': at " + pointer() + ": expected a finite number (" + e.what() + ")");
  } catch (const json::exception& e) {
    throw Error("task '" + origin + "': not valid JSON: " + e.what());
  }
  return parse_task(j, origin);
}

Task load_task_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("task file '" + path.string() + "': cannot be read (does it exist?)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_task_text(ss.str(), path.string());
}

const Case* find_case(const Task& task, const std::string& name) {
  for (const Case& c : task.cases)
    if (c.name == name) return &c;
  return nullptr;
}

bool reference_is_fp32_baseline(const Task& task) {
  for (const auto* list : {&task.inputs, &task.outputs})
    for (const TensorSpec& s : *list)
      if (is_floating(s.dtype) && s.dtype != DType::F32) return false;
  return true;
}

}  // namespace kope
