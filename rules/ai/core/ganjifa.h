/* Dashavatara Ganjifa (G1-G9) on bitmasks, for the strong level's search, shared by
 * ganjifa_play.c (the rules, the basic and high players' play, the tests of a world
 * against the history's reading), ganjifa_search.c (the worlds and the
 * search) and ganjifa.c (the Python entry points).
 *
 * A card set is a 120-bit mask in basic's cost order for the deal's trump (trumps above
 * every plain suit, then G2's strength, ties by card index): the cheapest card of a mask
 * is its lowest bit. The plain cards are the low 108 bits, a row of nine (one a plain
 * suit, in suit order) a strength, and the trumps the top twelve. The rules' authority
 * is rules/ganjifa; tests/test_core_ganjifa.py holds this engine to it move by move. */
#ifndef CARDAVIA_GANJIFA_H
#define CARDAVIA_GANJIFA_H

#include "core.h"

#define CARDS 120
#define SUITS 10
#define SUIT_SIZE 12
#define PIPS 10
#define PLAYERS 3
#define PLAIN_ROW 9      /* plain suits: one bit each in a row of the cost order */
#define DRAWS 8          /* rules/ai/ganjifa_search.py: draws of a world, for `misfits` */
#define PHANTOM_DUKAL 8  /* a Dukal basic would have led weighs as several misfits */

typedef u128 Mask;

static const Mask ONE = 1;
static inline int pop(Mask m) { return popcount64((u64)m) + popcount64((u64)(m >> 64)); }
static inline Mask low(Mask m) { return m & (~m + 1); }
static inline int bit_of(Mask m) {  /* m != 0: its lowest bit's index */
    u64 lo = (u64)m;
    return lo ? lowest(lo) : 64 + lowest((u64)(m >> 64));
}
static inline int top_of(Mask m) {  /* m != 0: its highest bit's index */
    u64 hi = (u64)(m >> 64);
    return hi ? 64 + highest(hi) : highest((u64)m);
}
/* The cards at and below bit b. */
static inline Mask up_to(int b) { return (ONE << (b + 1)) - 1; }

/* One trump's cost order and the tables the play reads, indexed by bit. */
typedef struct {
    int trump;
    int card[CARDS];       /* bit -> card index */
    int bit[CARDS];        /* card index -> bit */
    int suit_of[CARDS];    /* by bit */
    Mask suit_mask[SUITS];
    Mask beaters[CARDS];   /* G7: the cards that beat it, by bit */
    Mask plain, trumps, all;
    int after[SUITS][SUITS - 1];  /* G6: the suits after each, wrapping */
    int pip[SUITS][PIPS], mantri[SUITS], raja[SUITS];  /* bits */
} Order;

extern Order GJ_ORDERS[SUITS];

/* -- a position ------------------------------------------------------------------------ */

typedef struct {
    Mask hand[PLAYERS];
    Mask won[PLAYERS];    /* captured (G7, G8) */
    Mask dukal;           /* a pending Dukal's cards, or 0 */
    Mask answer[2];       /* its answers so far, in turn order from the seat after it */
    uint8_t trump, leader, n, answers;
    uint8_t trick[2];     /* bits, in play order from the leader */
} Pos;

enum { PLAY, DUKAL, DISCARD, ACTIONS };

typedef struct {
    Mask cards;  /* the card played, or the Dukal's or the answer's cards */
    int action;
} Act;

/* An opponent's model in the playouts: basic's play, the high player's. */
enum { BASIC, HIGH, MODELS };

static inline int opening(const Pos *p) { return !(p->won[0] | p->won[1] | p->won[2]); }
static inline int over(const Pos *p) { return !p->dukal && !(p->hand[0] | p->hand[1] | p->hand[2]); }

/* The seat to act, or -1 once the deal is over (rules/ganjifa/state.py `turn`). */
static inline int to_act(const Pos *p) {
    if (p->dukal) return (p->leader + 1 + p->answers) % PLAYERS;
    if (over(p)) return -1;
    return (p->leader + p->n) % PLAYERS;
}

/* G6: the cards of the led suit; void in it, the trumps and the first suit after the led
 * one of which the hand holds any. */
static inline Mask follow_options(const Order *o, Mask hand, int led) {
    Mask m = hand & o->suit_mask[led];
    if (m) return m;
    Mask out = hand & o->trumps;
    for (int i = 0; i < SUITS - 1; i++) {
        Mask s = hand & o->suit_mask[o->after[led][i]];
        if (s) return out | s;
    }
    return out;
}

/* The trick's winning card so far (G7), as a bit. */
static inline int best_of(const Order *o, const Pos *p) {
    int best = p->trick[0];
    if (p->n > 1 && (o->beaters[best] >> p->trick[1] & 1)) best = p->trick[1];
    return best;
}

#define MAX_MOVES (CARDS + SUITS * 36 + 1)

/* -- what the history says: the reading rules/ai/ganjifa_reading.py gives ----------------- */

typedef struct {
    int seat, other;
    Mask cards, above;
    int held;
} Clause;

typedef struct {
    int seats;                 /* entries of `since` */
    int since_seat[PLAYERS];
    Mask since[PLAYERS];       /* cards each played from its first lead after the opening */
    int clauses;
    Clause *clause;
    int unlike[PLAYERS];       /* seats whose play was no basic's */
    int model[PLAYERS];        /* each seat's model in the playouts, BASIC or HIGH */
} Reading;

/* -- ganjifa_play.c ---------------------------------------------------------------------- */

void gj_build_tables(void);
void gj_apply(Pos *p, const Order *o, Act m);
int gj_legal(const Pos *p, const Order *o, Act *out);  /* but a Dukal's answer */
Act gj_basic(const Pos *p, const Order *o);
Act gj_high(const Pos *p, const Order *o, int seat);
void gj_play_out(Pos *p, const Order *o, const int *model);
double gj_play_to_end(Pos *p, const Order *o, const int *model, int seat);
double gj_value(const Pos *p, int seat);
int gj_misfits(const Order *o, const Pos *w, const Reading *r);
int gj_explains(const Order *o, const Pos *w, int seat, const int *unlike, const int *model);
Mask gj_carry(const Order *o, Mask cards);
Mask gj_back(const Order *o, Mask bits);

/* -- ganjifa.c: Python's tuples -------------------------------------------------------------- */

int gj_cards_from_py(PyObject *x, const Order *o, Mask *out);
int gj_seat_masks_from_py(PyObject *t, const Order *o, Mask *out);
int gj_seat_ints_from_py(PyObject *t, int *out);
int gj_pos_from_py(PyObject *t, Pos *p);
int gj_act_from_py(PyObject *t, const Order *o, Act *m);
int gj_reading_from_py(PyObject *since, PyObject *clauses, PyObject *unlike, PyObject *models,
                       const Order *o, Reading *r);

/* -- ganjifa_search.c ----------------------------------------------------------------------- */

PyObject *gj_py_search(PyObject *self, PyObject *args);

#endif
