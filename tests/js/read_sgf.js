// Reads an SGF file with @sabaki/sgf and prints, as JSON, per game: the root's properties and, per
// main-line node, its properties and the moves of the variations that start beside it.
"use strict";
const sgf = require("@sabaki/sgf");

function mainLine(root) {
  const nodes = [];
  let node = root;
  let parent = null;
  while (node) {
    const siblings = parent ? parent.children.slice(1) : [];
    nodes.push({ data: node.data, variations: siblings.map(variationMoves) });
    parent = node;
    node = node.children[0];
  }
  return nodes;
}

function variationMoves(node) {
  const moves = [];
  while (node) {
    const data = node.data;
    if (data.B) moves.push(["B", data.B[0]]);
    else if (data.W) moves.push(["W", data.W[0]]);
    node = node.children[0];
  }
  return { moves };
}

const roots = sgf.parseFile(process.argv[2]);
process.stdout.write(JSON.stringify(roots.map((root) => ({ root: root.data, nodes: mainLine(root) }))));
