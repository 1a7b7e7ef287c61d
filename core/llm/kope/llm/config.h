// LLM settings: named profiles in $XDG_CONFIG_HOME/kope/llm.json (else ~/.config/kope/llm.json), overridden by
// flags; the API key read only from the environment variable the profile names.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kope/llm/client.h"

namespace kope::llm {

std::filesystem::path settings_path();

struct ProfileOverrides {
  std::optional<std::string> provider, base_url, model, api_key_env;
  std::optional<int64_t> context_window, max_output_tokens;
  std::optional<double> temperature;
};

// The settings file's profiles, in file order. A missing file is no profiles; a bad one throws kope::Error
// naming the file and the JSON pointer of the field.
std::vector<Profile> load_profiles(const std::filesystem::path& file);

// The named profile (or the file's "default", or flags alone), with the flags applied. Throws kope::Error.
Profile resolve_profile(const std::optional<std::string>& name, const ProfileOverrides& flags,
                        const std::filesystem::path& file);

// The key from the profile's variable. Empty when the variable is unset and the server is local (localhost,
// 127.0.0.1); otherwise throws kope::Error naming the variable (never a value).
std::string api_key_for(const Profile& p);

// The profile as recorded with a transcript: everything but secrets (there are none in a profile).
nlohmann::json to_json(const Profile& p);

}  // namespace kope::llm
