/* A Go game's main line replayed for the game database (database/go.py's go_positions), in C:
 * the board with the capture rule, its key under each symmetry kept stone by stone, and per
 * position the canonical key, its symmetry and the move played in the canonical orientation.
 *
 * replay(width, height, black_table, white_table, salt, black_to_move, indexes, symmetries,
 *        setup_black, setup_white, points, colours, last_to_move)
 *     -> (keys, symmetries, codes) or the place (int) of the first move onto a stone
 *   black_table, white_table: u8 per point of a row_length² board (row_length = max(width, height));
 *   indexes: u2, for each symmetry the place of each point (row × width + col) under it;
 *   symmetries: u1, the number of each symmetry;
 *   setup_black, setup_white: i2 places (row × width + col) of the stones set up before the first move;
 *   points: i2 place of each move (-1: a pass), colours: u1 of each (0 Black, 1 White);
 *   last_to_move: 0 Black, 1 White (the side to move after the last move);
 *   keys: i8 per position (one per move, then the end), symmetries: u1 each, codes: i2 per move
 *   (-1: a pass).
 * The places are on the board: the caller checks them. All of it runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define EMPTY 0
#define MOST_POINTS (52 * 52)
#define MOST_SYMMETRIES 8

typedef struct {
    int width, height, points, symmetry_count;
    const uint64_t *stone[2];
    const uint16_t *indexes;
    uint64_t keys[MOST_SYMMETRIES];
    unsigned char board[MOST_POINTS]; /* EMPTY, or 1 + colour */
    unsigned int seen[MOST_POINTS];
    unsigned int generation;
    int stack[MOST_POINTS], group[MOST_POINTS];
} Replay;

static void toggle(Replay *replay, int place, int colour) {
    const uint64_t *table = replay->stone[colour];
    for (int s = 0; s < replay->symmetry_count; s++) replay->keys[s] ^= table[replay->indexes[s * replay->points + place]];
}

static int neighbours(const Replay *replay, int place, int *out) {
    int row = place / replay->width, col = place % replay->width, count = 0;
    if (row > 0) out[count++] = place - replay->width;
    if (row < replay->height - 1) out[count++] = place + replay->width;
    if (col > 0) out[count++] = place - 1;
    if (col < replay->width - 1) out[count++] = place + 1;
    return count;
}

/* The stones of the group at `start` into replay->group when it has no liberty (their count), else 0. */
static int group_without_liberties(Replay *replay, int start) {
    unsigned char colour = replay->board[start];
    unsigned int mark = ++replay->generation;
    int top = 0, size = 0, around[4];
    replay->stack[top++] = start;
    replay->seen[start] = mark;
    while (top) {
        int place = replay->stack[--top];
        replay->group[size++] = place;
        int count = neighbours(replay, place, around);
        for (int n = 0; n < count; n++) {
            int next = around[n];
            if (replay->board[next] == EMPTY) return 0;
            if (replay->board[next] == colour && replay->seen[next] != mark) {
                replay->seen[next] = mark;
                replay->stack[top++] = next;
            }
        }
    }
    return size;
}

static void take_off(Replay *replay, int size, int colour) {
    for (int i = 0; i < size; i++) {
        replay->board[replay->group[i]] = EMPTY;
        toggle(replay, replay->group[i], colour);
    }
}

static void play(Replay *replay, int place, int colour) {
    int around[4], count = neighbours(replay, place, around);
    replay->board[place] = (unsigned char)(1 + colour);
    toggle(replay, place, colour);
    for (int n = 0; n < count; n++) {
        if (replay->board[around[n]] == 1 + (1 - colour)) {
            int dead = group_without_liberties(replay, around[n]);
            take_off(replay, dead, 1 - colour);
        }
    }
    take_off(replay, group_without_liberties(replay, place), colour); /* suicide */
}

/* (smallest key over the symmetries for the side to move, the first symmetry's place giving it) */
static uint64_t canonical(const Replay *replay, uint64_t mover, int *place_out) {
    uint64_t best = replay->keys[0] ^ mover;
    int best_place = 0;
    for (int s = 1; s < replay->symmetry_count; s++) {
        uint64_t candidate = replay->keys[s] ^ mover;
        if (candidate < best) {
            best = candidate;
            best_place = s;
        }
    }
    *place_out = best_place;
    return best;
}

static int canonical_move(const Replay *replay, uint64_t mover, uint64_t smallest, int place) {
    int code = -1;
    for (int s = 0; s < replay->symmetry_count; s++) {
        if ((replay->keys[s] ^ mover) != smallest) continue;
        int moved = replay->indexes[s * replay->points + place];
        if (code < 0 || moved < code) code = moved;
    }
    return code;
}

