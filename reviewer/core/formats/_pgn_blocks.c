/* The blocks of tag lines of a PGN buffer, as `pgn_index._GAME_BLOCK.finditer` finds them.
 *
 * tag_blocks(buffer, position, max_blocks) -> (blocks, next_position)
 *
 * Each block is (start, end, groups): `start` is the line break before its first line, `end` the
 * first byte after it, and `groups` the 9-tuple `_GAME_BLOCK` captures: the values (bytes) of the
 * plain lines White, Black, WhiteElo, BlackElo, Result, Date, UTCDate and Event (None where the
 * block has none; the last one wins), then the last line that is not a plain tag line (None when
 * every line is plain). Fewer than `max_blocks` blocks means the buffer is scanned to its end.
 *
 * A block starts at a line break followed by `[ \t]*\[[ \t]*[A-Za-z0-9]`, and takes every line
 * that follows while the line begins with `[ \t]*\[`. A plain line is `[Name "value"]` from its
 * first byte, the name `[A-Za-z0-9][A-Za-z0-9_+#=:-]*`, the value without `"` or a line break,
 * then an optional carriage return and the line's end. tests/core/test_pgn_index.py checks that
 * this and the regular expression find the same blocks, byte for byte.
 *
 * texts_after_results(buffer, start, end) -> offsets
 *
 * Where text follows a result token (`1-0`, `0-1`, `1/2-1/2`, `*`; the dash also as U+2010..U+2015
 * or U+2212) of the movetext in
 * buffer[start:end]: the first byte that is not white space after each such token, as
 * `pgn_index._RESULT_OR_SKIPPED` finds them. Tokens inside `{...}`, after `;` on its line, on a
 * line that begins with `%`, or inside a variation `(...)` do not count. A token stands alone:
 * white space, `)`, `}` or `]` (or the buffer's start) before it, white space, `{`, `;` or `(` (or the
 * span's end) after it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define GROUPS 9
#define ODD 8

static const char *const SHOWN[ODD] = {"White", "Black", "WhiteElo", "BlackElo", "Result", "Date", "UTCDate", "Event"};

static int is_name_start(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static int is_name(unsigned char c) {
    return is_name_start(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-';
}

static int is_blank(unsigned char c) { return c == ' ' || c == '\t'; }

static Py_ssize_t line_end(const unsigned char *data, Py_ssize_t from, Py_ssize_t size) {
    const unsigned char *found = memchr(data + from, '\n', (size_t)(size - from));
    return found == NULL ? size : (Py_ssize_t)(found - data);
}

/* Which shown tag a plain line names (-1 for another tag). */
static int shown_index(const unsigned char *name, Py_ssize_t length) {
    for (int index = 0; index < ODD; index++) {
        if ((Py_ssize_t)strlen(SHOWN[index]) == length && memcmp(name, SHOWN[index], (size_t)length) == 0) {
            return index;
        }
    }
    return -1;
}

/* A plain tag line from `line` up to `eol`: 1 with the tag's index and value, else 0. */
static int plain_line(const unsigned char *data, Py_ssize_t line, Py_ssize_t eol, int *shown,
                      Py_ssize_t *value_start, Py_ssize_t *value_end) {
    Py_ssize_t at = line;
    if (at >= eol || data[at] != '[') return 0;
    at++;
    if (at >= eol || !is_name_start(data[at])) return 0;
    Py_ssize_t name_start = at;
    while (at < eol && is_name(data[at])) at++;
    Py_ssize_t name_end = at;
    if (at + 1 >= eol || data[at] != ' ' || data[at + 1] != '"') return 0;
    at += 2;
    *value_start = at;
    while (at < eol && data[at] != '"') at++;
    *value_end = at;
    if (at + 1 >= eol || data[at] != '"' || data[at + 1] != ']') return 0;
    at += 2;
    if (at < eol && data[at] == '\r') at++;
    if (at != eol) return 0;
    *shown = shown_index(data + name_start, name_end - name_start);
    return 1;
}

/* Whether the line at `line` begins with `[ \t]*\[` (a line the block takes). */
static int bracket_line(const unsigned char *data, Py_ssize_t line, Py_ssize_t size) {
    while (line < size && is_blank(data[line])) line++;
    return line < size && data[line] == '[';
}

typedef struct {
    Py_ssize_t start, end;
    Py_ssize_t spans[GROUPS][2]; /* [first, after] of each group; first < 0 when not captured */
} Block;

/* Up to `wanted` blocks from `*position` on, into `blocks`; `*position` ends after the last one
 * (or at the end of the buffer, when fewer were found). Touches no Python object. */
