// The content store of a workspace and of an LLM response cache (issue 17 item 7, docs/campaign.md "Content
// store"): blobs/<lowercase hex SHA-256 of the content>, each written once (temp file + fsync + rename) and never
// changed. A prompt is logged as parts that name blobs, so the manual, the demonstrations and the task texts
// are stored once however many calls send them; the event keeps only references and the short per-call text.
// Reading is bounded and checks that a blob still has its name's hash (files are untrusted).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace sf::store {

inline constexpr std::uintmax_t kMaxBlobBytes = 64u << 20;
// A piece of a prompt shorter than this stays inline text in the event (a reference costs about 80 bytes).
inline constexpr std::size_t kMinBlobChars = 256;
// Bounds of a prompt read back: messages, parts per message, characters of the whole prompt.
inline constexpr std::size_t kMaxPromptMessages = 1024;
inline constexpr std::size_t kMaxPromptParts = 4096;
inline constexpr std::size_t kMaxPromptChars = 64u << 20;

// 64 lowercase hex digits.
bool is_content_hash(std::string_view s);

class ContentStore {
 public:
  explicit ContentStore(std::filesystem::path dir);  // e.g. <workspace>/blobs; created on the first put
  ContentStore(const ContentStore&) = delete;
  ContentStore& operator=(const ContentStore&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // The hash of `content`, stored once (an existing blob is not rewritten); "" with `error` when it cannot
  // be written. Thread-safe.
  std::string put(std::string_view content, std::string& error);
  // The content stored under `hash`; nullopt with `error` naming the file when the hash is malformed, the
  // file is missing, unreadable or larger than kMaxBlobBytes, or its content no longer has that hash.
  std::optional<std::string> get(std::string_view hash, std::string& error) const;

 private:
  std::filesystem::path dir_;
  std::mutex mu_;
  std::unordered_set<std::string> present_;  // blobs known to exist (written or seen by this process)
};

// Prompt messages as logged. In: [{role, content}]. Out: [{role, parts: [{blob: HASH} | {text: STR}, ...]}]:
// a system message (the static prefix: role statement + manual) is one piece; any other content is cut before
// each line that starts with "## " or "### " (the prompt builder's sections and demonstrations). A piece of at
// least kMinBlobChars characters goes to `store`, shorter neighbours are joined into one inline text part. Concatenating the parts gives the content back exactly. nullopt with `error` when
// the input is not such a list or a blob cannot be written.
std::optional<nlohmann::json> store_prompt(const nlohmann::json& messages, ContentStore& store, std::string& error);

// The one reassembly of a logged prompt (trace detail, CLI, anything that shows a prompt): messages in either
// form (logs written before the content store carry `content` inline) → [{role, content}]. nullopt with `error`
// ("prompt message N: ...", or the blob file's problem) when malformed, over the bounds above, or a blob is
// missing or damaged.
std::optional<nlohmann::json> load_prompt(const nlohmann::json& messages, const ContentStore& store,
                                          std::string& error);

// An llm_call event whose trace carries an inline prompt gets it stored as parts (store_prompt), in place;
// any other event is left as it is. False with `error` when a blob cannot be written.
bool store_event_prompt(nlohmann::json& event, ContentStore& store, std::string& error);

}  // namespace sf::store
