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

/* -- information-set MCTS (core.h) ------------------------------------------------------ */

typedef struct {
    u64 key;
    int32_t first, next;   /* children, as a list */
    uint32_t visits, avail;
    double reward;         /* summed for the side that made the move into the node */
    int8_t mover;
} Node;

#define MAX_NODES (1 << 18)
#define MAX_MOVES 64
#define MAX_DEPTH 512

typedef struct {
    Node *nodes;
    int32_t used, cap;
} Pool;

static int32_t add_node(Pool *p, int32_t parent, u64 key, int mover) {
    if (p->used == p->cap) {
        if (p->cap >= MAX_NODES) return -1;
        int32_t cap = p->cap ? 2 * p->cap : 1024;
        Node *nodes = realloc(p->nodes, (size_t)cap * sizeof(Node));
        if (!nodes) return -1;
        p->nodes = nodes;
        p->cap = cap;
    }
    int32_t i = p->used++;
    Node *n = &p->nodes[i];
    *n = (Node){key, -1, -1, 0, 0, 0.0, (int8_t)mover};
    if (parent >= 0) {
        n->next = p->nodes[parent].first;
        p->nodes[parent].first = i;
    }
    return i;
}

/* The child of `parent` chosen among the legal `keys` (UCB1 with availability counts),
 * or a new child for a legal move not tried yet (`*fresh` set); -1 when the pool is full
 * and every move was tried. */
static int32_t descend(Pool *p, const Tree *t, int32_t parent, const u64 *keys, int m,
                       int mover, int *fresh, Rng *rng) {
    int32_t child_of[MAX_MOVES];
    int untried[MAX_MOVES], u = 0;
    for (int i = 0; i < m; i++) {
        child_of[i] = -1;
        for (int32_t c = p->nodes[parent].first; c >= 0; c = p->nodes[c].next)
            if (p->nodes[c].key == keys[i]) { child_of[i] = c; break; }
        if (child_of[i] < 0) untried[u++] = i;
    }
    if (u) {
        int32_t c = add_node(p, parent, keys[untried[rng_below(rng, (unsigned)u)]], mover);
        if (c >= 0) {
            *fresh = 1;
            p->nodes[c].avail = 1;
            for (int i = 0; i < m; i++)
                if (child_of[i] >= 0) p->nodes[child_of[i]].avail++;
            return c;
        }
        if (u == m) return -1;
    }
    int32_t best = -1;
    double best_score = -1.0;
    for (int i = 0; i < m; i++) {
        int32_t c = child_of[i];
        if (c < 0) continue;
        Node *n = &p->nodes[c];
        n->avail++;
        double score = n->reward / n->visits
                       + t->exploration * sqrt(log((double)n->avail) / n->visits);
        if (score > best_score) best_score = score, best = c;
    }
    return best;
}

int ismcts(const Tree *t, u64 seed, Found *out) {
    memset(out, 0, sizeof *out);
    int k = t->k < MAX_CANDIDATES ? t->k : MAX_CANDIDATES;
    Rng rng;
    rng_seed(&rng, seed);
    Pool pool = {0};
    unsigned char *pos = malloc(t->world_size);
    int rc = 0;
    if (!pos || add_node(&pool, -1, 0, -1) < 0) {
        rc = -1;
        goto done;
    }
    int32_t path[MAX_DEPTH];
    u64 keys[MAX_MOVES];
    for (long it = 0; it < t->iterations; it++) {
        if (it && !(it & 15) && t->deadline > 0
            && (t->cpu_clock ? core_cpu() : core_now()) > t->deadline) {
            out->cut = 1;
            break;
        }
        if (t->draw(t->ctx, &rng, pos)) {
            rc = it ? 0 : -2;
            break;
        }
        out->worlds++;
        int depth = 0, fresh = 0;
        int32_t node = 0;
        path[depth++] = 0;
        while (!fresh && depth < MAX_DEPTH) {
            int m = node == 0 ? k : t->moves(t->ctx, pos, keys);
            if (m <= 0) break;
            if (m > MAX_MOVES) m = MAX_MOVES;
            const u64 *legal = node == 0 ? t->candidates : keys;
            int32_t next = descend(&pool, t, node, legal, m, t->mover(t->ctx, pos), &fresh,
                                   &rng);
            if (next < 0) break;
            t->play(t->ctx, pos, pool.nodes[next].key);
            node = next;
            path[depth++] = node;
        }
        double v = t->rollout(t->ctx, pos, &rng);
        out->playouts++;
        for (int d = 1; d < depth; d++) {
            Node *n = &pool.nodes[path[d]];
            n->visits++;
            n->reward += n->mover == t->seat ? v : 1.0 - v;
        }
    }
    /* The most visited candidate, ties to the lower index. */
    out->best = 0;
    for (int32_t c = pool.used ? pool.nodes[0].first : -1; c >= 0; c = pool.nodes[c].next)
        for (int j = 0; j < k; j++)
            if (t->candidates[j] == pool.nodes[c].key) {
                out->counts[j] = pool.nodes[c].visits;
                out->totals[j] = pool.nodes[c].reward;
            }
    for (int j = 1; j < k; j++)
        if (out->counts[j] > out->counts[out->best]) out->best = j;
done:
    free(pos);
    free(pool.nodes);
    return rc;
}
