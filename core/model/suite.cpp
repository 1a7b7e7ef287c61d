#include "kope/model/suite.h"

#include <algorithm>
#include <sstream>
#include <system_error>

#include "kope/base/embedded.h"
#include "kope/base/error.h"

namespace kope {

namespace fs = std::filesystem;

namespace {
void sort_tasks(std::vector<Task>& tasks) {
  std::sort(tasks.begin(), tasks.end(),
            [](const Task& a, const Task& b) { return a.level != b.level ? a.level < b.level : a.name < b.name; });
}
}  // namespace

Suite Suite::embedded() {
  Suite s;
  s.origin_ = "embedded";
  for (const EmbeddedFile& f : embedded_files()) {
    std::string path(f.path);
    if (path.rfind("tasks/", 0) == 0 && path.size() > 5 && path.substr(path.size() - 5) == ".json")
      s.tasks_.push_back(parse_task_text(std::string(f.text), "embedded:" + path));
  }
  sort_tasks(s.tasks_);
  return s;
}

Suite Suite::from_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("suite folder '" + dir.string() + "' does not exist or is not a folder");
  Suite s;
  s.origin_ = dir.string();
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); ++it)
    if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) s.tasks_.push_back(load_task_file(f));
  for (std::size_t i = 0; i < s.tasks_.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (s.tasks_[i].name == s.tasks_[k].name)
        throw Error("suite '" + dir.string() + "': task name \"" + s.tasks_[i].name + "\" is used by both '" +
                    s.tasks_[k].origin + "' and '" + s.tasks_[i].origin + "'");
  if (s.tasks_.empty()) throw Error("suite folder '" + dir.string() + "' holds no *.json task files");
  sort_tasks(s.tasks_);
  return s;
}

const Task* Suite::find(const std::string& name) const {
  for (const Task& t : tasks_)
    if (t.name == name) return &t;
  return nullptr;
}

const Task& Suite::require(const std::string& name) const {
  if (const Task* t = find(name)) return *t;
  std::string known;
  for (const Task& t : tasks_) known += (known.empty() ? "" : ", ") + t.name;
  throw Error("no task named \"" + name + "\" in the " + origin_ + " suite (tasks: " + known +
              "); use --suite DIR or a task JSON path for others");
}

Suite Suite::at_levels(const std::vector<int>& wanted) const {
  if (wanted.empty()) return *this;
  Suite s;
  s.origin_ = origin_;
  for (const Task& t : tasks_)
    if (std::find(wanted.begin(), wanted.end(), t.level) != wanted.end()) s.tasks_.push_back(t);
  if (s.tasks_.empty()) {
    std::string have;
    for (int l : levels()) have += (have.empty() ? "L" : ", L") + std::to_string(l);
    throw Error("the " + origin_ + " suite has no task at the requested level(s) (it has " +
                (have.empty() ? std::string("none") : have) + ")");
  }
  return s;
}

std::vector<int> Suite::levels() const {
  std::vector<int> out;
  for (const Task& t : tasks_)
    if (std::find(out.begin(), out.end(), t.level) == out.end()) out.push_back(t.level);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> parse_levels(const std::string& text) {
  if (text == "all") return {};
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty() && (item[0] == 'L' || item[0] == 'l')) item.erase(0, 1);
    bool digits = !item.empty() && item.size() <= 3 &&
                  std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) throw Error("--level expects levels such as 1 or 1,2 (or all), got \"" + text + "\"");
    const int level = std::stoi(item);
    if (std::find(out.begin(), out.end(), level) == out.end()) out.push_back(level);
  }
  if (out.empty()) throw Error("--level expects levels such as 1 or 1,2 (or all), got \"" + text + "\"");
  return out;
}

Task resolve_task(const std::string& name_or_path, const Suite& suite) {
  if (const Task* t = suite.find(name_or_path)) return *t;
  std::error_code ec;
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               (name_or_path.size() > 5 && name_or_path.substr(name_or_path.size() - 5) == ".json");
  if (looks_like_path || fs::exists(name_or_path, ec))
    return load_task_file(name_or_path);
  return suite.require(name_or_path);
}

std::string thought_of(const std::string& source) {
  std::istringstream in(source);
  std::string line;
  const std::string marker = "// thought:";
  for (int n = 0; n < 20 && std::getline(in, line); ++n) {
    auto pos = line.find(marker);
    if (pos == std::string::npos) continue;
    std::string t = line.substr(pos + marker.size());
    t.erase(0, t.find_first_not_of(' '));
    return t;
  }
  return {};
}

std::string kernel_suffix(const std::string& device_kind) { return device_kind == "cuda" ? ".cu" : ".cpp"; }

std::vector<CandidateSource> embedded_candidates(const std::string& task_name, const std::string& device_kind) {
  std::vector<CandidateSource> out;
  const std::string prefix = "kernels/" + task_name + "/" + device_kind + "/";
  for (const EmbeddedFile& f : embedded_files()) {
    std::string path(f.path);
    if (path.rfind(prefix, 0) != 0 || path.find('/', prefix.size()) != std::string::npos) continue;
    std::string src(f.text);
    out.push_back({task_name + "/" + path.substr(prefix.size()), thought_of(src), src});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace kope
