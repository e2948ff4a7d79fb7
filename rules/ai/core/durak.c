/* Two-player Durak without passing on (D1-D16) on bitmasks, for the strong level's search:
 * the club player's play (rules/ai/durak_club.py) for the playouts, every legal move for
 * the candidates and the exact endgame, and the draw of a world from the seat's view.
 *
 * A hand is a mask of bits in the club player's cost order for the deal's trump (every
 * plain card below every trump, by rank, ties by card index): the cheapest card of a mask
 * is its lowest bit. The rules' authority is rules/durak; tests/test_core_durak.py holds
 * this engine to it move by move. */
#include "core.h"
#include <stdlib.h>

#define CARDS 52
#define HAND_SIZE 6   /* D2, D12 */
#define BOUT_LIMIT 6  /* D9 */
#define TRUMP_COST 13 /* rules/ai/durak_club.py: above every rank */
#define PAIR_WEIGHT 3 /* likewise: ranks lower a lead goes for each card of its rank */

enum { ATTACK, DEFEND, TAKE, PASS, ACTIONS };
static const char *ACTION_NAMES[ACTIONS] = {"attack", "defend", "take", "pass"};

static int RANK_OF[CARDS], SUIT_OF[CARDS];

/* One trump's cost order and the tables the play reads, indexed by bit. */
typedef struct {
    int card[CARDS];   /* bit -> card index */
    int bit[CARDS];    /* card index -> bit */
    u64 plain;         /* every plain card */
    u64 same_rank[CARDS];
    u64 beaters[CARDS];  /* D4: the cards that beat it */
    int lead_key[CARDS]; /* the lead's worth before its followers, ties by card index */
} Order;

static Order ORDERS[4];

static int cost_of(int c, int trump) {
    return RANK_OF[c] + (SUIT_OF[c] == trump ? TRUMP_COST : 0);
}

