# Warnings used by every StepForge target (sf_target_defaults).
function(sf_target_defaults target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wno-missing-field-initializers)
  # Unity builds include each .cpp into a generated file, so GCC takes a test fixture in an anonymous
  # namespace for one "defined in a header" and warns about every TEST_F deriving from it.
  if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

# sf_fast_allocator(TARGET): the executable TARGET allocates through mimalloc when the build uses it
# (SF_USE_MIMALLOC). Linked even though no code names it (--no-as-needed): its malloc/free take over the process.
function(sf_fast_allocator target)
  if(SF_USE_MIMALLOC)
    target_link_libraries(${target} PRIVATE "-Wl,--push-state,--no-as-needed" mimalloc "-Wl,--pop-state")
  endif()
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
  sf_fast_allocator(${name})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
  sf_register_test(${name})
endfunction()

# sf_register_test(TARGET): TARGET runs under ctest; the target `sf_tests` (tests/CMakeLists.txt) builds every
# registered test executable and nothing else (what scripts/test.sh builds for the ASan run).
function(sf_register_test target)
  set_property(GLOBAL APPEND PROPERTY SF_TEST_TARGETS ${target})
endfunction()
