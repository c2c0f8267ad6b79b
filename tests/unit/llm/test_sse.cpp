// Server-sent events: the framing parser (any chunking, CRLF, comments, multi-line data, oversize lines) and
// the OpenAI / Anthropic accumulators (deltas in order, usage, the assembled body judged by the backends'
// own parse_answer: text, reasoning, refusal, provider error).
#include "core/llm/backend_config.hpp"
#include "core/llm/http_chat_backend.hpp"
#include "core/llm/sse.hpp"
#include "core/llm/backend_factory.hpp"
#include "tests/unit/llm/http_test_util.hpp"

#include <gtest/gtest.h>

// A named namespace: unity builds put this file in one translation unit with other tests.
namespace sse_tests {

using namespace sf::llm;

namespace {

std::vector<SseEvent> parse_in_pieces(const std::string& s, std::size_t piece) {
  SseParser p;
  std::vector<SseEvent> out;
  for (std::size_t i = 0; i < s.size(); i += piece)
    for (auto& e : p.feed(std::string_view(s).substr(i, piece))) out.push_back(e);
  if (auto last = p.finish()) out.push_back(*last);
  return out;
}

}  // namespace

TEST(Sse, ParsesEventsInAnyChunking) {
  const std::string s =
      ": keep-alive\r\n"
      "event: message_start\r\ndata: {\"a\":1}\r\n\r\n"
      "data: line1\ndata: line2\n\n"
      "data:no-space\r\r"
      "id: 7\nretry: 10\n\n"  // no data: nothing dispatched
      "data: [DONE]";          // unterminated at the end
  for (std::size_t piece : {1u, 2u, 3u, 7u, 1000u}) {
    auto ev = parse_in_pieces(s, piece);
    ASSERT_EQ(ev.size(), 4u) << "piece " << piece;
    EXPECT_EQ(ev[0].event, "message_start");
    EXPECT_EQ(ev[0].data, "{\"a\":1}");
    EXPECT_EQ(ev[1].event, "");
    EXPECT_EQ(ev[1].data, "line1\nline2");
    EXPECT_EQ(ev[2].data, "no-space");
    EXPECT_EQ(ev[3].data, "[DONE]");
  }
}

TEST(Sse, OversizeLineIsAnError) {
  SseParser p(16);
  p.feed("data: 0123456789abcdefghij\n\n");
  EXPECT_FALSE(p.error().empty());
}

TEST(Sse, OpenAiDeltasAndAssembledAnswer) {
  std::vector<StreamDelta> deltas;
  StreamAccumulator acc(StreamFormat::OpenAi, [&](const StreamDelta& d) { deltas.push_back(d); });
  for (const char* data : {R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})",
                           R"({"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]})",
                           R"({"choices":[{"index":0,"delta":{"content":"impl: |\n"}}]})",
                           R"({"choices":[{"index":0,"delta":{"content":"  return E0\n"},"finish_reason":"stop"}]})",
                           R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5}})", "[DONE]"})
    acc.add({"", data});
  acc.close();
  ASSERT_EQ(deltas.size(), 5u);
  EXPECT_EQ(deltas[0].reasoning, "think");
  EXPECT_EQ(deltas[1].text, "impl: |\n");
  EXPECT_EQ(deltas[2].text, "  return E0\n");
  EXPECT_EQ(deltas[3].output_tokens, 5);
  EXPECT_EQ(deltas[3].input_tokens, 12);
  EXPECT_TRUE(deltas[4].done);
  EXPECT_TRUE(acc.finished());
  BackendConfig cfg;
  cfg.kind = BackendKind::OpenAi;
  cfg.model = "m";
  OpenAiBackend b(cfg, "");
  auto r = b.parse_answer(acc.assembled_body());
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->text, "impl: |\n  return E0\n");
  EXPECT_EQ(r.response->reasoning, "think");
  EXPECT_EQ(r.response->finish_reason, "stop");
  EXPECT_EQ(r.response->usage.input_tokens, 12);
  EXPECT_EQ(r.response->usage.output_tokens, 5);

  StreamAccumulator refused(StreamFormat::OpenAi, {});
  refused.add({"", R"({"choices":[{"index":0,"delta":{"refusal":"no"}}]})"});
  EXPECT_EQ(b.parse_answer(refused.assembled_body()).error.kind, "refused");
  StreamAccumulator failed(StreamFormat::OpenAi, {});
  failed.add({"", R"({"error":{"message":"overloaded"}})"});
  auto f = b.parse_answer(failed.assembled_body());
  EXPECT_EQ(f.error.kind, "http");
  EXPECT_NE(f.error.message.find("overloaded"), std::string::npos);
}