static void build_tables(void) {
    for (int c = 0; c < CARDS; c++) {
        /* rules/durak/cards.py: 0-35 the 36-card deck (suits S H D C, ranks 6 to A), then
         * the ranks 2 to 5 of the 52-card deck suit by suit. */
        RANK_OF[c] = c < 36 ? 4 + c % 9 : (c - 36) % 4;
        SUIT_OF[c] = c < 36 ? c / 9 : (c - 36) / 4;
    }
    for (int t = 0; t < 4; t++) {
        Order *o = &ORDERS[t];
        int order[CARDS];
        for (int c = 0; c < CARDS; c++) order[c] = c;
        for (int i = 1; i < CARDS; i++) {  /* by (cost, card) */
            int x = order[i], j = i - 1;
            while (j >= 0 && (cost_of(order[j], t) > cost_of(x, t)
                              || (cost_of(order[j], t) == cost_of(x, t) && order[j] > x))) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
        o->plain = 0;
        for (int b = 0; b < CARDS; b++) {
            o->card[b] = order[b];
            o->bit[order[b]] = b;
        }
        for (int b = 0; b < CARDS; b++) {
            int c = o->card[b];
            if (SUIT_OF[c] != t) o->plain |= 1ULL << b;
            o->lead_key[b] = cost_of(c, t) * CARDS + c;
            o->same_rank[b] = o->beaters[b] = 0;
            for (int x = 0; x < CARDS; x++) {
                u64 xb = 1ULL << o->bit[x];
                if (RANK_OF[x] == RANK_OF[c]) o->same_rank[b] |= xb;
                int same = SUIT_OF[x] == SUIT_OF[c] && RANK_OF[x] > RANK_OF[c];
                if (same || (SUIT_OF[x] == t && SUIT_OF[c] != t)) o->beaters[b] |= xb;
            }
        }
    }
}

static u64 carry(const Order *o, u64 cards) {
    u64 out = 0;
    for (; cards; cards &= cards - 1) out |= 1ULL << o->bit[lowest(cards)];
    return out;
}

static u64 back(const Order *o, u64 bits) {
    u64 out = 0;
    for (; bits; bits &= bits - 1) out |= 1ULL << o->card[lowest(bits)];
    return out;
}

/* -- a position ------------------------------------------------------------------------ */

typedef struct {
    u64 hand[2];
    u64 table;     /* every card on the table, attacks and defences */
    u64 ranks;     /* every card of a rank on the table (D8) */
    u64 unbeaten;  /* the unbeaten attack card, or 0 */
    uint8_t trump, att, n, beaten, taking, cap, at, left, over;
    uint8_t stock[CARDS];  /* drawing order, as bits; the turned-up card last (D2) */
    uint32_t world;        /* the world's number in a search: its stock's order */
} Pos;

typedef struct { int8_t action, bit; } Act;

static inline int to_act(const Pos *p) { return p->unbeaten && !p->taking ? 1 - p->att : p->att; }

/* D9: attack cards the bout may still take. */
static inline int room(const Pos *p) {
    int limit = popcount64(p->hand[1 - p->att]) + p->beaten;
    if (p->cap < limit) limit = p->cap;
    return p->n < limit;
}

/* D10, D11, D12, D14 after the attacker's pass. */
static void end_bout(Pos *p) {
    int att = p->att, def = 1 - att;
    if (p->taking) {
        p->hand[def] |= p->table;  /* D10: the original attacker attacks again */
    } else {
        p->att = (uint8_t)def;     /* D11 */
        p->cap = BOUT_LIMIT;       /* D16: the first bout's cap holds until a beat-off */
    }
    for (int k = 0; k < 2 && p->at < p->left; k++) {  /* D12: the bout's attacker first */
        u64 *h = &p->hand[k == 0 ? att : def];
        while (popcount64(*h) < HAND_SIZE && p->at < p->left) *h |= 1ULL << p->stock[p->at++];
    }
    p->table = p->ranks = p->unbeaten = 0;
    p->n = p->beaten = p->taking = 0;
    if (p->at == p->left && !(p->hand[0] && p->hand[1])) p->over = 1;  /* D14 */
}

static void apply(Pos *p, const Order *o, Act m) {
    u64 b = m.bit >= 0 ? 1ULL << m.bit : 0;
    switch (m.action) {
    case DEFEND:  /* D4, D7 */
        p->hand[1 - p->att] ^= b;
        p->table |= b;
        p->ranks |= o->same_rank[m.bit];
        p->beaten++;
        p->unbeaten = 0;
        break;
    case TAKE:  /* D7, D10 */
        p->taking = 1;
        break;
    case ATTACK:  /* D6, D8 */
        p->hand[p->att] ^= b;
        p->table |= b;
        p->ranks |= o->same_rank[m.bit];
        p->n++;
        if (!p->taking) p->unbeaten = b;
        break;
    default:
        end_bout(p);
    }
}

/* Every legal move, cheapest cards first and taking or passing last: the order the
 * solver tries them in. */
static int legal(const Pos *p, const Order *o, Act *out) {
    int k = 0;
    if (p->over) return 0;
    if (p->unbeaten && !p->taking) {  /* D7 */
        for (u64 m = p->hand[1 - p->att] & o->beaters[lowest(p->unbeaten)]; m; m &= m - 1)
            out[k++] = (Act){DEFEND, (int8_t)lowest(m)};
        out[k++] = (Act){TAKE, -1};
        return k;
    }
    u64 m = !p->n ? p->hand[p->att] : room(p) ? p->hand[p->att] & p->ranks : 0;  /* D6, D8 */
    for (; m; m &= m - 1) out[k++] = (Act){ATTACK, (int8_t)lowest(m)};
    if (p->n) out[k++] = (Act){PASS, -1};  /* D6: never on an empty table */
    return k;
}

/* -- the club player (rules/ai/durak_club.py) ------------------------------------------- */

/* D6: the plain card (any card when only trumps are left) cheapest once each card of its
 * rank in `follow` counts PAIR_WEIGHT ranks lower. */
static int club_lead(const Order *o, u64 hand, u64 follow) {
    int best = -1, best_key = 0;
    u64 m = hand & o->plain ? hand & o->plain : hand;
    for (; m; m &= m - 1) {
        int i = lowest(m);
        int followers = popcount64(follow & o->same_rank[i]) - (int)(follow >> i & 1);
        int key = o->lead_key[i] - PAIR_WEIGHT * CARDS * followers;
        if (best < 0 || key < best_key) best = i, best_key = key;
    }
    return best;
}

static Act club(const Pos *p, const Order *o) {
    if (p->unbeaten && !p->taking) {
        u64 m = p->hand[1 - p->att] & o->beaters[lowest(p->unbeaten)];
        return m ? (Act){DEFEND, (int8_t)lowest(m)} : (Act){TAKE, -1};
    }
    u64 hand = p->hand[p->att];
    int stock = p->at < p->left;
    if (!p->n) return (Act){ATTACK, (int8_t)club_lead(o, hand, stock ? hand & o->plain : hand)};
    u64 m = room(p) ? hand & p->ranks & (stock ? o->plain : ~0ULL) : 0;
    return m ? (Act){ATTACK, (int8_t)lowest(m)} : (Act){PASS, -1};
}

/* D15: the seat's value, 1 a win, 1/2 a draw, 0 the durak (rules/ai/durak.py `value`). */
static double result(const Pos *p, int seat) {
    int mine = p->hand[seat] != 0, theirs = p->hand[1 - seat] != 0;
    return mine == theirs ? 0.5 : mine ? 0.0 : 1.0;
}

/* -- the exact endgame: alpha-beta with a table of the positions valued ------------------ */

enum { LOSS = -1, DRAW = 0, WIN = 1 };
enum { EXACT, LOWER, UPPER };

typedef struct {
    u64 h0, h1, table, meta;  /* the position; meta 0 marks an empty slot */
    uint32_t gen;
    int8_t value, kind;
    Act best;
} Entry;

#define TABLE_BITS 18
#define TABLE_SIZE (1u << TABLE_BITS)

/* One table a thread (gunicorn's gthread workers search side by side), kept between
 * searches and emptied by its generation. Positions with the stock empty are the same
 * game whatever world they came from, so the solves of one search share them. */
typedef struct {
    Entry *slots;
    uint32_t gen;
} Table;

static __thread Table TABLE;

static int table_ready(void) {
    if (!TABLE.slots) {
        TABLE.slots = calloc(TABLE_SIZE, sizeof(Entry));
        if (!TABLE.slots) return -1;
    }
    if (++TABLE.gen == 0) {  /* wrapped: empty every slot once */
        memset(TABLE.slots, 0, TABLE_SIZE * sizeof(Entry));
        TABLE.gen = 1;
    }
    return 0;
}

typedef struct {
    int seat;
    long left;   /* positions the solve may still value */
    const Order *o;
} Solve;

/* Everything of a position but its hands and table. With cards in the stock the position
 * is its world's (the stock's order is drawn), so the key names the world too. */
static inline u64 meta_of(const Pos *p) {
    u64 u = p->unbeaten ? (u64)lowest(p->unbeaten) + 1 : 0;
    u64 world = p->at < p->left ? (u64)p->world + 1 : 0;
    return 1 | u << 1 | (u64)p->att << 7 | (u64)p->beaten << 8 | (u64)p->taking << 12
           | (u64)p->cap << 13 | (u64)p->at << 17 | world << 24;
}

static inline uint32_t slot_of(const Pos *p, u64 meta) {
    u64 h = p->hand[0] * 0x9e3779b97f4a7c15ULL ^ p->hand[1] * 0xc2b2ae3d27d4eb4fULL
            ^ p->table * 0x165667b19e3779f9ULL ^ meta * 0x27d4eb2f165667c5ULL;
    return (uint32_t)(h >> (64 - TABLE_BITS));
}

#define OUT_OF_NODES 100

/* The position's value for the solving seat within (alpha, beta), or OUT_OF_NODES. */
static int value(Solve *s, const Pos *p, int alpha, int beta) {
    if (p->over) {
        double r = result(p, s->seat);
        return r > 0.75 ? WIN : r < 0.25 ? LOSS : DRAW;
    }
    if (--s->left < 0) return OUT_OF_NODES;
    u64 meta = meta_of(p);
    Entry *e = &TABLE.slots[slot_of(p, meta)];
    Act first = {-1, -1};
    if (e->gen == TABLE.gen && e->meta == meta && e->h0 == p->hand[0] && e->h1 == p->hand[1]
        && e->table == p->table) {
        int v = e->value;
        if (e->kind == EXACT || (e->kind == LOWER && v >= beta)
            || (e->kind == UPPER && v <= alpha))
            return v;
        first = e->best;
    }
    Act moves[CARDS + 2];
    int k = legal(p, s->o, moves);
    if (first.action >= 0) {  /* the best move of an earlier visit first: it cuts most */
        for (int i = 0; i < k; i++)
            if (moves[i].action == first.action && moves[i].bit == first.bit) {
                memmove(moves + 1, moves, (size_t)i * sizeof(Act));
                moves[0] = first;
                break;
            }
    }
    int a0 = alpha, b0 = beta, mine = to_act(p) == s->seat;
    int best = mine ? LOSS - 1 : WIN + 1;
    Act best_move = moves[0];
    for (int i = 0; i < k; i++) {
        Pos q = *p;
        apply(&q, s->o, moves[i]);
        int v = value(s, &q, alpha, beta);
        if (v == OUT_OF_NODES) return v;
        if (mine ? v > best : v < best) {
            best = v;
            best_move = moves[i];
            if (mine && v > alpha) alpha = v;
            if (!mine && v < beta) beta = v;
            if (alpha >= beta) break;
        }
    }
    e->gen = TABLE.gen;
    e->meta = meta;
    e->h0 = p->hand[0];
    e->h1 = p->hand[1];
    e->table = p->table;
    e->value = (int8_t)best;
    e->kind = best <= a0 ? UPPER : best >= b0 ? LOWER : EXACT;
    e->best = best_move;
    return best;
}

/* The root: is any move a win, else any a draw (null windows, the cheapest searches)?
 * The value and a move reaching it, `first` when it does; OUT_OF_NODES when the solve
 * passes its count of positions. */
static int solve_root(Solve *s, const Pos *p, Act first, Act *move) {
    Act moves[CARDS + 2];
    int k = legal(p, s->o, moves);
    for (int i = 0; i < k; i++)
        if (moves[i].action == first.action && moves[i].bit == first.bit) {
            memmove(moves + 1, moves, (size_t)i * sizeof(Act));
            moves[0] = first;
            break;
        }
    for (int target = WIN; target >= DRAW; target--) {
        for (int i = 0; i < k; i++) {
            Pos q = *p;
            apply(&q, s->o, moves[i]);
            int v = value(s, &q, target - 1, target);
            if (v == OUT_OF_NODES) return v;
            if (v >= target) {
                *move = moves[i];
                return target;
            }
        }
    }
    *move = moves[0];
    return LOSS;
}

/* -- playouts -------------------------------------------------------------------------- */

/* Endgames solved inside a playout: at a bout's start with the stock empty and at most
 * `exact_cards` cards in the two hands, within `exact_nodes` positions (a position costs
 * a few times less than a club move); else the club player plays it out. */
typedef struct {
    int exact_cards;
    long exact_nodes;
} Exact;

/* The cards still in play: the hands, the table and the stock. */
static inline int in_play(const Pos *p) {
    return popcount64(p->hand[0] | p->hand[1] | p->table) + p->left - p->at;
}

/* A world's stock order is drawn, so from the root move on the world is of perfect
 * information: solved exactly where few enough cards are in play, at the playout's start
 * and at each bout's start (a solve that does not finish is tried again a bout later,
 * with fewer cards). */
static double play_out(Pos *p, const Order *o, int seat, const Exact *x) {
    int first = 1;
    while (!p->over) {
        if (x->exact_cards && (first || !p->table) && in_play(p) <= x->exact_cards) {
            Solve s = {seat, x->exact_nodes, o};
            int v = value(&s, p, LOSS - 1, WIN + 1);
            if (v != OUT_OF_NODES) return (v + 1) / 2.0;
        }
        first = 0;
        apply(p, o, club(p, o));
    }
    return result(p, seat);
}

/* -- Python: positions as tuples --------------------------------------------------------- */

/* (trump, hand0, hand1, stock, attacker, table, taking, cap): hands as masks of card
 * indices, the stock a tuple of cards in drawing order, the table (attack, defence or -1)
 * pairs in the order laid. */
static int pos_from_py(PyObject *t, Pos *p) {
    PyObject *h0, *h1, *stock, *table;
    int trump, att, taking, cap;
    memset(p, 0, sizeof *p);
    if (!PyArg_ParseTuple(t, "iOOOiOpi", &trump, &h0, &h1, &stock, &att, &table, &taking, &cap))
        return -1;
    if (trump < 0 || trump > 3 || att < 0 || att > 1) {
        PyErr_SetString(PyExc_ValueError, "trump or attacker out of range");
        return -1;
    }
    const Order *o = &ORDERS[trump];
    p->trump = (uint8_t)trump;
    p->att = (uint8_t)att;
    p->taking = (uint8_t)taking;
    p->cap = (uint8_t)cap;
    u64 hands[2] = {PyLong_AsUnsignedLongLong(h0), PyLong_AsUnsignedLongLong(h1)};
    if (PyErr_Occurred()) return -1;
    p->hand[0] = carry(o, hands[0]);
    p->hand[1] = carry(o, hands[1]);
    PyObject *seq = PySequence_Fast(stock, "stock must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n && i < CARDS; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        p->stock[i] = (uint8_t)o->bit[c < 0 || c >= CARDS ? 0 : c];
    }
    Py_DECREF(seq);
    p->left = (uint8_t)(n < CARDS ? n : CARDS);
    seq = PySequence_Fast(table, "table must be a sequence");
    if (!seq) return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        int a, d;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &a, &d)) {
            Py_DECREF(seq);
            return -1;
        }
        int ab = o->bit[a];
        p->table |= 1ULL << ab;
        p->ranks |= o->same_rank[ab];
        p->n++;
        if (d >= 0) {
            p->table |= 1ULL << o->bit[d];
            p->ranks |= o->same_rank[o->bit[d]];
            p->beaten++;
        } else {
            p->unbeaten = 1ULL << ab;
        }
    }
    Py_DECREF(seq);
    if (PyErr_Occurred()) return -1;
    return 0;
}

