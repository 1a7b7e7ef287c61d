#include "kope/agent/documents.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "kope/base/error.h"
#include "kope/base/text.h"

namespace kope::agent {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::vector<std::string> terms(const std::string& list) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    if (std::string t = lower(trim(list.substr(pos, comma - pos))); !t.empty()) out.push_back(t);
    pos = comma + 1;
  }
  return out;
}

// The terms found in `text` (already lower case), each at the start of a word.
std::vector<std::string> matched(const std::vector<std::string>& ts, const std::string& text) {
  std::vector<std::string> out;
  for (const auto& t : ts) {
    for (std::size_t at = text.find(t); at != std::string::npos; at = text.find(t, at + 1)) {
      if (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]))) {
        out.push_back(t);
        break;
      }
    }
  }
  return out;
}

// At most four terms: a label is for listings.
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 4; ++i) s += (s.empty() ? "" : ", ") + v[i];
  return v.size() > 4 ? s + ", ..." : s;
}

}  // namespace

PackDoc parse_doc(const std::string& name, const std::string& text) {
  PackDoc d;
  d.name = name;
  if (text.rfind("---\n", 0) != 0 && text.rfind("---\r\n", 0) != 0) {
    d.body = text;
    return d;
  }
  std::size_t pos = text.find('\n') + 1;
  for (int line_no = 2;; ++line_no) {
    if (pos >= text.size())
      throw Error("prompt document " + name + ": the front matter opened on line 1 is never closed with a line '---'");
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line == "---") break;
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    const std::string where = "prompt document " + name + " line " + std::to_string(line_no) + " ('" + line + "')";
    if (colon == std::string::npos) throw Error(where + ": expected 'key: value' (keys: base, task, feedback, only-for)");
    const std::string key = lower(trim(line.substr(0, colon))), value = trim(line.substr(colon + 1));
    if (key == "base") {
      char* stop = nullptr;
      const double b = std::strtod(value.c_str(), &stop);
      if (value.empty() || *stop != '\0' || !(b >= 0 && b <= 10))
        throw Error(where + ": base must be a number from 0 to 10");
      d.meta.base = b;
    } else if (key == "task") {
      d.meta.task = terms(value);
    } else if (key == "feedback") {
      d.meta.feedback = terms(value);
    } else if (key == "only-for") {
      d.meta.only_for = terms(value);
    } else {
      throw Error(where + ": unknown key '" + key + "' (keys: base, task, feedback, only-for)");
    }
  }
  d.body = pos < text.size() ? text.substr(pos) : "";
  while (!d.body.empty() && d.body.front() == '\n') d.body.erase(0, 1);
  return d;
}

std::vector<ContextItem> rank_docs(const std::string& device, const std::vector<std::pair<std::string, std::string>>& docs,
                                   const DocState& state) {
  const std::string task = lower(state.task), feedback = lower(state.feedback);
  std::vector<ContextItem> out;
  for (const auto& [name, text] : docs) {
    const PackDoc d = parse_doc(device + "/" + name, text);
    ContextItem c;
    c.tier = Tier::Cold;
    c.source_kind = "doc";
    c.text = d.body;
    std::string why;
    if (!d.meta.only_for.empty() && matched(d.meta.only_for, task).empty()) {
      c.rank = -1;
      why = "only for tasks about " + joined(d.meta.only_for);
    } else {
      const auto t = matched(d.meta.task, task), f = matched(d.meta.feedback, feedback);
      c.rank = d.meta.base + 2.0 * static_cast<double>(std::min<std::size_t>(3, t.size()));
      if (!f.empty()) c.rank += 10 + 2.0 * static_cast<double>(std::min<std::size_t>(3, f.size()));
      if (!f.empty()) why = "feedback: " + joined(f);
      if (!t.empty()) why += (why.empty() ? "" : "; ") + std::string("task: ") + joined(t);
    }
    c.label = "doc " + device + "/" + name + (why.empty() ? "" : " (" + why + ")");
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const ContextItem& a, const ContextItem& b) { return a.rank > b.rank; });
  return out;
}

}  // namespace kope::agent
