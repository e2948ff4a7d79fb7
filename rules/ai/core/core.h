/* The compiled search core's shared parts: the random numbers, the bit helpers and the
 * search that shares playouts out among a move's candidates (Sequential Halving). Each
 * game's engine (durak.c, tarot.c, ganjifa.c) plays its rules on bitmasks and hands the
 * search its own draw and playout through `Search`. The rules' authority is the Python of
 * rules/<game>/; tests/test_core_*.py hold each engine to it move by move. */
#ifndef CARDAVIA_CORE_H
#define CARDAVIA_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef unsigned __int128 u128;

/* -- random numbers: xoshiro256** (Blackman and Vigna), seeded by splitmix64 ---------- */

typedef struct { u64 s[4]; } Rng;

static inline u64 splitmix64(u64 *x) {
    u64 z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void rng_seed(Rng *r, u64 seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline u64 rotl64(u64 x, int k) { return (x << k) | (x >> (64 - k)); }

static inline u64 rng_next(Rng *r) {
    u64 *s = r->s;
    u64 out = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl64(s[3], 45);
    return out;
}

/* Uniform in 0..n-1 (Lemire's multiply; the bias is below 2^-32 for n < 2^32). */
static inline unsigned rng_below(Rng *r, unsigned n) {
    return (unsigned)(((rng_next(r) >> 32) * (u64)n) >> 32);
}

/* A float in [0, 1). */
static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* -- bits ---------------------------------------------------------------------------- */

static inline int popcount64(u64 m) { return __builtin_popcountll(m); }
static inline int lowest(u64 m) { return __builtin_ctzll(m); }  /* m != 0 */
static inline int highest(u64 m) { return 63 - __builtin_clzll(m); }  /* m != 0 */

/* Cards of a deck of up to 128 (Tarot's 78, Ganjifa's 96) as two words. */
typedef struct { u64 lo, hi; } Set128;

/* The i-th set bit (from 0) of m, for a uniform draw out of a mask. */
static inline int nth_bit(u64 m, int i) {
    while (i-- > 0) m &= m - 1;
    return lowest(m);
}

/* -- time ---------------------------------------------------------------------------- */

double core_now(void);  /* seconds, CLOCK_MONOTONIC */

/* -- the search ---------------------------------------------------------------------- */

/* One move's search: `k` candidates, about `n` playouts shared out by Sequential Halving
 * (Karnin, Koren and Somekh 2013), each candidate still in playing the same worlds with
 * the same playout seed, so that they compare like with like. `draw` writes world i into
 * `world` (world_size bytes); `run` plays candidate j on a copy of a world and then the
 * playout, and answers the searching seat's value in [0, 1]. `deadline` (core_now's
 * seconds, 0 for none) cuts the search short: the best candidate on the worlds played so
 * far is taken. Ties go to the lower index (basic's choice is 0). */
typedef struct {
    int k;
    long n;
    double deadline;
    size_t world_size;
    void *ctx;
    int (*draw)(void *ctx, Rng *rng, void *world);  /* 0 when it drew one */
    double (*run)(void *ctx, const void *world, int j, Rng *rng);
} Search;

typedef struct {
    int best;          /* the chosen candidate */
    long playouts;     /* playouts run */
    long worlds;       /* worlds drawn */
    int cut;           /* the deadline cut the search short */
    double totals[64]; /* each candidate's summed value (the first 64) */
    long counts[64];   /* each candidate's playouts (the first 64) */
} Found;

#define MAX_CANDIDATES 64

/* Runs the search; -1 and a Python exception (MemoryError) when it cannot allocate, -2
 * when no world could be drawn (no exception set). Call it without the GIL held. */
int halving(const Search *s, u64 seed, Found *out);

#endif
