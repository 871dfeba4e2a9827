/* A chess game's main line read straight from its movetext, with the Polyglot key of each position.
 *
 * main_line(movetext) -> (keys, codes, uci, san) or None
 * packed_line(movetext) -> (keys, codes, uci, san) or None, keys and codes as bytes
 * fingerprint_input(kind, headers, start, moves) -> bytes or None
 * plain_tags(header_text) -> {name: value} or None
 * plain_games(data, starts, movetexts, size, first, end) -> (games, keys, codes, left): a chunk of a
 *     PGN's games read straight from its bytes (tags, main line, fingerprint), where they are plain
 * fingerprint_of_input(data) -> records.fingerprint_of_bytes(data), hashed here
 *
 * The movetext of a standard game from the usual start, without variations or escapes: move
 * numbers, NAGs ($n tokens), results and comments in braces are passed over. `keys` holds the
 * Polyglot Zobrist key (signed 64-bit, as `keys.chess_key`) of the position before each move and,
 * last, of the position the line ends in; `codes` the move of each position (`keys.chess_move_code`:
 * from + 64 × to + 4096 × promotion piece type); packed, keys are int64s and codes int16s in the
 * machine's order, with one more code, ENDED_CODE, for the last position. `uci` holds the moves in
 * UCI and `san` in SAN as python-chess writes them (the full reader's text: disambiguation as it
 * needs, `=Q`, `+` and `#` as the position says, whatever the movetext wrote), each joined by spaces.
 *
 * None means "not handled here": the caller reads the game another way (chess.py reads it with
 * python-chess). That is the answer for any token that is not a plain SAN, a move number, a NAG or
 * a result, standing alone between white space (an ASCII space, tab or line break) or a comment;
 * for a comment never closed; for any SAN that python-chess might read differently (a pawn move
 * with a rank, a pawn capture without `x`, a promotion missing or where none can be); and for any
 * move that is not exactly one legal move (illegal, ambiguous, castling that is not allowed). What
 * is answered is what chess.py's python-chess paths answer: tests/core/test_chess_lines.py and
 * tests/core/test_database_fast_records.py check that on every game of the corpus and on real
 * master and commented games.
 *
 * Squares as python-chess numbers them: a1 = 0, b1 = 1, ..., h8 = 63.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_polyglot.h"

enum { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum { WHITE = 0, BLACK = 1 };
#define BLACK_BIT 8
#define TYPE(piece) ((piece) & 7)
#define COLOR(piece) ((piece) >> 3)
#define MAKE(type, color) ((type) | ((color) << 3))

enum { WHITE_KING_SIDE = 1, WHITE_QUEEN_SIDE = 2, BLACK_KING_SIDE = 4, BLACK_QUEEN_SIDE = 8 };

typedef struct {
    unsigned char squares[64];
    int turn;
    int castling;  /* the WHITE_KING_SIDE ... bits still held */
    int ep_square; /* the square a pawn passed over with the last move (a double step), else -1 */
    int kings[2];
    int in_check; /* whether the side to move is in check */
    uint64_t pieces_hash; /* the pieces' part of the key */
    uint64_t squares_of[16]; /* by piece (its code): the squares it stands on, one bit each */
    uint64_t occupied; /* the squares a piece stands on */
} Board;

static int knight_targets[64][8], knight_count[64];
static int king_targets[64][8], king_count[64];
static int ray_squares[64][8][7], ray_length[64][8]; /* 0-3: rook directions, 4-7: bishop ones */
static uint64_t knight_mask[64], king_mask[64], ray_mask[64][8];
static uint64_t pawn_attackers[2][64]; /* by colour: the squares a pawn of that colour attacks a square from */
static unsigned char aligned[64][64]; /* whether two squares share a rank, a file or a diagonal */
static const int RAY_FILE[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int RAY_RANK[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int RAY_UPWARD[8] = {1, 0, 1, 0, 1, 0, 1, 0}; /* whether the ray's squares grow: 8 × rank + file */

static void make_tables(void) {
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int square = 0; square < 64; square++) {
        int file = square & 7, rank = square >> 3;
        knight_count[square] = king_count[square] = 0;
        for (int step = 0; step < 8; step++) {
            int f = file + knight_steps[step][0], r = rank + knight_steps[step][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8) knight_targets[square][knight_count[square]++] = r * 8 + f;
        }
        for (int df = -1; df <= 1; df++) {
            for (int dr = -1; dr <= 1; dr++) {
                int f = file + df, r = rank + dr;
                if ((df || dr) && f >= 0 && f < 8 && r >= 0 && r < 8) king_targets[square][king_count[square]++] = r * 8 + f;
            }
        }
        for (int direction = 0; direction < 8; direction++) {
            int length = 0, f = file + RAY_FILE[direction], r = rank + RAY_RANK[direction];
            while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                ray_squares[square][direction][length++] = r * 8 + f;
                f += RAY_FILE[direction];
                r += RAY_RANK[direction];
            }
            ray_length[square][direction] = length;
            ray_mask[square][direction] = 0;
            for (int i = 0; i < length; i++) ray_mask[square][direction] |= 1ULL << ray_squares[square][direction][i];
        }
        knight_mask[square] = king_mask[square] = 0;
        for (int i = 0; i < knight_count[square]; i++) knight_mask[square] |= 1ULL << knight_targets[square][i];
        for (int i = 0; i < king_count[square]; i++) king_mask[square] |= 1ULL << king_targets[square][i];
        pawn_attackers[WHITE][square] = pawn_attackers[BLACK][square] = 0;
        for (int side = -1; side <= 1; side += 2) {
            if (file + side < 0 || file + side > 7) continue;
            if (rank > 0) pawn_attackers[WHITE][square] |= 1ULL << ((rank - 1) * 8 + file + side);
            if (rank < 7) pawn_attackers[BLACK][square] |= 1ULL << ((rank + 1) * 8 + file + side);
        }
        for (int other = 0; other < 64; other++) {
            int df = (other & 7) - file, dr = (other >> 3) - rank;
            aligned[square][other] = df == 0 || dr == 0 || df == dr || df == -dr;
        }
    }
}

