/* French Tarot for 3, 4 and 5 players (T1-T24) on bitmasks, shared by the engine
 * (tarot.c: the moves, basic's choices, the settlement), the world draw (tarot_world.c)
 * and the search with its Python entry points (tarot_search.c).
 *
 * A card is its deck index (rules/tarot/cards.py): the suits 0-55 (14 cards each, low to
 * high), the trumps T1-T21 at 56-76, the Excuse at 77; a set of cards is a 128-bit mask of
 * those indices, so that a Python mask and a core mask are the same number. The rules'
 * authority is rules/tarot; tests/test_core_tarot.py holds this engine to it move by
 * move, and basic's choices to rules/ai/tarot.py's. */
#ifndef CARDAVIA_TAROT_H
#define CARDAVIA_TAROT_H

#include "core.h"

#define DECK 78
#define FIRST_TRUMP 56
#define PETIT 56  /* T1 */
#define MONDE 76  /* T21 */
#define EXCUSE 77
#define TRUMP_SUIT 4
#define HIGH_TRUMP (FIRST_TRUMP + 15) /* rules/ai/tarot.py: T16 and up are hard to overtrump */
#define MAX_SEATS 5
#define MAX_TRICKS 24
#define PLACES (MAX_SEATS + 2) /* where hidden cards lie: the hands, the chien, the écart */
#define CALLING 5              /* T22: the count of players at which the taker calls */
#define SCORE_SPAN 4000        /* rules/ai/tarot.py `value` */

typedef u128 Cards;
#define CARD(c) ((Cards)1 << (c))
#define SUIT_MASK(s) ((Cards)0x3FFF << (14 * (s)))
#define TRUMPS ((Cards)0x1FFFFF << FIRST_TRUMP)
#define FULL (((Cards)1 << DECK) - 1)
#define KINGS (CARD(13) | CARD(27) | CARD(41) | CARD(55))
#define BOUTS (CARD(PETIT) | CARD(MONDE) | CARD(EXCUSE))
#define ORDINARY ((SUIT_MASK(0) | SUIT_MASK(1) | SUIT_MASK(2) | SUIT_MASK(3)) & ~KINGS)

static inline int ncards(Cards m) { return popcount64((u64)m) + popcount64((u64)(m >> 64)); }
static inline int first_card(Cards m) {  /* m != 0 */
    u64 lo = (u64)m;
    return lo ? lowest(lo) : 64 + lowest((u64)(m >> 64));
}
static inline int last_card(Cards m) {  /* m != 0 */
    u64 hi = (u64)(m >> 64);
    return hi ? 64 + highest(hi) : highest((u64)m);
}
static inline int has(Cards m, int c) { return (int)(m >> c) & 1; }
static inline int suit_of(int c) { return c < FIRST_TRUMP ? c / 14 : c < EXCUSE ? TRUMP_SUIT : 5; }
static inline int is_trump(int c) { return c >= FIRST_TRUMP && c < EXCUSE; }
/* ABOVE: the trumps higher than trump t (T9, overtrumping); every trump for another card. */
static inline Cards above(int t) { return is_trump(t) ? TRUMPS & ~((CARD(t) << 1) - 1) : TRUMPS; }

extern const int8_t HALF_POINTS[DECK]; /* T13, in half points */
extern const int HAND_OF[MAX_SEATS + 1];  /* T2, T19: cards a hand, and tricks */
extern const int CHIEN_OF[MAX_SEATS + 1]; /* T2, T19, T20 */

enum { PASS, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE, CONTRACTS };    /* T4, by rank */
enum { BIDDING, CALL, DISCARD, CHELEM, PLAY, OVER, PHASES };          /* a deal's phases */
enum { A_BID, A_CALL, A_DISCARD, A_CHELEM, A_POIGNEE, A_PLAY, ACTIONS }; /* moves */

extern const char *CONTRACT_NAMES[CONTRACTS];
extern const char *PHASE_NAMES[PHASES];
extern const char *ACTION_NAMES[ACTIONS];

/* One move: its action, its seat, its card (call, play), its cards (discard, poignée) and
 * its contract (bid) or announce (chelem). */
typedef struct {
    Cards cards;
    int8_t action, seat, card, arg;
} Move;

typedef struct {
    int8_t leader, winner;
    uint8_t card[MAX_SEATS];
} Trick;

/* A deal: rules/tarot/state.py's TarotState field for field, -1 for None; `called_out`
 * says whether the called card has been played (T22). */
typedef struct {
    Cards hand[MAX_SEATS];
    Cards chien, shown, ecart; /* the chien, the chien shown (T5), the écart */
    Cards poignee[MAX_SEATS];  /* in declaration order, by `poignee_seat` (T8) */
    Trick tricks[MAX_TRICKS];
    uint8_t trick[MAX_SEATS];
    int8_t bids[MAX_SEATS], poignee_seat[MAX_SEATS];
    int8_t n, dealer, nbids, taker, contract, called, partner, chelem, npoignees;
    int8_t ntrick, ntricks, leader, phase, to_act, called_out;
} Pos;

/* A finished deal's settlement (rules/tarot/scoring.py): `annulled` 1 for all passed, 2
 * for a petit sec (T3); the attack camp's half points and bouts, the camp (0 the defence,
 * 1 the attack, -1 none) of the Petit at the end and of a chelem made, and the scores. */
typedef struct {
    int annulled, half, bouts, petit, made_by, per_defender;
    int scores[MAX_SEATS];
} Settled;

/* tarot.c */
Cards tarot_playable(const Pos *p, int seat);
int tarot_legal(const Pos *p, Move *out, Cards *template_must, Cards *template_from);
void tarot_apply(Pos *p, const Move *m);
void tarot_basic(const Pos *p, int seat, Move *m);
int tarot_strength(Cards hand);
int tarot_partner_known(const Pos *p, int seat);
int tarot_trick_winner(const Pos *p, const uint8_t *cards);
int tarot_attack(const Pos *p);
void tarot_settle(const Pos *p, Settled *out);
double tarot_value(const Settled *s, int seat);
double tarot_play_out(Pos *p, int seat);
double tarot_bid_misfit(Cards hand, const int8_t *bids, int nbids, int bid);
double tarot_bids_misfit(const Pos *world, int seat, const Cards *played);
void tarot_poignee_of(const Pos *p, int seat, Cards *out);

/* tarot_world.c: the hidden cards of a view dealt to their places. */
typedef struct {
    int places;                /* the other hands, the chien and the hidden écart: n + 2 */
    int count[PLACES];         /* the hidden cards of each place */
    Cards allowed[PLACES];     /* the cards each place may hold */
    Cards pile;                /* the cards to deal */
    Cards played[MAX_SEATS];   /* the cards each seat played */
} Hidden;

int tarot_deal_hidden(const Hidden *h, Rng *rng, Cards *out);
int tarot_draw_world(const Pos *root, const Hidden *h, Rng *rng, Pos *world);

#endif
