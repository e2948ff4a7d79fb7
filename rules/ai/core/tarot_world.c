/* A world of a Tarot view: the hidden cards dealt to the other hands, the chien and the
 * hidden écart, each place within the cards it may hold. What each place may hold is the
 * Python side's (rules/tarot/view.py, and the AI's reading of the play,
 * rules/ai/tarot_reading.py): it comes as masks; this file only deals within them, as
 * rules/game.py's `deal_hidden` does, and keeps T3 and T22 as rules/tarot/view.py's
 * `sample` does. */
#include "tarot.h"

#define MAX_CLASSES (1 << PLACES)

/* The room left in each set of open places less the cards that may only go there, by set
 * (bit j: the j-th open place): every entry >= 0 is Hall's condition, which says the cards
 * left can all be placed. */
typedef struct {
    int sets;
    int slack[MAX_CLASSES];
} Hall;

static void hall_start(Hall *h, int open, const int *caps, const int *cls_sig, const int *cls_n,
                       int classes) {
    h->sets = 1 << open;
    int need[MAX_CLASSES] = {0};
    for (int c = 0; c < classes; c++) need[cls_sig[c]] += cls_n[c];
    for (int j = 0; j < open; j++) /* need[P]: the cards whose places all lie in P */
        for (int s = 0; s < h->sets; s++)
            if (s >> j & 1) need[s] += need[s ^ (1 << j)];
    for (int s = 0; s < h->sets; s++) {
        int room = 0;
        for (int j = 0; j < open; j++)
            if (s >> j & 1) room += caps[j];
        h->slack[s] = room - need[s];
    }
}

static int hall_holds(const Hall *h) {
    for (int s = 0; s < h->sets; s++)
        if (h->slack[s] < 0) return 0;
    return 1;
}

/* Whether a card that may go to the places `sig` can go to place j and leave the rest
 * placeable: the sets holding j but not all of `sig` lose a place's room and no card. */
static int hall_allows(const Hall *h, int sig, int j) {
    for (int s = 0; s < h->sets; s++)
        if ((s >> j & 1) && (sig & ~s) && h->slack[s] < 1) return 0;
    return 1;
}

static void hall_place(Hall *h, int sig, int j) {
    for (int s = 0; s < h->sets; s++)
        if ((s >> j & 1) && (sig & ~s)) h->slack[s]--;
}

static int shuffled(Cards m, Rng *rng, uint8_t *out) {
    int k = 0;
    for (; m; m &= m - 1) out[k++] = (uint8_t)first_card(m);
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (unsigned)(i + 1));
        uint8_t c = out[i];
        out[i] = out[j];
        out[j] = c;
    }
    return k;
}

/* The places' cards by the classes of cards allowed in the same open places (`sig`, a
 * mask of open places): the most constrained classes first, each card to a place drawn in
 * proportion to the room left there, kept only when the cards still to deal can all be
 * placed. 0, or -1 when no deal fits. */
