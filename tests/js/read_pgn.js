// Reads a PGN file with @mliebelt/pgn-parser and prints, as JSON, what it found for each game:
// the tags, the game comment and, per main-line move, its SAN, NAGs, %eval/%clk, comment text
// and the variations that start there (as SAN lists).
"use strict";
const fs = require("fs");
const { parseGames } = require("@mliebelt/pgn-parser");

function line(moves) {
  return moves.map((move) => move.notation.notation);
}

const text = fs.readFileSync(process.argv[2], "utf8");
const games = parseGames(text).map((game) => ({
  tags: Object.fromEntries(
    Object.entries(game.tags || {})
      .filter(([key]) => key !== "messages")
      .map(([key, value]) => [key, typeof value === "object" && value !== null ? value.value : value])
  ),
  gameComment: game.gameComment || null,
  moves: game.moves.map((move) => ({
    san: move.notation.notation,
    turn: move.turn,
    nags: move.nag || [],
    eval: (move.commentDiag && move.commentDiag.eval) || null,
    clk: (move.commentDiag && move.commentDiag.clk) || null,
    diag: move.commentDiag || null,
    comment: move.commentAfter || null,
    variations: (move.variations || []).map(line),
  })),
  messages: game.messages || [],
}));
process.stdout.write(JSON.stringify(games));