static PyObject *replay_game(PyObject *self, PyObject *args) {
    (void)self;
    int width, height, last_to_move;
    unsigned long long salt, black_to_move;
    Py_buffer black_table, white_table, indexes, symmetry_numbers, setup_black, setup_white, points, colours;
    if (!PyArg_ParseTuple(args, "iiy*y*KKy*y*y*y*y*y*i", &width, &height, &black_table, &white_table, &salt,
                          &black_to_move, &indexes, &symmetry_numbers, &setup_black, &setup_white, &points, &colours,
                          &last_to_move))
        return NULL;
    PyObject *result = NULL;
    Replay *replay = NULL;
    char *keys_out = NULL, *symmetries_out = NULL, *codes_out = NULL;
    Py_ssize_t moves = points.len / 2, symmetry_count = symmetry_numbers.len, board_points = (Py_ssize_t)width * height;
    Py_ssize_t row_length = width > height ? width : height;
    if (width < 1 || height < 1 || board_points > MOST_POINTS || symmetry_count < 1 || symmetry_count > MOST_SYMMETRIES ||
        indexes.len != 2 * symmetry_count * board_points || colours.len != moves ||
        black_table.len < (Py_ssize_t)sizeof(uint64_t) * row_length * row_length || white_table.len != black_table.len) {
        PyErr_SetString(PyExc_ValueError, "the board's tables do not fit its size");
        goto done;
    }
    replay = PyMem_RawCalloc(1, sizeof *replay);
    keys_out = PyMem_RawMalloc(8 * (moves + 1));
    symmetries_out = PyMem_RawMalloc(moves + 1);
    codes_out = PyMem_RawMalloc(2 * moves + 1);
    if (!replay || !keys_out || !symmetries_out || !codes_out) {
        PyErr_NoMemory();
        goto done;
    }
    const int16_t *move_points = points.buf, *black = setup_black.buf, *white = setup_white.buf;
    const unsigned char *move_colours = colours.buf, *numbers = symmetry_numbers.buf;
    Py_ssize_t tables_points = black_table.len / 8;
    int bad = 0;
    for (Py_ssize_t i = 0; i < indexes.len / 2; i++)
        if (((const uint16_t *)indexes.buf)[i] >= tables_points) bad = 1;
    for (Py_ssize_t i = 0; i < setup_black.len / 2; i++) bad |= black[i] < 0 || black[i] >= board_points;
    for (Py_ssize_t i = 0; i < setup_white.len / 2; i++) bad |= white[i] < 0 || white[i] >= board_points;
    for (Py_ssize_t i = 0; i < moves; i++) bad |= move_points[i] < -1 || move_points[i] >= board_points || move_colours[i] > 1;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a point or a colour is off the board's tables");
        goto done;
    }
    replay->width = width;
    replay->height = height;
    replay->points = (int)board_points;
    replay->symmetry_count = (int)symmetry_count;
    replay->stone[0] = black_table.buf;
    replay->stone[1] = white_table.buf;
    replay->indexes = indexes.buf;
    Py_ssize_t onto_stone = -1;
    Py_BEGIN_ALLOW_THREADS
    for (int s = 0; s < replay->symmetry_count; s++) replay->keys[s] = salt;
    for (Py_ssize_t i = 0; i < setup_black.len / 2; i++) {
        replay->board[black[i]] = 1;
        toggle(replay, black[i], 0);
    }
    for (Py_ssize_t i = 0; i < setup_white.len / 2; i++) {
        replay->board[white[i]] = 2;
        toggle(replay, white[i], 1);
    }
    int place;
    for (Py_ssize_t i = 0; i < moves; i++) {
        uint64_t mover = move_colours[i] == 0 ? black_to_move : 0;
        uint64_t key = canonical(replay, mover, &place);
        memcpy(keys_out + 8 * i, &key, 8);
        symmetries_out[i] = (char)numbers[place];
        int16_t code = move_points[i] < 0 ? -1 : (int16_t)canonical_move(replay, mover, key, move_points[i]);
        memcpy(codes_out + 2 * i, &code, 2);
        if (move_points[i] < 0) continue;
        if (replay->board[move_points[i]] != EMPTY) {
            onto_stone = i;
            break;
        }
        play(replay, move_points[i], move_colours[i]);
    }
    if (onto_stone < 0) {
        uint64_t key = canonical(replay, last_to_move == 0 ? black_to_move : 0, &place);
        memcpy(keys_out + 8 * moves, &key, 8);
        symmetries_out[moves] = (char)numbers[place];
    }
    Py_END_ALLOW_THREADS
    if (onto_stone >= 0)
        result = PyLong_FromSsize_t(onto_stone);
    else
        result = Py_BuildValue("(y#y#y#)", keys_out, (Py_ssize_t)(8 * (moves + 1)), symmetries_out, (Py_ssize_t)(moves + 1),
                               codes_out, (Py_ssize_t)(2 * moves));
done:
    PyMem_RawFree(replay);
    PyMem_RawFree(keys_out);
    PyMem_RawFree(symmetries_out);
    PyMem_RawFree(codes_out);
    PyBuffer_Release(&black_table);
    PyBuffer_Release(&white_table);
    PyBuffer_Release(&indexes);
    PyBuffer_Release(&symmetry_numbers);
    PyBuffer_Release(&setup_black);
    PyBuffer_Release(&setup_white);
    PyBuffer_Release(&points);
    PyBuffer_Release(&colours);
    return result;
}

static PyMethodDef methods[] = {
    {"replay", replay_game, METH_VARARGS, "(keys, symmetries, codes) of a Go main line, or the move onto a stone"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_go_lines", NULL, 0, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__go_lines(void) { return PyModule_Create(&module); }
