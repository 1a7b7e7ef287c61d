#include "kope/agent/prompts.h"

#include <algorithm>
#include <cctype>

#include "kope/agent/documents.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/device/device.h"
#include "kope/model/suite.h"
#include "kope/base/text.h"

namespace kope::agent {

namespace fs = std::filesystem;

PromptTemplates PromptTemplates::load(const std::string& spec, const std::optional<fs::path>& dir) {
  // The pack is the kind's wherever it runs: cuda@host and slurm:cuda read prompts/cuda/.
  const std::string device = device::parse_device_spec(spec).kind;
  PromptTemplates t;
  t.device = device;
  t.origin = dir ? dir->string() : "embedded";
  const std::string prefix = "prompts/" + device + "/";
  auto pick = [&](const std::string& rel) -> std::optional<std::string> {
    if (dir) {
      std::error_code ec;
      for (const fs::path& p : {*dir / device / rel, *dir / rel})
        if (fs::is_regular_file(p, ec)) return read_file(p, "prompt template");
    }
    for (const auto& f : embedded_files())
      if (f.path == prefix + rel) return std::string(f.text);
    return std::nullopt;
  };
  auto need = [&](const std::string& rel) {
    auto v = pick(rel);
    if (!v)
      throw Error("no prompt template " + prefix + rel + " for device \"" + device + "\"" +
                  (dir ? " (looked in '" + dir->string() + "' and the embedded resources)" : ""));
    return *v;
  };
  t.system = need("system.md");
  t.user = need("user.md");
  t.abi = pick("abi.md").value_or("");
  for (const auto& f : embedded_files()) {
    std::string_view p = f.path;
    if (p.rfind(prefix + "docs/", 0) == 0) {
      const std::string rel(p.substr(prefix.size()));
      t.docs.push_back({rel, pick(rel).value_or(std::string(f.text))});
    }
  }
  if (dir) {
    std::error_code ec;
    for (const fs::path& d : {*dir / device / "docs", *dir / "docs"}) {
      if (!fs::is_directory(d, ec)) continue;
      for (const auto& e : fs::directory_iterator(d, ec)) {
        const std::string rel = "docs/" + e.path().filename().string();
        if (e.path().extension() != ".md") continue;
        if (std::none_of(t.docs.begin(), t.docs.end(), [&](const auto& x) { return x.first == rel; }))
          t.docs.push_back({rel, read_file(e.path(), "prompt document")});
      }
    }
  }
  // A malformed front matter is the pack's error, said now rather than at the first prompt.
  for (const auto& [name, text] : t.docs) parse_doc(device + "/" + name, text);
  return t;
}

namespace {

struct Block {
  std::size_t start;  // offset of the opening fence
  std::string lang, body;
};

std::vector<Block> fenced_blocks(const std::string& text) {
  std::vector<Block> out;
  std::size_t pos = 0;
  std::optional<Block> open;
  std::string fence;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::size_t indent = 0;
    while (indent < line.size() && indent < 3 && line[indent] == ' ') ++indent;
    const std::string l = line.substr(indent);
    const bool is_fence = l.rfind("```", 0) == 0 || l.rfind("~~~", 0) == 0;
    if (!open && is_fence) {
      std::size_t n = 0;
      while (n < l.size() && l[n] == l[0]) ++n;
      fence = l.substr(0, n);
      std::string lang = trim(l.substr(n));
      std::transform(lang.begin(), lang.end(), lang.begin(), [](unsigned char c) { return std::tolower(c); });
      if (auto sp = lang.find_first_of(" \t{"); sp != std::string::npos) lang = lang.substr(0, sp);
      open = Block{pos, lang, ""};
    } else if (open && is_fence && l.rfind(fence, 0) == 0 && trim(l.substr(fence.size())).empty()) {
      out.push_back(*open);
      open.reset();
    } else if (open) {
      open->body += line + "\n";
    }
    if (end == text.size()) break;
    pos = end + 1;
  }
  return out;  // an unclosed block is not complete and is dropped
}

// The entry points kope loads: kope_kernel.h (CPU), kope_cuda.h, kope_ascend.h.
bool defines_entry(const std::string& body) {
  for (const char* entry : {"kope_kernel", "kope_cuda_kernel", "kope_ascend_kernel"})
    if (body.find(entry) != std::string::npos) return true;
  return false;
}

bool code_lang(const std::string& l) {
  return l.empty() || l == "cpp" || l == "c++" || l == "cc" || l == "cxx" || l == "c" || l == "hpp" || l == "h";
}

}  // namespace

ExtractedKernel extract_kernel(const std::string& reply) {
  ExtractedKernel k;
  const std::vector<Block> blocks = fenced_blocks(reply);
  const Block* chosen = nullptr;
  int code_blocks = 0;
  for (const Block& b : blocks) {
    if (!code_lang(b.lang)) continue;
    ++code_blocks;
    if (defines_entry(b.body)) chosen = &b;
  }
  if (!chosen) {
    if (blocks.empty() && reply.find("```") != std::string::npos)
      k.why_none = "your reply opened a ``` code block but never closed it (was it cut off by the token limit?)";
    else if (code_blocks == 0)
      k.why_none = "your reply had no complete fenced ```cpp code block";
    else
      k.why_none = "none of your reply's code blocks defined the entry point (int kope_kernel(const kope_args* a); on "
                   "CUDA kope_cuda_kernel, on Ascend kope_ascend_kernel)";
    return k;
  }
  k.source = chosen->body;
  k.thought = thought_of(k.source);
  if (k.thought.empty()) {
    std::string prose = trim(reply.substr(0, chosen->start));
    if (auto dot = prose.find_first_of(".\n"); dot != std::string::npos) prose = prose.substr(0, dot);
    k.thought = prose.substr(0, 200);
  }
  return k;
}

}  // namespace kope::agent
