/* The strong level's search of a Ganjifa view (ganjifa.h): worlds drawn under the
 * history's reading, each root candidate played in them and the models' play to the end
 * (core.h's Sequential Halving). */
#include "ganjifa.h"
#include <stdlib.h>

/* -- the search -------------------------------------------------------------------------- */

/* What the seat sees and what the history says of the other hands. */
typedef struct {
    Pos root;           /* the view's position: the other hands empty */
    const Order *o;
    int seat, first, second;  /* the other seats, in seat order */
    int hidden[PLAYERS];
    Mask unseen, allowed[PLAYERS];
    Reading reading;
    long explain_left;  /* draws left for explaining the trick in progress */
    int tries;          /* of them, at most this many a world */
    int pool[CARDS];
    int k;
    Act cands[MAX_CANDIDATES];
} View;

/* The unseen cards dealt between the two other hands within what each may hold: a card
 * only one may hold is that one's, the rest a uniform draw (rules/ganjifa/view.py
 * `sample`). 1 when no deal fits. */
static int deal(View *v, Rng *rng, Pos *w) {
    Mask only = v->unseen & ~v->allowed[v->second];
    Mask free = v->unseen & v->allowed[v->first] & v->allowed[v->second];
    int room = v->hidden[v->first] - pop(only), n = 0;
    if (v->unseen & ~v->allowed[v->first] & ~v->allowed[v->second] || room < 0
        || room > pop(free) || v->hidden[v->first] + v->hidden[v->second] != pop(v->unseen))
        return 1;
    for (Mask m = free; m; m &= m - 1) v->pool[n++] = bit_of(m);
    Mask mine = only;
    int take = 2 * room <= n ? room : n - room;
    Mask picked = 0;
    for (int i = 0; i < take; i++) {  /* a partial Fisher-Yates */
        int j = i + (int)rng_below(rng, (unsigned)(n - i));
        int c = v->pool[j];
        v->pool[j] = v->pool[i];
        v->pool[i] = c;
        picked |= ONE << c;
    }
    mine |= 2 * room <= n ? picked : free & ~picked;
    *w = v->root;
    w->hand[v->first] = mine;
    w->hand[v->second] = v->unseen & ~mine;
    return 0;
}

/* A world the history's reading explains: up to DRAWS deals, else the one it explains
 * the most of (a client's opponents may play otherwise). */
static int draw_read(View *v, Rng *rng, Pos *w) {
    if (deal(v, rng, w)) return 1;
    const Reading *r = &v->reading;
    if (!r->seats && !r->clauses) return 0;
    int missed = gj_misfits(v->o, w, r);
    Pos other;
    for (int i = 1; i < DRAWS && missed; i++) {
        deal(v, rng, &other);
        int m = gj_misfits(v->o, &other, r);
        if (m < missed) *w = other, missed = m;
    }
    return 0;
}

/* A world of the view; with a trick in progress and draws left, up to `tries` of them
 * until basic's play explains the trick (else the last one). */
static int draw(void *ctx, Rng *rng, void *out) {
    View *v = ctx;
    Pos *w = out;
    if (v->explain_left > 1 && v->root.n) {
        long tries = v->tries < v->explain_left ? v->tries : v->explain_left;
        for (long i = 1; i <= tries; i++) {
            if (draw_read(v, rng, w)) return 1;
            if (gj_explains(v->o, w, v->seat, v->reading.unlike, v->reading.model) || i == tries) {
                v->explain_left -= i;
                return 0;
            }
        }
    }
    return draw_read(v, rng, w);
}

static double run(void *ctx, const void *world, int j, Rng *rng) {
    const View *v = ctx;
    Pos p = *(const Pos *)world;
    gj_apply(&p, v->o, v->cands[j]);
    return gj_play_to_end(&p, v->o, v->reading.model, v->seat);
}