/* The same shape back (the table as a mask of its cards: their order is the caller's),
 * and whether the deal is over. */
static PyObject *pos_to_py(const Pos *p) {
    const Order *o = &ORDERS[p->trump];
    PyObject *stock = PyTuple_New(p->left - p->at);
    if (!stock) return NULL;
    for (int i = p->at; i < p->left; i++)
        PyTuple_SET_ITEM(stock, i - p->at, PyLong_FromLong(o->card[p->stock[i]]));
    return Py_BuildValue("(iKKNiKiiiiii)", p->trump, back(o, p->hand[0]), back(o, p->hand[1]),
                         stock, p->att, back(o, p->table),
                         p->unbeaten ? o->card[lowest(p->unbeaten)] : -1, p->taking, p->cap,
                         p->n, p->beaten, p->over);
}

static PyObject *act_to_py(const Order *o, Act m) {
    return Py_BuildValue("(si)", ACTION_NAMES[(int)m.action], m.bit >= 0 ? o->card[(int)m.bit] : -1);
}

static int act_from_py(PyObject *t, const Order *o, Act *m) {
    const char *action;
    int card;
    if (!PyArg_ParseTuple(t, "si", &action, &card)) return -1;
    for (int a = 0; a < ACTIONS; a++)
        if (!strcmp(action, ACTION_NAMES[a])) {
            m->action = (int8_t)a;
            m->bit = (int8_t)(card >= 0 && card < CARDS ? o->bit[card] : -1);
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "no Durak action %s", action);
    return -1;
}

