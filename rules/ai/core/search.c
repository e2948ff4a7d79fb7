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

/* The world i, drawn on first use with its own seed: every candidate plays world i with
 * the same playout randomness (common random numbers). */
typedef struct {
    unsigned char *worlds;
    u64 *seeds;
    long drawn, cap;
} Worlds;

static int world_at(const Search *s, Worlds *w, Rng *rng, long i) {
    while (w->drawn <= i) {
        if (w->drawn == w->cap) {
            long cap = w->cap ? 2 * w->cap : 64;
            unsigned char *worlds = realloc(w->worlds, (size_t)cap * s->world_size);
            if (!worlds) return -1;
            w->worlds = worlds;
            u64 *seeds = realloc(w->seeds, (size_t)cap * sizeof(u64));
            if (!seeds) return -1;
            w->seeds = seeds;
            w->cap = cap;
        }
        if (s->draw(s->ctx, rng, w->worlds + (size_t)w->drawn * s->world_size)) return -2;
        w->seeds[w->drawn] = rng_next(rng);
        w->drawn++;
    }
    return 0;
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
    Worlds w = {0};
    int alive[MAX_CANDIDATES];
    for (int j = 0; j < k; j++) alive[j] = j;
    int m = k, rc = 0;
    long played = 0, left = s->n;
    int rounds = k > 1 ? (int)ceil(log2((double)k)) : 1;
    for (int r = 0; r < rounds && m > 1; r++) {
        long per = left / ((long)m * (rounds - r));
        if (per < 1) per = 1;
        for (long p = 0; p < per; p++) {
            if (played && s->deadline > 0 && core_now() > s->deadline) {
                out->cut = 1;
                goto done;
            }
            if ((rc = world_at(s, &w, &rng, played)) != 0) goto done;
            const void *world = w.worlds + (size_t)played * s->world_size;
            for (int a = 0; a < m; a++) {
                int j = alive[a];
                Rng pr;
                rng_seed(&pr, w.seeds[played]);
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
    out->worlds = w.drawn;
    free(w.worlds);
    free(w.seeds);
    return rc;
}
