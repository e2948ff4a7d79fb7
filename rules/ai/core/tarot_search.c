/* The strong level's search of a Tarot view (rules/ai/tarot_search.py hands it the view,
 * what each hidden place may hold and the candidates), and the engine's Python entry
 * points for the tests: positions as rules/tarot/state.py's TarotState tuples, moves as
 * rules/game.py's Move tuples. */
#include "tarot.h"
#include <math.h>
#include <stdlib.h>

static PyObject *SIXTY_FOUR; /* the shift between a mask's two words */

/* -- masks, positions and moves from and to Python -------------------------------------- */

static int cards_from_py(PyObject *o, Cards *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a card mask must be an int");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    PyObject *high = PyNumber_Rshift(o, SIXTY_FOUR);
    if (!high) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (PyErr_Occurred()) return -1;
    *out = ((Cards)hi << 64 | lo) & FULL;
    return 0;
}

static PyObject *cards_to_py(Cards m) {
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(m >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)m);
    PyObject *shifted = hi ? PyNumber_Lshift(hi, SIXTY_FOUR) : NULL;
    PyObject *out = shifted && lo ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shifted);
    return out;
}

static PyObject *card_list(Cards m) { /* ascending, as a tuple */
    PyObject *out = PyTuple_New(ncards(m));
    for (int i = 0; out && m; m &= m - 1, i++) PyTuple_SET_ITEM(out, i, PyLong_FromLong(first_card(m)));
    return out;
}

static int small_int(PyObject *o, int low, int high, int8_t *out) { /* None is -1 */
    if (o == Py_None) {
        *out = -1;
        return 0;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%ld out of %d..%d", v, low, high);
        return -1;
    }
    *out = (int8_t)v;
    return 0;
}

static int named(PyObject *o, const char **names, int count, int8_t *out) { /* None is -1 */
    if (o == Py_None) {
        *out = -1;
        return 0;
    }
    for (int i = 0; i < count; i++)
        if (PyUnicode_Check(o) && !PyUnicode_CompareWithASCIIString(o, names[i])) {
            *out = (int8_t)i;
            return 0;
        }
    PyErr_SetString(PyExc_ValueError, "an unknown Tarot name");
    return -1;
}

static PyObject *item(PyObject *t, Py_ssize_t i) { return PyTuple_GET_ITEM(t, i); }

static int cards_seq(PyObject *o, uint8_t *out, int cap) { /* a tuple of cards: its length */
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > cap) {
        PyErr_SetString(PyExc_ValueError, "a trick must be a tuple of cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++) {
        int8_t c;
        if (small_int(item(o, i), 0, DECK - 1, &c) < 0) return -1;
        out[i] = (uint8_t)c;
    }
    return (int)PyTuple_GET_SIZE(o);
}

static int tricks_from_py(PyObject *o, Pos *p) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > HAND_OF[p->n]) {
        PyErr_SetString(PyExc_ValueError, "tricks must be a tuple of at most a hand's tricks");
        return -1;
    }
    p->ntricks = (int8_t)PyTuple_GET_SIZE(o);
    for (int k = 0; k < p->ntricks; k++) {
        PyObject *t = item(o, k);
        Trick *tr = &p->tricks[k];
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3
            || small_int(item(t, 0), 0, p->n - 1, &tr->leader) < 0
            || cards_seq(item(t, 1), tr->card, p->n) != p->n
            || small_int(item(t, 2), 0, p->n - 1, &tr->winner) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a trick is (leader, cards, winner)");
            return -1;
        }
    }
    return 0;
}

