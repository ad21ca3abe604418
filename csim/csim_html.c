/* spu-csim --report (csim_html.h). */
#include <inttypes.h>

#include "csim_html.h"

void csim_report(FILE *f, const report_run_t *r, const csim_ran_t *ran)
{
    html_t h;
    char title[600], which[512], a[24], b[24], c[24], d[32];
    const char *what;
    report_stimulus(r, &what, which, sizeof which);
    snprintf(title, sizeof title, "spu-csim run: configuration %s, %s %s", r->s->cfg.name, what, which);
    html_begin(&h, f, title);
    html_tag(&h, "h2", "Run");
    html_table(&h, 2, "item", "value");
    html_row(&h, 2, "tool", "spu-csim (the golden model on its own)");
    html_row(&h, 2, "result", ran->result);
    html_row(&h, 2, "configuration", r->s->cfg.name);
    html_row(&h, 2, what, which);
    snprintf(a, sizeof a, "%" PRIu64, ran->cycles);
    snprintf(b, sizeof b, "%" PRIu64, ran->ops);
    snprintf(c, sizeof c, "%" PRIu64, ran->members);
    snprintf(d, sizeof d, "%.3f", ran->seconds);
    html_row(&h, 2, "cycles", a);
    html_row(&h, 2, "ops offered", b);
    html_row(&h, 2, "members (SAMPLE_POP)", c);
    html_row(&h, 2, "seconds", d);
    html_table_end(&h);
    report_stats(&h, r);
    report_setup(&h, r);
    html_end(&h);
}
