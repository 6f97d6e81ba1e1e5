# install.cmake - installing libpmurt (included by runtime/CMakeLists.txt):
#   include/pmurt.h, include/pmurt_tool.h
#   lib/libpmurt.so.0.6.0, libpmurt.so.0 (Runtime), libpmurt.so, libpmurt.a
#   lib/pkgconfig/pmurt.pc
#   lib/cmake/pmurt/ pmurtConfig.cmake, pmurtConfigVersion.cmake and the
#                    exported targets pmurt::pmurt, pmurt::pmurt_static
# Everything but the shared library proper is the Development component.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PMURT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmurt)

install(TARGETS pmurt pmurt_static EXPORT pmurtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
    NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
install(FILES ${PROJECT_SOURCE_DIR}/include/pmurt.h ${PROJECT_SOURCE_DIR}/include/pmurt_tool.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development)

# --- CMake package -------------------------------------------------------------
install(EXPORT pmurtTargets NAMESPACE pmurt:: DESTINATION ${PMURT_CMAKE_DIR}
  COMPONENT Development)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/pmurtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/pmurtConfig.cmake INSTALL_DESTINATION ${PMURT_CMAKE_DIR})
# In 0.x the minor version is the API's: a request for 0.2 takes 0.2.z only
# (pmurt_group_check changed its arguments in 0.2; see libpmurt.map).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pmurtConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pmurtConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/pmurtConfigVersion.cmake
  DESTINATION ${PMURT_CMAKE_DIR} COMPONENT Development)

# --- pkg-config ------------------------------------------------------------------
# Paths relative to the prefix are completed at install time; an absolute
# CMAKE_INSTALL_LIBDIR or INCLUDEDIR is kept as given.
function(pmurt_pc_dir var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
pmurt_pc_dir(PMURT_PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
pmurt_pc_dir(PMURT_PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
set(PMURT_PC_PREFIX "@PMURT_INSTALL_PREFIX@") # filled in at install time

# libfdt: a pkg-config module where it has one, else -lfdt (and its -L when
# the library is outside the linker's default directories).
if(FDT_FOUND)
  set(PMURT_PC_REQUIRES_FDT ", libfdt")
  set(PMURT_PC_LIBS_FDT "")
else()
  get_filename_component(_pmurt_fdt_dir "${FDT_LIBRARY}" DIRECTORY)
  set(PMURT_PC_LIBS_FDT " -lfdt")
  if(NOT _pmurt_fdt_dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    set(PMURT_PC_LIBS_FDT " -L${_pmurt_fdt_dir} -lfdt")
  endif()
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/pmurt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pmurt.pc.in @ONLY)

# At install time: the prefix installed to (cmake --install --prefix, without
# DESTDIR).  Each prefix gets its own staging file, so installs into
# different prefixes may run at once.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_pmurt_pc_dest "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(_pmurt_pc_dest "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
install(CODE "set(_pmurt_pc_template \"${CMAKE_CURRENT_BINARY_DIR}/pmurt.pc.in\")
set(_pmurt_pc_dest \"${_pmurt_pc_dest}\")" COMPONENT Development)
install(CODE [[
get_filename_component(PMURT_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}" ABSOLUTE)
string(MD5 _pmurt_pc_key "$ENV{DESTDIR}${PMURT_INSTALL_PREFIX}")
get_filename_component(_pmurt_pc_stage "${_pmurt_pc_template}" DIRECTORY)
set(_pmurt_pc_stage "${_pmurt_pc_stage}/pkgconfig-${_pmurt_pc_key}/pmurt.pc")
configure_file("${_pmurt_pc_template}" "${_pmurt_pc_stage}" @ONLY)
file(INSTALL DESTINATION "${_pmurt_pc_dest}" TYPE FILE FILES "${_pmurt_pc_stage}")
get_filename_component(_pmurt_pc_stage "${_pmurt_pc_stage}" DIRECTORY)
file(REMOVE_RECURSE "${_pmurt_pc_stage}")
]] COMPONENT Development)