/* durak_legal(pos): every legal move, as (action, card or -1). */
static PyObject *py_legal(PyObject *self, PyObject *arg) {
    Pos p;
    if (pos_from_py(arg, &p) < 0) return NULL;
    Act moves[CARDS + 2];
    int k = legal(&p, &ORDERS[p.trump], moves);
    PyObject *out = PyList_New(k);
    for (int i = 0; out && i < k; i++) PyList_SET_ITEM(out, i, act_to_py(&ORDERS[p.trump], moves[i]));
    return out;
}

/* durak_apply(pos, (action, card)): the position after the move, as `pos_to_py` gives it. */
static PyObject *py_apply(PyObject *self, PyObject *args) {
    PyObject *t, *mt;
    Pos p;
    Act m;
    if (!PyArg_ParseTuple(args, "OO", &t, &mt) || pos_from_py(t, &p) < 0
        || act_from_py(mt, &ORDERS[p.trump], &m) < 0)
        return NULL;
    apply(&p, &ORDERS[p.trump], m);
    return pos_to_py(&p);
}

/* durak_club(pos): the club player's move. */
static PyObject *py_club(PyObject *self, PyObject *arg) {
    Pos p;
    if (pos_from_py(arg, &p) < 0) return NULL;
    return act_to_py(&ORDERS[p.trump], club(&p, &ORDERS[p.trump]));
}

