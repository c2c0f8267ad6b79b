// Each file registers its subcommands; main.cpp only wires them into one CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace sf::cli {
void add_program_commands(CLI::App& app, int& exit_code);
void add_task_commands(CLI::App& app, int& exit_code);
void add_ask_command(CLI::App& app, int& exit_code);
void add_synth_commands(CLI::App& app, int& exit_code);
void add_campaign_commands(CLI::App& app, int& exit_code);
void add_memory_commands(CLI::App& app, int& exit_code);
void add_audit_commands(CLI::App& app, int& exit_code);
}  // namespace sf::cli
