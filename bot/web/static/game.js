// The game page: steps through the game, follows it live, and an analysis side line.
// Plain script, no build step; every picture comes from the server's renderer.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const base = data.base;
  let game = data.state;      // the real game (state.json)
  let ply = game.ply;         // the game's ply shown
  let line = [];              // the side line: LANs played from `ply`
  let flip = false;
  let layout = null;          // square -> pixel box of the picture shown
  let selected = null;        // {square, targets} of the clicked piece
  let pendingDrop = null;     // a piece letter from the hand buttons
  let info = null;            // moves.json of the shown position
  const $ = (id) => document.getElementById(id);

  function query(extra) {
    const q = new URLSearchParams({ ply: String(ply), flip: flip ? "1" : "0" });
    if (line.length) q.set("line", line.join(" "));
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    return q.toString();
  }
  async function getJSON(path, extra) {
    const r = await fetch(`${base}/${path}?${query(extra)}`);
    if (!r.ok) throw new Error(await r.text());
    return r.json();
  }

  async function show() {
    const sel = selected ? { sel: selected.square } : {};
    $("board").src = `${base}/board.png?${query(sel)}`;
    layout = await getJSON("layout.json");
    info = await getJSON("moves.json");
    drawMoves(); drawLine(); drawDrops();
    $("eval").textContent = "";
  }

  function drawMoves() {
    const ol = $("moves");
    ol.replaceChildren(...game.moves.map((m) => {
      const li = document.createElement("li");
      li.textContent = m.san; li.dataset.ply = m.ply;
      if (m.ply % 2) li.dataset.n = (m.ply + 1) / 2;   // White's moves carry their number
      if (m.ply === ply) li.className = "current";
      li.onclick = () => go(m.ply);
      return li;
    }));
    $("status").textContent = game.statusText;
  }
  function drawLine() {
    const ol = $("line");
    ol.replaceChildren(...info.line.map((san, i) => {
      const li = document.createElement("li");
      li.textContent = san;
      if (i === line.length - 1) li.className = "current";
      li.onclick = () => { line = line.slice(0, i + 1); clearSel(); show(); };
      return li;
    }));
  }
  function drawDrops() {
    const box = $("drops");
    const letters = [...new Set(info.drops.map((d) => d.piece))];
    box.replaceChildren(...letters.map((p) => {
      const b = document.createElement("button");
      b.textContent = `drop ${p}`; b.dataset.piece = p;
      if (pendingDrop === p) b.style.fontWeight = "bold";
      b.onclick = () => { pendingDrop = p; selected = null; drawDrops(); };
      return b;
    }));
  }
  async function evaluate() {   // the computer's view of the shown position (about a second)
    const out = $("eval");
    out.textContent = "thinking…";
    const shown = query();
    const got = await getJSON("eval.json");
    if (shown !== query()) return;   // the viewer moved on meanwhile
    out.textContent = got.over ? got.text : `${got.text}, depth ${got.depth}: ${got.pv.join(" ")}`;
  }
  function clearSel() { selected = null; pendingDrop = null; $("choices").hidden = true; }

  function go(n) {
    ply = Math.max(0, Math.min(game.ply, n)); line = []; clearSel(); show();
  }

  function squareAt(ev) {
    const img = $("board"); const rect = img.getBoundingClientRect();
    const x = (ev.clientX - rect.left) * layout.width / rect.width;
    const y = (ev.clientY - rect.top) * layout.height / rect.height;
    for (const [name, [x0, y0, x1, y1]] of Object.entries(layout.squares)) {
      if (x >= x0 && x < x1 && y >= y0 && y < y1) return name;
    }
    return null;
  }

  function play(lan) { line.push(lan); clearSel(); show(); }

  function choose(moves) {
    if (moves.length === 1) return play(moves[0].lan);
    const box = $("choices");   // several moves to one square (a new facing, a promotion): the player picks
    box.replaceChildren(...moves.map((m) => {
      const b = document.createElement("button");
      b.textContent = m.san; b.dataset.lan = m.lan;
      b.onclick = () => play(m.lan);
      return b;
    }));
    box.hidden = false;
  }

  async function click(ev) {
    const sq = squareAt(ev);
    if (!sq) return;
    if (pendingDrop) {
      const ms = info.drops.filter((d) => d.piece === pendingDrop && d.to === sq);
      pendingDrop = null;
      if (ms.length) return choose(ms);
      return drawDrops();
    }
    if (selected && selected.targets[sq]) return choose(selected.targets[sq]);
    const got = await getJSON("moves.json", { square: sq });
    $("choices").hidden = true;
    selected = Object.keys(got.targets).length ? got : null;
    $("board").src = `${base}/board.png?${query(selected ? { sel: sq } : {})}`;
  }

  $("board").addEventListener("click", click);
  $("first").onclick = () => go(0);
  $("prev").onclick = () => (line.length ? (line.pop(), clearSel(), show()) : go(ply - 1));
  $("next").onclick = () => go(ply + 1);
  $("last").onclick = () => go(game.ply);
  $("flip").onclick = () => { flip = !flip; show(); };
  $("takeback").onclick = () => { line.pop(); clearSel(); show(); };
  $("evaluate").onclick = evaluate;
  $("clear").onclick = () => { line = []; clearSel(); show(); };
  document.addEventListener("keydown", (e) => {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", f: "flip" };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  });

  // live: a new move appears without a reload; a viewer at the end follows it
  if (window.EventSource) {
    const es = new EventSource(`${base}/events`);
    es.addEventListener("update", (e) => {
      const atEnd = ply === game.ply && !line.length;
      game = JSON.parse(e.data);
      if (atEnd) go(game.ply); else drawMoves();
    });
  }
  show();
})();