TEST(Sse, AnthropicDeltasAndAssembledAnswer) {
  std::vector<StreamDelta> deltas;
  StreamAccumulator acc(StreamFormat::Anthropic, [&](const StreamDelta& d) { deltas.push_back(d); });
  acc.add({"message_start",
           R"({"type":"message_start","message":{"usage":{"input_tokens":100,"cache_read_input_tokens":50,"output_tokens":1}}})"});
  acc.add({"content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking"}})"});
  acc.add({"content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}})"});
  acc.add({"content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"impl: |\n  return E0\n"}})"});
  acc.add({"ping", R"({"type":"ping"})"});
  acc.add({"message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":20}})"});
  acc.add({"message_stop", R"({"type":"message_stop"})"});
  acc.close();
  ASSERT_EQ(deltas.size(), 4u);
  EXPECT_EQ(deltas[0].reasoning, "hm");
  EXPECT_EQ(deltas[1].text, "impl: |\n  return E0\n");
  EXPECT_EQ(deltas[2].output_tokens, 20);
  EXPECT_TRUE(deltas[3].done);
  BackendConfig cfg;
  cfg.kind = BackendKind::Anthropic;
  cfg.model = "m";
  AnthropicBackend b(cfg, "");
  auto r = b.parse_answer(acc.assembled_body());
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->text, "impl: |\n  return E0\n");
  EXPECT_EQ(r.response->reasoning, "hm");
  EXPECT_EQ(r.response->finish_reason, "stop");
  EXPECT_EQ(r.response->usage.cached_input_tokens, 50);
  EXPECT_EQ(r.response->usage.input_tokens, 150);
  EXPECT_EQ(r.response->usage.output_tokens, 20);
  StreamAccumulator failed(StreamFormat::Anthropic, {});
  failed.add({"error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"});
  EXPECT_EQ(b.parse_answer(failed.assembled_body()).error.kind, "http");
}

// Streaming through the real HTTP backends against the loopback server.

namespace {

std::unique_ptr<ChatBackend> loopback_backend(const sf::llm::testing::LoopbackServer& s, BackendKind kind) {
  BackendConfig cfg = sf::llm::testing::loopback_config(kind, s);
  cfg.timeout_s = 20;
  cfg.max_retries = 0;
  return make_backend(cfg).backend;
}

ChatRequest streaming_request(std::vector<StreamDelta>& deltas) {
  ChatRequest r;
  r.model = "test-model";
  r.messages = {{"system", "s"}, {"user", "u"}};
  r.on_delta = [&deltas](const StreamDelta& d) { deltas.push_back(d); };
  return r;
}

}  // namespace

TEST(SseHttp, StreamsOpenAiAndAnthropicAnswers) {
  for (BackendKind kind : {BackendKind::OpenAi, BackendKind::Anthropic}) {
    sf::llm::testing::LoopbackServer s;
    s.answer_text = "```yaml\nimpl: |\n  return E0\n```\n";
    s.stream_pieces = 4;
    auto b = loopback_backend(s, kind);
    std::vector<StreamDelta> deltas;
    auto r = b->chat(streaming_request(deltas), CancelToken{});
    ASSERT_TRUE(r.ok()) << r.error.message;
    EXPECT_EQ(r.response->text, s.answer_text);
    std::string joined;
    int text_deltas = 0;
    for (const auto& d : deltas) {
      joined += d.text;
      if (!d.text.empty()) ++text_deltas;
    }
    EXPECT_EQ(joined, s.answer_text);
    EXPECT_EQ(text_deltas, 4);
    ASSERT_FALSE(deltas.empty());
    EXPECT_TRUE(deltas.back().done);
    EXPECT_EQ(deltas.back().output_tokens, kind == BackendKind::Anthropic ? 20 : 30);
    EXPECT_EQ(r.response->usage.output_tokens, kind == BackendKind::Anthropic ? 20 : 30);
    const std::string sent = s.seen().back().body;
    EXPECT_NE(sent.find("\"stream\":true"), std::string::npos);
    EXPECT_EQ(sent.find("include_usage") != std::string::npos, kind == BackendKind::OpenAi);
  }
}

TEST(SseHttp, CancelAbortsTheStreamWithoutWaitingItOut) {
  sf::llm::testing::LoopbackServer s;
  s.answer_text = "first piece, then a long pause, then the rest";
  s.stream_pieces = 3;
  s.stream_gap_ms = 5000;  // the rest would take 10 s
  auto b = loopback_backend(s, BackendKind::OpenAi);
  CancelToken cancel;
  std::vector<StreamDelta> deltas;
  ChatRequest req = streaming_request(deltas);
  req.on_delta = [&](const StreamDelta& d) {
    deltas.push_back(d);
    cancel.cancel();  // the user presses Cancel as soon as the first text shows
  };
  auto r = b->chat(req, cancel);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error.kind, "cancelled");
  ASSERT_EQ(deltas.size(), 1u);
  EXPECT_FALSE(deltas[0].done);
  EXPECT_EQ(deltas[0].text, s.answer_text.substr(0, (s.answer_text.size() + 2) / 3));
  // The server sees the connection closed while it waits to send the second piece.
  for (int i = 0; i < 300 && !s.client_gone; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(s.client_gone);
}

TEST(SseHttp, PlainAnswerToAStreamingRequestIsStillAnAnswer) {
  sf::llm::testing::LoopbackServer s;
  s.ignore_stream = true;
  auto b = loopback_backend(s, BackendKind::OpenAi);
  std::vector<StreamDelta> deltas;
  auto r = b->chat(streaming_request(deltas), CancelToken{});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(r.response->text, s.answer_text);
  ASSERT_EQ(deltas.size(), 1u);  // only the closing delta
  EXPECT_TRUE(deltas[0].done);
}

TEST(SseHttp, StreamCutOffMidAnswerIsANetworkError) {
  for (BackendKind kind : {BackendKind::OpenAi, BackendKind::Anthropic}) {
    sf::llm::testing::LoopbackServer s;
    s.cut_stream = true;
    auto b = loopback_backend(s, kind);
    std::vector<StreamDelta> deltas;
    auto r = b->chat(streaming_request(deltas), CancelToken{});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.kind, "network");
    EXPECT_NE(r.error.message.find("event stream ended before the answer"), std::string::npos) << r.error.message;
  }
}

}  // namespace sse_tests
