/* Text-level helpers the dialects' lexers share. */
#ifndef GMS_FRONTEND_FE_TEXT_H
#define GMS_FRONTEND_FE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A lexer's place in its text: the byte offset, the line (from 1) and the offset where that line
 * starts (columns are pos - line_start + 1). */
typedef struct fe_text_pos {
    size_t pos;
    uint32_t line, line_start;
} fe_text_pos;

/* Skips blanks (space, tab, CR, FF, VT), newlines, `//` comments to the end of the line and
 * `/ * ... * /` block comments in text[0, len) from p->pos, keeping p's line and line start up to
 * date. Stops at the first other byte or at the end. Returns 0, or -1 when a block comment is not
 * closed before the end: *open_line and *open_col (1-based) are then where it starts, so that
 * the caller reports it with its own rule id, and p is at the end of the text. Used by the PTX
 * and SASS lexers (docs/architecture.md, "The front-end layer"). */
int fe_skip_blanks(const char *text, size_t len, fe_text_pos *p, uint32_t *open_line,
                   uint32_t *open_col);

#endif
