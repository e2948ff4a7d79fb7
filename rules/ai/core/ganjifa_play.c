/* Ganjifa's rules on bitmasks (ganjifa.h): the cost orders, a move applied, every legal
 * move; the basic player (rules/ai/ganjifa_basic.py) and the high player
 * (rules/ai/ganjifa_high.py) for the playouts; the settlement's value; and what a world says against the history's reading. */
#include "ganjifa.h"

static int SUIT_OF[CARDS], STRENGTH[CARDS];

Order GJ_ORDERS[SUITS];

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

void gj_build_tables(void) {
    for (int c = 0; c < CARDS; c++) {
        /* rules/ganjifa/cards.py: card 12 * suit + rank; G2: the pips run 1 high to 10 low
         * in the first five suits, 10 high to 1 low in the last five, below M and R. */
        int s = c / SUIT_SIZE, r = c % SUIT_SIZE;
        SUIT_OF[c] = s;
        STRENGTH[c] = r >= PIPS ? r : s < 5 ? PIPS - 1 - r : r;
    }
    for (int t = 0; t < SUITS; t++) build_order(&GJ_ORDERS[t], t);
}

void gj_apply(Pos *p, const Order *o, Act m) {
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

Act gj_basic(const Pos *p, const Order *o) {
    int seat = to_act(p);
    if (p->dukal) return (Act){cheapest(p->hand[seat], pop(p->dukal)), DISCARD};
    return p->n ? follow(p, o, seat) : lead(p, o, seat, 0);
}

/* -- the high player (rules/ai/ganjifa_high.py) ------------------------------------------ */

/* The highest card of a mask, the lower index of equals (plain cards of one strength
 * share a row of nine bits, lower suits lower; each trump is a row of its own). */
static inline Mask highest_card(Mask m) {
    int b = top_of(m);
    if (b >= PLAIN_ROW * SUIT_SIZE) return ONE << b;
    return low(m & (Mask)0x1FF << (PLAIN_ROW * (b / PLAIN_ROW)));
}

/* It takes the trick with its highest card it may play when that card takes it, else
 * plays its lowest; leads its highest; answers a Dukal with its lowest cards. */
Act gj_high(const Pos *p, const Order *o, int seat) {
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
        m = gj_high(p, o, seat);
    } else if (p->dukal) {
        m = (Act){cheapest(p->hand[seat], pop(p->dukal)), DISCARD};
    } else if (p->n) {
        m = follow(p, o, seat);
    } else {
        m = lead(p, o, seat, no_dukal[seat]);
        if (m.action == PLAY && !opening(p)) no_dukal[seat] = 1;
    }
    gj_apply(p, o, m);
}

/* Each seat's model's play to the end of the deal (`model` one a seat, BASIC or HIGH).
 * A seat that leads a single card as basic holds no Dukal (basic leads one first) and
 * cards only leave a hand, so its hand is not searched for one again. */
void gj_play_out(Pos *p, const Order *o, const int *model) {
    int no_dukal[PLAYERS] = {0, 0, 0};
    for (;;) {
        int seat = to_act(p);
        if (seat < 0) return;
        play_one(p, o, model, seat, no_dukal);
    }
}

/* The seat's value at the end of its models' play. */
double gj_play_to_end(Pos *p, const Order *o, const int *model, int seat) {
    gj_play_out(p, o, model);
    return gj_value(p, seat);
}

/* G9: the captured counts; the seat's value as rules/ai/ganjifa.py `value`: 0.3 a win
 * (shared by the seats on the highest count) and 0.7 its captured cards, up to 80. */
double gj_value(const Pos *p, int seat) {
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

/* Every legal move but a Dukal's answer (any k cards of the hand, G8, which ganjifa.c
 * lists as one template). */
int gj_legal(const Pos *p, const Order *o, Act *out) {
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

/* A card-order mask in cost order, and back. */
Mask gj_carry(const Order *o, Mask cards) {
    Mask out = 0;
    for (; cards; cards &= cards - 1) out |= ONE << o->bit[bit_of(cards)];
    return out;
}

Mask gj_back(const Order *o, Mask bits) {
    Mask out = 0;
    for (; bits; bits &= bits - 1) out |= ONE << o->card[bit_of(bits)];
    return out;
}

/* What basic's play of the history does not explain in a world: a seat holding a Dukal
 * at a lead since the opening (it would have led it, G8), and the broken clauses. */
int gj_misfits(const Order *o, const Pos *w, const Reading *r) {
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
int gj_explains(const Order *o, const Pos *w, int seat, const int *unlike,
                    const int *model) {
    if (!w->n) return 1;
    Pos before = *w;
    for (int i = 0; i < w->n; i++) before.hand[(w->leader + i) % PLAYERS] |= ONE << w->trick[i];
    int at_opening = opening(w);
    for (int i = 0; i < w->n; i++) {
        int s = (w->leader + i) % PLAYERS;
        before.n = (uint8_t)i;
        if (s != seat && (!unlike[s] || model[s] == HIGH) && !(i == 0 && at_opening)) {
            Act m = model[s] == HIGH ? gj_high(&before, o, s)
                    : i ? follow(&before, o, s) : lead(&before, o, s, 0);
            if (m.action != PLAY || m.cards != ONE << w->trick[i]) return 0;
        }
        before.hand[s] &= ~(ONE << w->trick[i]);
    }
    return 1;
}

