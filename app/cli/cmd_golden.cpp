// golden: the golden demonstration set (issue 20 item 2; docs/golden.md).
//   stepforge-cli golden list FILE [--json]
//   stepforge-cli golden promote FILE PROGRAM [--campaign C --iteration I --sample S --model M --by NAME]
//   stepforge-cli golden export FILE OUT [--task T ...]
//   stepforge-cli golden import FILE IN
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "app/cli/cli_util.hpp"
#include "app/cli/commands.hpp"
#include "core/learn/golden_demos.hpp"
#include "core/store/golden.hpp"
#include "core/verify/program_file.hpp"

namespace sf::cli {

namespace {

std::string golden_provenance_text(const store::GoldenProvenance& p) {
  std::string out = p.campaign.empty() ? std::string("-") : p.campaign;
  out += " it " + (p.iteration < 0 ? std::string("-") : std::to_string(p.iteration));
  out += " sample " + (p.sample < 0 ? std::string("-") : std::to_string(p.sample));
  out += " model " + (p.model.empty() ? std::string("-") : p.model);
  if (!p.source.empty()) out += " (" + p.source + ")";
  return out;
}

}  // namespace

void add_golden_commands(CLI::App& app, int& exit_code) {
  auto* golden = app.add_subcommand("golden", "Golden demonstrations: curated verified programs with provenance");
  golden->require_subcommand(1);

  struct ListOpts {
    std::string file;
    bool json = false;
  };
  auto lo = std::make_shared<ListOpts>();
  auto* list = golden->add_subcommand("list", "List a golden set (id, task, provenance, promoted by/at)");
  list->add_option("FILE", lo->file, "Golden set file (e.g. WORKSPACE/golden.json)")->required();
  list->add_flag("--json", lo->json, "Print the file's JSON");
  list->callback([lo, &exit_code] {
    store::GoldenSet set;
    std::string err;
    bool exists = false;
    if (!store::load_golden_file(lo->file, set, err, &exists) || !exists) {
      std::cerr << "error: " << (exists ? err : lo->file + ": no such file") << "\n";
      exit_code = 2;
      return;
    }
    if (lo->json) {
      std::cout << store::golden_file_json(set).dump(2) << "\n";
      return;
    }
    std::cout << lo->file << ": revision " << set.revision << ", " << set.entries.size() << " program"
              << (set.entries.size() == 1 ? "" : "s") << "\n";
    for (const auto& e : set.entries)
      std::cout << e.id << "  " << e.task << "  " << golden_provenance_text(e.provenance) << "  by "
                << (e.promoted_by.empty() ? "-" : e.promoted_by) << " at " << e.promoted_at << "\n";
  });

  struct PromoteOpts {
    std::string file, program, campaign, model, by;
    std::int64_t iteration = -1, sample = -1;
  };
  auto po = std::make_shared<PromoteOpts>();
  auto* promote = golden->add_subcommand(
      "promote", "Verify a program and add it to a golden set (refused with the reason when it does not verify)");
  promote->add_option("FILE", po->file, "Golden set file (created when missing)")->required();
  promote->add_option("PROGRAM", po->program, "A task file with impl, or a solution file naming its task")
      ->required();
  promote->add_option("--campaign", po->campaign, "Provenance: the campaign's name");
  promote->add_option("--iteration", po->iteration, "Provenance: the campaign iteration (sage: episode)");
  promote->add_option("--sample", po->sample, "Provenance: the sample index (sage: round)");
  promote->add_option("--model", po->model, "Provenance: the model that wrote it");
  promote->add_option("--by", po->by, "Who promotes it (default: $USER)");
  promote->callback([po, &exit_code] {
    Diagnostics ds;
    auto pf = verify::load_program_file(po->program, &cli_catalogue(), ds);
    if (!pf) {
      print_diagnostics(ds, po->program);
      exit_code = 2;
      return;
    }
    learn::PromoteRequest req;
    req.impl = pf->impl;
    req.provenance = {po->campaign, "", pf->task.id, po->iteration, po->sample, po->model, "cli"};
    req.promoted_by = po->by;
    if (req.promoted_by.empty())
      if (const char* user = std::getenv("USER")) req.promoted_by = user;
    req.promoted_at = now_iso_utc();
    verify::Verifier verifier;
    auto r = learn::promote_to_golden(po->file, pf->task, req, verifier);
    if (!r.ok) {
      std::cerr << "error: " << po->program << ": " << r.error << "\n";
      exit_code = 1;
      return;
    }
    std::cout << (r.added ? "promoted " : "already golden: ") << r.entry.id << " (" << r.entry.task << ")\n";
  });

  struct ExportOpts {
    std::string file, out;
    std::vector<std::string> tasks;
  };
  auto eo = std::make_shared<ExportOpts>();
  auto* exp = golden->add_subcommand("export", "Write a golden set (or some tasks of it) to another file");
  exp->add_option("FILE", eo->file, "Golden set file")->required();
  exp->add_option("OUT", eo->out, "Destination file (overwritten)")->required();
  exp->add_option("--task", eo->tasks, "Only these tasks (repeatable)");
  exp->callback([eo, &exit_code] {
    std::string err;
    auto n = store::export_golden(eo->file, eo->out, eo->tasks, err);
    if (!n) {
      std::cerr << "error: " << err << "\n";
      exit_code = 2;
      return;
    }
    std::cout << "exported " << *n << " program" << (*n == 1 ? "" : "s") << " to " << eo->out << "\n";
  });

  struct ImportOpts {
    std::string file, in;
  };
  auto io = std::make_shared<ImportOpts>();
  auto* imp = golden->add_subcommand(
      "import", "Merge another golden file into FILE (same task + program skipped; provenance kept)");
  imp->add_option("FILE", io->file, "Golden set file (created when missing)")->required();
  imp->add_option("IN", io->in, "The file to import")->required();
  imp->callback([io, &exit_code] {
    std::string err;
    auto n = store::import_golden(io->file, io->in, err);
    if (!n) {
      std::cerr << "error: " << err << "\n";
      exit_code = 2;
      return;
    }
    std::cout << "imported " << *n << " program" << (*n == 1 ? "" : "s") << " into " << io->file << "\n";
  });
}

}  // namespace sf::cli
