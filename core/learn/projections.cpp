#include "core/learn/projections.hpp"

#include "core/learn/config.hpp"
#include "core/synth/opt2_campaign.hpp"

#include <algorithm>
#include <cstdio>

namespace sf::learn {

using nlohmann::json;

namespace {

std::vector<memory::StateChange> state_changes_of(const std::vector<ItemChange>& v, memory::ItemState to) {
  std::vector<memory::StateChange> out;
  for (const auto& c : v) {
    if (c.item.empty()) continue;
    memory::StateChange s;
    s.id = c.item;
    s.to = to;
    s.value = c.value;
    s.tokens = c.tokens;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

json curve_json(const CurveFigures& p) {
  json tags = json::object();
  for (const auto& [tag, v] : p.by_tag) tags[tag] = {{"pass_at_1", v.first}, {"pass_at_n", v.second}};
  const auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json j = {{"x", p.x},
            {"tokens", p.tokens},
            {"cost_usd", p.cost_usd},
            {"pass_at_1", p.pass_at_1},
            {"pass_at_n", p.pass_at_n},
            {"solved", p.solved},
            {"tasks", p.tasks},
            {"by_tag", tags},
            {"fast_1", opt(p.fast_1)},
            {"fast_1_5", opt(p.fast_1_5)},
            {"median_speedup", opt(p.median_speedup)}};
  if (p.opt2) {
    j["task"] = p.task;
    j["round"] = p.round;
    j["fast_2"] = opt(p.fast_2);
    j["geomean_speedup"] = opt(p.geomean_speedup);
    j["verdicts"] = p.verdicts;
  }
  return j;
}

// ---- CurveView ----

CurveView::Applied CurveView::apply_opt2(const Opt2Round& r, std::int64_t tokens, double cost_usd) {
  auto it = std::find_if(best_.begin(), best_.end(), [&](const auto& b) { return b.first == r.task; });
  if (it == best_.end()) it = best_.insert(best_.end(), {r.task, 1.0});  // tolerant: a round without its opt2_task
  it->second = r.best_speedup;
  ++proposals_;
  ++verdicts_[r.judgement.verdict];
  // The report's arithmetic (opt2_report_json): summarize over the tasks started so far at their best speedups.
  synth::opt2::Opt2Result res;
  for (const auto& [task, speedup] : best_) {
    synth::opt2::TaskOutcome o;
    o.id = task;
    o.speedup = speedup;
    res.tasks.push_back(std::move(o));
  }
  synth::opt2::summarize(res, tolerance_);
  CurveFigures p;
  p.opt2 = true;
  p.x = proposals_;
  p.task = r.task;
  p.round = r.round;
  p.tokens = tokens;
  p.cost_usd = cost_usd;
  p.tasks = static_cast<int>(best_.size());
  p.solved = static_cast<int>(std::count_if(best_.begin(), best_.end(),
                                            [&](const auto& b) { return faster_than(b.second, tolerance_); }));
  p.pass_at_1 = p.pass_at_n = p.tasks ? double(p.solved) / p.tasks : 0.0;
  p.fast_1 = res.fast_1;
  p.fast_1_5 = res.fast_1_5;
  p.fast_2 = res.fast_2;
  p.median_speedup = res.median_speedup;
  p.geomean_speedup = res.geomean_speedup;
  p.verdicts = verdicts_;
  points_.push_back(std::move(p));
  return Applied::Point;
}

CurveView::Applied CurveView::apply(const Event& e, std::int64_t tokens, double cost_usd) {
  if (const auto* t = std::get_if<Opt2TaskStarted>(&e.body)) {
    if (std::none_of(best_.begin(), best_.end(), [&](const auto& b) { return b.first == t->task; }))
      best_.emplace_back(t->task, 1.0);  // at its baseline until a round is faster
    return Applied::None;
  }
  if (const auto* r = std::get_if<Opt2Round>(&e.body)) return apply_opt2(*r, tokens, cost_usd);
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    tolerance_ = fast_tolerance_of(cs->config);
    for (const auto& t : cs->tasks) {
      if (t.id.empty()) continue;
      tasks_.insert(t.id);
      tag_of_[t.id] = t.tag;
    }
    return Applied::None;
  }
  if (const auto* es = std::get_if<EpisodeStarted>(&e.body)) {
    tasks_.insert(es->task);
    return Applied::None;
  }
  if (const auto* s = std::get_if<IterationSummary>(&e.body)) {
    std::string error;
    auto f = summary_figures(*s, error);
    if (!f) return Applied::MalformedSummary;
    CurveFigures p;
    static_cast<SummaryFigures&>(p) = std::move(*f);
    p.x = s->iteration;
    points_.push_back(std::move(p));
    return Applied::Point;
  }
  const auto* ep = std::get_if<EpisodeFinished>(&e.body);
  if (!ep) return Applied::None;
  tasks_.insert(ep->task);
  if (ep->solved) solved_.insert(ep->task);
  const auto tag = tag_of_.find(ep->task);
  for (const std::string& k : {std::string(), tag == tag_of_.end() ? std::string("untagged") : tag->second}) {
    auto& [finished, solved] = episodes_[k];
    ++finished;
    if (ep->solved) ++solved;
  }
  const auto rate = [](const std::pair<int, int>& c) { return c.first ? double(c.second) / c.first : 0.0; };
  CurveFigures p;
  p.x = ep->episode;
  p.tokens = tokens;
  p.cost_usd = cost_usd;
  p.pass_at_1 = rate(episodes_[std::string()]);
  p.tasks = static_cast<int>(tasks_.size());
  p.solved = static_cast<int>(solved_.size());
  p.pass_at_n = p.tasks ? double(p.solved) / p.tasks : 0.0;
  for (const auto& [k, c] : episodes_)
    if (!k.empty()) p.by_tag.push_back({k, {rate(c), rate(c)}});
  points_.push_back(std::move(p));
  return Applied::Point;
}

// ---- AuditView ----

void AuditView::apply(const Event& e) {
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    tolerance_ = fast_tolerance_of(cs->config);
    return;
  }
  if (const auto* v = std::get_if<Verdict>(&e.body)) {
    note_verdict(v->iteration, v->task, v->sample_index, v->pass, v->speedup, v->feasible);
    return;
  }
  // store::fold_audit_event is the audit's one rule for these kinds (latest record per key, experiences by id,
  // label events in log order).
  if (const auto* a = std::get_if<AdoptionRecord>(&e.body)) {
    store::fold_audit_record(log_, *a);
  } else if (const auto* x = std::get_if<ExperienceAdded>(&e.body)) {
    store::fold_audit_experience(log_, *x);
  } else if (const auto* l = std::get_if<AuditLabel>(&e.body)) {
    store::fold_audit_label(log_, *l);
    labels_.set(*l);
  }
}

bool AuditView::note_verdict(std::int64_t episode, const std::string& task, int round, bool pass,
                             std::optional<double> speedup, std::optional<bool> feasible) {
  if (!pass || !speedup || !feasible.value_or(true)) return false;
  speedups_[{episode, task, round}] = *speedup;
  return true;
}

std::optional<double> AuditView::speedup(std::int64_t episode, const std::string& task, int round) const {
  auto it = speedups_.find({episode, task, round});
  if (it == speedups_.end()) return std::nullopt;
  return it->second;
}

// ---- MemoryView ----

void MemoryView::ensure_item(const std::string& id, std::int64_t episode) {
  if (store_.find(id)) return;
  memory::NewExperience ne;
  ne.rule = id;
  ne.id = id;
  ne.source_episode = episode;
  (void)store_.add_experience(std::move(ne));
}

void MemoryView::apply(const Event& e) {
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    // A fresh memory with the campaign's parameters (the config echo; defaults when it does not parse).
    *this = MemoryView(std::move(initial_));
    memory::MemoryConfig mc;
    enabled_ = true;
    auto m = cs->config.is_object() ? cs->config.find("memory") : cs->config.end();
    if (cs->config.is_object() && m != cs->config.end() && m->is_object()) {
      std::string err;
      if (auto smc = sage_memory_from_json(*m, err)) {
        mc = smc->params;
        enabled_ = smc->enabled;
      }
    }
    if (initial_) {
      store_ = *initial_;
      store_.set_config(mc);
    } else {
      store_ = memory::MemoryStore(mc);
    }
    return;
  }
  if (!enabled_ || store_.config().frozen) return;
  if (const auto* st = std::get_if<EpisodeStarted>(&e.body)) {
    episode_task_[st->episode] = st->task;
  } else if (const auto* fin = std::get_if<EpisodeFinished>(&e.body)) {
    episode_task_[fin->episode] = fin->task;
    store_.count_episode();  // end_episode's count (before its credits)
  } else if (const auto* x = std::get_if<ExperienceAdded>(&e.body)) {
    if (x->item.empty() || store_.find(x->item)) return;
    memory::NewExperience ne;
    ne.id = x->item;
    ne.rule = x->rule.empty() ? x->item : x->rule;
    ne.evidence = x->evidence;
    if (!x->pattern.empty()) ne.pattern = x->pattern;
    ne.source_episode = x->episode;
    ne.source_task = x->source_task;
    ne.tokens = x->tokens;
    (void)store_.add_experience(std::move(ne));
  } else if (const auto* cr = std::get_if<CreditEvent>(&e.body)) {
    if (cr->item.empty()) return;
    ensure_item(cr->item, cr->episode);
    memory::CreditRecord c;
    c.id = cr->item;
    c.episode = cr->episode;
    c.adopted = cr->adopted;
    c.credit = cr->credit;
    c.eta = cr->eta;
    c.utility_before = cr->utility_before;
    c.utility_after = cr->utility_after;
    const memory::MemoryItem* item = store_.find(cr->item);
    c.n_updates = cr->n_updates.value_or((item ? item->n_updates : 0) + 1);
    auto task = episode_task_.find(cr->episode);
    store_.apply_credit(c, task == episode_task_.end() ? std::string() : task->second);
    trajectories_[cr->item].emplace_back(cr->episode, c.utility_after);
  } else if (const auto* au = std::get_if<AccessUpdate>(&e.body)) {
    if (au->item.empty()) return;
    ensure_item(au->item, au->episode);
    store_.apply_access({au->item, au->used, au->access_before, au->access_after});
  } else if (const auto* co = std::get_if<Consolidation>(&e.body)) {
    before_consolidation_ = store_;
    before_hot_tokens_ = event_hot_tokens_;
    if (store_.consolidation_applies()) {
      store_.begin_consolidation();
      for (const auto& [changes, to] : {std::pair{&co->validated, memory::ItemState::Validated},
                                        std::pair{&co->promoted, memory::ItemState::Hot},
                                        std::pair{&co->demoted, memory::ItemState::Validated}})
        for (auto& c : state_changes_of(*changes, to)) {
          ensure_item(c.id, co->episode);
          if (const memory::MemoryItem* item = store_.find(c.id)) c.from = item->state;
          store_.apply_state_change(c);
        }
    }
    ++consolidations_;
    event_hot_tokens_ = co->hot_tokens;
    event_budget_ = co->budget;
  } else if (const auto* rb = std::get_if<ConsolidationRollback>(&e.body)) {
    // the engine undid the step: the store before it (the previous resident set) is the memory again
    if (before_consolidation_) {
      store_ = std::move(*before_consolidation_);
      event_hot_tokens_ = before_hot_tokens_;
      before_consolidation_.reset();
    }
    rollbacks_.push_back(*rb);
  }
}

int MemoryView::hot_tokens() const {
  if (event_hot_tokens_ >= 0) return event_hot_tokens_;
  int sum = 0;
  for (const auto& it : store_.items())
    if (it.state == memory::ItemState::Hot) sum += it.resident_tokens;
  return sum;
}

// ---- StoryView ----

std::string_view moment_kind_name(Moment::Kind k) {
  switch (k) {
    case Moment::Kind::FirstSolved: return "first solved";
    case Moment::Kind::DemonstrationStep: return "demonstration step";
    case Moment::Kind::CrossTaskAdoption: return "adopted on another task";
    case Moment::Kind::Promotion: return "promotion";
    case Moment::Kind::Consolidation: return "consolidation";
    case Moment::Kind::BestSpeedup: return "best speedup";
  }
  return "moment";
}

void StoryView::add(Moment::Kind k, int x, std::string caption) {
  moments_.push_back({k, position_, x, std::move(caption)});
}

void StoryView::learned(Moment::Kind k, int x, std::string caption) {
  add(k, x, std::move(caption));
  learned_any_ = true;
  if (solved_any_) tell_speedup();
}

void StoryView::tell_speedup() {
  if (!waiting_speedup_) return;
  const Speedup sp = std::move(*waiting_speedup_);
  waiting_speedup_.reset();
  add(Moment::Kind::BestSpeedup, sp.x,
      "New best speedup: " + speedup_number(sp.value) + " on " + sp.task + " (" + sp.where + ")");
}

std::string StoryView::rules_text(const std::vector<std::string>& ids) const {
  std::vector<std::string> tasks;
  bool imported = false;
  for (const auto& id : ids) {
    auto it = source_task_.find(id);
    if (it == source_task_.end() || it->second.empty()) imported = true;
    else if (std::find(tasks.begin(), tasks.end(), it->second) == tasks.end()) tasks.push_back(it->second);
  }
  std::string out;
  if (!tasks.empty()) {
    out = ids.size() == 1 ? "the rule learned on " : std::to_string(ids.size()) + " rules learned on ";
    for (std::size_t i = 0; i < tasks.size(); ++i) out += (i ? ", " : "") + tasks[i];
    if (imported) out += " and an imported one";
  } else {
    out = ids.size() == 1 ? "an imported rule" : std::to_string(ids.size()) + " imported rules";
  }
  return out;
}

void StoryView::apply(const Event& e) {
  const std::size_t index = position_++;
  const std::string where_it = [&] { return (sage_ ? "episode " : "iteration ") + std::to_string(current_x_); }();
  if (const auto* cs = std::get_if<CampaignStarted>(&e.body)) {
    sage_ = cs->config.is_object() && cs->config.value("mode", std::string()) == "sage";
    tolerance_ = fast_tolerance_of(cs->config);
  } else if (const auto* is = std::get_if<IterationStarted>(&e.body)) {
    starts_.push_back(index);
    current_x_ = is->iteration;
    if (is->step > step_ && !is->demos.empty()) {
      step_ = is->step;
      learned(Moment::Kind::DemonstrationStep, is->iteration,
              "Iteration " + std::to_string(is->iteration) + ": demonstration step " + std::to_string(is->step) +
                  " of " + std::to_string(is->steps) + " — " + std::to_string(is->demos.size()) +
                  " solved task(s) shown as examples");
    }
  } else if (const auto* sum = std::get_if<IterationSummary>(&e.body)) {
    if (!solved_any_)
      for (const auto& r : sum->results)
        if (r.newly_solved) {
          solved_any_ = true;
          add(Moment::Kind::FirstSolved, sum->iteration,
              "First task solved: " + r.task + " (iteration " + std::to_string(sum->iteration) + ")");
          if (learned_any_) tell_speedup();
          break;
        }
  } else if (const auto* v = std::get_if<Verdict>(&e.body)) {
    // A speedup worth telling a room: faster than the baseline and than every earlier program, each by the tie
    // tolerance (a one-cycle win is a tie, not a speedup).
    if (v->pass && v->speedup && v->feasible.value_or(true) && faster_than(*v->speedup, tolerance_) &&
        (!best_speedup_ || faster_than(*v->speedup, tolerance_, *best_speedup_))) {
      best_speedup_ = *v->speedup;
      waiting_speedup_ = Speedup{*v->speedup, static_cast<int>(v->iteration), v->task, where_it};
      if (solved_any_ && learned_any_) tell_speedup();
    }
  } else if (const auto* st = std::get_if<EpisodeStarted>(&e.body)) {
    starts_.push_back(index);
    current_x_ = st->episode;
  } else if (const auto* fin = std::get_if<EpisodeFinished>(&e.body)) {
    if (!solved_any_ && fin->solved) {
      solved_any_ = true;
      add(Moment::Kind::FirstSolved, fin->episode,
          "First task solved: " + (fin->task.empty() ? std::string("?") : fin->task) + " (episode " +
              std::to_string(fin->episode) + ")");
      if (learned_any_) tell_speedup();
    }
  } else if (const auto* x = std::get_if<ExperienceAdded>(&e.body)) {
    if (!x->item.empty()) source_task_.emplace(x->item, x->source_task);
  } else if (const auto* a = std::get_if<AdoptionRecord>(&e.body)) {
    auto src = source_task_.find(a->item);
    if (!a->adopted || src == source_task_.end() || src->second.empty() || src->second == a->task ||
        adopted_elsewhere_[a->item])
      return;
    adopted_elsewhere_[a->item] = true;
    const int episode = static_cast<int>(a->episode);
    learned(Moment::Kind::CrossTaskAdoption, episode,
            "A rule learned on " + src->second + " helped on " + a->task + " (episode " + std::to_string(episode) +
                ")");
  } else if (const auto* co = std::get_if<Consolidation>(&e.body)) {
    auto ids = [](const std::vector<ItemChange>& changes) {
      std::vector<std::string> out;
      for (const auto& c : changes) out.push_back(c.item);
      return out;
    };
    if (!co->promoted.empty()) {
      learned(Moment::Kind::Promotion, co->episode,
              "Promoted to resident memory: " + rules_text(ids(co->promoted)) + " (episode " +
                  std::to_string(co->episode) + ")");
    } else if (!co->validated.empty() || !co->demoted.empty()) {
      learned(Moment::Kind::Consolidation, co->episode,
              "Consolidation after episode " + std::to_string(co->episode) + ": " +
                  std::to_string(co->validated.size()) + " rule(s) validated, " + std::to_string(co->demoted.size()) +
                  " demoted");
    }
  } else if (std::holds_alternative<CampaignFinished>(e.body)) {
    tell_speedup();  // the story ends: a speedup still waiting is told now
  }
}

}  // namespace sf::learn
