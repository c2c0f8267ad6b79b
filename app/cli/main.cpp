// stepforge-cli: the headless front door to the StepForge engine.
#include <CLI/CLI.hpp>

#include "app/cli/commands.hpp"
#include "core/synth/provider.hpp"

int main(int argc, char** argv) {
  CLI::App app{"stepforge-cli: check, simulate and verify STeP programs; benchmark tasks; campaigns"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "stepforge-cli 0.1.0");
  sf::synth::register_builtin_provider();  // `--backend builtin` = the offline synthesizer
  int exit_code = 0;
  sf::cli::add_program_commands(app, exit_code);
  sf::cli::add_task_commands(app, exit_code);
  sf::cli::add_ask_command(app, exit_code);
  sf::cli::add_synth_commands(app, exit_code);
  sf::cli::add_campaign_commands(app, exit_code);
  sf::cli::add_memory_commands(app, exit_code);
  sf::cli::add_audit_commands(app, exit_code);
  sf::cli::add_golden_commands(app, exit_code);
  sf::cli::add_perf_commands(app, exit_code);
  sf::cli::add_llm_commands(app, exit_code);
  sf::cli::add_graph_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return exit_code;
}
