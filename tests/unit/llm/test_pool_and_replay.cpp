// RequestPool concurrency and ordering, the builtin seam, replay from a cache.
#include "core/llm/backend_factory.hpp"
#include "core/llm/builtin_backend.hpp"
#include "core/llm/cached_backend.hpp"
#include "core/llm/request_pool.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

using namespace sf::llm;

namespace {
ChatRequest sample(int i) {
  ChatRequest r;
  r.model = "builtin";
  r.messages = {{"user", "task " + std::to_string(i)}};
  r.sample_index = i;
  return r;
}
}  // namespace

TEST(RequestPool, RespectsInFlightLimitAndKeepsSampleOrder) {
  std::atomic<int> active{0}, peak{0};
  BuiltinBackend b([&](const ChatRequest& r, const CancelToken&) {
    int now = ++active;
    int p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
    // later samples finish first
    std::this_thread::sleep_for(std::chrono::milliseconds(5 * (12 - r.sample_index)));
    --active;
    ChatResponse resp;
    resp.text = "answer " + std::to_string(r.sample_index);
    return ChatResult::success(resp);
  });
  RequestPool pool(b, 3);
  std::vector<ChatRequest> reqs;
  for (int i = 0; i < 12; ++i) reqs.push_back(sample(i));
  std::vector<std::size_t> order;
  auto results = pool.run(reqs, CancelToken{}, [&](std::size_t i, const ChatResult& r) {
    EXPECT_TRUE(r.ok());
    order.push_back(i);
  });
  ASSERT_EQ(results.size(), 12u);
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(results[i].ok());
    EXPECT_EQ(results[i].response->text, "answer " + std::to_string(i));
  }
  EXPECT_EQ(order.size(), 12u);
  EXPECT_LE(peak.load(), 3);
  EXPECT_GE(peak.load(), 2);
}

TEST(RequestPool, CancellationStopsRequestsThatHaveNotStarted) {
  CancelToken cancel;
  std::atomic<int> calls{0};
  BuiltinBackend b([&](const ChatRequest&, const CancelToken&) {
    if (++calls == 2) cancel.cancel();
    return ChatResult::success(ChatResponse{});
  });
  RequestPool pool(b, 1);
  std::vector<ChatRequest> reqs;
  for (int i = 0; i < 6; ++i) reqs.push_back(sample(i));
  auto results = pool.run(reqs, cancel);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_TRUE(results[0].ok());
  EXPECT_TRUE(results[1].ok());
  for (int i = 2; i < 6; ++i) {
    ASSERT_FALSE(results[i].ok());
    EXPECT_EQ(results[i].error.kind, "cancelled");
  }
}

TEST(BuiltinBackend, RegisteredProviderAndMissingProvider) {
  BuiltinBackend missing("sf-test-nobody");
  auto r = missing.chat(sample(0), CancelToken{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "provider");
  EXPECT_EQ(r.error.message, "builtin provider 'sf-test-nobody' is not registered");
  register_builtin_provider("sf-test-echo", [](const ChatRequest& q, const CancelToken&) {
    ChatResponse resp;
    resp.text = q.messages.back().content;
    return ChatResult::success(resp);
  });
  BackendConfig c;
  c.kind = BackendKind::Builtin;
  c.builtin_provider = "sf-test-echo";
  auto made = make_backend(c);
  ASSERT_TRUE(made.backend) << made.error;
  auto ok = made.backend->chat(sample(4), CancelToken{});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.response->text, "task 4");
  EXPECT_EQ(ok.response->finish_reason, "stop");
  BuiltinBackend thrower([](const ChatRequest&, const CancelToken&) -> ChatResult { throw std::runtime_error("boom"); });
  auto t = thrower.chat(sample(0), CancelToken{});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error.kind, "provider");
  register_builtin_provider("sf-test-echo", {});
  EXPECT_FALSE(has_builtin_provider("sf-test-echo"));
}

