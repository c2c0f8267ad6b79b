// SHA-256 (OpenSSL libcrypto) as lowercase hex: response-cache keys, experience ids, the workspace content store.
#pragma once

#include <string>
#include <string_view>

namespace sf {

std::string sha256_hex(std::string_view data);

}  // namespace sf
