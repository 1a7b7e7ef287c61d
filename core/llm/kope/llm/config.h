// LLM settings: named profiles in $XDG_CONFIG_HOME/kope/llm.json (else ~/.config/kope/llm.json), overridden by
// flags; the API key handed over by a front end (the window's system keychain), else read from the environment
// variable the profile names; never from the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kope/llm/client.h"

namespace kope::llm {

std::filesystem::path settings_path();

// What a profile says when the file says nothing: the base URL and the key variable of each provider.
std::string default_base_url(Provider p);
std::string default_key_env(Provider p);

struct ProfileOverrides {
  std::optional<std::string> provider, base_url, model, api_key_env;
  std::optional<int64_t> context_window, max_output_tokens;
  std::optional<double> temperature;
};

// The settings file's profiles, in file order. A missing file is no profiles; a bad one throws kope::Error
// naming the file and the JSON pointer of the field.
std::vector<Profile> load_profiles(const std::filesystem::path& file);

// A problem of one field of one profile, for a person: profile "x", field "model", "missing".
struct FieldProblem {
  std::string profile;  // empty: the file as a whole (its "default")
  std::string field;    // "model", "base_url", ...; "name" for the profile's name; empty: the profile itself
  std::string message;
  std::string text() const;  // profile "x": model: missing
};

// One profile's JSON object read leniently: each field that is missing, unknown or wrong is noted in `problems`
// (in the order parse_profile reports them) and left at its default.
Profile read_profile(const std::string& name, const nlohmann::json& j, std::vector<FieldProblem>& problems);

// One profile's JSON object as load_profiles reads it, checked field by field; kope::Error names `file` and the
// JSON pointer `pointer` + "/" + the field.
Profile parse_profile(const std::filesystem::path& file, const std::string& pointer, const std::string& name,
                      const nlohmann::json& j);

// The named profile (or the file's "default", or flags alone), with the flags applied. Throws kope::Error.
Profile resolve_profile(const std::optional<std::string>& name, const ProfileOverrides& flags,
                        const std::filesystem::path& file);

// The key a front end handed over in `p.api_key`, else the one in the profile's variable. Empty when there is
// none and the server is local (localhost, 127.0.0.1); otherwise throws kope::Error naming the variable (never a
// value).
std::string api_key_for(const Profile& p);

// The profile as recorded with a transcript: everything but the key (`api_key`, set at run time, is left out).
nlohmann::json to_json(const Profile& p);

}  // namespace kope::llm