static uint64_t piece_number(int piece, int square) {
    /* Polyglot's piece index: (type - 1) * 2, + 1 for White */
    return POLYGLOT[64 * ((TYPE(piece) - 1) * 2 + (COLOR(piece) == WHITE)) + square];
}

static void put(Board *board, int square, int piece) {
    board->squares[square] = (unsigned char)piece;
    board->squares_of[piece] |= 1ULL << square;
    board->occupied |= 1ULL << square;
    board->pieces_hash ^= piece_number(piece, square);
}

static void take(Board *board, int square) {
    board->pieces_hash ^= piece_number(board->squares[square], square);
    board->squares_of[board->squares[square]] &= ~(1ULL << square);
    board->occupied &= ~(1ULL << square);
    board->squares[square] = EMPTY;
}

static void start_board(Board *board) {
    static const int back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    memset(board, 0, sizeof *board);
    for (int file = 0; file < 8; file++) {
        put(board, file, MAKE(back[file], WHITE));
        put(board, 8 + file, MAKE(PAWN, WHITE));
        put(board, 48 + file, MAKE(PAWN, BLACK));
        put(board, 56 + file, MAKE(back[file], BLACK));
    }
    board->turn = WHITE;
    board->castling = WHITE_KING_SIDE | WHITE_QUEEN_SIDE | BLACK_KING_SIDE | BLACK_QUEEN_SIDE;
    board->ep_square = -1;
    board->kings[WHITE] = 4;
    board->kings[BLACK] = 60;
}

/* Whether a piece of `by` attacks `square` on this board. */
static int attacked(const Board *board, int square, int by) {
    const uint64_t *of = board->squares_of;
    if ((pawn_attackers[by][square] & of[MAKE(PAWN, by)]) || (knight_mask[square] & of[MAKE(KNIGHT, by)]) ||
        (king_mask[square] & of[MAKE(KING, by)])) {
        return 1;
    }
    int queen = MAKE(QUEEN, by);
    uint64_t straight = of[MAKE(ROOK, by)] | of[queen], diagonal = of[MAKE(BISHOP, by)] | of[queen];
    for (int direction = 0; direction < 8; direction++) {
        uint64_t sliders = direction < 4 ? straight : diagonal, ray = ray_mask[square][direction];
        if (!(ray & sliders)) continue;
        /* the nearest piece on the ray: its lowest square where the ray goes up the board, else its highest */
        uint64_t blockers = ray & board->occupied;
        int nearest = RAY_UPWARD[direction] ? __builtin_ctzll(blockers) : 63 - __builtin_clzll(blockers);
        if ((sliders >> nearest) & 1) return 1;
    }
    return 0;
}

static int castling_bits_of(int square) {
    switch (square) {
    case 0: return WHITE_QUEEN_SIDE;
    case 4: return WHITE_KING_SIDE | WHITE_QUEEN_SIDE;
    case 7: return WHITE_KING_SIDE;
    case 56: return BLACK_QUEEN_SIDE;
    case 60: return BLACK_KING_SIDE | BLACK_QUEEN_SIDE;
    case 63: return BLACK_KING_SIDE;
    default: return 0;
    }
}

/* Play a move already known to be pseudo-legal (castling: the king's two-square step). */
static void play(Board *board, int from, int to, int promotion) {
    int piece = board->squares[from], color = board->turn;
    int ep = board->ep_square;
    board->ep_square = -1;
    if (TYPE(piece) == PAWN) {
        if (to == ep) take(board, color == WHITE ? to - 8 : to + 8);
        else if (to - from == 16 || from - to == 16) board->ep_square = (from + to) / 2;
    } else if (TYPE(piece) == KING) {
        board->kings[color] = to;
        if (to - from == 2) { /* king side: the rook from h to f */
            int rook = board->squares[from + 3];
            take(board, from + 3);
            put(board, from + 1, rook);
        } else if (from - to == 2) { /* queen side: from a to d */
            int rook = board->squares[from - 4];
            take(board, from - 4);
            put(board, from - 1, rook);
        }
    }
    if (board->squares[to] != EMPTY) take(board, to);
    take(board, from);
    put(board, to, promotion ? MAKE(promotion, color) : piece);
    board->castling &= ~(castling_bits_of(from) | castling_bits_of(to));
    board->turn = !color;
}

/* Whether the pseudo-legal move leaves the mover's king safe. Out of check, a move of another
 * piece than the king can only expose it from a square in line with it (en passant aside, which
 * empties two squares). */
static int legal(const Board *board, int from, int to, int promotion) {
    int piece = board->squares[from];
    if (!board->in_check && TYPE(piece) != KING && !aligned[from][board->kings[board->turn]] &&
        !(TYPE(piece) == PAWN && to == board->ep_square)) {
        return 1;
    }
    Board after = *board;
    play(&after, from, to, promotion);
    return !attacked(&after, after.kings[board->turn], after.turn);
}

static int64_t key_of(const Board *board) {
    uint64_t key = board->pieces_hash;
    if (board->castling & WHITE_KING_SIDE) key ^= POLYGLOT[768];
    if (board->castling & WHITE_QUEEN_SIDE) key ^= POLYGLOT[769];
    if (board->castling & BLACK_KING_SIDE) key ^= POLYGLOT[770];
    if (board->castling & BLACK_QUEEN_SIDE) key ^= POLYGLOT[771];
    if (board->ep_square >= 0) {
        /* Only when a pawn of the side to move stands beside the one that passed (legal or not). */
        int file = board->ep_square & 7;
        int beside_rank = board->turn == WHITE ? 4 : 3;
        int pawn = MAKE(PAWN, board->turn);
        if ((file > 0 && board->squares[beside_rank * 8 + file - 1] == pawn) ||
            (file < 7 && board->squares[beside_rank * 8 + file + 1] == pawn)) {
            key ^= POLYGLOT[772 + file];
        }
    }
    if (board->turn == WHITE) key ^= POLYGLOT[780];
    return (int64_t)key;
}

static int piece_of_letter(char letter) {
    switch (letter) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return EMPTY;
    }
}

