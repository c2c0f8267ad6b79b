// The printed reports of `stepforge-cli campaign` (cmd_campaign_report.cpp), used by cmd_campaign.cpp.
#pragma once

#include <ostream>
#include <string>

#include "core/learn/engine_state.hpp"

namespace sf::cli {

// The table printed after `campaign run/resume`: per iteration (per episode for mode sage) and the totals.
void print_campaign_table(const learn::CampaignState& st, std::ostream& out);
// `campaign report DIR [--csv | --json]`; the exit status.
int cmd_campaign_report(const std::string& dir, bool csv, bool as_json);
// `campaign sweep-report DIR [--json | --md]`; the exit status.
// `reference`: the variant the paired differences are taken against ("" = the sweep's first variant).
int cmd_sweep_report(const std::string& dir, bool as_json, bool md, const std::string& reference = "");

}  // namespace sf::cli