/* A TarotState (or a view's public part) as a position. */
static int pos_from_py(PyObject *t, Pos *p) {
    memset(p, 0, sizeof *p);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 17) {
        PyErr_SetString(PyExc_TypeError, "a Tarot position is a TarotState");
        return -1;
    }
    PyObject *hands = item(t, 1), *bids = item(t, 4), *poig = item(t, 11);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) < 3 || PyTuple_GET_SIZE(hands) > 5
        || !PyTuple_Check(bids) || PyTuple_GET_SIZE(bids) > PyTuple_GET_SIZE(hands)
        || !PyTuple_Check(poig) || PyTuple_GET_SIZE(poig) > PyTuple_GET_SIZE(hands)) {
        PyErr_SetString(PyExc_ValueError, "3 to 5 hands, a bid and a poignée at most a seat");
        return -1;
    }
    int n = p->n = (int8_t)PyTuple_GET_SIZE(hands);
    for (int s = 0; s < n; s++)
        if (cards_from_py(item(hands, s), &p->hand[s]) < 0) return -1;
    p->nbids = (int8_t)PyTuple_GET_SIZE(bids);
    for (int i = 0; i < p->nbids; i++)
        if (named(item(bids, i), CONTRACT_NAMES, CONTRACTS, &p->bids[i]) < 0) return -1;
    p->npoignees = (int8_t)PyTuple_GET_SIZE(poig);
    for (int i = 0; i < p->npoignees; i++) {
        PyObject *pt = item(poig, i);
        if (!PyTuple_Check(pt) || PyTuple_GET_SIZE(pt) != 2
            || small_int(item(pt, 0), 0, n - 1, &p->poignee_seat[i]) < 0
            || cards_from_py(item(pt, 1), &p->poignee[i]) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a poignée is (seat, cards)");
            return -1;
        }
    }
    int ntrick;
    if (small_int(item(t, 0), 0, n - 1, &p->dealer) < 0 || cards_from_py(item(t, 2), &p->chien) < 0
        || cards_from_py(item(t, 3), &p->shown) < 0 || small_int(item(t, 5), 0, n - 1, &p->taker) < 0
        || named(item(t, 6), CONTRACT_NAMES, CONTRACTS, &p->contract) < 0
        || small_int(item(t, 7), 0, DECK - 1, &p->called) < 0
        || small_int(item(t, 8), -1, n - 1, &p->partner) < 0
        || cards_from_py(item(t, 9), &p->ecart) < 0
        || small_int(item(t, 10), 0, 1, &p->chelem) < 0
        || (ntrick = cards_seq(item(t, 12), p->trick, n)) < 0
        || small_int(item(t, 13), 0, n - 1, &p->leader) < 0 || tricks_from_py(item(t, 14), p) < 0
        || named(item(t, 15), PHASE_NAMES, PHASES, &p->phase) < 0
        || small_int(item(t, 16), 0, n - 1, &p->to_act) < 0)
        return -1;
    if (p->phase < 0 || (p->phase != OVER && p->to_act < 0) || (p->phase == PLAY && p->taker < 0)) {
        PyErr_SetString(PyExc_ValueError, "a phase without its seat or taker");
        return -1;
    }
    p->ntrick = (int8_t)ntrick;
    for (int k = 0; k < p->ntricks; k++)
        for (int i = 0; i < n; i++) p->called_out |= p->tricks[k].card[i] == p->called;
    for (int i = 0; i < ntrick; i++) p->called_out |= p->trick[i] == p->called;
    return 0;
}

static PyObject *or_none(int v) { return v < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(v); }

/* A position as a TarotState's fields, in its order. */
static PyObject *pos_to_py(const Pos *p) {
    int n = p->n;
    PyObject *hands = PyTuple_New(n), *bids = PyTuple_New(p->nbids);
    PyObject *poig = PyTuple_New(p->npoignees), *tricks = PyTuple_New(p->ntricks);
    if (!hands || !bids || !poig || !tricks) goto fail;
    for (int s = 0; s < n; s++) PyTuple_SET_ITEM(hands, s, cards_to_py(p->hand[s]));
    for (int i = 0; i < p->nbids; i++)
        PyTuple_SET_ITEM(bids, i, PyUnicode_FromString(CONTRACT_NAMES[(int)p->bids[i]]));
    for (int i = 0; i < p->npoignees; i++)
        PyTuple_SET_ITEM(poig, i, Py_BuildValue("(iN)", p->poignee_seat[i], cards_to_py(p->poignee[i])));
    for (int k = 0; k < p->ntricks; k++) {
        const Trick *t = &p->tricks[k];
        PyObject *cards = PyTuple_New(n);
        for (int i = 0; cards && i < n; i++) PyTuple_SET_ITEM(cards, i, PyLong_FromLong(t->card[i]));
        PyTuple_SET_ITEM(tricks, k, Py_BuildValue("(iNi)", t->leader, cards, t->winner));
    }
    PyObject *trick = PyTuple_New(p->ntrick);
    for (int i = 0; trick && i < p->ntrick; i++) PyTuple_SET_ITEM(trick, i, PyLong_FromLong(p->trick[i]));
    PyObject *contract = p->contract < 0 ? Py_NewRef(Py_None)
                                         : PyUnicode_FromString(CONTRACT_NAMES[(int)p->contract]);
    PyObject *chelem = p->chelem < 0 ? Py_NewRef(Py_None) : PyBool_FromLong(p->chelem);
    if (PyErr_Occurred()) goto fail;
    return Py_BuildValue("(iNNNNNNNNNNNNiNsN)", p->dealer, hands, cards_to_py(p->chien),
                         cards_to_py(p->shown), bids, or_none(p->taker), contract,
                         or_none(p->called), or_none(p->partner), cards_to_py(p->ecart), chelem,
                         poig, trick, p->leader, tricks, PHASE_NAMES[(int)p->phase],
                         or_none(p->to_act));
fail:
    Py_XDECREF(hands);
    Py_XDECREF(bids);
    Py_XDECREF(poig);
    Py_XDECREF(tricks);
    return NULL;
}