static int is_file(char c) { return c >= 'a' && c <= 'h'; }
static int is_rank(char c) { return c >= '1' && c <= '8'; }

/* The one legal move a SAN token names: 1 with *from, *to, *promotion set; 0 when not handled. */
static int reaching(const Board *board, int piece, int to, int *out);

static int resolve(const Board *board, const char *token, Py_ssize_t length, int *from_out, int *to_out, int *promotion_out) {
    Py_ssize_t end = length;
    for (int marks = 0; marks < 2 && end > 0 && (token[end - 1] == '!' || token[end - 1] == '?'); marks++) end--;
    if (end > 0 && (token[end - 1] == '+' || token[end - 1] == '#')) end--;
    int color = board->turn;
    int home = color == WHITE ? 4 : 60;
    if ((end == 3 && memcmp(token, "O-O", 3) == 0) || (end == 5 && memcmp(token, "O-O-O", 5) == 0)) {
        int king_side = end == 3;
        int right = king_side ? (color == WHITE ? WHITE_KING_SIDE : BLACK_KING_SIDE)
                              : (color == WHITE ? WHITE_QUEEN_SIDE : BLACK_QUEEN_SIDE);
        int enemy = !color;
        if (!(board->castling & right) || board->kings[color] != home) return 0;
        if (king_side) {
            if (board->squares[home + 1] || board->squares[home + 2]) return 0;
            if (attacked(board, home, enemy) || attacked(board, home + 1, enemy) || attacked(board, home + 2, enemy)) return 0;
            *to_out = home + 2;
        } else {
            if (board->squares[home - 1] || board->squares[home - 2] || board->squares[home - 3]) return 0;
            if (attacked(board, home, enemy) || attacked(board, home - 1, enemy) || attacked(board, home - 2, enemy)) return 0;
            *to_out = home - 2;
        }
        *from_out = home;
        *promotion_out = 0;
        return 1;
    }
    int promotion = 0;
    if (end >= 3 && piece_of_letter(token[end - 1]) && token[end - 1] != 'K') {
        promotion = piece_of_letter(token[end - 1]);
        end--;
        if (token[end - 1] == '=') end--;
    }
    if (end < 2 || !is_file(token[end - 2]) || !is_rank(token[end - 1])) return 0;
    int to = (token[end - 1] - '1') * 8 + (token[end - 2] - 'a');
    end -= 2;
    Py_ssize_t at = 0;
    int type = PAWN;
    if (at < end && piece_of_letter(token[at])) type = piece_of_letter(token[at++]);
    int capture = 0;
    if (end > at && token[end - 1] == 'x') {
        capture = 1;
        end--;
    }
    int from_file = -1, from_rank = -1;
    if (at < end && is_file(token[at])) from_file = token[at++] - 'a';
    if (at < end && is_rank(token[at])) from_rank = token[at++] - '1';
    if (at != end) return 0;
    int target = board->squares[to];
    if (target != EMPTY && COLOR(target) == color) return 0;
    int to_rank = to >> 3, to_file = to & 7;
    int last_rank = color == WHITE ? 7 : 0;
    if (type == PAWN) {
        int step = color == WHITE ? -8 : 8;
        int pawn = MAKE(PAWN, color);
        int from;
        if (from_rank >= 0 || (to_rank == last_rank) != (promotion != 0) || to_rank == (color == WHITE ? 0 : 7)) return 0;
        if (capture) {
            if (from_file < 0 || (from_file - to_file != 1 && to_file - from_file != 1)) return 0;
            from = to + step - to_file + from_file;
            if (board->squares[from] != pawn) return 0;
            if (target == EMPTY && to != board->ep_square) return 0;
        } else {
            if (from_file >= 0 || target != EMPTY) return 0;
            from = to + step;
            if (board->squares[from] != pawn) {
                int start_rank = color == WHITE ? 3 : 4; /* where a double step lands */
                if (board->squares[from] != EMPTY || to_rank != start_rank || board->squares[from + step] != pawn) return 0;
                from += step;
            }
        }
        if (!legal(board, from, to, promotion)) return 0;
        *from_out = from;
        *to_out = to;
        *promotion_out = promotion;
        return 1;
    }
    if (promotion) return 0;
    int piece = MAKE(type, color);
    int found = -1;
    int candidates[16];
    int count = reaching(board, piece, to, candidates);
    for (int i = 0; i < count; i++) {
        int square = candidates[i];
        if (from_file >= 0 && (square & 7) != from_file) continue;
        if (from_rank >= 0 && (square >> 3) != from_rank) continue;
        if (!legal(board, square, to, 0)) continue;
        if (found >= 0) return 0; /* ambiguous */
        found = square;
    }
    if (found < 0) return 0;
    *from_out = found;
    *to_out = to;
    *promotion_out = 0;
    return 1;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* 1 for a token that is passed over (a result, a NAG), 0 otherwise; *skip_out: bytes of a move
 * number at its start (then the rest, if any, is read as a move); -1 for a token not handled. */
static int passed_over(const char *token, Py_ssize_t length, Py_ssize_t *skip_out) {
    *skip_out = 0;
    if ((length == 3 && (memcmp(token, "1-0", 3) == 0 || memcmp(token, "0-1", 3) == 0)) ||
        (length == 7 && memcmp(token, "1/2-1/2", 7) == 0) || (length == 1 && token[0] == '*')) {
        return 1;
    }
    if (token[0] == '$') {
        if (length < 2) return -1;
        for (Py_ssize_t i = 1; i < length; i++) {
            if (!is_digit(token[i])) return -1;
        }
        return 1;
    }
    if (is_digit(token[0])) {
        Py_ssize_t i = 0;
        while (i < length && is_digit(token[i])) i++;
        if (i == length || token[i] != '.') return -1;
        i++;
        if (i + 1 < length && token[i] == '.' && token[i + 1] == '.') i += 2;
        else if (i < length && token[i] == '.') return -1;
        *skip_out = i;
        return i == length ? 1 : 0;
    }
    return 0;
}

/* The squares of the pieces `piece` that reach `to` as that piece moves (pins not looked at). */
static int reaching(const Board *board, int piece, int to, int *out) {
    int type = TYPE(piece), count = 0;
    const int *near = type == KNIGHT ? knight_targets[to] : king_targets[to];
    int near_count = type == KNIGHT ? knight_count[to] : type == KING ? king_count[to] : 0;
    for (int i = 0; i < near_count; i++) {
        if (board->squares[near[i]] == piece) out[count++] = near[i];
    }
    if (type == BISHOP || type == ROOK || type == QUEEN) {
        int first = type == BISHOP ? 4 : 0, last = type == ROOK ? 4 : 8;
        for (int direction = first; direction < last; direction++) {
            if (!(ray_mask[to][direction] & board->squares_of[piece])) continue;
            for (int i = 0; i < ray_length[to][direction]; i++) {
                int there = board->squares[ray_squares[to][direction][i]];
                if (there == EMPTY) continue;
                if (there == piece && count < 16) out[count++] = ray_squares[to][direction][i];
                break;
            }
        }
    }
    return count;
}

/* Whether the side to move has a legal move (castling aside: asked only of a side in check). */
static int has_legal_move(const Board *board) {
    int color = board->turn;
    for (int from = 0; from < 64; from++) {
        int piece = board->squares[from];
        if (piece == EMPTY || COLOR(piece) != color) continue;
        int type = TYPE(piece);
        if (type == PAWN) {
            int step = color == WHITE ? 8 : -8, one = from + step;
            if (one < 0 || one > 63) continue;
            int last = (one >> 3) == (color == WHITE ? 7 : 0);
            if (board->squares[one] == EMPTY) {
                if (legal(board, from, one, last ? QUEEN : 0)) return 1;
                int two = one + step, start_rank = color == WHITE ? 1 : 6;
                if ((from >> 3) == start_rank && board->squares[two] == EMPTY && legal(board, from, two, 0)) return 1;
            }
            for (int side = -1; side <= 1; side += 2) {
                int file = (from & 7) + side;
                if (file < 0 || file > 7) continue;
                int target = (one & ~7) + file, there = board->squares[target];
                if ((there != EMPTY && COLOR(there) != color) || target == board->ep_square) {
                    if (legal(board, from, target, last ? QUEEN : 0)) return 1;
                }
            }
            continue;
        }
        if (type == KNIGHT || type == KING) {
            const int *near = type == KNIGHT ? knight_targets[from] : king_targets[from];
            int near_count = type == KNIGHT ? knight_count[from] : king_count[from];
            for (int i = 0; i < near_count; i++) {
                int there = board->squares[near[i]];
                if ((there == EMPTY || COLOR(there) != color) && legal(board, from, near[i], 0)) return 1;
            }
            continue;
        }
        int first = type == BISHOP ? 4 : 0, last = type == ROOK ? 4 : 8;
        for (int direction = first; direction < last; direction++) {
            for (int i = 0; i < ray_length[from][direction]; i++) {
                int target = ray_squares[from][direction][i], there = board->squares[target];
                if (there != EMPTY && COLOR(there) == color) break;
                if (legal(board, from, target, 0)) return 1;
                if (there != EMPTY) break;
            }
        }
    }
    return 0;
}

static const char FILE_LETTERS[] = "abcdefgh";
static const char PROMOTION_LETTERS[] = "  nbrq";
static const char PIECE_LETTERS[] = "  NBRQK";

/* The move's SAN as python-chess writes it, without its check suffix (the board before the move). */
static int san_of(const Board *board, int from, int to, int promotion, char *out) {
    int piece = board->squares[from], type = TYPE(piece), length = 0;
    if (type == KING && (to - from == 2 || from - to == 2)) {
        memcpy(out, to > from ? "O-O" : "O-O-O", to > from ? 3 : 5);
        return to > from ? 3 : 5;
    }
    int capture = board->squares[to] != EMPTY || (type == PAWN && to == board->ep_square);
    if (type == PAWN) {
        if (capture) out[length++] = FILE_LETTERS[from & 7];
    } else {
        out[length++] = PIECE_LETTERS[type];
        int candidates[16], others_rank = 0, others_file = 0, others = 0;
        int count = type == KING ? 0 : reaching(board, piece, to, candidates);
        for (int i = 0; i < count; i++) {
            int square = candidates[i];
            if (square == from || !legal(board, square, to, 0)) continue;
            others = 1;
            if ((square >> 3) == (from >> 3)) others_rank = 1;
            if ((square & 7) == (from & 7)) others_file = 1;
        }
        if (others) {
            if (others_rank || !others_file) out[length++] = FILE_LETTERS[from & 7];
            if (others_file) out[length++] = (char)('1' + (from >> 3));
        }
    }
    if (capture) out[length++] = 'x';
    out[length++] = FILE_LETTERS[to & 7];
    out[length++] = (char)('1' + (to >> 3));
    if (promotion) {
        out[length++] = '=';
        out[length++] = PIECE_LETTERS[promotion];
    }
    return length;
}

typedef struct {
    int64_t *keys;  /* moves + 1 */
    int16_t *codes; /* moves + 1: the last is ENDED_CODE */
    char *uci, *san;
    Py_ssize_t moves, uci_length, san_length;
    const char *last_token; /* the movetext's last token outside comments (NULL: none) */
    Py_ssize_t last_length;
} Line;

#define ENDED_CODE (-2) /* position_index.ENDED: no move was played from the last position */

/* Read the main line into `line` (its buffers sized by line_buffers): 1 when read, 0 when not handled. */
static int read_line(const char *data, Py_ssize_t size, Line *line) {
    Board board;
    start_board(&board);
    Py_ssize_t moves = 0, uci_length = 0, san_length = 0, at = 0;
    line->last_token = NULL;
    line->last_length = 0;
    while (at < size) {
        char c = data[at];
        if (is_space(c)) {
            at++;
            continue;
        }
        if (c == '{') { /* a comment: to its first `}` (one never closed is not handled) */
            const char *close = memchr(data + at + 1, '}', (size_t)(size - at - 1));
            if (close == NULL) return 0;
            at = close - data + 1;
            continue;
        }
        Py_ssize_t start = at;
        while (at < size && !is_space(data[at]) && data[at] != '{') {
            unsigned char byte = (unsigned char)data[at];
            if (byte < 0x21 || byte >= 0x7f) return 0;
            at++;
        }
        const char *token = data + start;
        Py_ssize_t length = at - start, skip;
        line->last_token = token;
        line->last_length = length;
        int kind = passed_over(token, length, &skip);
        if (kind < 0) return 0;
        if (kind > 0) continue;
        token += skip;
        length -= skip;
        int from, to, promotion;
        if (!resolve(&board, token, length, &from, &to, &promotion)) return 0;
        line->keys[moves] = key_of(&board);
        line->codes[moves] = (int16_t)(from + 64 * to + 4096 * promotion);
        if (moves) {
            line->uci[uci_length++] = ' ';
            line->san[san_length++] = ' ';
        }
        line->uci[uci_length++] = FILE_LETTERS[from & 7];
        line->uci[uci_length++] = (char)('1' + (from >> 3));
        line->uci[uci_length++] = FILE_LETTERS[to & 7];
        line->uci[uci_length++] = (char)('1' + (to >> 3));
        if (promotion) line->uci[uci_length++] = PROMOTION_LETTERS[promotion];
        san_length += san_of(&board, from, to, promotion, line->san + san_length);
        moves++;
        play(&board, from, to, promotion);
        board.in_check = attacked(&board, board.kings[board.turn], !board.turn);
        if (board.in_check) line->san[san_length++] = has_legal_move(&board) ? '+' : '#';
    }
    line->keys[moves] = key_of(&board);
    line->codes[moves] = ENDED_CODE;
    line->moves = moves;
    line->uci_length = uci_length;
    line->san_length = san_length;
    return 1;
}

/* One block for the buffers of a line read from `size` bytes (a move takes at least two); NULL: no memory. */
static void *line_buffers(Py_ssize_t size, Line *line) {
    size_t most = (size_t)(size / 2 + 2);
    char *block = PyMem_RawMalloc(most * (sizeof(int64_t) + sizeof(int16_t) + 6 + 8));
    if (block == NULL) return NULL;
    line->keys = (int64_t *)block;
    line->codes = (int16_t *)(block + most * sizeof(int64_t));
    line->uci = block + most * (sizeof(int64_t) + sizeof(int16_t));
    line->san = line->uci + most * 6;
    return block;
}

/* The movetext's bytes (UTF-8), or NULL with an error set. */
static const char *text_of(PyObject *args, Py_ssize_t *size) {
    PyObject *text;
    if (!PyArg_ParseTuple(args, "U", &text)) return NULL;
    return PyUnicode_AsUTF8AndSize(text, size);
}

static PyObject *main_line(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t size;
    const char *data = text_of(args, &size);
    if (data == NULL) return NULL;
    Line line;
    void *block = line_buffers(size, &line);
    if (block == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (!read_line(data, size, &line)) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    Py_ssize_t moves = line.moves;
    PyObject *key_list = PyList_New(moves + 1), *code_list = PyList_New(moves);
    PyObject *uci_text = PyUnicode_DecodeASCII(line.uci, line.uci_length, NULL);
    PyObject *san_text = PyUnicode_DecodeASCII(line.san, line.san_length, NULL);
    if (key_list == NULL || code_list == NULL || uci_text == NULL || san_text == NULL) goto built;
    for (Py_ssize_t i = 0; i <= moves; i++) {
        PyObject *value = PyLong_FromLongLong(line.keys[i]);
        if (value == NULL) goto built;
        PyList_SET_ITEM(key_list, i, value);
    }
    for (Py_ssize_t i = 0; i < moves; i++) {
        PyObject *value = PyLong_FromLong(line.codes[i]);
        if (value == NULL) goto built;
        PyList_SET_ITEM(code_list, i, value);
    }
    result = PyTuple_Pack(4, key_list, code_list, uci_text, san_text);
built:
    Py_XDECREF(key_list);
    Py_XDECREF(code_list);
    Py_XDECREF(uci_text);
    Py_XDECREF(san_text);
done:
    PyMem_RawFree(block);
    return result;
}

static PyObject *packed_line(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t size;
    const char *data = text_of(args, &size);
    if (data == NULL) return NULL;
    Line line;
    void *block = line_buffers(size, &line);
    if (block == NULL) return PyErr_NoMemory();
    PyObject *result;
    if (read_line(data, size, &line)) {
        result = Py_BuildValue("(y#y#s#s#)", (const char *)line.keys, (Py_ssize_t)sizeof(int64_t) * (line.moves + 1),
                               (const char *)line.codes, (Py_ssize_t)sizeof(int16_t) * (line.moves + 1),
                               line.uci, line.uci_length, line.san, line.san_length);
    } else {
        result = Py_None;
        Py_INCREF(result);
    }
    PyMem_RawFree(block);
    return result;
}

/* The bytes records.fingerprint_of hashes: kind, then "\0name\1value" for each header in the names'
 * order, "\2", the start, "\2", the moves; None where a text is not plain UTF-8 (a lone surrogate:
 * records.py encodes those its own way). */
static PyObject *fingerprint_input(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *kind, *headers, *start, *moves;
    if (!PyArg_ParseTuple(args, "UO!UU", &kind, &PyDict_Type, &headers, &start, &moves)) return NULL;
    PyObject *names = PyDict_Keys(headers);
    if (names == NULL) return NULL;
    PyObject *result = NULL;
    char *buffer = NULL;
    if (PyList_Sort(names) < 0) goto done;
    Py_ssize_t count = PyList_GET_SIZE(names), total = 0;
    const char *parts[2 * 64 + 3];
    Py_ssize_t sizes[2 * 64 + 3];
    if (count > 64) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    Py_ssize_t part = 0;
    PyObject *fixed[3] = {kind, start, moves};
    for (int i = 0; i < 3; i++) {
        parts[part] = PyUnicode_AsUTF8AndSize(fixed[i], &sizes[part]);
        if (parts[part] == NULL) goto not_plain;
        total += sizes[part++];
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyList_GET_ITEM(names, i), *value = PyDict_GetItemWithError(headers, name);
        if (value == NULL || !PyUnicode_Check(name) || !PyUnicode_Check(value)) goto not_plain;
        parts[part] = PyUnicode_AsUTF8AndSize(name, &sizes[part]);
        if (parts[part] == NULL) goto not_plain;
        total += sizes[part++] + 1;
        parts[part] = PyUnicode_AsUTF8AndSize(value, &sizes[part]);
        if (parts[part] == NULL) goto not_plain;
        total += sizes[part++] + 1;
    }
    total += 2;
    buffer = PyMem_RawMalloc((size_t)total);
    if (buffer == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    {
        char *at = buffer;
        memcpy(at, parts[0], (size_t)sizes[0]);
        at += sizes[0];
        for (Py_ssize_t i = 3; i < part; i += 2) {
            *at++ = '\0';
            memcpy(at, parts[i], (size_t)sizes[i]);
            at += sizes[i];
            *at++ = '\1';
            memcpy(at, parts[i + 1], (size_t)sizes[i + 1]);
            at += sizes[i + 1];
        }
        for (int i = 1; i < 3; i++) {
            *at++ = '\2';
            memcpy(at, parts[i], (size_t)sizes[i]);
            at += sizes[i];
        }
        result = PyBytes_FromStringAndSize(buffer, at - buffer);
    }
    goto done;
not_plain:
    PyErr_Clear();
    result = Py_None;
    Py_INCREF(result);
done:
    PyMem_RawFree(buffer);
    Py_DECREF(names);
    return result;
}

static int is_tag_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '+' || c == '#' ||
           c == '=' || c == ':' || c == '-';
}


/* BLAKE2b (RFC 7693) with an 8-byte digest and no key: records.fingerprint_of_bytes's hash. */
static const uint64_t BLAKE2B_IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};
static const unsigned char BLAKE2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static uint64_t rotate_right(uint64_t value, int bits) { return (value >> bits) | (value << (64 - bits)); }

static void blake2b_compress(uint64_t h[8], const unsigned char block[128], uint64_t counter, int last) {
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) {
        uint64_t word = 0;
        for (int b = 7; b >= 0; b--) word = (word << 8) | block[8 * i + b];
        m[i] = word;
    }
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = BLAKE2B_IV[i];
    }
    v[12] ^= counter;
    if (last) v[14] = ~v[14];
    for (int round = 0; round < 12; round++) {
        const unsigned char *s = BLAKE2B_SIGMA[round];
#define G(a, b, c, d, x, y)                          \
    do {                                             \
        v[a] = v[a] + v[b] + (x);                    \
        v[d] = rotate_right(v[d] ^ v[a], 32);        \
        v[c] = v[c] + v[d];                          \
        v[b] = rotate_right(v[b] ^ v[c], 24);        \
        v[a] = v[a] + v[b] + (y);                    \
        v[d] = rotate_right(v[d] ^ v[a], 16);        \
        v[c] = v[c] + v[d];                          \
        v[b] = rotate_right(v[b] ^ v[c], 63);        \
    } while (0)
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
#undef G
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/* int.from_bytes(blake2b(data, digest_size=8).digest(), "big", signed=True) */
static int64_t fingerprint_hash(const unsigned char *data, size_t size) {
    uint64_t h[8];
    memcpy(h, BLAKE2B_IV, sizeof h);
    h[0] ^= 0x01010000ULL ^ 8;
    size_t done = 0;
    while (size - done > 128) {
        blake2b_compress(h, data + done, (uint64_t)(done + 128), 0);
        done += 128;
    }
    unsigned char block[128] = {0};
    memcpy(block, data + done, size - done);
    blake2b_compress(h, block, (uint64_t)size, 1);
    uint64_t big_endian = 0;
    for (int b = 0; b < 8; b++) big_endian = (big_endian << 8) | ((h[0] >> (8 * b)) & 0xff);
    return (int64_t)big_endian;
}

static PyObject *fingerprint_of_input(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) return NULL;
    int64_t value = fingerprint_hash((const unsigned char *)data.buf, (size_t)data.len);
    PyBuffer_Release(&data);
    return PyLong_FromLongLong(value);
}

