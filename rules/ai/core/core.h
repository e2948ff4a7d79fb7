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
double core_cpu(void);  /* seconds of this thread's CPU time */

/* A search's deadline from Python's `seconds`: wall-clock seconds from now when positive,
 * this thread's CPU seconds from now when negative (benchmarks on a busy machine), none
 * when 0; the search reads it on the clock that `cpu_clock` (seconds < 0) names. */
static inline double deadline_of(double seconds) {
    return seconds > 0 ? core_now() + seconds : seconds < 0 ? core_cpu() - seconds : 0;
}

/* -- the search ---------------------------------------------------------------------- */

/* One move's search: `k` candidates, about `n` playouts shared out by Sequential Halving
 * (Karnin, Koren and Somekh 2013), each candidate still in playing the same worlds with
 * the same playout seed, so that they compare like with like. `draw` writes a world into
 * `world` (world_size bytes); `run` plays candidate j on a copy of a world and then the
 * playout, and answers the searching seat's value in [0, 1]. `deadline` (core_now's
 * seconds, 0 for none; core_cpu's with `cpu_clock`, for benchmarks on a busy machine)
 * cuts the search short: the best candidate on the worlds played so far is taken. Ties go
 * to the lower index (basic's choice is 0). */
typedef struct {
    int k;
    long n;
    double deadline;
    int cpu_clock;
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

/* -- information-set MCTS -------------------------------------------------------------- */

/* One move's search as a single tree over the moves of both sides from the seat's view
 * (Cowling, Powley and Whitehouse 2012, SO-ISMCTS): each iteration draws a world, walks
 * the tree by UCB1 among the moves legal in that world (each counted available when it
 * is), the other side choosing for its own reward, adds one node and plays the rest of
 * the deal out. A move is an opaque key of the game's; the root's moves are the
 * candidates, of which the most visited is chosen. */
typedef struct {
    int k;
    const u64 *candidates;  /* the root's moves, as keys */
    long iterations;
    double deadline;
    int cpu_clock;
    int seat;
    double exploration;     /* UCB1's constant, on rewards in [0, 1] */
    size_t world_size;
    void *ctx;
    int (*draw)(void *ctx, Rng *rng, void *world);      /* 0 when it drew one */
    int (*moves)(void *ctx, const void *pos, u64 *keys); /* the legal moves; 0 when over */
    int (*mover)(void *ctx, const void *pos);
    void (*play)(void *ctx, void *pos, u64 key);
    double (*rollout)(void *ctx, void *pos, Rng *rng);  /* the seat's value from pos */
} Tree;

/* Runs the search into `out` (its totals and counts: each root move's reward and visits);
 * -1 when it cannot allocate, -2 when no world could be drawn. Call it without the GIL. */
int ismcts(const Tree *t, u64 seed, Found *out);
