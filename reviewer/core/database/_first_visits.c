/* A chunk's positions sorted for the position index (position_index.sorted_first_visits), in C:
 * a stable radix sort of the keys, then each game's first visit of each position kept.
 *
 * first_visits(keys, positions_per_game, rows_out, games_out) -> kept
 *   keys: int64 per position, packed one game after another, ply by ply;
 *   positions_per_game: int64 per game;
 *   rows_out, games_out: writable int64 buffers of len(keys) each; their first `kept` items are
 *   the rows (places in keys) sorted by (key, game, ply) of each game's first visit of each
 *   position, and the game (place in positions_per_game) of each.
 * The sort lets go of the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define DIGIT_BITS 11
#define DIGITS 6 /* 6 × 11 bits cover a key's 64 */
#define BUCKETS (1 << DIGIT_BITS)

/* Sort (key, row) pairs by key, stably; the sorted pairs end in *keys and *rows (swapped with the
 * spares). `histogram`: DIGITS × BUCKETS zeros. */
static void radix_sort(uint64_t **keys, uint32_t **rows, uint64_t **spare_keys, uint32_t **spare_rows, size_t count,
                       size_t (*histogram)[BUCKETS]) {
    static const uint64_t MASK = BUCKETS - 1;
    for (size_t i = 0; i < count; i++) {
        uint64_t key = (*keys)[i];
        for (int digit = 0; digit < DIGITS; digit++) histogram[digit][(key >> (digit * DIGIT_BITS)) & MASK]++;
    }
    for (int digit = 0; digit < DIGITS; digit++) {
        size_t *counts = histogram[digit];
        int shift = digit * DIGIT_BITS;
        if (count && counts[((*keys)[0] >> shift) & MASK] == count) continue; /* every key has this digit */
        size_t total = 0;
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            size_t here = counts[bucket];
            counts[bucket] = total;
            total += here;
        }
        uint64_t *from_keys = *keys, *to_keys = *spare_keys;
        uint32_t *from_rows = *rows, *to_rows = *spare_rows;
        for (size_t i = 0; i < count; i++) {
            size_t place = counts[(from_keys[i] >> shift) & MASK]++;
            to_keys[place] = from_keys[i];
            to_rows[place] = from_rows[i];
        }
        *spare_keys = from_keys;
        *spare_rows = from_rows;
        *keys = to_keys;
        *rows = to_rows;
    }
}

static PyObject *first_visits(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer keys_view, counts_view, rows_view, games_view;
    if (!PyArg_ParseTuple(args, "y*y*w*w*", &keys_view, &counts_view, &rows_view, &games_view)) return NULL;
    PyObject *result = NULL;
    uint64_t *keys = NULL, *spare_keys = NULL;
    uint32_t *rows = NULL, *spare_rows = NULL, *game_of_row = NULL;
    size_t (*histogram)[BUCKETS] = NULL;
    size_t count = (size_t)keys_view.len / sizeof(int64_t), games = (size_t)counts_view.len / sizeof(int64_t);
    const int64_t *given_keys = keys_view.buf, *per_game = counts_view.buf;
    int64_t *rows_out = rows_view.buf, *games_out = games_view.buf;
    if ((size_t)rows_view.len < count * sizeof(int64_t) || (size_t)games_view.len < count * sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "the output buffers are shorter than the keys");
        goto done;
    }
    if (count > UINT32_MAX || games > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many positions for one chunk");
        goto done;
    }
    size_t total = 0;
    for (size_t game = 0; game < games; game++) {
        if (per_game[game] < 0) {
            PyErr_SetString(PyExc_ValueError, "a game's count of positions is negative");
            goto done;
        }
        total += (size_t)per_game[game];
    }
    if (total != count) {
        PyErr_SetString(PyExc_ValueError, "the games' counts of positions do not add up to the keys");
        goto done;
    }
    keys = PyMem_RawMalloc(count * sizeof *keys + 1);
    spare_keys = PyMem_RawMalloc(count * sizeof *spare_keys + 1);
    rows = PyMem_RawMalloc(count * sizeof *rows + 1);
    spare_rows = PyMem_RawMalloc(count * sizeof *spare_rows + 1);
    game_of_row = PyMem_RawMalloc(count * sizeof *game_of_row + 1);
    histogram = PyMem_RawCalloc(DIGITS, sizeof *histogram);
    if (!keys || !spare_keys || !rows || !spare_rows || !game_of_row || !histogram) {
        PyErr_NoMemory();
        goto done;
    }
    size_t kept = 0;
    Py_BEGIN_ALLOW_THREADS
    size_t row = 0;
    for (size_t game = 0; game < games; game++)
        for (int64_t ply = 0; ply < per_game[game]; ply++) game_of_row[row++] = (uint32_t)game;
    for (size_t i = 0; i < count; i++) {
        keys[i] = (uint64_t)given_keys[i] ^ ((uint64_t)1 << 63); /* the unsigned order is the signed one */
        rows[i] = (uint32_t)i;
    }
    uint64_t *sorted_keys = keys, *other_keys = spare_keys;
    uint32_t *sorted_rows = rows, *other_rows = spare_rows;
    radix_sort(&sorted_keys, &sorted_rows, &other_keys, &other_rows, count, histogram);
    for (size_t i = 0; i < count; i++) {
        uint32_t game = game_of_row[sorted_rows[i]];
        if (kept && sorted_keys[i] == sorted_keys[i - 1] && (uint32_t)games_out[kept - 1] == game) continue;
        rows_out[kept] = sorted_rows[i];
        games_out[kept] = game;
        kept++;
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromSize_t(kept);
done:
    PyMem_RawFree(keys);
    PyMem_RawFree(spare_keys);
    PyMem_RawFree(rows);
    PyMem_RawFree(spare_rows);
    PyMem_RawFree(game_of_row);
    PyMem_RawFree(histogram);
    PyBuffer_Release(&keys_view);
    PyBuffer_Release(&counts_view);
    PyBuffer_Release(&rows_view);
    PyBuffer_Release(&games_view);
    return result;
}

static PyMethodDef methods[] = {
    {"first_visits", first_visits, METH_VARARGS, "(keys, positions per game, rows out, games out) -> rows kept"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_first_visits", NULL, 0, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__first_visits(void) { return PyModule_Create(&module); }
