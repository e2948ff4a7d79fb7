/* Sequential Halving over a move's candidates, for every game's engine (core.h). */
#include "core.h"
#include <math.h>
#include <stdlib.h>
#include <time.h>

double core_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double core_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int better(const Found *f, int a, int b) {
    /* a before b: more total, ties to the lower index */
    if (f->totals[a] != f->totals[b]) return f->totals[a] > f->totals[b];
    return a < b;
}

static void sort_alive(const Found *f, int *alive, int m) {
    for (int i = 1; i < m; i++) {
        int x = alive[i], j = i - 1;
        while (j >= 0 && better(f, x, alive[j])) { alive[j + 1] = alive[j]; j--; }
        alive[j + 1] = x;
    }
}

int halving(const Search *s, u64 seed, Found *out) {
    memset(out, 0, sizeof *out);
    int k = s->k < MAX_CANDIDATES ? s->k : MAX_CANDIDATES;
    Rng rng;
    rng_seed(&rng, seed);
    /* One world at a time: every candidate still in plays it before the next is drawn. */
    unsigned char *world = malloc(s->world_size);
    if (!world) return -1;
    int alive[MAX_CANDIDATES];
    for (int j = 0; j < k; j++) alive[j] = j;
    int m = k, rc = 0;
    long played = 0, left = s->n;
    int rounds = k > 1 ? (int)ceil(log2((double)k)) : 1;
    for (int r = 0; r < rounds && m > 1; r++) {
        long per = left / ((long)m * (rounds - r));
        if (per < 1) per = 1;
        for (long p = 0; p < per; p++) {
            /* the clock read every 16 worlds: a late playout costs less than reading it */
            if (played && !(played & 15) && s->deadline > 0
                && (s->cpu_clock ? core_cpu() : core_now()) > s->deadline) {
                out->cut = 1;
                goto done;
            }
            if (s->draw(s->ctx, &rng, world)) {
                rc = -2;
                goto done;
            }
            out->worlds++;
            u64 world_seed = rng_next(&rng);
            for (int a = 0; a < m; a++) {
                int j = alive[a];
                Rng pr;
                rng_seed(&pr, world_seed);
                out->totals[j] += s->run(s->ctx, world, j, &pr);
                out->counts[j]++;
                out->playouts++;
            }
            played++;
        }
        left -= per * m;
        sort_alive(out, alive, m);
        m = (m + 1) / 2;
    }
done:
    if (rc == 0 || (rc == -2 && played > 0)) {
        sort_alive(out, alive, m);
        out->best = alive[0];
        rc = 0;
    }
    free(world);
    return rc;
}
