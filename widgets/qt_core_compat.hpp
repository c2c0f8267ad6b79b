// Force-included into every translation unit that uses sf_widgets (see widgets/CMakeLists.txt), before any Qt
// header: core/ uses `slots` as a member name, which Qt defines as a macro. Parsing these core headers first
// makes every later include of them a no-op, whatever the include order of a file.
#pragma once

#include "core/fnlang/ir.hpp"