/* durak_solve(pos, seat, nodes, first): (value for the seat, move) by exact play, the move
 * `first` when it reaches the value; None when the solve passes `nodes` positions. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *t, *ft;
    int seat;
    long nodes;
    Pos p;
    Act first = {-1, -1}, move;
    if (!PyArg_ParseTuple(args, "OilO", &t, &seat, &nodes, &ft) || pos_from_py(t, &p) < 0)
        return NULL;
    const Order *o = &ORDERS[p.trump];
    if (ft != Py_None && act_from_py(ft, o, &first) < 0) return NULL;
    if (table_ready() < 0) return PyErr_NoMemory();
    Solve s = {seat, nodes, o};
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = solve_root(&s, &p, first, &move);
    Py_END_ALLOW_THREADS
    if (v == OUT_OF_NODES) Py_RETURN_NONE;
    return Py_BuildValue("(iN)", v, act_to_py(o, move));
}

/* -- the search -------------------------------------------------------------------------- */

/* What the seat sees, and the weights of the unseen cards for the other hand. */
typedef struct {
    Pos root;          /* the view's position; the other hand holds its known cards only */
    int seat;
    int hidden;        /* cards of the other hand not seen */
    u64 unseen;        /* bits: the other hand's hidden cards and the stock but its last */
    int bottom;        /* the turned-up card's bit, or -1 with the stock empty */
    double weight[CARDS];  /* by bit: how likely an unseen card lies in the other hand */
    int uniform;
    Act cands[MAX_CANDIDATES];
    int k;             /* candidates */
    const Order *o;
    Exact exact;
    uint32_t worlds;   /* drawn so far */
} View;

