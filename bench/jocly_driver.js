// Jocly's Gigachess II rules and AI behind JSON lines on stdin/stdout, for bench/jocly.py.
//
//   node bench/jocly_driver.js JOCLY_DIR
//
// JOCLY_DIR is the folder holding node_modules/jocly (bench/jocly.py installs the npm
// package there at run time; it is never part of fairypost). One JSON object a line in,
// one a line out:
//
//   {"cmd": "new", "game": "giga-chessII"} -> {"ok": true, "pieces": [...], "moves": [...], "turn": 1}
//   {"cmd": "play", "move": {"f": "h2", "t": "j2", "pr": null}}
//                                           -> {"ok": true, "finished": false, "winner": 0, "moves": [...]}
//                                              or {"error": "..."} (nothing applied)
//   {"cmd": "think", "seconds": 1.0}        -> {"ok": true, "move": {...}, "ms": 1013}
//   {"cmd": "quit"}
//
// A move is {"f": square, "t": square, "pr": promoted-to type name or null, "str": Jocly's
// notation}; squares are named a1..n14 (file letter, rank number), as Jocly and fairypost
// both name them. Pieces are {"sq", "type" (Jocly's type name), "side" (1 White, -1 Black)}.
// The AI is Jocly's UCT with the options of the game's own levels (they differ only in
// their budgets) and maxDuration set to the seconds asked: equal time per move.
"use strict";

const path = require("path");
const readline = require("readline");

const out = process.stdout.write.bind(process.stdout);
// Jocly may log; the protocol owns stdout
console.log = console.info = console.warn = console.debug = (...a) => process.stderr.write(a.join(" ") + "\n");

const Jocly = require(path.join(process.argv[2] || ".", "node_modules", "jocly"));

let match = null;
let levelTemplate = null;

function squareName(game, pos) {
    return game.cbVar.geometry.PosName(pos);
}

function typeName(game, t) {
    return t === undefined || t === null ? null : game.cbVar.pieceTypes[t].name;
}

function describe(game, m) {
    return {f: squareName(game, m.f), t: squareName(game, m.t), pr: typeName(game, m.pr)};
}

async function possibleMoves() {
    const game = match.game;
    const moves = await match.getPossibleMoves();
    const list = [];
    for (const m of moves) {
        const d = describe(game, m);
        d.str = await match.getMoveString(m);
        list.push(d);
    }
    return {raw: moves, list};
}

function pieces() {
    const game = match.game;
    return game.mBoard.pieces.filter(p => p.p >= 0).map(p => ({
        sq: squareName(game, p.p), type: typeName(game, p.t), side: p.s,
    }));
}

const commands = {
    async new(req) {
        if (match) await match.destroy();
        match = await Jocly.createMatch(req.game || "giga-chessII");
        const config = await match.getConfig();
        levelTemplate = config.model.levels.find(l => l.isDefault) || config.model.levels[0];
        return {ok: true, pieces: pieces(), moves: (await possibleMoves()).list, turn: match.game.mWho};
    },
    async play(req) {
        const {raw, list} = await possibleMoves();
        const want = req.move;
        const i = list.findIndex(m => m.f === want.f && m.t === want.t && (m.pr || null) === (want.pr || null));
        if (i < 0) return {error: `Jocly has no move ${want.f}-${want.t}${want.pr ? "=" + want.pr : ""} here`};
        const res = await match.applyMove(raw[i]);
        const finished = !!res.finished;
        return {ok: true, played: list[i], finished, winner: res.winner || 0,
                moves: finished ? [] : (await possibleMoves()).list, turn: match.game.mWho};
    },
    async think(req) {
        const level = Object.assign({}, levelTemplate, {maxDuration: req.seconds});
        delete level.maxNodes;
        const t0 = Date.now();
        const res = await match.machineSearch({level});
        const ms = Date.now() - t0;
        const d = describe(match.game, res.move);
        d.str = await match.getMoveString(res.move);
        return {ok: true, move: d, ms};
    },
    async quit() {
        process.exit(0);
    },
};

const rl = readline.createInterface({input: process.stdin, terminal: false});
let queue = Promise.resolve();
rl.on("line", line => {
    queue = queue.then(async () => {
        let reply;
        try {
            const req = JSON.parse(line);
            const fn = commands[req.cmd];
            reply = fn ? await fn(req) : {error: `no command ${req.cmd}`};
        } catch (e) {
            reply = {error: String(e && e.stack || e)};
        }
        out(JSON.stringify(reply) + "\n");
    });
});
rl.on("close", () => queue.then(() => process.exit(0)));
