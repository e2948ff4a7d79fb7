/* Ganjifa's Python entry points (ganjifa.h): positions, moves and readings read from and
 * written to tuples, the rules' moves, the players' choices, the settlement and the tests
 * of a world, for tests/test_core_ganjifa.py; the search is ganjifa_search.c's. */
#include "ganjifa.h"
#include <stdlib.h>

static const char *ACTION_NAMES[ACTIONS] = {"play", "dukal", "discard"};

/* -- Python: positions as tuples --------------------------------------------------------- */

static int mask_from_py(PyObject *x, Mask *out) {
    u64 lo = PyLong_AsUnsignedLongLongMask(x);
    if (lo == (u64)-1 && PyErr_Occurred()) return -1;
    PyObject *shift = PyLong_FromLong(64);
    PyObject *hi_obj = shift ? PyNumber_Rshift(x, shift) : NULL;
    Py_XDECREF(shift);
    if (!hi_obj) return -1;
    u64 hi = PyLong_AsUnsignedLongLong(hi_obj);
    Py_DECREF(hi_obj);
    if (hi == (u64)-1 && PyErr_Occurred()) return -1;
    *out = (Mask)hi << 64 | lo;
    return 0;
}

static PyObject *mask_to_py(Mask m) {
    PyObject *hi = PyLong_FromUnsignedLongLong((u64)(m >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((u64)m);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *up = hi && shift ? PyNumber_Lshift(hi, shift) : NULL;
    PyObject *out = up && lo ? PyNumber_Or(up, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(up);
    return out;
}

int gj_cards_from_py(PyObject *x, const Order *o, Mask *out) {
    Mask m;
    if (mask_from_py(x, &m) < 0) return -1;
    *out = gj_carry(o, m & up_to(CARDS - 1));
    return 0;
}

int gj_seat_masks_from_py(PyObject *t, const Order *o, Mask *out) {
    PyObject *seq = PySequence_Fast(t, "three masks expected");
    if (!seq) return -1;
    int rc = PySequence_Fast_GET_SIZE(seq) == PLAYERS ? 0 : -1;
    if (rc) PyErr_SetString(PyExc_ValueError, "three masks expected");
    for (int s = 0; !rc && s < PLAYERS; s++)
        rc = gj_cards_from_py(PySequence_Fast_GET_ITEM(seq, s), o, &out[s]);
    Py_DECREF(seq);
    return rc;
}

/* (trump, hands, captured, leader, trick, dukal): masks of card indices, the hands and
 * the captured piles one a seat, the trick its cards in play order from the leader, the
 * pending Dukal None or (seat, cards, answers). */
int gj_pos_from_py(PyObject *t, Pos *p) {
    PyObject *hands, *captured, *trick, *dukal;
    int trump, leader;
    memset(p, 0, sizeof *p);
    if (!PyArg_ParseTuple(t, "iOOiOO", &trump, &hands, &captured, &leader, &trick, &dukal))
        return -1;
    if (trump < 0 || trump >= SUITS || leader < 0 || leader >= PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "trump or leader out of range");
        return -1;
    }
    const Order *o = &GJ_ORDERS[trump];
    p->trump = (uint8_t)trump;
    p->leader = (uint8_t)leader;
    if (gj_seat_masks_from_py(hands, o, p->hand) < 0 || gj_seat_masks_from_py(captured, o, p->won) < 0)
        return -1;
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n && i < 2; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        p->trick[i] = (uint8_t)o->bit[c < 0 || c >= CARDS ? 0 : c];
    }
    Py_DECREF(seq);
    p->n = (uint8_t)(n < 2 ? n : 2);
    if (dukal != Py_None) {
        int seat;
        PyObject *cards, *answers;
        if (!PyArg_ParseTuple(dukal, "iOO", &seat, &cards, &answers)
            || gj_cards_from_py(cards, o, &p->dukal) < 0)
            return -1;
        seq = PySequence_Fast(answers, "answers must be a sequence");
        if (!seq) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < 2; i++) {
            if (gj_cards_from_py(PySequence_Fast_GET_ITEM(seq, i), o, &p->answer[i]) < 0) {
                Py_DECREF(seq);
                return -1;
            }
            p->answers++;
        }
        Py_DECREF(seq);
    }
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *seat_masks_to_py(const Order *o, const Mask *m) {
    return Py_BuildValue("(NNN)", mask_to_py(gj_back(o, m[0])), mask_to_py(gj_back(o, m[1])),
                         mask_to_py(gj_back(o, m[2])));
}

/* The same shape back, and the seat to act (None once the deal is over). */
static PyObject *pos_to_py(const Pos *p) {
    const Order *o = &GJ_ORDERS[p->trump];
    PyObject *trick = PyTuple_New(p->n);
    for (int i = 0; trick && i < p->n; i++)
        PyTuple_SET_ITEM(trick, i, PyLong_FromLong(o->card[p->trick[i]]));
    PyObject *dukal;
    if (p->dukal) {
        PyObject *answers = PyTuple_New(p->answers);
        for (int i = 0; answers && i < p->answers; i++)
            PyTuple_SET_ITEM(answers, i, mask_to_py(gj_back(o, p->answer[i])));
        dukal = Py_BuildValue("(iNN)", p->leader, mask_to_py(gj_back(o, p->dukal)), answers);
    } else {
        dukal = Py_NewRef(Py_None);
    }
    int seat = to_act(p);
    PyObject *acting = seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(seat);
    return Py_BuildValue("(iNNiNNN)", p->trump, seat_masks_to_py(o, p->hand),
                         seat_masks_to_py(o, p->won), p->leader, trick, dukal, acting);
}

static PyObject *act_to_py(const Order *o, Act m) {
    if (m.action == PLAY)
        return Py_BuildValue("(si)", ACTION_NAMES[PLAY], o->card[bit_of(m.cards)]);
    return Py_BuildValue("(sN)", ACTION_NAMES[m.action], mask_to_py(gj_back(o, m.cards)));
}

/* (action, card) for a play, (action, mask of cards) for a Dukal or an answer. */
int gj_act_from_py(PyObject *t, const Order *o, Act *m) {
    const char *action;
    PyObject *value;
    if (!PyArg_ParseTuple(t, "sO", &action, &value)) return -1;
    for (int a = 0; a < ACTIONS; a++)
        if (!strcmp(action, ACTION_NAMES[a])) {
            m->action = a;
            if (a != PLAY) return gj_cards_from_py(value, o, &m->cards);
            long c = PyLong_AsLong(value);
            if (c < 0 || c >= CARDS) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such card");
                return -1;
            }
            m->cards = ONE << o->bit[c];
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "no Ganjifa action %s", action);
    return -1;
}

