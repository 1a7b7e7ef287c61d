// Policy(C)'s words: the prompt templates of a device (resources/prompts/<device>/, embedded, or a folder given
// with --prompts), and the reading of a reply: its kernel and its thought.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kope::agent {

struct PromptTemplates {
  std::string device;
  std::string system;  // system.md
  std::string user;    // user.md
  std::string abi;     // abi.md
  std::vector<std::pair<std::string, std::string>> docs;  // docs/*.md: name, text (cold; front matter: documents.h)
  std::string origin;  // "embedded" or the folder

  // The embedded templates of `device`, each file replaced by the same name under `override_dir` when given
  // and present there. Throws kope::Error when the device has no system.md or user.md.
  static PromptTemplates load(const std::string& device, const std::optional<std::filesystem::path>& override_dir);
};

struct ExtractedKernel {
  std::string source;
  std::string thought;
  std::string why_none;  // set when no usable kernel was found: what the next prompt tells the model
};

// The kernel of a reply. Fenced blocks are ``` or ~~~ fences tagged cpp, c++, cc, cxx, c, or untagged; only
// complete blocks (with a closing fence) count. Of those that define an entry point (`kope_kernel`, or on an
// accelerator `kope_cuda_kernel` / `kope_ascend_kernel`), the LAST one is taken (a model that revises its
// answer puts the final version last). The thought is the kernel's `// thought:` line, else the first
// sentence of the prose before the block.
ExtractedKernel extract_kernel(const std::string& reply);

}  // namespace kope::agent