static Py_ssize_t find_blocks(const unsigned char *data, Py_ssize_t size, Py_ssize_t *position, Block *blocks,
                              Py_ssize_t wanted) {
    Py_ssize_t found_blocks = 0, at_position = *position;
    while (at_position < size && found_blocks < wanted) {
        const unsigned char *found = memchr(data + at_position, '\n', (size_t)(size - at_position));
        if (found == NULL) {
            at_position = size;
            break;
        }
        Py_ssize_t start = (Py_ssize_t)(found - data);
        Py_ssize_t at = start + 1;
        while (at < size && is_blank(data[at])) at++;
        int opens = at < size && data[at] == '[';
        if (opens) {
            at++;
            while (at < size && is_blank(data[at])) at++;
            opens = at < size && is_name_start(data[at]);
        }
        if (!opens) {
            at_position = start + 1;
            continue;
        }
        Block *block = &blocks[found_blocks++];
        for (int index = 0; index < GROUPS; index++) block->spans[index][0] = -1;
        Py_ssize_t line = start + 1, end;
        for (;;) {
            Py_ssize_t eol = line_end(data, line, size);
            int shown;
            Py_ssize_t value_start, value_end;
            if (plain_line(data, line, eol, &shown, &value_start, &value_end)) {
                if (shown >= 0) {
                    block->spans[shown][0] = value_start;
                    block->spans[shown][1] = value_end;
                }
            } else {
                block->spans[ODD][0] = line;
                block->spans[ODD][1] = eol;
            }
            if (eol >= size) {
                end = size;
                break;
            }
            end = eol + 1;
            line = eol + 1;
            if (!bracket_line(data, line, size)) break;
        }
        block->start = start;
        block->end = end;
        at_position = end;
    }
    *position = at_position;
    return found_blocks;
}

static PyObject *block_tuple(const unsigned char *data, const Block *block) {
    PyObject *groups = PyTuple_New(GROUPS);
    if (groups == NULL) return NULL;
    for (int index = 0; index < GROUPS; index++) {
        PyObject *value;
        if (block->spans[index][0] < 0) {
            value = Py_NewRef(Py_None);
        } else {
            value = PyBytes_FromStringAndSize((const char *)data + block->spans[index][0],
                                              block->spans[index][1] - block->spans[index][0]);
            if (value == NULL) {
                Py_DECREF(groups);
                return NULL;
            }
        }
        PyTuple_SET_ITEM(groups, index, value);
    }
    return Py_BuildValue("(nnN)", block->start, block->end, groups);
}