static int view_from_py(PyObject *args, View *v, long *playouts, unsigned long long *seed,
                        double *seconds) {
    PyObject *t, *hidden, *allowed, *since, *clauses, *unlike, *models, *cands;
    long explain;
    if (!PyArg_ParseTuple(args, "OiOOOOOOliOlKd", &t, &v->seat, &hidden, &allowed, &since,
                          &clauses, &unlike, &models, &explain, &v->tries, &cands, playouts,
                          seed, seconds)
        || gj_pos_from_py(t, &v->root) < 0)
        return -1;
    const Order *o = v->o = &GJ_ORDERS[v->root.trump];
    v->seat %= PLAYERS;
    v->first = (v->seat + 1) % PLAYERS < (v->seat + 2) % PLAYERS ? (v->seat + 1) % PLAYERS
                                                                 : (v->seat + 2) % PLAYERS;
    v->second = PLAYERS - v->seat - v->first;
    v->explain_left = explain;
    if (!PyArg_ParseTuple(hidden, "iii", &v->hidden[0], &v->hidden[1], &v->hidden[2])
        || gj_seat_masks_from_py(allowed, o, v->allowed) < 0
        || gj_reading_from_py(since, clauses, unlike, models, o, &v->reading) < 0)
        return -1;
    const Pos *p = &v->root;
    Mask seen = p->hand[0] | p->hand[1] | p->hand[2] | p->won[0] | p->won[1] | p->won[2]
                | p->dukal | p->answer[0] | p->answer[1];
    for (int i = 0; i < p->n; i++) seen |= ONE << p->trick[i];
    v->unseen = o->all & ~seen;
    PyObject *seq = PySequence_Fast(cands, "candidates must be a sequence");
    if (!seq) return -1;
    v->k = (int)PySequence_Fast_GET_SIZE(seq);
    int rc = v->k < 1 || v->k > MAX_CANDIDATES ? -1 : 0;
    if (rc) PyErr_SetString(PyExc_ValueError, "between 1 and 64 candidates");
    for (int j = 0; !rc && j < v->k; j++)
        rc = gj_act_from_py(PySequence_Fast_GET_ITEM(seq, j), o, &v->cands[j]);
    Py_DECREF(seq);
    return rc;
}

/* ganjifa_search(pos, seat, hidden, allowed, since, clauses, unlike, models, explain, tries,
 * candidates, playouts, seed, seconds): the chosen candidate's index, the playouts run,
 * the worlds drawn, whether the deadline cut it short and each candidate's mean value.
 * `pos` is the view's position (the other hands empty), `hidden` each hand's count of
 * cards the seat does not see, `allowed` the cards each seat may hold (the voids shown and
 * read, G5, G6), `since`, `clauses`, `unlike` and `models` the history's reading (each
 * seat's model in the playouts, 0 basic and 1 the high player), `explain` the
 * draws the search may spend explaining the trick in progress, at most `tries` a world;
 * `seconds` 0 for no deadline, negative on the CPU clock (core.h). */
PyObject *gj_py_search(PyObject *self, PyObject *args) {
    long playouts;
    unsigned long long seed;
    double seconds;
    View *v = calloc(1, sizeof(View));
    if (!v) return PyErr_NoMemory();
    PyObject *out = NULL;
    Found *f = NULL;
    if (view_from_py(args, v, &playouts, &seed, &seconds) < 0) goto done;
    Search s = {.k = v->k, .n = playouts, .deadline = deadline_of(seconds),
                .cpu_clock = seconds < 0, .world_size = sizeof(Pos), .ctx = v,
                .draw = draw, .run = run};
    f = malloc(sizeof(Found));
    if (!f) {
        PyErr_NoMemory();
        goto done;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = halving(&s, seed, f);
    Py_END_ALLOW_THREADS
    if (rc == -1) {
        PyErr_NoMemory();
    } else if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "no world fits the view");
    } else {
        PyObject *means = PyList_New(v->k);
        for (int j = 0; means && j < v->k; j++)
            PyList_SET_ITEM(means, j, PyFloat_FromDouble(
                f->counts[j] ? f->totals[j] / (double)f->counts[j] : 0.0));
        out = means ? Py_BuildValue("(illiN)", f->best, f->playouts, f->worlds, f->cut, means)
                    : NULL;
    }
done:
    free(f);
    free(v->reading.clause);
    free(v);
    return out;
}