TEST(ReplayBackend, AnswersRecordedRequestsAndNeverInventsOthers) {
  auto dir = std::filesystem::temp_directory_path() / ("sf_replay_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  int calls = 0;
  // Record with a cached "openai" backend (a builtin stands in for the network).
  BackendConfig rec;
  rec.kind = BackendKind::OpenAi;
  rec.base_url = "http://127.0.0.1:9/v1";
  struct Fake : ChatBackend {
    int* calls;
    std::string id;
    ChatResult chat(const ChatRequest& r, const CancelToken&) override {
      ++*calls;
      ChatResponse resp;
      resp.text = "recorded " + std::to_string(r.sample_index);
      resp.usage = {11, 7, 0};
      return ChatResult::success(resp);
    }
    std::string identity() const override { return id; }
  };
  auto fake = std::make_unique<Fake>();
  fake->calls = &calls;
  fake->id = rec.identity();
  CachedBackend recorder(std::move(fake), dir);
  ASSERT_TRUE(recorder.chat(sample(0), CancelToken{}).ok());
  ASSERT_TRUE(recorder.chat(sample(1), CancelToken{}).ok());
  EXPECT_EQ(calls, 2);

  BackendConfig c;
  c.kind = BackendKind::Replay;
  c.replay_kind = BackendKind::OpenAi;
  c.base_url = "http://127.0.0.1:9/v1/";  // a trailing slash does not change the identity
  c.cache_dir = dir.string();
  auto made = make_backend(c);
  ASSERT_TRUE(made.backend) << made.error;
  auto r1 = made.backend->chat(sample(1), CancelToken{});
  ASSERT_TRUE(r1.ok()) << r1.error.message;
  EXPECT_EQ(r1.response->text, "recorded 1");
  EXPECT_EQ(r1.response->usage.input_tokens, 11);
  EXPECT_TRUE(r1.response->from_cache);
  auto miss = made.backend->chat(sample(2), CancelToken{});
  ASSERT_FALSE(miss.ok());
  EXPECT_EQ(miss.error.kind, "cache-miss");
  EXPECT_NE(miss.error.message.find("sample 2"), std::string::npos);
  EXPECT_EQ(calls, 2);
  std::filesystem::remove_all(dir);
}

// A cache the builtin backend filled replays with replay_kind builtin (the identity is the provider's name).
TEST(ReplayBackend, ReplaysWhatTheBuiltinBackendRecorded) {
  auto dir = std::filesystem::temp_directory_path() / ("sf_replay_builtin_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  int calls = 0;
  register_builtin_provider("sf-test-recorded", [&calls](const ChatRequest& r, const CancelToken&) {
    ++calls;
    ChatResponse resp;
    resp.text = "builtin " + std::to_string(r.sample_index);
    return ChatResult::success(resp);
  });
  BackendConfig rec;
  rec.kind = BackendKind::Builtin;
  rec.builtin_provider = "sf-test-recorded";
  rec.cache_dir = dir.string();
  auto recorder = make_backend(rec);
  ASSERT_TRUE(recorder.backend) << recorder.error;
  ASSERT_TRUE(recorder.backend->chat(sample(3), CancelToken{}).ok());
  EXPECT_EQ(calls, 1);
  register_builtin_provider("sf-test-recorded", {});

  BackendConfig c;
  c.kind = BackendKind::Replay;
  c.replay_kind = BackendKind::Builtin;
  c.builtin_provider = "sf-test-recorded";
  c.cache_dir = dir.string();
  auto made = make_backend(c);
  ASSERT_TRUE(made.backend) << made.error;
  auto hit = made.backend->chat(sample(3), CancelToken{});
  ASSERT_TRUE(hit.ok()) << hit.error.message;
  EXPECT_EQ(hit.response->text, "builtin 3");
  EXPECT_TRUE(hit.response->from_cache);
  EXPECT_EQ(made.backend->chat(sample(4), CancelToken{}).error.kind, "cache-miss");
  c.builtin_provider = "other";  // another provider's answers are not these
  EXPECT_EQ(make_backend(c).backend->chat(sample(3), CancelToken{}).error.kind, "cache-miss");
  EXPECT_EQ(calls, 1);
  std::filesystem::remove_all(dir);
}
