// SHA-256 (OpenSSL libcrypto) as lowercase hex: response-cache keys, experience ids, the workspace content store.
#pragma once

#include <string>
#include <string_view>

namespace sf {

std::string sha256_hex(std::string_view data);
// The same digest into `out`; false (and `out` empty) on a libcrypto failure instead of an exception.
bool sha256_hex_to(std::string_view data, std::string& out);

}  // namespace sf