typedef struct {
    const char *name, *value;
    Py_ssize_t name_length, value_length;
} Tag;

#define TAGS_MOST 64

/* A tag section of plain lines read on its bytes: the count of tags (repeats included), or -1 where
 * a line is not plain or the section holds more than TAGS_MOST tags. */
static int tags_of(const char *data, Py_ssize_t size, Tag *tags) {
    int count = 0;
    Py_ssize_t at = 0;
    while (at < size) {
        const char *newline = memchr(data + at, '\n', (size_t)(size - at));
        Py_ssize_t end = newline == NULL ? size : newline - data, next = end + 1;
        if (end > at && data[end - 1] == '\r') end--;
        Py_ssize_t i = at;
        while (i < end && (data[i] == ' ' || data[i] == '\t')) i++;
        if (i == end) {
            at = next;
            continue;
        }
        char first = at + 1 < end ? data[at + 1] : ' ';
        if (data[at] != '[' || !((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') || is_digit(first))) return -1;
        Py_ssize_t name_start = at + 1, name_end = name_start;
        while (name_end < end && is_tag_name_char(data[name_end])) name_end++;
        if (name_end + 2 >= end || data[name_end] != ' ' || data[name_end + 1] != '"') return -1;
        Py_ssize_t value_start = name_end + 2;
        const char *quote = memchr(data + value_start, '"', (size_t)(end - value_start));
        if (quote == NULL || quote - data != end - 2 || data[end - 1] != ']') return -1;
        if (count == TAGS_MOST) return -1;
        tags[count].name = data + name_start;
        tags[count].name_length = name_end - name_start;
        tags[count].value = data + value_start;
        tags[count].value_length = end - 2 - value_start;
        count++;
        at = next;
    }
    return count;
}

/* formats.pgn.parse_tags's {name: value} of a tag section of plain lines only: each line (a
 * trailing CR aside) blank (spaces and tabs) or `[Name "value"]`, one space, no `"` in the value;
 * None for any other text, or more than TAGS_MOST tags (parse_tags reads it). */
static PyObject *plain_tags(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t size;
    const char *data = text_of(args, &size);
    if (data == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Tag read[TAGS_MOST];
    int count = tags_of(data, size, read);
    if (count < 0) Py_RETURN_NONE;
    PyObject *tags = PyDict_New();
    if (tags == NULL) return NULL;
    for (int at = 0; at < count; at++) {
        PyObject *name = PyUnicode_DecodeASCII(read[at].name, read[at].name_length, NULL);
        PyObject *value = name == NULL ? NULL : PyUnicode_DecodeUTF8(read[at].value, read[at].value_length, NULL);
        int failed = value == NULL || PyDict_SetItem(tags, name, value) < 0;
        Py_XDECREF(name);
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(tags);
            return NULL;
        }
    }
    return tags;
}

static int name_order(const Tag *a, const Tag *b) {
    Py_ssize_t shorter = a->name_length < b->name_length ? a->name_length : b->name_length;
    int order = memcmp(a->name, b->name, (size_t)shorter);
    if (order) return order;
    return a->name_length < b->name_length ? -1 : a->name_length > b->name_length;
}

/* The tags a dict of them keeps (the last of a repeated name), sorted by name: their count. */
static int sorted_tags(Tag *tags, int count) {
    for (int i = 1; i < count; i++) { /* insertion sort, stable: repeats stay in the file's order */
        Tag tag = tags[i];
        int j = i - 1;
        while (j >= 0 && name_order(&tags[j], &tag) > 0) {
            tags[j + 1] = tags[j];
            j--;
        }
        tags[j + 1] = tag;
    }
    int kept = 0;
    for (int i = 0; i < count; i++) {
        if (i + 1 < count && name_order(&tags[i], &tags[i + 1]) == 0) continue;
        tags[kept++] = tags[i];
    }
    return kept;
}

static const Tag *tag_named(const Tag *tags, int count, const char *name) {
    Py_ssize_t length = (Py_ssize_t)strlen(name);
    for (int i = 0; i < count; i++) {
        if (tags[i].name_length == length && memcmp(tags[i].name, name, (size_t)length) == 0) return &tags[i];
    }
    return NULL;
}

/* The tag's value as text: "" where absent (NULL with an error set where it is not UTF-8). */
static PyObject *value_text(const Tag *tag) {
    if (tag == NULL) return PyUnicode_FromStringAndSize("", 0);
    return PyUnicode_DecodeUTF8(tag->value, tag->value_length, NULL);
}

typedef struct {
    char *data;
    Py_ssize_t length, room;
} Growing;

static int grow(Growing *buffer, const void *data, Py_ssize_t size) {
    if (buffer->length + size > buffer->room) {
        Py_ssize_t room = buffer->room ? buffer->room : 1 << 16;
        while (room < buffer->length + size) room *= 2;
        char *data_then = PyMem_RawRealloc(buffer->data, (size_t)room);
        if (data_then == NULL) return 0;
        buffer->data = data_then;
        buffer->room = room;
    }
    memcpy(buffer->data + buffer->length, data, (size_t)size);
    buffer->length += size;
    return 1;
}

/* Why a game is left to the per-game reader, or NULL where it is read here. */
static const char *left_because(const Tag *tags, int count) {
    if (tag_named(tags, count, "FEN") || tag_named(tags, count, "SetUp")) return "a set-up position";
    if (tag_named(tags, count, "Variant")) return "a variant tag";
    return NULL;
}

static PyObject *left_entry(Py_ssize_t index, const char *reason) { return Py_BuildValue("(ns)", index, reason); }

/* One plain game read for plain_games: its entry appended to `games` and its positions to the
 * buffers; 1 when read, 0 when left (with *reason set), -1 on an error. */
static int plain_game(const char *data, Py_ssize_t start, Py_ssize_t movetext, Py_ssize_t end, Py_ssize_t index,
                      PyObject *games, Growing *keys, Growing *codes, Growing *fingerprint_bytes, const char **reason) {
    Tag tags[TAGS_MOST];
    Line line;
    void *block = NULL;
    int count, out_of_memory = 0;
    int64_t fingerprint = 0;
    const char *left = NULL;
    /* The game's reading touches no Python object: other threads read other chunks meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    count = tags_of(data + start, movetext - start, tags);
    if (count < 0) {
        left = "tags that are not plain lines";
    } else {
        count = sorted_tags(tags, count);
        left = left_because(tags, count);
    }
    if (left == NULL && (block = line_buffers(end - movetext, &line)) == NULL) out_of_memory = 1;
    if (block != NULL && !read_line(data + movetext, end - movetext, &line)) left = "a main line that is not plain";
    if (block != NULL && left == NULL) {
        fingerprint_bytes->length = 0;
        out_of_memory = !grow(fingerprint_bytes, "chess", 5);
        for (int i = 0; i < count && !out_of_memory; i++) {
            out_of_memory = !grow(fingerprint_bytes, "\0", 1) || !grow(fingerprint_bytes, tags[i].name, tags[i].name_length) ||
                            !grow(fingerprint_bytes, "\1", 1) || !grow(fingerprint_bytes, tags[i].value, tags[i].value_length);
        }
        out_of_memory = out_of_memory || !grow(fingerprint_bytes, "\2\2", 2) || !grow(fingerprint_bytes, line.uci, line.uci_length);
        if (!out_of_memory) fingerprint = fingerprint_hash((const unsigned char *)fingerprint_bytes->data, (size_t)fingerprint_bytes->length);
    }
    Py_END_ALLOW_THREADS
    int outcome = -1;
    if (out_of_memory) goto no_memory;
    if (left != NULL) {
        *reason = left;
        outcome = 0;
        goto done;
    }
    static const char *const FIELD_NAMES[] = {"White", "Black", "WhiteElo", "BlackElo", "Event", "Date", "UTCDate", "TimeControl"};
    PyObject *fields[8] = {NULL};
    int fields_read = 1;
    for (int i = 0; i < 8 && fields_read; i++) fields_read = (fields[i] = value_text(tag_named(tags, count, FIELD_NAMES[i]))) != NULL;
    const Tag *result_tag = tag_named(tags, count, "Result");
    PyObject *result = NULL;
    if (fields_read) {
        if (result_tag != NULL) result = value_text(result_tag);
        else {
            result = Py_None;
            Py_INCREF(result);
        }
    }
    if (result == NULL) {
        for (int i = 0; i < 8; i++) Py_XDECREF(fields[i]);
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) goto done;
        PyErr_Clear();
        *reason = "tags that are not UTF-8";
        outcome = 0;
        goto done;
    }
    const char *closing = "";
    Py_ssize_t closing_length = 0;
    if (line.last_token != NULL && ((line.last_length == 3 && (memcmp(line.last_token, "1-0", 3) == 0 ||
                                                                memcmp(line.last_token, "0-1", 3) == 0)) ||
                                    (line.last_length == 7 && memcmp(line.last_token, "1/2-1/2", 7) == 0))) {
        closing = line.last_token;
        closing_length = line.last_length;
    }
    PyObject *entry = Py_BuildValue("(nLNNNNNNNNNs#s#n)", index, (long long)fingerprint, fields[0], fields[1], fields[2],
                                    fields[3], fields[4], fields[5], fields[6], fields[7], result, closing, closing_length,
                                    line.san, line.san_length, line.moves);
    if (entry == NULL) goto done;
    int appended = PyList_Append(games, entry);
    Py_DECREF(entry);
    if (appended < 0) goto done;
    line.codes[line.moves] = ENDED_CODE;
    if (!grow(keys, line.keys, (Py_ssize_t)sizeof(int64_t) * (line.moves + 1)) ||
        !grow(codes, line.codes, (Py_ssize_t)sizeof(int16_t) * (line.moves + 1))) {
        goto no_memory;
    }
    outcome = 1;
    goto done;
no_memory:
    PyErr_NoMemory();
done:
    PyMem_RawFree(block);
    return outcome;
}

/* plain_games(data, starts, movetexts, size, first, end) -> (games, keys, codes, left)
 *
 * The games first..end-1 of a PGN whose bytes are `data` (game i from starts[i] to starts[i + 1],
 * the last to `size`; its tags before movetexts[i]; starts and movetexts int64s), read where their
 * tag lines are plain and their main line is (packed_line's games, from the usual start, without a
 * variant tag). `games`: for each game read, (index, fingerprint, White, Black, WhiteElo, BlackElo,
 * Event, Date, UTCDate, TimeControl, Result (None where there is no such tag), the movetext's
 * closing result ("" where it closes otherwise), the SAN joined by spaces, the count of moves); the
 * tags' values as written ("" where absent), the fingerprint that of records.fingerprint_of.
 * `keys` and `codes`: the positions of the games read, one after the other, as packed_line's.
 * `left`: (index, why) for each game left to the per-game reader. */
static PyObject *plain_games(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer data, starts, movetexts;
    Py_ssize_t size, first, end;
    if (!PyArg_ParseTuple(args, "y*y*y*nnn", &data, &starts, &movetexts, &size, &first, &end)) return NULL;
    PyObject *result = NULL, *games = NULL, *left = NULL;
    Growing keys = {0}, codes = {0}, fingerprint_bytes = {0};
    Py_ssize_t listed = starts.len / (Py_ssize_t)sizeof(int64_t);
    const int64_t *start_of = starts.buf, *movetext_of = movetexts.buf;
    if (movetexts.len / (Py_ssize_t)sizeof(int64_t) != listed || first < 0 || end > listed || first > end || size > data.len) {
        PyErr_SetString(PyExc_ValueError, "plain_games: the games named are not in the index or the data");
        goto done;
    }
    games = PyList_New(0);
    left = PyList_New(0);
    if (games == NULL || left == NULL) goto done;
    for (Py_ssize_t index = first; index < end; index++) {
        Py_ssize_t start = (Py_ssize_t)start_of[index], movetext = (Py_ssize_t)movetext_of[index];
        Py_ssize_t stop = index + 1 < listed ? (Py_ssize_t)start_of[index + 1] : size;
        if (start < 0 || movetext < start || stop < movetext || stop > size) {
            PyErr_SetString(PyExc_ValueError, "plain_games: a game's offsets are out of order");
            goto done;
        }
        const char *reason = NULL;
        int read = plain_game(data.buf, start, movetext, stop, index, games, &keys, &codes, &fingerprint_bytes, &reason);
        if (read < 0) goto done;
        if (read == 0) {
            PyObject *entry = left_entry(index, reason);
            if (entry == NULL || PyList_Append(left, entry) < 0) {
                Py_XDECREF(entry);
                goto done;
            }
            Py_DECREF(entry);
        }
    }
    result = Py_BuildValue("(Oy#y#O)", games, keys.data ? keys.data : "", keys.length, codes.data ? codes.data : "",
                           codes.length, left);
done:
    Py_XDECREF(games);
    Py_XDECREF(left);
    PyMem_RawFree(keys.data);
    PyMem_RawFree(codes.data);
    PyMem_RawFree(fingerprint_bytes.data);
    PyBuffer_Release(&data);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&movetexts);
    return result;
}

static PyMethodDef methods[] = {
    {"main_line", main_line, METH_VARARGS, "(keys, codes, uci, san) of a main line, or None when not handled"},
    {"fingerprint_input", fingerprint_input, METH_VARARGS, "the bytes a record's fingerprint hashes, or None"},
    {"plain_tags", plain_tags, METH_VARARGS, "the tags of a section of plain tag lines, or None"},
    {"packed_line", packed_line, METH_VARARGS, "(keys, codes, uci, san) of a main line, keys and codes packed, or None"},
    {"plain_games", plain_games, METH_VARARGS, "(games, keys, codes, left) of a chunk of a PGN's games"},
    {"fingerprint_of_input", fingerprint_of_input, METH_VARARGS, "the fingerprint of the bytes fingerprint_input lays out"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chess_lines", NULL, 0, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__chess_lines(void) {
    make_tables();
    return PyModule_Create(&module);
}
