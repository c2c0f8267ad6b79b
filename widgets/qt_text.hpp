// std::string (UTF-8) to QString, shared by the models and panes.
#pragma once

#include <QString>

#include <string>

namespace sf::widgets {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace sf::widgets
