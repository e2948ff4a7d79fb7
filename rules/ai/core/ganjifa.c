/* Dashavatara Ganjifa (G1-G9) on bitmasks, for the strong level's search: the basic
 * player's play (rules/ai/ganjifa.py `basic_move`) for every seat, every legal move, the
 * settlement and the value, the draw of a world from the seat's view under the reading
 * of the history that rules/ai/ganjifa_reading.py computes, and the search.
 *
 * A card set is a 120-bit mask in basic's cost order for the deal's trump (trumps above
 * every plain suit, then G2's strength, ties by card index): the cheapest card of a mask
 * is its lowest bit. The plain cards are the low 108 bits, a row of nine (one a plain
 * suit, in suit order) a strength, and the trumps the top twelve. The rules' authority
 * is rules/ganjifa; tests/test_core_ganjifa.py holds this engine to it move by move. */
#include "core.h"
#include <stdlib.h>

#define CARDS 120
#define SUITS 10
#define SUIT_SIZE 12
#define PIPS 10
#define PLAYERS 3
#define PLAIN_ROW 9      /* plain suits: one bit each in a row of the cost order */
#define DRAWS 8          /* rules/ai/ganjifa_search.py: draws a world, for `misfits` */
#define PHANTOM_DUKAL 8  /* a Dukal basic would have led weighs as several misfits */

typedef u128 Mask;

static const Mask ONE = 1;
static int SUIT_OF[CARDS], STRENGTH[CARDS];

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

static Order ORDERS[SUITS];

static int cost_of(int c, int trump) {
    return STRENGTH[c] + (SUIT_OF[c] == trump ? SUIT_SIZE : 0);
}