/* ganjifa_legal(pos): every legal move as `act_to_py` gives it; a Dukal's answer (any k
 * cards of the hand, G8) as ("discard", k, mask of the hand). */
static PyObject *py_legal(PyObject *self, PyObject *arg) {
    Pos p;
    if (gj_pos_from_py(arg, &p) < 0) return NULL;
    const Order *o = &GJ_ORDERS[p.trump];
    if (p.dukal)
        return Py_BuildValue("[(siN)]", ACTION_NAMES[DISCARD], pop(p.dukal),
                             mask_to_py(gj_back(o, p.hand[to_act(&p)])));
    Act *moves = malloc(MAX_MOVES * sizeof(Act));
    if (!moves) return PyErr_NoMemory();
    int k = gj_legal(&p, o, moves);
    PyObject *out = PyList_New(k);
    for (int i = 0; out && i < k; i++) PyList_SET_ITEM(out, i, act_to_py(o, moves[i]));
    free(moves);
    return out;
}

/* ganjifa_apply(pos, move): the position after the move, as `pos_to_py` gives it. */
static PyObject *py_apply(PyObject *self, PyObject *args) {
    PyObject *t, *mt;
    Pos p;
    Act m;
    if (!PyArg_ParseTuple(args, "OO", &t, &mt) || gj_pos_from_py(t, &p) < 0
        || gj_act_from_py(mt, &GJ_ORDERS[p.trump], &m) < 0)
        return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    gj_apply(&p, &GJ_ORDERS[p.trump], m);
    return pos_to_py(&p);
}

/* ganjifa_basic(pos): the basic player's move. */
static PyObject *py_basic(PyObject *self, PyObject *arg) {
    Pos p;
    if (gj_pos_from_py(arg, &p) < 0) return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    return act_to_py(&GJ_ORDERS[p.trump], gj_basic(&p, &GJ_ORDERS[p.trump]));
}

/* Three ints, one a seat, from a sequence (models, or flags as 0 and 1). */
int gj_seat_ints_from_py(PyObject *t, int *out) {
    PyObject *seq = PySequence_Fast(t, "one item a seat expected");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < PLAYERS; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        out[i] = (int)x;
        if (x < 0 || x >= MODELS) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such model");
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* ganjifa_play_out(pos, models): the position at the end of the deal, each seat playing
 * its model (0 basic, 1 the high player). */
static PyObject *py_play_out(PyObject *self, PyObject *args) {
    PyObject *t, *models;
    int model[PLAYERS] = {BASIC, BASIC, BASIC};
    Pos p;
    if (!PyArg_ParseTuple(args, "OO", &t, &models) || gj_pos_from_py(t, &p) < 0
        || gj_seat_ints_from_py(models, model) < 0)
        return NULL;
    gj_play_out(&p, &GJ_ORDERS[p.trump], model);
    return pos_to_py(&p);
}

/* ganjifa_high(pos): the high player's move. */
static PyObject *py_high(PyObject *self, PyObject *arg) {
    Pos p;
    if (gj_pos_from_py(arg, &p) < 0) return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    return act_to_py(&GJ_ORDERS[p.trump], gj_high(&p, &GJ_ORDERS[p.trump], to_act(&p)));
}

/* ganjifa_settle(pos, seat): G9 at the end of a deal, (captured counts, winners, the
 * seat's value). */
static PyObject *py_settle(PyObject *self, PyObject *args) {
    PyObject *t;
    int seat;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi", &t, &seat) || gj_pos_from_py(t, &p) < 0) return NULL;
    if (!over(&p) || seat < 0 || seat >= PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "a settlement needs a deal over and a seat");
        return NULL;
    }
    int c[PLAYERS], best = 0;
    for (int s = 0; s < PLAYERS; s++) {
        c[s] = pop(p.won[s]);
        if (c[s] > best) best = c[s];
    }
    PyObject *winners = PyList_New(0);
    for (int s = 0; winners && s < PLAYERS; s++)
        if (c[s] == best) {
            PyObject *x = PyLong_FromLong(s);
            if (!x || PyList_Append(winners, x) < 0) Py_CLEAR(winners);
            Py_XDECREF(x);
        }
    if (!winners) return NULL;
    return Py_BuildValue("([iii]Nd)", c[0], c[1], c[2], winners, gj_value(&p, seat));
}

