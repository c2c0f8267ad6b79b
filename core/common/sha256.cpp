#include "core/common/sha256.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace sf {

namespace {

// SHA-256 fetched from the default provider once per process: EVP_sha256() makes every EVP_DigestInit_ex fetch
// it again (a provider lookup per digest, as much work as hashing a short text).
const EVP_MD* sha256_md() {
  static const EVP_MD* const md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched ? fetched : EVP_sha256();
  }();
  return md;
}

}  // namespace

bool sha256_hex_to(std::string_view data, std::string& out) {
  out.clear();
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), sha256_md(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &len) != 1) {
    return false;
  }
  static const char* hex = "0123456789abcdef";
  out.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return true;
}

std::string sha256_hex(std::string_view data) {
  std::string out;
  if (!sha256_hex_to(data, out))
    throw std::runtime_error("sha256: libcrypto failure");  // only on allocation failure; not user-causable
  return out;
}

}  // namespace sf