/* A Move tuple (seat, action, card, cards, contract, announce) as a move. */
static int move_from_py(PyObject *t, const Pos *p, Move *m) {
    memset(m, 0, sizeof *m);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 6) {
        PyErr_SetString(PyExc_TypeError, "a Tarot move is a Move");
        return -1;
    }
    if (small_int(item(t, 0), 0, p->n - 1, &m->seat) < 0 || named(item(t, 1), ACTION_NAMES, ACTIONS, &m->action) < 0
        || small_int(item(t, 2), 0, DECK - 1, &m->card) < 0)
        return -1;
    PyObject *cards = item(t, 3), *contract = item(t, 4), *announce = item(t, 5);
    if (cards != Py_None) {
        uint8_t list[DECK];
        int k = PyTuple_Check(cards) ? cards_seq(cards, list, DECK) : -1;
        if (k < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a move's cards are a tuple");
            return -1;
        }
        for (int i = 0; i < k; i++) m->cards |= CARD(list[i]);
    }
    if (m->action == A_BID) return named(contract, CONTRACT_NAMES, CONTRACTS, &m->arg);
    if (m->action == A_CHELEM) m->arg = (int8_t)(announce != Py_None && PyObject_IsTrue(announce));
    return 0;
}

static PyObject *move_to_py(const Move *m) {
    PyObject *cards = m->action == A_DISCARD || m->action == A_POIGNEE ? card_list(m->cards)
                                                                       : Py_NewRef(Py_None);
    PyObject *contract = m->action == A_BID ? PyUnicode_FromString(CONTRACT_NAMES[(int)m->arg])
                                            : Py_NewRef(Py_None);
    PyObject *announce = m->action == A_CHELEM ? PyBool_FromLong(m->arg) : Py_NewRef(Py_None);
    return Py_BuildValue("(isNNNN)", m->seat, ACTION_NAMES[(int)m->action], or_none(m->card), cards,
                         contract, announce);
}

/* -- the engine's entry points -------------------------------------------------------------- */

/* tarot_legal(state): every legal move as a Move tuple; the écart as its template's
 * (seat, "discard", count, must_include, choose_from). */
static PyObject *py_legal(PyObject *self, PyObject *arg) {
    Pos p;
    Move moves[DECK + 8];
    Cards must = 0, from = 0;
    if (pos_from_py(arg, &p) < 0) return NULL;
    int k = tarot_legal(&p, moves, &must, &from);
    PyObject *out = PyList_New(k);
    for (int i = 0; out && i < k; i++)
        PyList_SET_ITEM(out, i, moves[i].action == A_DISCARD
                                    ? Py_BuildValue("(isiNN)", moves[i].seat, "discard", moves[i].arg,
                                                    card_list(must), card_list(from))
                                    : move_to_py(&moves[i]));
    return out;
}

/* tarot_apply(state, move): the next position's TarotState fields. */
static PyObject *py_apply(PyObject *self, PyObject *args) {
    PyObject *t, *mt;
    Pos p;
    Move m;
    if (!PyArg_ParseTuple(args, "OO", &t, &mt) || pos_from_py(t, &p) < 0 || move_from_py(mt, &p, &m) < 0)
        return NULL;
    tarot_apply(&p, &m);
    return pos_to_py(&p);
}

/* tarot_basic(state): basic's move for the seat to act. */
static PyObject *py_basic(PyObject *self, PyObject *arg) {
    Pos p;
    Move m;
    if (pos_from_py(arg, &p) < 0) return NULL;
    if (p.phase == OVER) Py_RETURN_NONE;
    tarot_basic(&p, p.to_act, &m);
    return move_to_py(&m);
}

static PyObject *camp_name(int camp) {
    return camp < 0 ? Py_NewRef(Py_None) : PyUnicode_FromString(camp ? "taker" : "defense");
}

/* tarot_settle(state): a finished deal's (annulled, half points, bouts, petit au bout's
 * camp, chelem's camp, per defender, scores). */
