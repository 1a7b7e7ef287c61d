#include "kope/base/sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace kope {

// OpenSSL's one-shot EVP digest: the well-kept implementation (and the CPU's SHA extensions where it has them).
std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("sha256: OpenSSL's EVP_Digest failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(2 * len, '0');
  for (unsigned int i = 0; i < len; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace kope
