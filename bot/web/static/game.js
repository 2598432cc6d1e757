// The game page: steps through the game, follows it live, and for a player's own link,
// playing: a click (or a drag) from a piece to its target, a typed move, or a piece from the
// hand. Trying moves that are not the game's happens in a separate mode, Analysis, with its
// banner over the board and a button back to the game. Plain script, no build step. The
// board is put together here: the game's empty board and its sprite sheet (drawn by the
// server's renderer, downloaded once, kept), the figures and marks placed in an SVG over
// it from each position's board.json (a few KB); a button over each square (named by the
// square, then its piece) takes the clicks, the taps and the keyboard (arrow keys move
// between squares, Enter or Space picks).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const base = data.base;
  const role = data.role;     // "w" or "b": this link plays that side; null: it watches
  let game = data.state;      // the real game (state.json, then the live updates)
  let ply = game.ply;         // the game's ply shown
  let line = [];              // the side line: LANs played from `ply`
  let analysis = false;       // trying moves that are not the game's (the banner says so)
  let flip = role === "b";
  let pos = null;             // board.json of the shown position
  let faceAt = null;          // the empty board's address
  let selected = null;        // moves.json of the clicked piece
  let placing = null;         // {cands, picked}: a placement being picked square by square
  let pendingDrop = null;     // a piece letter from the hand
  let asked = 0;              // the newest position asked for (older answers are dropped)
  let clicks = 0;             // the newest click that asked for a square's moves
  let closed = false;         // the link stopped working
  let focusSq = null;         // the square the board's keyboard focus is on (kept over redraws)
  const $ = (id) => document.getElementById(id);
  // the page's words in its language (page.py's SCRIPT_WORDS), each {value} filled here
  const words = data.words || {};
  const lang = document.documentElement.lang || "en";
  const say = (key, values) => (words[key] || key).replace(/\{(\w+)\}/g,
    (all, name) => (values && name in values ? String(values[name]) : all));
  const withLang = (url) => `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;

  function query(extra) {
    const q = new URLSearchParams({ ply: String(ply), flip: flip ? "1" : "0", lang });
    if (line.length) q.set("line", line.join(" "));
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    return q.toString();
  }
  async function getJSON(path, extra) {
    const r = await fetch(`${base}/${path}?${query(extra)}`);
    if (!r.ok) { const e = new Error(await r.text()); e.status = r.status; throw e; }
    return r.json();
  }
  async function post(path, body) {
    const r = await fetch(withLang(`${base}/${path}`), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    let got = null;
    try { got = await r.json(); } catch (e) { got = { error: say("noAnswer") }; }
    if (!r.ok && !got.error) got.error = say("refused", { status: r.status });
    return got;
  }
  function note(text) { $("board-note").textContent = text || ""; }

  // --- showing ------------------------------------------------------------------------
  async function show() {
    const mine = ++asked;
    let got;
    try {
      got = await getJSON("board.json");
    } catch (e) {
      if (mine === asked) return recover(e);
      return;
    }
    if (mine !== asked) return;   // the viewer moved on meanwhile
    pos = got;
    if (pos.board.face !== faceAt) { $("board").src = pos.board.face; faceAt = pos.board.face; fitSquares(); }
    $("eval").textContent = "";
    drawAll();
  }
  // a square a finger can take: a large board on a phone is not shrunk below MIN_SQUARE
  // px a square; it scrolls sideways instead (then a swipe on it scrolls, taps still play)
  const MIN_SQUARE = 40;
  function fitSquares() {
    const img = $("board"), wrap = $("board-wrap");
    const least = pos.width * MIN_SQUARE / pos.board.style.square;
    const room = wrap.clientWidth;
    const small = room < least && window.matchMedia("(pointer: coarse), (max-width: 700px)").matches;
    img.style.minWidth = small ? `${least}px` : "";
    img.style.maxHeight = small ? "none" : "";
    $("board-box").style.maxWidth = small ? "none" : "";
    wrap.classList.toggle("scrolls", small);
  }
  window.addEventListener("resize", () => { if (pos) fitSquares(); });
  function drawAll() { drawSquares(); drawHand(); drawMoves(); drawLine(); drawDrops(); drawMode(); drawPlay(); }
  // a request the game no longer fits (a takeback meanwhile): read the game and go on
  async function recover(e) {
    if (closed) return;
    if (e.status === 429) { setTimeout(show, 2000); return; }
    try { reconcile(await (await fetch(withLang(`${base}/state.json`))).json(), true); } catch (e2) { /* offline */ }
  }
  // the game changed (a live update, a move's answer): the page follows it. A side line
  // (Analysis) over the old position is never left looking like the game: the player whose
  // move it now is goes back to the game, told why; a watcher's analysis stays, its banner
  // saying the game went on.
  function reconcile(now, force) {
    const old = game; game = now;
    if (!force && now.version === old.version) return;   // already shown (a move's own answer)
    const samePrefix = ply <= game.ply &&
      old.moves.slice(0, ply).every((m, i) => game.moves[i] && game.moves[i].lan === m.lan);
    const news = game.moves.slice(old.ply).map((m) => m.san).join(" ");
    const atEnd = ply === old.ply && !analysis;
    if (analysis && samePrefix && !force && !(role && game.turn === role && game.status === "active")) {
      $("analysis-news").textContent = news ? say("wentOnBanner", { moves: news }) : say("changedBanner");
      drawMoves(); drawPlay(); return;
    }
    if (analysis) {
      note(news && samePrefix ? say("wentOnNote", { moves: news }) : say("changedNote"));
    }
    if (atEnd || analysis || !samePrefix || force) {
      ply = game.ply; line = []; analysis = false;
      clearSel();
      show();
    } else { drawMoves(); drawPlay(); }
  }

  // the buttons over the squares: made once per board, then only their marks and names
  // change, so the focused one keeps the focus through clicks and live updates
  function drawSquares() {
    const box = $("squares");
    const names = Object.keys(pos.squares);
    const marks = new Map();
    const mark = (sq, cls) => marks.set(sq, (marks.get(sq) || []).concat(cls));
    if (selected) {
      for (const sq of selected.piece) mark(sq, "sel");
      for (const sq of Object.keys(selected.targets)) mark(sq, "target");
    }
    if (placing) {
      for (const sq of placing.picked) mark(sq, "sel");
      for (const c of placing.cands) for (const sq of c.squares) if (!placing.picked.includes(sq)) mark(sq, "place");
    } else if (pendingDrop) {
      for (const d of pos.placements) if (d.drop && d.piece === pendingDrop) mark(d.squares[0], "place");
    } else if (game.inSetup && !pos.over && pos.placements.length && !line.length && ply === game.ply) {
      // the set-up: where a piece may go is shown before any click
      for (const d of pos.placements) for (const sq of d.squares) if (!(marks.get(sq) || []).includes("place")) mark(sq, "place");
    }
    drawFigures(marks);
    if (box.children.length !== names.length || names.some((sq, i) => box.children[i].dataset.square !== sq)) {
      box.replaceChildren(...names.map((sq) => {
        const b = document.createElement("button");
        b.type = "button"; b.dataset.square = sq; b.tabIndex = -1;
        b.onclick = () => { focusSq = sq; onSquare(sq); };
        b.onfocus = () => { focusSq = sq; for (const o of box.children) o.tabIndex = o === b ? 0 : -1; };
        return b;
      }));
    }
    if (!focusSq || !pos.squares[focusSq]) focusSq = names.find((sq) => pos.pieces[sq]) || names[0];
    for (const b of box.children) {
      const sq = b.dataset.square;
      const [x0, y0, x1, y1] = pos.squares[sq];
      const what = pos.pieces[sq] || say("empty");
      const cls = marks.get(sq) || [];
      b.setAttribute("aria-label", say(cls.includes("target") || cls.includes("place") ? "squareTarget" :
        cls.includes("sel") ? "squareChosen" : "square", { square: sq, what }));
      b.className = cls.join(" ");
      b.tabIndex = sq === focusSq ? 0 : -1;
      b.style.left = `${100 * x0 / pos.width}%`; b.style.top = `${100 * y0 / pos.height}%`;
      b.style.width = `${100 * (x1 - x0) / pos.width}%`; b.style.height = `${100 * (y1 - y0) / pos.height}%`;
    }
  }
  // arrow keys: the focus to the next square that way (by where the squares are drawn)
  function stepFocus(from, key) {
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    const [x0, y0, x1, y1] = pos.squares[from];
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, half = (x1 - x0) / 2;
    let best = null, bestD = Infinity;
    for (const [sq, [a0, b0, a1, b1]] of Object.entries(pos.squares)) {
      const ox = (a0 + a1) / 2 - cx, oy = (b0 + b1) / 2 - cy;
      const along = ox * dx + oy * dy, across = Math.abs(dx ? oy : ox);
      if (along > half && across < half && along < bestD) { best = sq; bestD = along; }
    }
    return best;
  }
  $("squares").addEventListener("keydown", (e) => {
    const b = e.target.closest("button[data-square]");
    if (!b || !pos || !e.key.startsWith("Arrow") || e.ctrlKey || e.altKey || e.metaKey) return;
    e.preventDefault(); e.stopPropagation();
    const to = stepFocus(b.dataset.square, e.key);
    if (to) { focusSq = to; const nb = $("squares").querySelector(`button[data-square="${to}"]`); nb.tabIndex = 0; b.tabIndex = -1; nb.focus(); }
  });

  // the pieces in hand: a button over each figure of the side to move that can be dropped
  function drawHand() {
    const droppable = new Set(pos.placements.filter((d) => d.drop).map((d) => d.piece));
    $("hand").replaceChildren(...pos.board.inHand.filter((h) => droppable.has(h.piece)).map((h) => {
      const [x, y, w, hh] = h.box;
      const b = document.createElement("button");
      b.type = "button"; b.dataset.piece = h.piece;
      b.setAttribute("aria-label", say("dropFromHand", { piece: h.name, count: h.count }));
      b.setAttribute("aria-pressed", String(pendingDrop === h.piece));
      b.style.left = `${100 * x / pos.width}%`; b.style.top = `${100 * y / pos.height}%`;
      b.style.width = `${100 * w / pos.width}%`; b.style.height = `${100 * hh / pos.height}%`;
      b.onclick = () => pickDrop(h.piece);
      return b;
    }));
  }

  // --- the picture: the figures and marks over the empty board (render's look: its
  // --- the picture: the figures and marks over the empty board (render's look: its
  // colours and sizes come in board.style, in px of the picture) -------------------------
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, parent) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (parent) parent.append(el);
    return el;
  }
  function layer() {
    let el = $("figures");
    if (!el) {
      el = svg("svg", { id: "figures", "aria-hidden": "true" });
      $("board-box").insertBefore(el, $("squares"));
    }
    return el;
  }
  function drawFigures(marks) {
    const b = pos.board, st = b.style, s = st.square;
    const root = layer();
    root.setAttribute("viewBox", `0 0 ${pos.width} ${pos.height}`);
    const defs = svg("defs", {});
    const glow = svg("radialGradient", { id: "check-glow" }, defs);
    svg("stop", { offset: "0", "stop-color": st.check, "stop-opacity": st.checkPeak }, glow);
    svg("stop", { offset: "1", "stop-color": st.check, "stop-opacity": "0" }, glow);
    const under = svg("g", {}), figures = svg("g", {}), over = svg("g", {});
    const box = (sq) => pos.squares[sq];
    const wash = (sq, fill) => { const [x, y] = box(sq); svg("rect", { x, y, width: s, height: s, fill }, under); };
    const frame = (sq, colour, w, inset) => {
      const [x, y] = box(sq);
      svg("rect", { x: x + inset + w / 2, y: y + inset + w / 2, width: s - 2 * inset - w,
                    height: s - 2 * inset - w, fill: "none", stroke: colour, "stroke-width": w }, over);
    };
    const corners = (sq, colour, leg, w) => {   // an L at each corner (a checker)
      const [x0, y0, x1, y1] = box(sq);
      for (const [cx, sx] of [[x0, 1], [x1, -1]]) for (const [cy, sy] of [[y0, 1], [y1, -1]]) {
        svg("path", { d: `M${cx} ${cy}h${sx * leg}v${sy * w}h${-sx * (leg - w)}v${sy * (leg - w)}h${-sx * w}z`,
                      fill: colour }, over);
      }
    };
    const triangles = (sq, colour, leg) => {    // a capture: the piece stays visible
      const [x0, y0, x1, y1] = box(sq);
      for (const [cx, sx] of [[x0, 1], [x1, -1]]) for (const [cy, sy] of [[y0, 1], [y1, -1]]) {
        svg("path", { d: `M${cx} ${cy}h${sx * leg}L${cx} ${cy + sy * leg}z`, fill: colour }, over);
      }
    };
    const dot = (sq, fill) => {
      const [x0, y0, x1, y1] = box(sq);
      svg("circle", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, r: st.dotRadius, fill }, over);
    };
    const sprite = ([sx, sy, sw, sh, x, y, w, h]) => {
      const view = svg("svg", { x, y, width: w, height: h, viewBox: `${sx} ${sy} ${sw} ${sh}`,
                                preserveAspectRatio: "none" }, figures);
      svg("image", { href: b.sheet, width: b.sheetSize[0], height: b.sheetSize[1] }, view);
    };
    const marked = (cls) => [...marks].filter(([, c]) => c.includes(cls)).map(([sq]) => sq);
    for (const sq of b.last) wash(sq, st.last);
    for (const sq of b.captured) wash(sq, st.captured);
    for (const sq of marked("sel")) wash(sq, st.selected);
    for (const sq of b.check) {
      const [x0, y0, x1, y1] = box(sq);
      svg("circle", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, r: st.checkReach, fill: "url(#check-glow)" }, under);
    }
    b.pieces.forEach(sprite);
    b.hands.forEach(sprite);
    for (const [x, y, text] of b.counts) {
      svg("text", { x, y, fill: st.handText, "font-size": st.handFont, "dominant-baseline": "central" },
          figures).textContent = text;
    }
    for (const [x, y] of b.empty) {
      const t = svg("text", { x, y, fill: st.muted, "font-size": st.handFont, "text-anchor": "middle" }, figures);
      svg("tspan", { x, dy: "-0.2em" }, t).textContent = say("noPieces");
      svg("tspan", { x, dy: "1.2em" }, t).textContent = say("inHand");
    }
    for (const sq of b.last.concat(b.captured)) frame(sq, st.lastEdge, st.lastEdgeWidth, st.lastInset);
    for (const sq of b.check) frame(sq, st.checkEdge, st.edgeWidth, 0);
    for (const sq of b.checkers) corners(sq, st.checkEdge, st.checkerCorner, st.edgeWidth);
    for (const sq of marked("target")) {
      if (pos.pieces[sq]) triangles(sq, st.destination, st.captureCorner); else dot(sq, st.destination);
    }
    for (const sq of marked("place")) dot(sq, st.placement);
    for (const pts of b.arrows) svg("polygon", { points: pts.join(" "), fill: st.arrow }, over);
    root.replaceChildren(defs, under, figures, over);
  }


  // a figure of the sprite sheet as a small picture (a choice's, a hand's)
  function picture(fig, size) {
    const s = svg("svg", { width: size, height: size, viewBox: fig.slice(0, 4).join(" "), "aria-hidden": "true" });
    svg("image", { href: pos.board.sheet, width: pos.board.sheetSize[0], height: pos.board.sheetSize[1] }, s);
    return s;
  }

  function drawMoves() {
    const ol = $("moves");
    ol.replaceChildren(...game.moves.map((m) => {
      const li = document.createElement("li");
      li.dataset.ply = m.ply;
      if (m.ply % 2) li.dataset.n = `${(m.ply + 1) / 2}.`;   // White's moves carry their number
      const b = document.createElement("button");
      b.type = "button"; b.textContent = m.san;
      if (m.ply === ply) { li.className = "current"; b.setAttribute("aria-current", "step"); }
      b.onclick = () => go(m.ply);
      li.append(b);
      return li;
    }));
    $("status").textContent = game.statusText;
    $("banner").textContent = game.banner || "";
    $("banner").hidden = !game.banner;
  }
  function drawLine() {
    const ol = $("line");
    ol.replaceChildren(...pos.line.map((san, i) => {
      const li = document.createElement("li");
      const at = ply + i + 1;                       // the real ply of this move
      if (at % 2) li.dataset.n = `${(at + 1) / 2}.`;
      else if (i === 0) li.dataset.n = `${at / 2}…`;
      if (i === line.length - 1) li.className = "current";
      const b = document.createElement("button");
      b.type = "button"; b.textContent = san;
      b.onclick = () => { line = line.slice(0, i + 1); clearSel(); show(); };
      li.append(b);
      return li;
    }));
  }
  function drawDrops() {
    const box = $("drops");
    const letters = [...new Set(pos.placements.filter((d) => d.drop).map((d) => d.piece))];
    box.replaceChildren(...letters.map((p) => {
      const b = document.createElement("button");
      const about = pos.board.placing[p] || { name: p, figures: [] };
      b.type = "button"; b.dataset.piece = p;
      for (const f of about.figures) b.append(picture(f, 28));
      b.append(say("drop", { piece: about.name }));
      b.setAttribute("aria-pressed", String(pendingDrop === p));
      b.onclick = () => pickDrop(p);
      return b;
    }));
  }
  function pickDrop(p) {
    const again = pendingDrop === p;
    clearSel(); pendingDrop = again ? null : p;
    drawDrops(); drawHand(); drawSquares();
  }
  // the mode: the game, or Analysis (a banner over the board, a button back)
  function drawMode() {
    $("analysis-banner").hidden = !analysis;
    if (!analysis) $("analysis-news").textContent = "";
    $("analyse").hidden = analysis;
    const setup = game.inSetup && game.status === "active";
    $("setup-note").hidden = !setup;
    if (setup) {
      $("setup-note").textContent = say("setup") +
        (role ? " " + say(game.turn === role ? "setupYours" : "setupTheirs") : "");
    }
  }

  // --- playing ------------------------------------------------------------------------
  const live = () => role && !analysis && ply === game.ply && !line.length && game.status === "active";
  const myTurn = () => live() && game.turn === role;

  function drawPlay() {
    if (!role || !$("play")) return;
    const active = game.status === "active";
    $("turn-note").textContent = say(!active ? "over" : analysis ? "analysisNote" :
      game.turn === role ? "yourMove" : "theirMove");
    $("actions").hidden = !active;
    $("move-form").hidden = !active;
    const offers = [];
    const offer = (text, yes, no) => {
      const p = document.createElement("p"); p.textContent = text;
      for (const [label, action] of [[say("accept"), yes], [say("decline"), no]]) {
        const b = document.createElement("button"); b.type = "button";
        b.textContent = label; b.dataset.action = action; b.onclick = () => act(action);
        p.append(" ", b);
      }
      offers.push(p);
    };
    if (active && game.drawOffer && game.drawOffer !== role) offer(say("drawOffered"), "accept_draw", "decline_draw");
    if (active && game.drawOffer === role) offers.push(Object.assign(document.createElement("p"), { textContent: say("youOfferedDraw") }));
    if (active && game.takebackBy && game.takebackBy !== role) offer(say("takebackAsked"), "accept_takeback", "decline_takeback");
    if (active && game.takebackBy === role) offers.push(Object.assign(document.createElement("p"), { textContent: say("youAskedTakeback") }));
    $("offers").replaceChildren(...offers);
    drawPremoves();
  }
  function said(got) {
    $("play-error").textContent = got.error || "";
    if (!got.state) return recover({});
    // the live update may have brought (and shown) this state already: not fetched twice
    const shown = got.state.version === game.version && ply === game.ply && !line.length;
    game = got.state; ply = game.ply; line = []; analysis = false; clearSel();
    if (shown) { if (pos) { drawSquares(); drawMode(); drawPlay(); } } else show();
  }
  async function sendMove(text) { note(""); said(await post("move", { text, ply: game.ply })); }
  async function act(action) {
    if (action === "resign" && !window.confirm(say("resignConfirm"))) return;
    said(await post("action", { action, ply: game.ply }));
  }

  // a move chosen on the board: the game's, on the player's turn at its last move; else
  // a move of Analysis (entered here if not yet: the banner says so)
  function play(lan) {
    if (myTurn()) { clearSel(); drawSquares(); return sendMove(lan); }
    analysis = true;
    line.push(lan); clearSel(); show();
  }
  // several moves to one square: the player picks from pictures with their names
  function choose(moves) {
    if (moves.length === 1) return play(moves[0].lan);
    const box = $("choices");
    const facing = moves.every((m) => (m.name || "").includes(" facing "));
    const promotion = moves.some((m) => m.lan.includes("="));
    const title = document.createElement("p");
    title.className = "choose";
    title.textContent = say(facing ? "chooseFacing" : promotion ? "choosePromotion" : "choosePiece");
    box.replaceChildren(title, ...moves.map((m) => {
      const b = document.createElement("button");
      const about = m.name ? m : (pos.board.placing[m.piece] || {});
      const figures = about.figure ? [about.figure] : about.figures || [];
      b.type = "button"; b.dataset.lan = m.lan; b.title = m.san;
      for (const f of figures) b.append(picture(f, 48));
      const name = document.createElement("span");
      name.textContent = about.name || m.san;
      b.append(name);
      b.setAttribute("aria-label", `${about.name || m.san} (${m.san})`);
      b.onclick = () => play(m.lan);
      return b;
    }));
    box.hidden = false;
    box.querySelector("button").focus();
  }

  async function onSquare(sq) {
    if (closed || !pos) return;
    $("choices").hidden = true;
    if (placing) {
      const picked = placing.picked.concat(sq);
      const cands = placing.cands.filter((c) => picked.every((s) => c.squares.includes(s)));
      if (cands.length && !placing.picked.includes(sq)) {
        const whole = cands.filter((c) => c.squares.length === picked.length);
        if (whole.length === cands.length) return choose(whole);
        placing = { cands, picked }; return drawSquares();
      }
      placing = null;
    }
    if (pendingDrop) {
      const ms = pos.placements.filter((d) => d.drop && d.piece === pendingDrop && d.squares[0] === sq);
      pendingDrop = null; drawDrops(); drawHand();
      if (ms.length) return choose(ms);
      return drawSquares();
    }
    if (selected && selected.targets[sq]) return choose(selected.targets[sq]);
    note("");
    // an empty square moves nothing: what may be placed there is known here, at once
    const cands = pos.placements.filter((d) => d.squares.includes(sq));
    if (!pos.pieces[sq] && cands.length) { selected = null; return place(sq, cands); }
    const mine = asked, click = ++clicks;
    let got;
    try { got = await getJSON("moves.json", { square: sq }); } catch (e) { return recover(e); }
    if (mine !== asked || click !== clicks) return;   // another click, or position, came since
    selected = Object.keys(got.targets).length ? got : null;
    if (!selected) {
      if (cands.length) return place(sq, cands);
      if (pos.pieces[sq] && !pos.over) {
        // a piece that cannot move (pinned to its king, blocked, or not the side to move's)
        note(say("noLegalMove", { piece: pos.pieces[sq], square: sq }));
      }
    }
    drawSquares();
  }
  // a placement (a drop, a set-up action) begun on ``sq``: picked at once, or square by square
  function place(sq, cands) {
    if (cands.every((c) => c.squares.length === 1)) return choose(cands);
    placing = { cands, picked: [sq] };
    note(say("otherSquare"));
    drawSquares();
  }
  function clearSel() { selected = null; placing = null; pendingDrop = null; $("choices").hidden = true; }

  // drag and drop: a piece (or a piece in hand) pressed, then let go over its target
  let drag = null;
  for (const id of ["squares", "hand"]) {
    $(id).addEventListener("pointerdown", (e) => {
      const b = e.target.closest("button");
      if (b && e.button === 0) drag = b;
    });
  }
  document.addEventListener("pointerup", async (e) => {
    const from = drag; drag = null;
    if (!from || !pos || closed) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest("#squares button[data-square]");
    if (!to || to === from) return;    // a click: the button's own handler takes it
    if (from.dataset.piece) {
      if (pendingDrop !== from.dataset.piece) pickDrop(from.dataset.piece);
    } else if (!selected || !selected.piece.includes(from.dataset.square)) {
      clearSel(); await onSquare(from.dataset.square);
    }
    if (selected || pendingDrop) { focusSq = to.dataset.square; onSquare(to.dataset.square); }
  });

  // --- conditional moves (premoves): while the opponent thinks ------------------------
  let premoves = null;   // {text, lines} as the server has them
  async function loadPremoves() {
    if (!role || !$("premoves")) return;
    try { premoves = await getJSON("premoves.json"); } catch (e) { premoves = null; }
    drawPremoves();
  }
  function drawPremoves() {
    const box = $("premoves");
    if (!box) return;
    const waiting = game.status === "active" && game.turn !== role && !game.inSetup;
    box.hidden = !waiting;
    $("premove-now").textContent = premoves && premoves.text ? say("premovesSet", { moves: premoves.text }) : say("premovesNone");
    $("premove-cancel").hidden = !(premoves && premoves.text);
    $("premove-from-line").hidden = !(analysis && ply === game.ply && line.length >= 2);
  }
  async function setPremoves(text) {
    const got = await post("premoves", { text, ply: game.ply });
    $("premove-error").textContent = got.error || "";
    if (!got.error) { premoves = got; drawPremoves(); }
  }

  async function evaluate() {   // the computer's view of the shown position (about a second)
    const out = $("eval");
    out.textContent = say("thinking");
    const shown = query();
    let got;
    try { got = await getJSON("eval.json"); } catch (e) {
      if (shown === query()) out.textContent = e.status === 400 ? "" : e.message;
      if (e.status === 403) return;   // not in this game now (fair play): the refusal stays shown
      return recover(e);
    }
    if (shown !== query()) return;   // the viewer moved on meanwhile
    out.textContent = got.over ? got.text : say("evaluation", { text: got.text, depth: got.depth, line: got.pv.join(" ") });
  }

  function go(n) { ply = Math.max(0, Math.min(game.ply, n)); line = []; clearSel(); show(); }
  function backToGame() { analysis = false; note(""); go(game.ply); }

  $("first").onclick = () => go(0);
  $("prev").onclick = () => (line.length ? (line.pop(), clearSel(), show()) : go(ply - 1));
  $("next").onclick = () => go(ply + 1);
  $("last").onclick = () => go(game.ply);
  $("flip").onclick = () => { flip = !flip; show(); };
  $("takeback").onclick = () => { line.pop(); clearSel(); show(); };
  $("evaluate").onclick = evaluate;
  $("clear").onclick = () => { line = []; clearSel(); show(); };
  $("analyse").onclick = () => { analysis = true; clearSel(); drawAll(); };
  $("banner-back").onclick = backToGame;
  if (role && $("play")) {
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("move-text").value.trim();
      if (text) { $("move-text").value = ""; sendMove(text); }
    });
    for (const b of $("actions").querySelectorAll("button")) b.onclick = () => act(b.dataset.action);
    $("premove-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("premove-text").value.trim();
      if (text) { $("premove-text").value = ""; setPremoves(text); }
    });
    $("premove-cancel").onclick = () => setPremoves("");
    // the side line from the game's position: the opponent's move, my answer, ... (pairs)
    $("premove-from-line").onclick = () => setPremoves(pos.line.slice(0, pos.line.length - pos.line.length % 2).join(" "));
  }
  document.addEventListener("keydown", (e) => {
    // shortcuts with a modifier (Ctrl+F, Alt+Left) are the browser's; typing is the text box's
    if (e.ctrlKey || e.altKey || e.metaKey || e.target.closest("input, textarea")) return;
    if (e.key === "Escape") { clearSel(); note(""); if (pos) drawSquares(); return; }
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", f: "flip" };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  });

  // live: a change of the game in any process appears within a second; a viewer at the
  // end follows it; a takeback under a side line puts the page on the game's last move.
  // A stream refused (the server has too many pages open: 503) is not retried by the
  // browser: the page reads the game itself and asks again 20-40 s later
  function follow() {
    if (!window.EventSource || closed) return;
    const es = new EventSource(withLang(`${base}/events`));
    es.addEventListener("update", (e) => { reconcile(JSON.parse(e.data), false); loadPremoves(); });
    es.addEventListener("closed", () => {
      es.close(); closed = true;
      $("status").textContent = say("linkClosed");
      $("squares").replaceChildren(); $("hand").replaceChildren();
    });
    es.onerror = () => {
      if (closed || es.readyState !== EventSource.CLOSED) return;   // the browser tries again itself
      setTimeout(async () => {
        try { reconcile(await (await fetch(withLang(`${base}/state.json`))).json(), false); } catch (e) { /* offline */ }
        follow();
      }, 20000 + Math.random() * 20000);
    };
  }
  follow();
  show();
  loadPremoves();
})();
