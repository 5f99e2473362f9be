#include <spawn.h>

/* glibc (2.34 and later) declares this only under _GNU_SOURCE, which Swift's Glibc module
   is built without; the decode workers are spawned with it, so that they inherit no
   descriptor but their standard input, output and error. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