/* A world: the other hand's hidden cards drawn from the unseen ones, each by its weight
 * among those left (successive sampling; uniform weights give a uniform draw), and the
 * rest shuffled into the stock above the turned-up card. */
static int draw(void *ctx, Rng *rng, void *out) {
    const View *v = ctx;
    Pos *p = out;
    *p = v->root;
    int other = 1 - v->seat;
    int pile[CARDS], n = 0;
    for (u64 m = v->unseen; m; m &= m - 1) pile[n++] = lowest(m);
    if (n < v->hidden) return 1;
    double w[CARDS], total = 0;
    for (int i = 0; i < n; i++) total += w[i] = v->uniform ? 1.0 : v->weight[pile[i]];
    for (int got = 0; got < v->hidden; got++) {
        int pick;
        if (total <= 0) {
            pick = got + (int)rng_below(rng, (unsigned)(n - got));
        } else {
            double x = rng_unit(rng) * total;
            pick = n - 1;
            for (int i = got; i < n; i++)
                if ((x -= w[i]) < 0) { pick = i; break; }
            while (w[pick] <= 0 && pick > got) pick--;  /* rounding at the end */
        }
        total -= w[pick];
        int c = pile[pick];
        double wc = w[pick];
        pile[pick] = pile[got], w[pick] = w[got];
        pile[got] = c, w[got] = wc;
        p->hand[other] |= 1ULL << c;
    }
    int s = 0;
    for (int i = v->hidden; i < n; i++) {  /* Fisher-Yates over the rest */
        int j = i + (int)rng_below(rng, (unsigned)(n - i));
        int c = pile[j];
        pile[j] = pile[i];
        pile[i] = c;
        p->stock[s++] = (uint8_t)c;
    }
    if (v->bottom >= 0) p->stock[s++] = (uint8_t)v->bottom;
    p->at = 0;
    p->left = (uint8_t)s;
    p->world = ((View *)ctx)->worlds++;
    return 0;
}

