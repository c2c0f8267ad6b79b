// The fast paths of the simulator give bit-identical results to the element-by-element paths they replace:
// for every fn of every bundled task, ElementFn::call_batch (batched fnlang evaluation) against call() per
// element, and Map/Accum/Scan with the batching adapter against the same kernels driven call by call.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/bench/catalogue.hpp"
#include "core/sim/kernels.hpp"
#include "core/sim/simulator.hpp"
#include "core/step/task_compile.hpp"

namespace {

using namespace sf;

// Forwards call() only, so kernels take the default call-by-call paths.
class PerCall final : public sim::ElementFn {
 public:
  explicit PerCall(sim::ElementFn& f) : f_(f) {}
  const std::vector<sim::Shape>& out_esh() const override { return f_.out_esh(); }
  const std::vector<float>& init() const override { return f_.init(); }
  sim::Status call(const float* const* in, const float* const* state, float* const* out) override {
    return f_.call(in, state, out);
  }

 private:
  sim::ElementFn& f_;
};

struct Loaded {
  std::vector<step::TaskDoc> tasks;
};

const Loaded& loaded() {
  static Loaded l = [] {
    Diagnostics d;
    Loaded r;
    r.tasks = bench::Catalogue::load(std::string(SF_SOURCE_DIR) + "/resources", d).tasks();
    return r;
  }();
  return l;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Random values with some exact 0/1 and negative entries, so thresholds and multihot checks see both sides.
void fill(std::vector<float>& v, std::mt19937& rng) {
  std::normal_distribution<float> nd(0.0f, 1.5f);
  std::uniform_int_distribution<int> pick(0, 9);
  for (auto& x : v) {
    int p = pick(rng);
    x = p == 0 ? 0.0f : p == 1 ? 1.0f : nd(rng);
  }
}

sim::StreamValue random_stream(const std::vector<std::int64_t>& dims, const std::vector<sim::Shape>& esh,
                               std::mt19937& rng) {
  sim::StreamValue s;
  s.dims = dims;
  for (const auto& e : esh) {
    sim::Field f;
    f.esh = e;
    f.data.resize(static_cast<std::size_t>(sim::product(dims) * sim::shape_size(e)));
    fill(f.data, rng);
    s.fields.push_back(std::move(f));
  }
  return s;
}

template <class F>
void for_each_fn(F&& body) {
  const auto& tasks = loaded().tasks;
  ASSERT_GE(tasks.size(), 20u);
  int fns = 0;
  for (const auto& task : tasks) {
    Diagnostics d;
    auto ct = step::compile_task(task, task.sizes, d);
    ASSERT_TRUE(ct) << task.id;
    auto in = sim::make_input_set(task, task.sizes, 42, d);
    ASSERT_TRUE(in) << task.id;
    for (const auto& [name, cf] : ct->fns) {
      auto f = sim::make_task_fn(cf, task, *in);
      body(task, cf, *f);
      ++fns;
    }
  }
  EXPECT_GE(fns, 40);
}

TEST(BatchEquivalence, CallBatchMatchesCallPerElementForEveryTaskFn) {
  std::mt19937 rng(7);
  for_each_fn([&](const step::TaskDoc& task, const step::CompiledFn& cf, sim::ElementFn& f) {
    const bool stateful = cf.decl->stateful();
    const std::int64_t count = 300;  // more than one chunk of the batched evaluation
    sim::StreamValue x = random_stream({count}, cf.in_esh, rng);
    sim::StreamValue st = random_stream({count}, cf.out_esh, rng);
    std::vector<const float*> ip, sp;
    std::vector<std::int64_t> is, ss, os;
    for (const auto& fl : x.fields) {
      ip.push_back(fl.data.data());
      is.push_back(sim::shape_size(fl.esh));
    }
    for (const auto& fl : st.fields) {
      sp.push_back(fl.data.data());
      ss.push_back(sim::shape_size(fl.esh));
    }
    std::vector<std::vector<float>> a, b;
    std::vector<float*> ap, bp;
    for (const auto& e : cf.out_esh) {
      os.push_back(sim::shape_size(e));
      a.emplace_back(static_cast<std::size_t>(count * os.back()), -7.0f);
      b.emplace_back(static_cast<std::size_t>(count * os.back()), -7.0f);
    }
    for (auto& v : a) ap.push_back(v.data());
    for (auto& v : b) bp.push_back(v.data());
    sim::Status sa = f.call_batch(ip.data(), is.data(), ip.size(), stateful ? sp.data() : nullptr, ss.data(),
                                  ap.data(), os.data(), count);
    sim::Status sb;
    std::vector<const float*> i1(ip.size()), s1(sp.size());
    std::vector<float*> o1(bp.size());
    for (std::int64_t e = 0; e < count && sb.ok(); ++e) {
      for (std::size_t i = 0; i < ip.size(); ++i) i1[i] = ip[i] + e * is[i];
      for (std::size_t j = 0; j < sp.size(); ++j) s1[j] = sp[j] + e * ss[j];
      for (std::size_t j = 0; j < bp.size(); ++j) o1[j] = bp[j] + e * os[j];
      sb = f.call(i1.data(), stateful ? s1.data() : nullptr, o1.data());
    }
    EXPECT_EQ(sa.code, sb.code) << task.id << " " << cf.decl->func_name;
    EXPECT_EQ(sa.message, sb.message) << task.id << " " << cf.decl->func_name;
    if (sa.ok() && sb.ok()) {
      for (std::size_t j = 0; j < a.size(); ++j)
        EXPECT_TRUE(same_bits(a[j], b[j])) << task.id << " " << cf.decl->func_name << " output " << j;
    }
  });
}

TEST(BatchEquivalence, MapAccumScanMatchTheCallByCallKernels) {
  std::mt19937 rng(11);
  int folded = 0;
  for_each_fn([&](const step::TaskDoc& task, const step::CompiledFn& cf, sim::ElementFn& f) {
    PerCall slow(f);
    const std::vector<std::int64_t> dims{5, 7, 3};  // inner 5, then 21 chains
    sim::StreamValue x = random_stream(dims, cf.in_esh, rng);
    sim::Budget b1, b2;
    sim::StreamValue o1, o2;
    if (!cf.decl->stateful()) {
      sim::Status s1 = sim::map(x, f, b1, o1), s2 = sim::map(x, slow, b2, o2);
      EXPECT_EQ(s1.code + s1.message, s2.code + s2.message) << task.id << " " << cf.decl->func_name;
      if (s1.ok() && s2.ok()) {
        for (std::size_t j = 0; j < o1.fields.size(); ++j)
          EXPECT_TRUE(same_bits(o1.fields[j].data, o2.fields[j].data)) << task.id << " " << cf.decl->func_name;
      }
      return;
    }
    for (int b : {1, 2}) {
      for (bool inclusive : {false, true}) {
        sim::StreamValue p1, p2;
        sim::Budget c1, c2;
        sim::Status s1 = inclusive ? sim::scan(x, b, f, c1, p1) : sim::accum(x, b, f, c1, p1);
        sim::Status s2 = inclusive ? sim::scan(x, b, slow, c2, p2) : sim::accum(x, b, slow, c2, p2);
        EXPECT_EQ(s1.code + s1.message, s2.code + s2.message) << task.id << " " << cf.decl->func_name;
        EXPECT_EQ(p1.dims, p2.dims);
        if (s1.ok() && s2.ok()) {
          ++folded;
          for (std::size_t j = 0; j < p1.fields.size(); ++j)
            EXPECT_TRUE(same_bits(p1.fields[j].data, p2.fields[j].data))
                << task.id << " " << cf.decl->func_name << (inclusive ? " scan b=" : " accum b=") << b;
        }
      }
    }
  });
  EXPECT_GT(folded, 20);
}

}  // namespace