static void build_order(Order *o, int trump) {
    int order[CARDS];
    o->trump = trump;
    for (int c = 0; c < CARDS; c++) order[c] = c;
    for (int i = 1; i < CARDS; i++) {  /* by (cost, card) */
        int x = order[i], j = i - 1;
        while (j >= 0 && (cost_of(order[j], trump) > cost_of(x, trump)
                          || (cost_of(order[j], trump) == cost_of(x, trump) && order[j] > x))) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
    memset(o->suit_mask, 0, sizeof o->suit_mask);
    for (int b = 0; b < CARDS; b++) {
        o->card[b] = order[b];
        o->bit[order[b]] = b;
        o->suit_of[b] = SUIT_OF[order[b]];
        o->suit_mask[SUIT_OF[order[b]]] |= ONE << b;
    }
    o->all = up_to(CARDS - 1);
    o->trumps = o->suit_mask[trump];
    o->plain = o->all & ~o->trumps;
    for (int b = 0; b < CARDS; b++) {
        int s = o->suit_of[b];
        /* within a suit the cost order is G2's rank order */
        Mask higher = o->suit_mask[s] & ~up_to(b);
        o->beaters[b] = s == trump ? higher : higher | o->trumps;
    }
    for (int s = 0; s < SUITS; s++) {
        for (int i = 1; i < SUITS; i++) o->after[s][i - 1] = (s + i) % SUITS;
        for (int r = 0; r < PIPS; r++) o->pip[s][r] = o->bit[SUIT_SIZE * s + r];
        o->mantri[s] = o->bit[SUIT_SIZE * s + 10];
        o->raja[s] = o->bit[SUIT_SIZE * s + 11];
    }
}

static void build_tables(void) {
    for (int c = 0; c < CARDS; c++) {
        /* rules/ganjifa/cards.py: card 12 * suit + rank; G2: the pips run 1 high to 10 low
         * in the first five suits, 10 high to 1 low in the last five, below M and R. */
        int s = c / SUIT_SIZE, r = c % SUIT_SIZE;
        SUIT_OF[c] = s;
        STRENGTH[c] = r >= PIPS ? r : s < 5 ? PIPS - 1 - r : r;
    }
    for (int t = 0; t < SUITS; t++) build_order(&ORDERS[t], t);
}

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
static const char *ACTION_NAMES[ACTIONS] = {"play", "dukal", "discard"};

typedef struct {
    Mask cards;  /* the card played, or the Dukal's or the answer's cards */
    int action;
} Act;

static double value(const Pos *p, int seat);
static int legal(const Pos *p, const Order *o, Act *out);
static double best_line(const Pos *p, const Order *o, int seat, const int *model);

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

static void apply(Pos *p, const Order *o, Act m) {
    int seat = to_act(p);
    p->hand[seat] &= ~m.cards;
    if (m.action == DUKAL) {  /* G8: the seat after the leader answers first */
        p->dukal = m.cards;
        p->answers = 0;
        return;
    }
    if (m.action == DISCARD) {
        p->answer[p->answers++] = m.cards;
        if (p->answers == 2) {  /* G8: the leader captures all 3k cards and leads again */
            p->won[p->leader] |= p->dukal | p->answer[0] | p->answer[1];
            p->dukal = p->answer[0] = p->answer[1] = 0;
            p->answers = 0;
        }
        return;
    }
    int card = bit_of(m.cards);
    if (p->n < 2) {
        p->trick[p->n++] = (uint8_t)card;
        return;
    }
    int best = best_of(o, p), at = o->beaters[best] >> card & 1 ? 2 : best == p->trick[0] ? 0 : 1;
    int winner = (p->leader + at) % PLAYERS;  /* G7 */
    p->won[winner] |= ONE << p->trick[0] | ONE << p->trick[1] | m.cards;
    p->leader = (uint8_t)winner;
    p->n = 0;
}

/* -- Dukals (G8) ------------------------------------------------------------------------- */

/* The suit's pips the hand holds, as a mask of pip ranks (bit r the pip r + 1). */
static inline int pips_of(const Order *o, Mask hand, int s) {
    int out = 0;
    for (int r = 0; r < PIPS; r++) out |= (int)(hand >> o->pip[s][r] & 1) << r;
    return out;
}

static inline int holds_courts(const Order *o, Mask hand, int s) {
    return (hand >> o->mantri[s] & 1) && (hand >> o->raja[s] & 1);
}

static Mask dukal_cards(const Order *o, int s, int start, int len) {
    Mask m = ONE << o->mantri[s] | ONE << o->raja[s];
    for (int r = start; r < start + len; r++) m |= ONE << o->pip[s][r];
    return m;
}

/* Basic's Dukal: the first largest one of at most `limit` cards (suits in avatar order,
 * then runs by their lowest pip, as rules/ganjifa/dukal.py lists them), or 0. */
static Mask largest_dukal(const Order *o, Mask hand, int limit) {
    int best = 0, suit = -1, from = 0;
    for (int s = 0; s < SUITS; s++) {
        if (!holds_courts(o, hand, s)) continue;
        int pips = pips_of(o, hand, s);
        for (int start = 0; start < PIPS; start++) {
            int len = 0;
            while (start + len < PIPS && (pips >> (start + len) & 1)) len++;
            if (len > limit - 2) len = limit - 2;
            if (len >= 3 && len > best) best = len, suit = s, from = start;
        }
    }
    return suit < 0 ? 0 : dukal_cards(o, suit, from, best);
}

/* Whether the hand holds a Dukal of any size (rules/ai/ganjifa_reading.py `holds_dukal`). */
static int holds_dukal(const Order *o, Mask hand) {
    for (int s = 0; s < SUITS; s++) {
        if (!holds_courts(o, hand, s)) continue;
        int pips = pips_of(o, hand, s);
        if (pips & pips >> 1 & pips >> 2) return 1;
    }
    return 0;
}

/* -- the basic player (rules/ai/ganjifa.py `basic_move`) ------------------------------------ */

/* The k cheapest cards of a hand. */
static inline Mask cheapest(Mask hand, int k) {
    Mask out = 0;
    for (int i = 0; i < k && hand; i++) {
        Mask b = low(hand);
        out |= b;
        hand ^= b;
    }
    return out;
}

/* The hand's cards of suit mask `sm` that no unseen card of that suit beats. */
static inline Mask bosses_in(Mask hand, Mask unseen, Mask sm) {
    Mask u = unseen & sm;
    return u ? hand & sm & ~up_to(top_of(u)) : hand & sm;
}

/* Basic's lead: the trump Raja at the opening (G5); its largest Dukal (G8) unless
 * `no_dukal` says it holds none; else its cheapest boss, else its cheapest card. In a
 * world the cards the seat has not seen are the other two hands. */
static Act lead(const Pos *p, const Order *o, int seat, int no_dukal) {
    Mask hand = p->hand[seat];
    if (opening(p)) return (Act){ONE << o->raja[o->trump], PLAY};
    Mask b1 = p->hand[(seat + 1) % PLAYERS], b2 = p->hand[(seat + 2) % PLAYERS];
    if (!no_dukal) {
        int limit = pop(b1) < pop(b2) ? pop(b1) : pop(b2);
        Mask d = largest_dukal(o, hand, limit);
        if (d) return (Act){d, DUKAL};
    }
    /* Each unseen plain card spread to every weaker card of its suit (rows of nine bits
     * down): the hand's plain cards outside the spread are bosses. */
    Mask u = (b1 | b2) & o->plain;
    u |= u >> PLAIN_ROW;
    u |= u >> 2 * PLAIN_ROW;
    u |= u >> 4 * PLAIN_ROW;
    u |= u >> 8 * PLAIN_ROW;
    Mask bosses = hand & o->plain & ~u;
    return (Act){low(bosses ? bosses : hand), PLAY};
}

/* Basic's follow: the cheapest winner when last to play; else the cheapest safe winner
 * (a boss of its suit); else the cheapest card it may play (G6). */
static Act follow(const Pos *p, const Order *o, int seat) {
    Mask hand = p->hand[seat];
    int led = o->suit_of[p->trick[0]], best = best_of(o, p);
    Mask options = follow_options(o, hand, led);
    Mask winners = options & o->beaters[best];
    if (winners) {
        if (p->n == PLAYERS - 1) return (Act){low(winners), PLAY};
        Mask unseen = p->hand[(seat + 1) % PLAYERS] | p->hand[(seat + 2) % PLAYERS];
        Mask safe = winners & (bosses_in(hand, unseen, o->suit_mask[led])
                               | bosses_in(hand, unseen, o->trumps));
        if (safe) return (Act){low(safe), PLAY};
    }
    return (Act){low(options), PLAY};
}

static Act basic(const Pos *p, const Order *o) {
    int seat = to_act(p);
    if (p->dukal) return (Act){cheapest(p->hand[seat], pop(p->dukal)), DISCARD};
    return p->n ? follow(p, o, seat) : lead(p, o, seat, 0);
}

/* -- the high player (rules/ai/ganjifa_high.py) ------------------------------------------ */

enum { BASIC, HIGH, MODELS };

/* The highest card of a mask, the lower index of equals (plain cards of one strength
 * share a row of nine bits, lower suits lower; each trump is a row of its own). */
static inline Mask highest_card(Mask m) {
    int b = top_of(m);
    if (b >= PLAIN_ROW * SUIT_SIZE) return ONE << b;
    return low(m & (Mask)0x1FF << (PLAIN_ROW * (b / PLAIN_ROW)));
}

/* It takes the trick with its highest card it may play when that card takes it, else
 * plays its lowest; leads its highest; answers a Dukal with its lowest cards. */
static Act high(const Pos *p, const Order *o, int seat) {
    Mask hand = p->hand[seat];
    if (p->dukal) return (Act){cheapest(hand, pop(p->dukal)), DISCARD};
    if (!p->n) return (Act){opening(p) ? ONE << o->raja[o->trump] : highest_card(hand), PLAY};
    Mask options = follow_options(o, hand, o->suit_of[p->trick[0]]);
    Mask top = highest_card(options);
    return (Act){top & o->beaters[best_of(o, p)] ? top : low(options), PLAY};
}

/* One move of the seat's model. */
static inline void play_one(Pos *p, const Order *o, const int *model, int seat, int *no_dukal) {
    Act m;
    if (model[seat] == HIGH) {
        m = high(p, o, seat);
    } else if (p->dukal) {
        m = (Act){cheapest(p->hand[seat], pop(p->dukal)), DISCARD};
    } else if (p->n) {
        m = follow(p, o, seat);
    } else {
        m = lead(p, o, seat, no_dukal[seat]);
        if (m.action == PLAY && !opening(p)) no_dukal[seat] = 1;
    }
    apply(p, o, m);
}

/* Each seat's model's play to the end of the deal (`model` one a seat, BASIC or HIGH).
 * A seat that leads a single card as basic holds no Dukal (basic leads one first) and
 * cards only leave a hand, so its hand is not searched for one again. */
static void play_out(Pos *p, const Order *o, const int *model) {
    int no_dukal[PLAYERS] = {0, 0, 0};
    for (;;) {
        int seat = to_act(p);
        if (seat < 0) return;
        play_one(p, o, model, seat, no_dukal);
    }
}

/* The seat's value at the end of its models' play, the last tricks played exactly once
 * every hand holds at most `exact` cards at a lead (0: never). */
static double play_to_end(Pos *p, const Order *o, const int *model, int seat, int exact) {
    int no_dukal[PLAYERS] = {0, 0, 0};
    for (;;) {
        int s = to_act(p);
        if (s < 0) return value(p, seat);
        if (exact && !p->n && !p->dukal && pop(p->hand[s]) <= exact)
            return best_line(p, o, seat, model);
        play_one(p, o, model, s, no_dukal);
    }
}

/* -- the last tricks played exactly ------------------------------------------------------ */

static Act model_move(const Pos *p, const Order *o, int seat, const int *model) {
    return model[seat] == HIGH ? high(p, o, seat) : basic(p, o);
}

/* The seat's best value over every line of its own play to the end of the deal, the other
 * seats playing their models' moves (its answer to a Dukal basic's: any k cards are too
 * many lines, and with a few cards left a Dukal is rare). */
static double best_line(const Pos *p, const Order *o, int seat, const int *model) {
    Pos q = *p;
    int s;
    while ((s = to_act(&q)) >= 0 && (s != seat || q.dukal)) apply(&q, o, model_move(&q, o, s, model));
    if (s < 0) return value(&q, seat);
    Act moves[CARDS + SUITS * 36];
    int k = legal(&q, o, moves);
    double best = 0;
    for (int i = 0; i < k; i++) {
        Pos r = q;
        apply(&r, o, moves[i]);
        double v = best_line(&r, o, seat, model);
        if (v > best) best = v;
    }
    return best;
}

/* G9: the captured counts; the seat's value as rules/ai/ganjifa.py `value`: 0.3 a win
 * (shared by the seats on the highest count) and 0.7 its captured cards, up to 80. */
static double value(const Pos *p, int seat) {
    int c[PLAYERS], best = 0, winners = 0;
    for (int s = 0; s < PLAYERS; s++) {
        c[s] = pop(p->won[s]);
        if (c[s] > best) best = c[s];
    }
    for (int s = 0; s < PLAYERS; s++) winners += c[s] == best;
    double won = c[seat] == best ? 1.0 / winners : 0.0;
    double share = c[seat] / 80.0;
    return 0.3 * won + 0.7 * (share < 1.0 ? share : 1.0);
}

/* -- every legal move ------------------------------------------------------------------- */

#define MAX_MOVES (CARDS + SUITS * 36 + 1)

/* Every legal move but a Dukal's answer (any k cards of the hand, G8: `answer_size`). */
static int legal(const Pos *p, const Order *o, Act *out) {
    int seat = to_act(p), k = 0;
    if (seat < 0 || p->dukal) return 0;
    Mask hand = p->hand[seat];
    if (p->n) {  /* G6 */
        for (Mask m = follow_options(o, hand, o->suit_of[p->trick[0]]); m; m &= m - 1)
            out[k++] = (Act){low(m), PLAY};
        return k;
    }
    if (opening(p)) {  /* G5 */
        out[k++] = (Act){ONE << o->raja[o->trump], PLAY};
        return k;
    }
    for (Mask m = hand; m; m &= m - 1) out[k++] = (Act){low(m), PLAY};
    int b1 = pop(p->hand[(seat + 1) % PLAYERS]), b2 = pop(p->hand[(seat + 2) % PLAYERS]);
    int limit = b1 < b2 ? b1 : b2;
    for (int s = 0; s < SUITS; s++) {  /* G8: every run of three or more pips */
        if (!holds_courts(o, hand, s)) continue;
        int pips = pips_of(o, hand, s);
        for (int start = 0; start < PIPS; start++)
            for (int len = 3; start + len <= PIPS; len++) {
                int run = ((1 << len) - 1) << start;
                if ((pips & run) != run) break;
                if (len + 2 <= limit) out[k++] = (Act){dukal_cards(o, s, start, len), DUKAL};
            }
    }
    return k;
}

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

/* A card-order mask in cost order, and back. */
static Mask carry(const Order *o, Mask cards) {
    Mask out = 0;
    for (; cards; cards &= cards - 1) out |= ONE << o->bit[bit_of(cards)];
    return out;
}

static Mask back(const Order *o, Mask bits) {
    Mask out = 0;
    for (; bits; bits &= bits - 1) out |= ONE << o->card[bit_of(bits)];
    return out;
}

static int cards_from_py(PyObject *x, const Order *o, Mask *out) {
    Mask m;
    if (mask_from_py(x, &m) < 0) return -1;
    *out = carry(o, m & up_to(CARDS - 1));
    return 0;
}

static int seat_masks_from_py(PyObject *t, const Order *o, Mask *out) {
    PyObject *seq = PySequence_Fast(t, "three masks expected");
    if (!seq) return -1;
    int rc = PySequence_Fast_GET_SIZE(seq) == PLAYERS ? 0 : -1;
    if (rc) PyErr_SetString(PyExc_ValueError, "three masks expected");
    for (int s = 0; !rc && s < PLAYERS; s++)
        rc = cards_from_py(PySequence_Fast_GET_ITEM(seq, s), o, &out[s]);
    Py_DECREF(seq);
    return rc;
}

/* (trump, hands, captured, leader, trick, dukal): masks of card indices, the hands and
 * the captured piles one a seat, the trick its cards in play order from the leader, the
 * pending Dukal None or (seat, cards, answers). */
static int pos_from_py(PyObject *t, Pos *p) {
    PyObject *hands, *captured, *trick, *dukal;
    int trump, leader;
    memset(p, 0, sizeof *p);
    if (!PyArg_ParseTuple(t, "iOOiOO", &trump, &hands, &captured, &leader, &trick, &dukal))
        return -1;
    if (trump < 0 || trump >= SUITS || leader < 0 || leader >= PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "trump or leader out of range");
        return -1;
    }
    const Order *o = &ORDERS[trump];
    p->trump = (uint8_t)trump;
    p->leader = (uint8_t)leader;
    if (seat_masks_from_py(hands, o, p->hand) < 0 || seat_masks_from_py(captured, o, p->won) < 0)
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
            || cards_from_py(cards, o, &p->dukal) < 0)
            return -1;
        seq = PySequence_Fast(answers, "answers must be a sequence");
        if (!seq) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < 2; i++) {
            if (cards_from_py(PySequence_Fast_GET_ITEM(seq, i), o, &p->answer[i]) < 0) {
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
    return Py_BuildValue("(NNN)", mask_to_py(back(o, m[0])), mask_to_py(back(o, m[1])),
                         mask_to_py(back(o, m[2])));
}

/* The same shape back, and the seat to act (None once the deal is over). */
static PyObject *pos_to_py(const Pos *p) {
    const Order *o = &ORDERS[p->trump];
    PyObject *trick = PyTuple_New(p->n);
    for (int i = 0; trick && i < p->n; i++)
        PyTuple_SET_ITEM(trick, i, PyLong_FromLong(o->card[p->trick[i]]));
    PyObject *dukal;
    if (p->dukal) {
        PyObject *answers = PyTuple_New(p->answers);
        for (int i = 0; answers && i < p->answers; i++)
            PyTuple_SET_ITEM(answers, i, mask_to_py(back(o, p->answer[i])));
        dukal = Py_BuildValue("(iNN)", p->leader, mask_to_py(back(o, p->dukal)), answers);
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
    return Py_BuildValue("(sN)", ACTION_NAMES[m.action], mask_to_py(back(o, m.cards)));
}

/* (action, card) for a play, (action, mask of cards) for a Dukal or an answer. */
static int act_from_py(PyObject *t, const Order *o, Act *m) {
    const char *action;
    PyObject *value;
    if (!PyArg_ParseTuple(t, "sO", &action, &value)) return -1;
    for (int a = 0; a < ACTIONS; a++)
        if (!strcmp(action, ACTION_NAMES[a])) {
            m->action = a;
            if (a != PLAY) return cards_from_py(value, o, &m->cards);
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
    if (pos_from_py(arg, &p) < 0) return NULL;
    const Order *o = &ORDERS[p.trump];
    if (p.dukal)
        return Py_BuildValue("[(siN)]", ACTION_NAMES[DISCARD], pop(p.dukal),
                             mask_to_py(back(o, p.hand[to_act(&p)])));
    Act *moves = malloc(MAX_MOVES * sizeof(Act));
    if (!moves) return PyErr_NoMemory();
    int k = legal(&p, o, moves);
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
    if (!PyArg_ParseTuple(args, "OO", &t, &mt) || pos_from_py(t, &p) < 0
        || act_from_py(mt, &ORDERS[p.trump], &m) < 0)
        return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    apply(&p, &ORDERS[p.trump], m);
    return pos_to_py(&p);
}

/* ganjifa_basic(pos): the basic player's move. */
static PyObject *py_basic(PyObject *self, PyObject *arg) {
    Pos p;
    if (pos_from_py(arg, &p) < 0) return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    return act_to_py(&ORDERS[p.trump], basic(&p, &ORDERS[p.trump]));
}

/* Three ints, one a seat, from a sequence (models, or flags as 0 and 1). */
static int seat_ints_from_py(PyObject *t, int *out) {
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
    if (!PyArg_ParseTuple(args, "OO", &t, &models) || pos_from_py(t, &p) < 0
        || seat_ints_from_py(models, model) < 0)
        return NULL;
    play_out(&p, &ORDERS[p.trump], model);
    return pos_to_py(&p);
}

/* ganjifa_exact(pos, seat, models): the seat's best value over every line of its own play
 * to the end, each other seat playing its model. */
static PyObject *py_exact(PyObject *self, PyObject *args) {
    PyObject *t, *models;
    int seat, model[PLAYERS] = {BASIC, BASIC, BASIC};
    Pos p;
    if (!PyArg_ParseTuple(args, "OiO", &t, &seat, &models) || pos_from_py(t, &p) < 0
        || seat_ints_from_py(models, model) < 0)
        return NULL;
    return PyFloat_FromDouble(best_line(&p, &ORDERS[p.trump], seat % PLAYERS, model));
}

/* ganjifa_high(pos): the high player's move. */
static PyObject *py_high(PyObject *self, PyObject *arg) {
    Pos p;
    if (pos_from_py(arg, &p) < 0) return NULL;
    if (to_act(&p) < 0) {
        PyErr_SetString(PyExc_ValueError, "the deal is over");
        return NULL;
    }
    return act_to_py(&ORDERS[p.trump], high(&p, &ORDERS[p.trump], to_act(&p)));
}

/* ganjifa_settle(pos, seat): G9 at the end of a deal, (captured counts, winners, the
 * seat's value). */
static PyObject *py_settle(PyObject *self, PyObject *args) {
    PyObject *t;
    int seat;
    Pos p;
    if (!PyArg_ParseTuple(args, "Oi", &t, &seat) || pos_from_py(t, &p) < 0) return NULL;
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
    return Py_BuildValue("([iii]Nd)", c[0], c[1], c[2], winners, value(&p, seat));
}

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

/* What basic's play of the history does not explain in a world: a seat holding a Dukal
 * at a lead since the opening (it would have led it, G8), and the broken clauses. */
static int misfits(const Order *o, const Pos *w, const Reading *r) {
    int out = 0;
    for (int i = 0; i < r->seats; i++)
        if (holds_dukal(o, w->hand[r->since_seat[i]] | r->since[i])) out += PHANTOM_DUKAL;
    for (int i = 0; i < r->clauses; i++) {
        const Clause *c = &r->clause[i];
        if ((w->hand[c->seat] & c->cards) && (!!(w->hand[c->other] & c->above)) == c->held) out++;
    }
    return out;
}

/* Whether basic's play accounts for the cards the other seats put in the trick in progress
 * had this world been the deal (rules/ai/ganjifa_reading.py `explains`). */
static int explains(const Order *o, const Pos *w, int seat, const int *unlike,
                    const int *model) {
    if (!w->n) return 1;
    Pos before = *w;
    for (int i = 0; i < w->n; i++) before.hand[(w->leader + i) % PLAYERS] |= ONE << w->trick[i];
    int at_opening = opening(w);
    for (int i = 0; i < w->n; i++) {
        int s = (w->leader + i) % PLAYERS;
        before.n = (uint8_t)i;
        if (s != seat && (!unlike[s] || model[s] == HIGH) && !(i == 0 && at_opening)) {
            Act m = model[s] == HIGH ? high(&before, o, s)
                    : i ? follow(&before, o, s) : lead(&before, o, s, 0);
            if (m.action != PLAY || m.cards != ONE << w->trick[i]) return 0;
        }
        before.hand[s] &= ~(ONE << w->trick[i]);
    }
    return 1;
}

static int reading_from_py(PyObject *since, PyObject *clauses, PyObject *unlike,
                           PyObject *models, const Order *o, Reading *r) {
    memset(r, 0, sizeof *r);
    PyObject *seq = PySequence_Fast(since, "since must be a sequence");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && i < PLAYERS; i++) {
        PyObject *cards;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iO", &r->since_seat[i], &cards)
            || cards_from_py(cards, o, &r->since[i]) < 0) {
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
            || cards_from_py(cards, o, &c->cards) < 0 || cards_from_py(above, o, &c->above) < 0) {
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
    return models == Py_None ? 0 : seat_ints_from_py(models, r->model);
}

/* ganjifa_misfits(world, since, clauses): `misfits` of a world (a whole state). */
static PyObject *py_misfits(PyObject *self, PyObject *args) {
    PyObject *t, *since, *clauses;
    Pos p;
    Reading r;
    if (!PyArg_ParseTuple(args, "OOO", &t, &since, &clauses) || pos_from_py(t, &p) < 0)
        return NULL;
    PyObject *none = PyTuple_New(0);
    int rc = none ? reading_from_py(since, clauses, none, Py_None, &ORDERS[p.trump], &r) : -1;
    Py_XDECREF(none);
    if (rc < 0) return NULL;
    int n = misfits(&ORDERS[p.trump], &p, &r);
    free(r.clause);
    return PyLong_FromLong(n);
}

/* ganjifa_explains(world, seat, unlike, models): `explains` of a world (a whole state). */
static PyObject *py_explains(PyObject *self, PyObject *args) {
    PyObject *t, *unlike_t, *models;
    int seat, unlike[PLAYERS] = {0, 0, 0}, model[PLAYERS] = {BASIC, BASIC, BASIC};
    Pos p;
    if (!PyArg_ParseTuple(args, "OiOO", &t, &seat, &unlike_t, &models) || pos_from_py(t, &p) < 0
        || seat_ints_from_py(unlike_t, unlike) < 0 || seat_ints_from_py(models, model) < 0)
        return NULL;
    return PyBool_FromLong(explains(&ORDERS[p.trump], &p, seat, unlike, model));
}

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
    int exact;          /* the last tricks played exactly from this many cards a hand */
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
    int missed = misfits(v->o, w, r);
    Pos other;
    for (int i = 1; i < DRAWS && missed; i++) {
        deal(v, rng, &other);
        int m = misfits(v->o, &other, r);
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
            if (explains(v->o, w, v->seat, v->reading.unlike, v->reading.model) || i == tries) {
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
    apply(&p, v->o, v->cands[j]);
    return play_to_end(&p, v->o, v->reading.model, v->seat, v->exact);
}

static int view_from_py(PyObject *args, View *v, long *playouts, unsigned long long *seed,
                        double *seconds) {
    PyObject *t, *hidden, *allowed, *since, *clauses, *unlike, *models, *cands;
    long explain;
    if (!PyArg_ParseTuple(args, "OiOOOOOOliOlKdi", &t, &v->seat, &hidden, &allowed, &since,
                          &clauses, &unlike, &models, &explain, &v->tries, &cands, playouts,
                          seed, seconds, &v->exact)
        || pos_from_py(t, &v->root) < 0)
        return -1;
    const Order *o = v->o = &ORDERS[v->root.trump];
    v->seat %= PLAYERS;
    v->first = (v->seat + 1) % PLAYERS < (v->seat + 2) % PLAYERS ? (v->seat + 1) % PLAYERS
                                                                 : (v->seat + 2) % PLAYERS;
    v->second = PLAYERS - v->seat - v->first;
    v->explain_left = explain;
    if (!PyArg_ParseTuple(hidden, "iii", &v->hidden[0], &v->hidden[1], &v->hidden[2])
        || seat_masks_from_py(allowed, o, v->allowed) < 0
        || reading_from_py(since, clauses, unlike, models, o, &v->reading) < 0)
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
        rc = act_from_py(PySequence_Fast_GET_ITEM(seq, j), o, &v->cands[j]);
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
 * `seconds` 0 for no deadline; `exact` the cards a hand from which the playouts play the
 * last tricks exactly (every line of the seat's own, its models for the others), 0 never. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    long playouts;
    unsigned long long seed;
    double seconds;
    View *v = calloc(1, sizeof(View));
    if (!v) return PyErr_NoMemory();
    PyObject *out = NULL;
    Found *f = NULL;
    if (view_from_py(args, v, &playouts, &seed, &seconds) < 0) goto done;
    Search s = {v->k, playouts, seconds > 0 ? core_now() + seconds : 0, sizeof(Pos), v, draw, run};
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

static PyMethodDef ganjifa_methods[] = {
    {"ganjifa_legal", py_legal, METH_O, "Every legal move of a Ganjifa position."},
    {"ganjifa_apply", py_apply, METH_VARARGS, "The position after a move."},
    {"ganjifa_basic", py_basic, METH_O, "The basic player's move."},
    {"ganjifa_play_out", py_play_out, METH_VARARGS, "The models' play to the end."},
    {"ganjifa_high", py_high, METH_O, "The high player's move."},
    {"ganjifa_exact", py_exact, METH_VARARGS, "The seat's best value over its lines."},
    {"ganjifa_settle", py_settle, METH_VARARGS, "G9: (captured, winners, value)."},
    {"ganjifa_misfits", py_misfits, METH_VARARGS, "What the reading does not explain."},
    {"ganjifa_explains", py_explains, METH_VARARGS, "Whether basic explains the trick."},
    {"ganjifa_search", py_search, METH_VARARGS, "The strong level's search of a view."},
    {NULL, NULL, 0, NULL},
};

int ganjifa_register(PyObject *module) {
    build_tables();
    return PyModule_AddFunctions(module, ganjifa_methods);
}