static PyObject *tag_blocks(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer view;
    Py_ssize_t position, max_blocks;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &position, &max_blocks)) return NULL;
    if (max_blocks < 1) max_blocks = 1;
    if (position < 0) position = 0;
    Block *found = PyMem_RawMalloc((size_t)max_blocks * sizeof(Block));
    if (found == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    Py_ssize_t count;
    /* The scan lets other threads run (the window, while a big file is listed): the buffer stays
     * exported until it is released below, so it cannot be closed or resized meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    count = find_blocks(view.buf, view.len, &position, found, max_blocks);
    Py_END_ALLOW_THREADS
    PyObject *blocks = PyList_New(count);
    for (Py_ssize_t index = 0; blocks != NULL && index < count; index++) {
        PyObject *block = block_tuple(view.buf, &found[index]);
        if (block == NULL) Py_CLEAR(blocks);
        else PyList_SET_ITEM(blocks, index, block);
    }
    PyMem_RawFree(found);
    PyBuffer_Release(&view);
    if (blocks == NULL) return NULL;
    return Py_BuildValue("(Nn)", blocks, position);
}

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* The length of the dash at `at`: `-`, or in UTF-8 one of U+2010..U+2015 or U+2212 (0 when none). */
static Py_ssize_t dash_at(const unsigned char *data, Py_ssize_t at, Py_ssize_t end) {
    if (at < end && data[at] == '-') return 1;
    if (end - at >= 3 && data[at] == 0xE2) {
        if (data[at + 1] == 0x80 && data[at + 2] >= 0x90 && data[at + 2] <= 0x95) return 3;
        if (data[at + 1] == 0x88 && data[at + 2] == 0x92) return 3;
    }
    return 0;
}

/* The length of `left`, a dash, then `right` at `at` (0 when they are not there). */
static Py_ssize_t score_at(const unsigned char *data, Py_ssize_t at, Py_ssize_t end, const char *left,
                           const char *right) {
    Py_ssize_t left_length = (Py_ssize_t)strlen(left), right_length = (Py_ssize_t)strlen(right);
    if (end - at < left_length || memcmp(data + at, left, (size_t)left_length) != 0) return 0;
    Py_ssize_t dash = dash_at(data, at + left_length, end);
    if (dash == 0) return 0;
    Py_ssize_t right_at = at + left_length + dash;
    if (end - right_at < right_length || memcmp(data + right_at, right, (size_t)right_length) != 0) return 0;
    return left_length + dash + right_length;
}

/* The length of the result token at `at` (0 when none stands there). */
static Py_ssize_t result_at(const unsigned char *data, Py_ssize_t at, Py_ssize_t end) {
    if (at > 0) {
        unsigned char before = data[at - 1];
        if (!is_space(before) && before != ')' && before != '}' && before != ']') return 0;
    }
    Py_ssize_t length = 0;
    if (data[at] == '*') length = 1;
    if (length == 0) length = score_at(data, at, end, "1/2", "1/2");
    if (length == 0) length = score_at(data, at, end, "1", "0");
    if (length == 0) length = score_at(data, at, end, "0", "1");
    if (length == 0) return 0;
    if (at + length < end) {
        unsigned char after = data[at + length];
        if (!is_space(after) && after != '{' && after != ';' && after != '(') return 0;
    }
    return length;
}

/* Appends to `offsets` where text follows a result token in data[start:end] (as `span`, offset
 * pairs when `span` >= 0, else offsets alone); 0, or -1 with an exception set. */
static int scan_results(const unsigned char *data, Py_ssize_t start, Py_ssize_t end, Py_ssize_t span,
                        PyObject *offsets) {
    Py_ssize_t depth = 0, at = start;
    while (at < end) {
        unsigned char c = data[at];
        if (c == '{') {
            const unsigned char *close = memchr(data + at, '}', (size_t)(end - at));
            at = close == NULL ? end : (Py_ssize_t)(close - data) + 1;
        } else if (c == ';' || (c == '%' && (at == 0 || data[at - 1] == '\n'))) {
            at = line_end(data, at, end);
        } else if (c == '(') {
            depth++;
            at++;
        } else if (c == ')') {
            if (depth > 0) depth--;
            at++;
        } else if (depth == 0 && (c == '*' || c == '1' || c == '0')) {
            Py_ssize_t length = result_at(data, at, end);
            if (length == 0) {
                at++;
                continue;
            }
            at += length;
            Py_ssize_t text = at;
            while (text < end && is_space(data[text])) text++;
            if (text < end) {
                PyObject *found = span >= 0 ? Py_BuildValue("(nn)", span, text) : PyLong_FromSsize_t(text);
                int failed = found == NULL || PyList_Append(offsets, found) < 0;
                Py_XDECREF(found);
                if (failed) return -1;
            }
        } else {
            at++;
        }
    }
    return 0;
}

static PyObject *texts_after_results(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer view;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &start, &end)) return NULL;
    if (start < 0) start = 0;
    if (end > view.len) end = view.len;
    PyObject *offsets = PyList_New(0);
    if (offsets != NULL && start < end && scan_results(view.buf, start, end, -1, offsets) < 0) Py_CLEAR(offsets);
    PyBuffer_Release(&view);
    return offsets;
}

/* texts_after_results_in(buffer, games) -> [(game, offset)]: the same for the movetext of many games
 * at once, each given as a tuple (start, movetext, end) of offsets; its movetext is [movetext, end). */
static PyObject *texts_after_results_in(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer view;
    PyObject *games;
    if (!PyArg_ParseTuple(args, "y*O!", &view, &PyList_Type, &games)) return NULL;
    PyObject *found = PyList_New(0);
    for (Py_ssize_t index = 0; found != NULL && index < PyList_GET_SIZE(games); index++) {
        PyObject *game = PyList_GET_ITEM(games, index);
        if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 3) {
            PyErr_SetString(PyExc_TypeError, "each game is a tuple (start, movetext, end)");
            Py_CLEAR(found);
            break;
        }
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(game, 1));
        Py_ssize_t end = PyLong_AsSsize_t(PyTuple_GET_ITEM(game, 2));
        if (PyErr_Occurred()) {
            Py_CLEAR(found);
            break;
        }
        if (start < 0) start = 0;
        if (end > view.len) end = view.len;
        if (start < end && scan_results(view.buf, start, end, index, found) < 0) Py_CLEAR(found);
    }
    PyBuffer_Release(&view);
    return found;
}

static PyMethodDef methods[] = {
    {"texts_after_results_in", texts_after_results_in, METH_VARARGS,
     "texts_after_results_in(buffer, games) -> [(game, offset)] for (start, movetext, end) tuples"},
    {"texts_after_results", texts_after_results, METH_VARARGS,
     "texts_after_results(buffer, start, end) -> offsets of the text after each result token"},
    {"tag_blocks", tag_blocks, METH_VARARGS, "tag_blocks(buffer, position, max_blocks) -> (blocks, next_position)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pgn_blocks", NULL, 0, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__pgn_blocks(void) { return PyModule_Create(&module); }
