#include "frontend/fe_text.h"

int fe_skip_blanks(const char *text, size_t len, fe_text_pos *p, uint32_t *open_line,
                   uint32_t *open_col)
{
    while (p->pos < len) {
        char c = text[p->pos];
        char next = p->pos + 1 < len ? text[p->pos + 1] : '\0';
        if (c == '\n') {
            p->pos++;
            p->line++;
            p->line_start = (uint32_t)p->pos;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p->pos++;
        } else if (c == '/' && next == '/') {
            while (p->pos < len && text[p->pos] != '\n')
                p->pos++;
        } else if (c == '/' && next == '*') {
            *open_line = p->line;
            *open_col = (uint32_t)(p->pos - p->line_start + 1);
            p->pos += 2;
            for (;;) {
                if (p->pos >= len)
                    return -1;
                if (text[p->pos] == '*' && p->pos + 1 < len && text[p->pos + 1] == '/') {
                    p->pos += 2;
                    break;
                }
                if (text[p->pos] == '\n') {
                    p->line++;
                    p->line_start = (uint32_t)p->pos + 1;
                }
                p->pos++;
            }
        } else {
            return 0;
        }
    }
    return 0;
}
