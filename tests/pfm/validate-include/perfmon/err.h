/* perfmon/err.h - libpfm4's tests include this portability header of its
 * source tree (errx and friends); on Linux it is the C library's <err.h>. */
#include <err.h>
