/* sparse_dump.c -- the program from seed 001 (Tavian Barnes, LKML,
 * 15 Jan 2025: "coredump: ... sparse core dumps ... effectively
 * uninterruptible"), adapted for slowpath's measurements.
 *
 * Changes from the seed, and only these:
 *   - the mapping size is argv[1] in GiB (the seed: 1ULL << 40, 1 TiB);
 *     default 1024 (= the seed);
 *   - before abort() it writes one byte to fd 3 if fd 3 is open (the
 *     "ready" pipe of tools/measure/harness/sigtime.c), so the parent can
 *     start its clock right before the dump begins;
 *   - printf goes to stderr (same text).
 * Everything else is the seed: mmap(PROT_READ|PROT_WRITE,
 * MAP_ANONYMOUS|MAP_NORESERVE|MAP_PRIVATE), touch one byte (mem[0] = 1,
 * which gives the VMA its anon_vma, so the whole mapping is dumped), abort().
 */
#include <stdlib.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
    unsigned long long gib = argc > 1 ? strtoull(argv[1], NULL, 10) : 1024;
    size_t len = (size_t)gib << 30;
    char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
                     MAP_ANONYMOUS | MAP_NORESERVE | MAP_PRIVATE, -1, 0);
    fprintf(stderr, "%p %m\n", (void *)mem);
    if (mem != MAP_FAILED) {
        mem[0] = 1;
    }
    char b = 'r';
    (void)!write(3, &b, 1);     /* ready: fails harmlessly if fd 3 is closed */
    abort();
}