int gj_reading_from_py(PyObject *since, PyObject *clauses, PyObject *unlike,
                           PyObject *models, const Order *o, Reading *r) {
    memset(r, 0, sizeof *r);
    PyObject *seq = PySequence_Fast(since, "since must be a sequence");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < PLAYERS; i++) {
        PyObject *cards;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iO", &r->since_seat[i], &cards)
            || gj_cards_from_py(cards, o, &r->since[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        r->since_seat[i] %= PLAYERS;
        r->seats++;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(clauses, "clauses must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    r->clause = calloc(n ? (size_t)n : 1, sizeof(Clause));
    if (!r->clause) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Clause *c = &r->clause[i];
        PyObject *cards, *above;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiOOp", &c->seat, &c->other,
                              &cards, &above, &c->held)
            || gj_cards_from_py(cards, o, &c->cards) < 0 || gj_cards_from_py(above, o, &c->above) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        c->seat %= PLAYERS;
        c->other %= PLAYERS;
        r->clauses++;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(unlike, "unlike must be a sequence");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < PLAYERS; i++)
        r->unlike[i] = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, i)) == 1;
    Py_DECREF(seq);
    return models == Py_None ? 0 : gj_seat_ints_from_py(models, r->model);
}

/* ganjifa_misfits(world, since, clauses): `misfits` of a world (a whole state). */
static PyObject *py_misfits(PyObject *self, PyObject *args) {
    PyObject *t, *since, *clauses;
    Pos p;
    Reading r;
    if (!PyArg_ParseTuple(args, "OOO", &t, &since, &clauses) || gj_pos_from_py(t, &p) < 0)
        return NULL;
    PyObject *none = PyTuple_New(0);
    int rc = none ? gj_reading_from_py(since, clauses, none, Py_None, &GJ_ORDERS[p.trump], &r) : -1;
    Py_XDECREF(none);
    if (rc < 0) return NULL;
    int n = gj_misfits(&GJ_ORDERS[p.trump], &p, &r);
    free(r.clause);
    return PyLong_FromLong(n);
}

/* ganjifa_explains(world, seat, unlike, models): `explains` of a world (a whole state). */
static PyObject *py_explains(PyObject *self, PyObject *args) {
    PyObject *t, *unlike_t, *models;
    int seat, unlike[PLAYERS] = {0, 0, 0}, model[PLAYERS] = {BASIC, BASIC, BASIC};
    Pos p;
    if (!PyArg_ParseTuple(args, "OiOO", &t, &seat, &unlike_t, &models) || gj_pos_from_py(t, &p) < 0
        || gj_seat_ints_from_py(unlike_t, unlike) < 0 || gj_seat_ints_from_py(models, model) < 0)
        return NULL;
    return PyBool_FromLong(gj_explains(&GJ_ORDERS[p.trump], &p, seat, unlike, model));
}

static PyMethodDef ganjifa_methods[] = {
    {"ganjifa_legal", py_legal, METH_O, "Every legal move of a Ganjifa position."},
    {"ganjifa_apply", py_apply, METH_VARARGS, "The position after a move."},
    {"ganjifa_basic", py_basic, METH_O, "The basic player's move."},
    {"ganjifa_play_out", py_play_out, METH_VARARGS, "The models' play to the end."},
    {"ganjifa_high", py_high, METH_O, "The high player's move."},
    {"ganjifa_settle", py_settle, METH_VARARGS, "G9: (captured, winners, value)."},
    {"ganjifa_misfits", py_misfits, METH_VARARGS, "What the reading does not explain."},
    {"ganjifa_explains", py_explains, METH_VARARGS, "Whether basic explains the trick."},
    {"ganjifa_search", gj_py_search, METH_VARARGS, "The strong level's search of a view."},
    {NULL, NULL, 0, NULL},
};

int ganjifa_register(PyObject *module) {
    gj_build_tables();
    return PyModule_AddFunctions(module, ganjifa_methods);
}

