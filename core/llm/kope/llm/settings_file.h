// The LLM settings file as a document a front end edits (the window's profile editor): profiles added, changed,
// renamed and removed, the default chosen, with everything else in the file kept as it was (fields kope does not
// know, other top-level keys, the order of keys); written atomically, and never over what another program wrote
// there since it was read. The command line reads the same file (config.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/llm/client.h"
#include "kope/llm/config.h"

namespace kope::llm {

// The checks the editor's form needs beyond the field types: a name, a model, an http(s) base URL, output below
// the context window, a variable name that can be one.
std::vector<FieldProblem> check_profile(const Profile& p);

class SettingsFile {
 public:
  // A missing file is an empty document. Throws kope::Error naming the file when it is not JSON (with the byte),
  // or not an object whose "profiles" is an object.
  static SettingsFile load(const std::filesystem::path& file);

  const std::filesystem::path& path() const { return file_; }
  bool exists_on_disk() const { return existed_; }

  std::vector<std::string> names() const;  // in file order
  bool has(const std::string& name) const;
  std::optional<std::string> default_profile() const;
  void set_default(const std::optional<std::string>& name);

  // The profile's fields, the defaults where the file says nothing or holds a value of the wrong type (which
  // problems() names). Throws kope::Error for a name the file does not have.
  Profile profile(const std::string& name) const;
  // Sets the fields of `p` on profile `p.name`, appended when new. A field equal to its default is written only
  // when the file already had it; fields kope does not know are kept. `old_name`: the profile is renamed in its
  // place (and the default follows it).
  void put(const Profile& p, const std::optional<std::string>& old_name = std::nullopt);
  void remove(const std::string& name);

  // A key written into the file by hand (the command line refuses such a file); remove_stored_key takes it out.
  std::optional<std::string> stored_key(const std::string& name) const;
  void remove_stored_key(const std::string& name);
  // The profile's fields kope does not know: kept, but the command line refuses the file for them.
  std::vector<std::string> unknown_fields(const std::string& name) const;

  // Everything the command line would refuse, and what check_profile finds, each naming profile and field.
  std::vector<FieldProblem> problems() const;

  // The document as save() writes it.
  std::string text() const;
  // Writes the document atomically (a temporary file beside it, then a rename), making the folder. Throws
  // kope::Error, writing nothing, when the file changed on disk since it was read; EnvError when it cannot be
  // written.
  void save();

 private:
  const nlohmann::ordered_json& object(const std::string& name) const;

  std::filesystem::path file_;
  nlohmann::ordered_json doc_;
  std::string on_disk_;  // the text as last read or written, to notice another writer
  bool existed_ = false;
};

}  // namespace kope::llm