static PyObject *py_settle(PyObject *self, PyObject *arg) {
    Pos p;
    Settled s;
    if (pos_from_py(arg, &p) < 0) return NULL;
    if (p.phase != OVER) {
        PyErr_SetString(PyExc_ValueError, "the deal is not over");
        return NULL;
    }
    tarot_settle(&p, &s);
    PyObject *scores = PyTuple_New(p.n);
    for (int i = 0; scores && i < p.n; i++) PyTuple_SET_ITEM(scores, i, PyLong_FromLong(s.scores[i]));
    const char *annulled = s.annulled == 1 ? "all_pass" : s.annulled == 2 ? "petit_sec" : NULL;
    return Py_BuildValue("(ziiNNiN)", annulled, s.half, s.bouts, camp_name(s.petit),
                         camp_name(s.made_by), s.per_defender, scores);
}

/* tarot_playout(state, seat): the seat's value once basic plays every seat to the end. */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *t;
    int seat;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi", &t, &seat) || pos_from_py(t, &p) < 0) return NULL;
    return PyFloat_FromDouble(tarot_play_out(&p, seat));
}

/* tarot_misfit(state, seat): how far the other seats' hands lie from basic's bids. */
static PyObject *py_misfit(PyObject *self, PyObject *args) {
    PyObject *t;
    int seat;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi", &t, &seat) || pos_from_py(t, &p) < 0) return NULL;
    return PyFloat_FromDouble(tarot_bids_misfit(&p, seat, NULL));
}

/* -- the search --------------------------------------------------------------------------- */

#define BID_TRIES 4 /* rules/ai/tarot.py's Explain: draws of a world to explain the bids */

typedef struct {
    Pos root;
    Hidden hidden;
    int seat, read_bids;
    long draws; /* draws left for explaining the bids */
    Move cands[MAX_CANDIDATES];
} View;

/* A world: with the bids to read and draws left, the first of up to BID_TRIES draws in
 * which basic would have bid as the other seats did, else the nearest (rules/ai/tarot.py
 * `sample`); 1 when no deal fits the view. */
static int draw(void *ctx, Rng *rng, void *out) {
    View *v = ctx;
    Pos *world = out, other;
    int tries = v->read_bids && v->draws > 1 ? (v->draws < BID_TRIES ? (int)v->draws : BID_TRIES) : 1;
    if (tarot_draw_world(&v->root, &v->hidden, rng, world) < 0) return 1;
    if (tries == 1) return 0;
    double nearest = tarot_bids_misfit(world, v->seat, v->hidden.played);
    int used = 1;
    while (nearest > 0 && used < tries) {
        tarot_draw_world(&v->root, &v->hidden, rng, &other);
        used++;
        double misfit = tarot_bids_misfit(&other, v->seat, v->hidden.played);
        if (misfit < nearest) {
            nearest = misfit;
            *world = other;
        }
    }
    v->draws -= used;
    return 0;
}

static double run(void *ctx, const void *world, int j, Rng *rng) {
    const View *v = ctx;
    Pos p = *(const Pos *)world;
    tarot_apply(&p, &v->cands[j]);
    return tarot_play_out(&p, v->seat);
}

static int masks_from_py(PyObject *o, Cards *out, int count) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != count) {
        PyErr_Format(PyExc_ValueError, "%d masks expected", count);
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (cards_from_py(item(o, i), &out[i]) < 0) return -1;
    return 0;
}

/* The view's public position, its seat and what each hidden place may hold, as the
 * tuple (public, seat, pile, counts, allowed, played, read_bids, draws). */
static int view_from_py(PyObject *args, View *v) {
    PyObject *t, *counts, *allowed, *played, *pile;
    if (!PyTuple_Check(args)) {
        PyErr_SetString(PyExc_TypeError, "a view is a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OiOOOOpl", &t, &v->seat, &pile, &counts, &allowed, &played,
                          &v->read_bids, &v->draws)
        || pos_from_py(t, &v->root) < 0)
        return -1;
    int n = v->root.n;
    Hidden *h = &v->hidden;
    h->places = n + 2;
    if (v->seat < 0 || v->seat >= n || cards_from_py(pile, &h->pile) < 0
        || masks_from_py(allowed, h->allowed, n + 2) < 0 || masks_from_py(played, h->played, n) < 0)
        return -1;
    if (!PyTuple_Check(counts) || PyTuple_GET_SIZE(counts) != n + 2) {
        PyErr_SetString(PyExc_ValueError, "one count a hidden place");
        return -1;
    }
    for (int i = 0; i < n + 2; i++) {
        long c = PyLong_AsLong(item(counts, i));
        if (c < 0 || c > DECK) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a count out of range");
            return -1;
        }
        h->count[i] = (int)c;
    }
    return 0;
}

