#include <spawn.h>
#include <sys/mman.h>
#include <fcntl.h>

/* glibc (2.34 and later) declares this only under _GNU_SOURCE, which Swift's Glibc module
   is built without; the decode workers are spawned with it, so that they inherit no
   descriptor but their standard input, output and error, and their pixel file. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* The shared memory file a decode worker writes its pixels in (glibc 2.27 and later, also
   declared only under _GNU_SOURCE), and the flags and seals it is made and closed with,
   as Linux's uapi headers number them. */
extern int memfd_create(const char *name, unsigned int flags);

static const unsigned int cspawn_mfd_cloexec = 0x0001U;
static const unsigned int cspawn_mfd_allow_sealing = 0x0002U;
static const int cspawn_f_add_seals = 1024 + 9;
static const int cspawn_f_seal_seal = 0x0001;
static const int cspawn_f_seal_shrink = 0x0002;
static const int cspawn_f_seal_grow = 0x0004;