/* The view's arguments of durak_search (below) into `v`; -1 with a Python
 * exception when they are not well formed. */
static int parse_view(View *v, PyObject *t, int seat, int hidden, unsigned long long unseen,
                      int bottom, PyObject *weights, PyObject *cands, int exact_cards,
                      long exact_nodes) {
    if (pos_from_py(t, &v->root) < 0) return -1;
    const Order *o = v->o = &ORDERS[v->root.trump];
    v->seat = seat & 1;
    v->hidden = hidden;
    v->unseen = carry(o, unseen);
    v->bottom = bottom >= 0 && bottom < CARDS ? o->bit[bottom] : -1;
    v->exact = (Exact){exact_cards, exact_nodes};
    v->uniform = weights == Py_None;
    if (!v->uniform) {
        PyObject *seq = PySequence_Fast(weights, "weights must be a sequence");
        if (!seq) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < CARDS; i++)
            v->weight[o->bit[i]] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        Py_DECREF(seq);
        if (PyErr_Occurred()) return -1;
    }
    PyObject *seq = PySequence_Fast(cands, "candidates must be a sequence");
    if (!seq) return -1;
    int k = (int)PySequence_Fast_GET_SIZE(seq);
    if (k < 1 || k > MAX_CANDIDATES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "between 1 and 64 candidates");
        return -1;
    }
    for (int j = 0; j < k; j++)
        if (act_from_py(PySequence_Fast_GET_ITEM(seq, j), o, &v->cands[j]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    v->k = k;
    if (exact_cards && table_ready() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* A deadline in core_now's seconds from `seconds`: 0 for none, negative for the thread's
 * CPU time (for benchmarks on a busy machine, bench/). */
/* What a search found, for Python: the chosen candidate's index, the playouts run, the
 * worlds drawn, whether the deadline cut it short and each candidate's mean value. */
static PyObject *found_to_py(int rc, const Found *f, int k) {
    if (rc == -1) return PyErr_NoMemory();
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "no world fits the view");
        return NULL;
    }
    PyObject *means = PyList_New(k);
    for (int j = 0; means && j < k; j++)
        PyList_SET_ITEM(means, j, PyFloat_FromDouble(
            f->counts[j] ? f->totals[j] / (double)f->counts[j] : 0.0));
    return means ? Py_BuildValue("(illiN)", f->best, f->playouts, f->worlds, f->cut, means)
                 : NULL;
}

/* -- the search (core.h's ismcts): a move as a key, action and bit ------------------------ */

static inline u64 key_of(Act m) { return (u64)m.action << 8 | (u64)(uint8_t)(m.bit + 1); }
static inline Act act_of(u64 key) {
    return (Act){(int8_t)(key >> 8), (int8_t)((int)(key & 0xff) - 1)};
}

static int tree_moves(void *ctx, const void *pos, u64 *keys) {
    const View *v = ctx;
    Act moves[CARDS + 2];
    int k = legal(pos, v->o, moves);
    if (k > 64) k = 64;
    for (int i = 0; i < k; i++) keys[i] = key_of(moves[i]);
    return k;
}

static int tree_mover(void *ctx, const void *pos) { return to_act(pos); }

static void tree_play(void *ctx, void *pos, u64 key) {
    const View *v = ctx;
    apply(pos, v->o, act_of(key));
}

static double tree_rollout(void *ctx, void *pos, Rng *rng) {
    const View *v = ctx;
    return play_out(pos, v->o, v->seat, &v->exact);
}

/* durak_search(pos, seat, hidden, unseen, bottom, weights, candidates, iterations, seed,
 * seconds, exact_cards, exact_nodes, exploration): the information-set tree search over
 * both seats' moves (core.h's ismcts, UCB1 with the constant `exploration`), as
 * `found_to_py` answers. `pos` is the view's position (the other hand its known cards),
 * `unseen` a mask of card indices, `bottom` the turned-up card or -1, `weights` None or
 * one weight per card index (the other hand's odds of holding it), `seconds` 0 for no
 * deadline (negative: a deadline on the thread's CPU time). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *t, *weights, *cands;
    int seat, hidden, bottom, exact_cards;
    unsigned long long unseen, seed;
    long iterations, exact_nodes;
    double seconds, exploration;
    if (!PyArg_ParseTuple(args, "OiiKiOOlKdild", &t, &seat, &hidden, &unseen, &bottom,
                          &weights, &cands, &iterations, &seed, &seconds, &exact_cards,
                          &exact_nodes, &exploration))
        return NULL;
    View *v = calloc(1, sizeof(View));
    Found *f = malloc(sizeof(Found));
    PyObject *out = NULL;
    if (!v || !f) {
        PyErr_NoMemory();
    } else if (parse_view(v, t, seat, hidden, unseen, bottom, weights, cands, exact_cards,
                          exact_nodes) == 0) {
        u64 keys[MAX_CANDIDATES];
        for (int j = 0; j < v->k; j++) keys[j] = key_of(v->cands[j]);
        Tree tree = {v->k, keys, iterations, deadline_of(seconds), seconds < 0, v->seat,
                     exploration, sizeof(Pos), v, draw, tree_moves, tree_mover, tree_play,
                     tree_rollout};
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = ismcts(&tree, seed, f);
        Py_END_ALLOW_THREADS
        out = found_to_py(rc, f, v->k);
    }
    free(f);
    free(v);
    return out;
}

static PyMethodDef durak_methods[] = {
    {"durak_legal", py_legal, METH_O, "Every legal move of a two-player Durak position."},
    {"durak_apply", py_apply, METH_VARARGS, "The position after a move."},
    {"durak_club", py_club, METH_O, "The club player's move."},
    {"durak_solve", py_solve, METH_VARARGS, "Exact play: (value, move) or None."},
    {"durak_search", py_search, METH_VARARGS, "The strong level's search of a view."},
    {NULL, NULL, 0, NULL},
};

int durak_register(PyObject *module) {
    build_tables();
    return PyModule_AddFunctions(module, durak_methods);
}
