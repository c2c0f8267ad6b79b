// SHA-256 (OpenSSL libcrypto) as lowercase hex; used for response-cache keys.
#pragma once

#include <string>
#include <string_view>

namespace sf::llm {

std::string sha256_hex(std::string_view data);

}  // namespace sf::llm
