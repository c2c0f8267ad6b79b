// Each file registers its subcommands; main.cpp only wires them into one CLI11 app.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/cost/baseline.hpp"
#include "core/verify/checker.hpp"
#include "core/verify/program_file.hpp"

namespace sf::cli {
void add_program_commands(CLI::App& app, int& exit_code);
void add_task_commands(CLI::App& app, int& exit_code);
void add_ask_command(CLI::App& app, int& exit_code);
void add_synth_commands(CLI::App& app, int& exit_code);
void add_campaign_commands(CLI::App& app, int& exit_code);
void add_memory_commands(CLI::App& app, int& exit_code);
void add_audit_commands(CLI::App& app, int& exit_code);
void add_golden_commands(CLI::App& app, int& exit_code);
// perf, and bench perf (after add_program_commands, which makes `bench`).
void add_perf_commands(CLI::App& app, int& exit_code);
void add_llm_commands(CLI::App& app, int& exit_code);
// graph FILE [--dot] (cmd_graph.cpp).
void add_graph_command(CLI::App& app, int& exit_code);

// "; 1234 cycles, speedup 1.250x" for `verify --perf` (a checked program; nullopt when it did not check).
std::optional<std::string> perf_suffix(const verify::ProgramFile& pf, const verify::CheckResult& cr,
                                       cost::CostModel& model, cost::Baselines& baselines);
}  // namespace sf::cli
