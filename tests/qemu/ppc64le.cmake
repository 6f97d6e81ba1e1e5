# CMake toolchain file: a static ppc64le build of libpmurt, pmutool and the QEMU guest
# programs (tests/qemu/guest) with Debian's gcc-powerpc64le-linux-gnu, for the POWER kernels
# booted by tests/qemu/run-guest.sh.
#   cmake -S . -B build-ppc64le -DCMAKE_TOOLCHAIN_FILE=tests/qemu/ppc64le.cmake \
#         -DPMU_QEMU_CACHE=/work/qemu-cache -DPMU_HOST_PMUGEN=$PWD/build/bin/pmugen
# The C library comes with the cross toolchain (/usr/powerpc64le-linux-gnu); libyaml,
# libfdt, jansson and elfutils come from PMU_QEMU_CACHE/sysroot, unpacked by
# tests/qemu/fetch.sh.  There is no --sysroot: the cross gcc finds its own libc, and the
# sysroot's headers and archives are added to its search paths.  pmugen must run on the
# build machine, so the tables are made with PMU_HOST_PMUGEN (a host build's pmugen).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
find_program(PMU_CROSS_GCC powerpc64le-linux-gnu-gcc)
if(NOT PMU_CROSS_GCC)
  message(FATAL_ERROR "powerpc64le-linux-gnu-gcc not found (Debian package gcc-powerpc64le-linux-gnu)")
endif()

# try_compile projects re-read this file: hand them the cache path too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PMU_QEMU_CACHE)
if(NOT PMU_QEMU_CACHE)
  set(PMU_QEMU_CACHE "$ENV{PMU_QEMU_CACHE}")
endif()
set(PMU_QEMU_SYSROOT "${PMU_QEMU_CACHE}/sysroot")
if(NOT EXISTS "${PMU_QEMU_SYSROOT}/usr/include/yaml.h")
  message(FATAL_ERROR "no ppc64le sysroot at '${PMU_QEMU_SYSROOT}': set PMU_QEMU_CACHE to a "
    "directory filled by tests/qemu/fetch.sh")
endif()
set(PMU_QEMU_LIBDIR "${PMU_QEMU_SYSROOT}/usr/lib/powerpc64le-linux-gnu")

set(CMAKE_C_FLAGS_INIT "-isystem ${PMU_QEMU_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -L${PMU_QEMU_LIBDIR}")
set(CMAKE_FIND_ROOT_PATH "${PMU_QEMU_SYSROOT}" /usr/powerpc64le-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# only the static archives are there (the -dev packages' .so links point at absent files)
set(CMAKE_FIND_LIBRARY_SUFFIXES .a)

# pkg-config reads the sysroot's .pc files only and prefixes their paths with it.
set(ENV{PKG_CONFIG_LIBDIR} "${PMU_QEMU_LIBDIR}/pkgconfig:${PMU_QEMU_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${PMU_QEMU_SYSROOT}")
set(ENV{PKG_CONFIG_PATH} "")
