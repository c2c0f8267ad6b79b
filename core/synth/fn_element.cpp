#include "core/synth/fn_element.hpp"

#include "core/fnlang/fnlang.hpp"

namespace sf::synth {

namespace {

class FnElement final : public sim::ElementFn {
 public:
  FnElement(const step::CompiledFn& cf, const step::TaskDoc& task, const sim::InputSet& in)
      : cf_(cf), ws_(*cf.program) {
    const auto& f = *cf.decl;
    nin_ = f.input.fields.size();
    std::size_t nout = f.output.fields.size();
    args_.assign(nin_ + (f.stateful() ? nout : 0), nullptr);
    for (const auto& p : task.parameters) args_.push_back(in.params.at(p.name).data());
    for (std::size_t j = 0; j < nout; ++j) {
      out_esh_.push_back(cf.out_esh[j]);
      multihot_.push_back(f.output.fields[j].multihot);
    }
    if (f.stateful()) {
      for (double v : *f.init) init_.push_back(static_cast<float>(v));
    }
  }
  const std::vector<sim::Shape>& out_esh() const override { return out_esh_; }
  const std::vector<float>& init() const override { return init_; }
  sim::Status call(const float* const* in, const float* const* state, float* const* out) override {
    for (std::size_t i = 0; i < nin_; ++i) args_[i] = in[i];
    if (cf_.decl->stateful()) {
      for (std::size_t j = 0; j < out_esh_.size(); ++j) args_[nin_ + j] = state[j];
    }
    fnlang::EvalReport rep;
    if (!cf_.program->eval<float>(args_.data(), out, ws_, &rep)) {
      return sim::make_status(rep.error ? rep.error->code : "R-FN", "fn " + cf_.decl->func_name);
    }
    for (std::size_t j = 0; j < out_esh_.size(); ++j) {
      if (!multihot_[j]) continue;
      std::int64_t n = sim::shape_size(out_esh_[j]);
      for (std::int64_t e = 0; e < n; ++e) {
        if (out[j][e] != 0.0f && out[j][e] != 1.0f) return sim::make_status("R-MULTIHOT", "fn output not 0/1");
      }
    }
    return sim::ok_status();
  }

 private:
  const step::CompiledFn& cf_;
  fnlang::Workspace<float> ws_;
  std::size_t nin_ = 0;
  std::vector<const float*> args_;
  std::vector<sim::Shape> out_esh_;
  std::vector<bool> multihot_;
  std::vector<float> init_;
};

}  // namespace

std::unique_ptr<sim::ElementFn> make_element_fn(const step::CompiledFn& cf, const step::TaskDoc& task,
                                                const sim::InputSet& in) {
  return std::make_unique<FnElement>(cf, task, in);
}

}  // namespace sf::synth
