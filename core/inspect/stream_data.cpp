#include "core/inspect/stream_data.hpp"

#include <algorithm>

#include "core/inspect/dataflow_graph.hpp"

namespace sf::inspect {

ValueStatus compare_value(float out, double ref, double atol, double rtol) {
  sim::CompareStats s = sim::compare(&out, &ref, 1, atol, rtol);
  if (s.ref_nan) return ValueStatus::RefNaN;
  return s.bad > 0 ? ValueStatus::Mismatch : ValueStatus::Ok;
}

std::map<std::string, step::StreamType, std::less<>> stream_types(const step::Program& prog,
                                                                  const step::TypedProgram& typed,
                                                                  const step::TaskDoc& task) {
  std::map<std::string, step::StreamType, std::less<>> m;
  for (const auto& in : task.inputs) m[in.name] = step::StreamType{in.dtype, in.dims};
  for (std::size_t i = 0; i < prog.stmts.size() && i < typed.stmts.size(); ++i) {
    const auto& st = prog.stmts[i];
    const auto& ts = typed.stmts[i];
    if (st.kind != step::Statement::Kind::Assign && st.kind != step::Statement::Kind::Comprehension) continue;
    if (ts.list_result && st.targets.size() == 1) {
      for (std::size_t k = 0; k < ts.outs.size(); ++k)
        m[st.targets[0] + "[" + std::to_string(k) + "]"] = ts.outs[k];
    } else if (ts.outs.size() == st.targets.size()) {
      for (std::size_t k = 0; k < ts.outs.size(); ++k) m[st.targets[k]] = ts.outs[k];
    }
  }
  return m;
}

InspectedOutput compare_output(std::string name, const sim::StreamValue& out, std::size_t field,
                               std::vector<double> reference, double atol, double rtol) {
  InspectedOutput o;
  o.name = std::move(name);
  o.value.dims = out.dims;
  if (field < out.fields.size())
    o.value.fields.push_back(out.fields[field]);
  else
    o.value.fields.push_back(sim::Field{});
  o.reference = std::move(reference);
  o.atol = atol;
  o.rtol = rtol;
  const auto& data = o.value.fields.front().data;
  o.size_mismatch = data.size() != o.reference.size();
  const auto n = static_cast<std::int64_t>(std::min(data.size(), o.reference.size()));
  o.stats = sim::compare(data.data(), o.reference.data(), n, atol, rtol);
  const auto& esh = o.value.fields.front().esh;
  if (o.size_mismatch) {
    o.summary = "output " + o.name + ": the program produced " + std::to_string(data.size()) +
                " values, the reference " + std::to_string(o.reference.size());
  } else if (o.stats.ok()) {
    o.summary = sim::pass_message(o.name, o.stats, out.dims, esh, atol, rtol);
  } else {
    o.summary = sim::mismatch_message(o.name, o.stats, out.dims, sim::format_ints(out.dims), esh, atol, rtol,
                                      data.data(), o.reference.data());
  }
  return o;
}

InspectorSnapshot make_inspector_snapshot(const step::TaskDoc& task, const step::Program* prog,
                                          const step::TypedProgram* typed, const sim::RunResult& run,
                                          const sim::ReferenceResult* reference) {
  InspectorSnapshot snap;
  if (run.error) snap.error = run.error->code + ": " + run.error->message;
  std::map<std::string, step::StreamType, std::less<>> types;
  if (prog && typed) types = stream_types(*prog, *typed, task);

  // Order: task inputs, then program definitions (the order of `types` is by name), then anything left.
  std::vector<std::string> order;
  for (const auto& in : task.inputs) order.push_back(in.name);
  if (prog) {
    for (const auto& st : prog->stmts) {
      if (st.kind != step::Statement::Kind::Assign && st.kind != step::Statement::Kind::Comprehension)
        continue;
      for (const auto& t : st.targets) {
        order.push_back(t);
        for (const auto& [name, v] : run.streams)  // list elements "t[i]" in index order
          if (name.size() > t.size() + 2 && name.compare(0, t.size() + 1, t + "[") == 0)
            order.push_back(name);
      }
    }
  }
  std::vector<std::string> seen;
  auto add = [&](const std::string& name) {
    auto it = run.streams.find(name);
    if (it == run.streams.end() || std::find(seen.begin(), seen.end(), name) != seen.end()) return;
    seen.push_back(name);
    InspectedStream s;
    s.name = name;
    if (auto t = types.find(name); t != types.end()) s.type = stream_type_text(t->second, false);
    s.value = it->second;
    snap.streams.push_back(std::move(s));
  };
  for (const auto& n : order) add(n);
  for (const auto& [name, v] : run.streams) add(name);
  // List elements sort lexicographically ("L[10]" < "L[2]"); put them in numeric order within each list.
  auto index_of = [](const std::string& n) -> long long {
    auto b = n.rfind('[');
    return b == std::string::npos ? -1 : std::atoll(n.c_str() + b + 1);
  };
  for (std::size_t i = 0; i < snap.streams.size();) {
    std::size_t j = i;
    auto base = [](const std::string& n) { return n.substr(0, n.rfind('[')); };
    if (snap.streams[i].name.find('[') == std::string::npos) {
      ++i;
      continue;
    }
    while (j < snap.streams.size() && snap.streams[j].name.find('[') != std::string::npos &&
           base(snap.streams[j].name) == base(snap.streams[i].name))
      ++j;
    std::stable_sort(snap.streams.begin() + static_cast<long>(i), snap.streams.begin() + static_cast<long>(j),
                     [&](const auto& a, const auto& b) { return index_of(a.name) < index_of(b.name); });
    i = j;
  }

  if (!reference) return snap;
  std::size_t ref_field = 0;
  for (std::size_t k = 0; k < task.outputs.size(); ++k) {
    const auto& decl = task.outputs[k];
    const std::size_t nf = decl.dtype.fields.size();
    for (std::size_t f = 0; f < nf; ++f, ++ref_field) {
      std::string name = nf > 1 ? decl.name + "." + std::to_string(f) : decl.name;
      std::vector<double> ref =
          ref_field < reference->fields.size() ? reference->fields[ref_field] : std::vector<double>{};
      if (k < run.outputs.size()) {
        snap.outputs.push_back(compare_output(std::move(name), run.outputs[k], f, std::move(ref),
                                              task.verify.atol, task.verify.rtol));
      } else {
        snap.outputs.push_back(compare_output(std::move(name), sim::StreamValue{}, f, std::move(ref),
                                              task.verify.atol, task.verify.rtol));
      }
    }
  }
  return snap;
}

}  // namespace sf::inspect
