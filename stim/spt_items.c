/*
 * The .spt parser's shared pieces (spt_priv.h): the items buffer and two
 * checks of a line's tokens, for spt.c and the op line of spt_op.c.
 */
#include <stdlib.h>
#include <string.h>

#include "spt_priv.h"

int spt_grow(void **a, size_t *cap, size_t need, size_t elsz)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *x = realloc(*a, n * elsz);
    if (!x)
        return -1;
    *a = x;
    *cap = n;
    return 0;
}

/* A new item at the end, for the current cycle. */
spt_item_t *spt_next_item(parser_t *p, spt_trace_t *t)
{
    void *a = t->items;
    if (spt_grow(&a, &t->cap, t->nitems + 1, sizeof *t->items)) {
        spt_fail(p, p->ls, "out of memory");
        return NULL;
    }
    t->items = a;
    spt_item_t *it = &t->items[t->nitems++];
    memset(it, 0, sizeof *it);
    it->cycle = p->cur;
    it->first_op = t->nops;
    it->el = p->el;
    it->allow = p->allow;
    return it;
}

/* The item of the current cycle, created when needed. */
spt_item_t *spt_cur_item(parser_t *p, spt_trace_t *t)
{
    if (t->nitems && t->items[t->nitems - 1].cycle == p->cur && !t->items[t->nitems - 1].rep)
        return &t->items[t->nitems - 1];
    return spt_next_item(p, t);
}

int spt_no_more(parser_t *p, const char **cur, const char *le, const char *after)
{
    tok_t x;
    char b[200];
    if (spt_next_tok(cur, le, &x))
        return spt_fail(p, x.s, "unexpected '%s' after %s", SHOW(b, x), after);
    return 0;
}

/* Split key=value; -1 (reported) when there is no '='. */
int spt_split_kv(parser_t *p, tok_t x, tok_t *k, tok_t *v)
{
    char b[200];
    const char *eq = memchr(x.s, '=', x.n);
    if (!eq)
        return spt_fail(p, x.s, "expected key=value, got '%s'", SHOW(b, x));
    k->s = x.s;
    k->n = (size_t)(eq - x.s);
    v->s = eq + 1;
    v->n = x.n - k->n - 1;
    return 0;
}