/* tarot_worlds(view, count, seed): `count` worlds of the view (as `view_from_py` reads
 * it) as the search draws them, as TarotState fields (for the tests); None when no world
 * fits the view. */
static PyObject *py_worlds(PyObject *self, PyObject *args) {
    View *v = calloc(1, sizeof(View));
    PyObject *vt, *out = NULL;
    long count;
    unsigned long long seed;
    if (!v) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "OlK", &vt, &count, &seed) || view_from_py(vt, v) < 0) goto done;
    Rng rng;
    rng_seed(&rng, seed);
    out = PyList_New(0);
    for (long i = 0; out && i < count; i++) {
        Pos world;
        if (draw(v, &rng, &world)) { /* no world fits the view */
            Py_DECREF(out);
            out = Py_NewRef(Py_None);
            break;
        }
        PyObject *w = pos_to_py(&world);
        if (!w || PyList_Append(out, w) < 0) Py_CLEAR(out);
        Py_XDECREF(w);
    }
done:
    free(v);
    return out;
}

/* tarot_search(view, candidates, playouts, seed, seconds): the chosen candidate's index, the playouts run,
 * the worlds drawn, whether the deadline cut it short and each candidate's mean value;
 * None when no world fits the view. The view is (public, seat, pile, counts, allowed, played, read_bids, draws): `pile` holds the hidden cards, `counts` and `allowed` the cards of each hidden place
 * (the other hands, the chien, the hidden écart) and the cards it may hold, `played` each
 * seat's cards played; `read_bids` says whether to explain the other seats' bids, with
 * `draws` draws at most; `seconds` 0 for no deadline, negative on the CPU clock (core.h). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    View *v = calloc(1, sizeof(View));
    PyObject *vt, *cands, *out = NULL;
    long playouts;
    unsigned long long seed;
    double seconds;
    if (!v) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "OOlKd", &vt, &cands, &playouts, &seed, &seconds)
        || view_from_py(vt, v) < 0)
        goto done;
    PyObject *seq = PySequence_Fast(cands, "candidates must be a sequence");
    if (!seq) goto done;
    int k = (int)PySequence_Fast_GET_SIZE(seq);
    for (int j = 0; j < k && j < MAX_CANDIDATES; j++)
        if (move_from_py(PySequence_Fast_GET_ITEM(seq, j), &v->root, &v->cands[j]) < 0) break;
    Py_DECREF(seq);
    if (PyErr_Occurred()) goto done;
    if (k < 1 || k > MAX_CANDIDATES) {
        PyErr_SetString(PyExc_ValueError, "between 1 and 64 candidates");
        goto done;
    }
    Search s = {.k = k, .n = playouts, .deadline = deadline_of(seconds),
                .cpu_clock = seconds < 0, .world_size = sizeof(Pos), .ctx = v,
                .draw = draw, .run = run};
    Found *f = malloc(sizeof(Found));
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
    } else if (rc == -2) { /* no world fits the view */
        out = Py_NewRef(Py_None);
    } else {
        PyObject *means = PyList_New(k);
        for (int j = 0; means && j < k; j++)
            PyList_SET_ITEM(means, j, PyFloat_FromDouble(f->counts[j] ? f->totals[j] / (double)f->counts[j] : 0.0));
        out = means ? Py_BuildValue("(illiN)", f->best, f->playouts, f->worlds, f->cut, means) : NULL;
    }
    free(f);
done:
    free(v);
    return out;
}

static PyMethodDef tarot_methods[] = {
    {"tarot_legal", py_legal, METH_O, "Every legal move of a Tarot position."},
    {"tarot_apply", py_apply, METH_VARARGS, "The position after a move."},
    {"tarot_basic", py_basic, METH_O, "Basic's move for the seat to act."},
    {"tarot_settle", py_settle, METH_O, "A finished deal's settlement."},
    {"tarot_playout", py_playout, METH_VARARGS, "A seat's value after basic's play to the end."},
    {"tarot_misfit", py_misfit, METH_VARARGS, "How far the hands lie from basic's bids."},
    {"tarot_worlds", py_worlds, METH_VARARGS, "Worlds of a view as the search draws them."},
    {"tarot_search", py_search, METH_VARARGS, "The strong level's search of a view."},
    {NULL, NULL, 0, NULL},
};

int tarot_register(PyObject *module) {
    if (!SIXTY_FOUR && !(SIXTY_FOUR = PyLong_FromLong(64))) return -1;
    return PyModule_AddFunctions(module, tarot_methods);
}