int tarot_deal_hidden(const Hidden *h, Rng *rng, Cards *out) {
    int caps[PLACES], place[PLACES], open = 0, total = 0;
    for (int i = 0; i < h->places; i++) {
        out[i] = 0;
        if (h->count[i]) {
            place[open] = i;
            caps[open++] = h->count[i];
            total += h->count[i];
        }
    }
    Cards cls[MAX_CLASSES];
    int sig[MAX_CLASSES], nc[MAX_CLASSES], classes = 1;
    cls[0] = h->pile;
    sig[0] = 0;
    for (int j = 0; j < open; j++) { /* split every class by the place's cards */
        Cards allowed = h->allowed[place[j]];
        for (int c = 0, k = classes; c < k; c++) {
            Cards in = cls[c] & allowed, not_in = cls[c] & ~allowed;
            if (in && not_in) {
                cls[classes] = not_in;
                sig[classes++] = sig[c];
            }
            if (in) {
                cls[c] = in;
                sig[c] |= 1 << j;
            }
        }
    }
    int cards = 0;
    for (int c = 0; c < classes; c++) {
        nc[c] = ncards(cls[c]);
        cards += nc[c];
        if (!sig[c] && nc[c]) return -1; /* a card no place may hold */
    }
    if (cards != total) return -1;
    if (!cards) return 0;
    for (int i = 1; i < classes; i++) { /* by (places, sig): the most constrained first */
        Cards xc = cls[i];
        int xs = sig[i], xn = nc[i], j = i - 1;
        int key = popcount64((u64)xs) << 8 | xs;
        while (j >= 0 && (popcount64((u64)sig[j]) << 8 | sig[j]) > key) {
            cls[j + 1] = cls[j], sig[j + 1] = sig[j], nc[j + 1] = nc[j];
            j--;
        }
        cls[j + 1] = xc, sig[j + 1] = xs, nc[j + 1] = xn;
    }
    Hall hall;
    hall_start(&hall, open, caps, sig, nc, classes);
    if (!hall_holds(&hall)) return -1;
    uint8_t pile[DECK];
    for (int c = 0; c < classes; c++) {
        int last = c == classes - 1, k = shuffled(cls[c], rng, pile);
        for (int i = 0; i < k; i++) {
            int options = sig[c], j = -1;
            for (int o = 0; o < open; o++)
                if (!caps[o]) options &= ~(1 << o);
            while (options) {
                int room = 0;
                for (int o = 0; o < open; o++)
                    if (options >> o & 1) room += caps[o];
                int r = (int)rng_below(rng, (unsigned)room);
                for (j = 0; j < open; j++) {
                    if (!(options >> j & 1)) continue;
                    if (r < caps[j]) break;
                    r -= caps[j];
                }
                if (last || !(options & (options - 1)) || hall_allows(&hall, sig[c], j)) break;
                options &= ~(1 << j);
            }
            if (j < 0 || !options) return -1; /* cannot happen while Hall's condition holds */
            caps[j]--;
            if (!last) hall_place(&hall, sig[c], j);
            out[place[j]] |= CARD(pile[i]);
        }
    }
    return 0;
}

static int petit_sec(Cards hand) { return (hand & TRUMPS) == CARD(PETIT) && !has(hand, EXCUSE); }

/* T3: whether a seat of the world was dealt the Petit sec (its hand and played cards; for
 * a taker who took the chien, its écart instead of the chien). */
static int deals_petit_sec(const Pos *w, const Cards *played) {
    int chien_taken = (w->contract == PRISE || w->contract == GARDE) && w->shown;
    for (int s = 0; s < w->n; s++) {
        Cards held = w->hand[s] | played[s];
        if (s == w->taker && chien_taken) held = (held | w->ecart) & ~w->shown;
        if (petit_sec(held)) return 1;
    }
    return 0;
}

/* A world of the view `root` (its public position): the hidden cards dealt (`h`), the
 * partner found (T22), no seat dealt a petit sec but in so unlikely a view that 200 deals
 * all gave one (rules/tarot/view.py `sample`). 0, or -1 when no deal fits the view. */
int tarot_draw_world(const Pos *root, const Hidden *h, Rng *rng, Pos *world) {
    int n = root->n;
    Cards dealt[PLACES];
    for (int attempt = 0; attempt < 200; attempt++) {
        if (tarot_deal_hidden(h, rng, dealt) < 0) return -1;
        *world = *root;
        for (int s = 0; s < n; s++) world->hand[s] |= dealt[s];
        world->chien = dealt[n];
        world->ecart = root->ecart | dealt[n + 1];
        if (root->called >= 0 && root->taker >= 0) {
            world->partner = -1;
            for (int s = 0; s < n; s++)
                if (has(world->hand[s] | h->played[s], root->called))
                    world->partner = (int8_t)(s == root->taker ? -1 : s);
        }
        if (!deals_petit_sec(world, h->played)) return 0;
    }
    return 0;
}
