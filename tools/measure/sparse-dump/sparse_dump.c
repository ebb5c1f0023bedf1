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
 *   - printf goes to stderr (same text);
 *   - an optional argv[2] = number of pages to touch (default 1, the seed's
 *     mem[0] = 1), spread evenly over the mapping (page i * (pages / k));
 *     0 touches nothing.  An extension beyond the seed, to check the
 *     "no anon_vma, nothing walked" rule and to time pages that are written.
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
    unsigned long long touch = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (mem != MAP_FAILED) {
        unsigned long long pages = len / 4096, stride = touch ? pages / touch : 0;
        for (unsigned long long i = 0; i < touch && i * stride < pages; i++)
            mem[i * stride * 4096] = 1;     /* touch == 1: mem[0] = 1, the seed */
    }
    char b = 'r';
    (void)!write(3, &b, 1);     /* ready: fails harmlessly if fd 3 is closed */
    abort();
}
