# Warnings used by every StepForge target (sf_target_defaults).
function(sf_target_defaults target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wno-missing-field-initializers)
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

# sf_core_module(NAME SOURCES... DEPS ...): a static library sf_NAME in core/NAME.
function(sf_core_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(sf_${name} STATIC ${ARG_SOURCES})
  target_include_directories(sf_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(sf_${name} PUBLIC ${ARG_DEPS})
  sf_target_defaults(sf_${name})
endfunction()

# sf_unit_test(NAME SOURCES... DEPS ...): a GoogleTest executable registered with ctest.
function(sf_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    SF_SOURCE_DIR="${PROJECT_SOURCE_DIR}" SF_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
  sf_target_defaults(${name})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endfunction()
