// A tournament's page follows the event: every few seconds it asks for the event's version
// and reloads when it changed (a game ended, a round began). Nothing else runs here.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  let version = body.dataset.version;
  const every = Math.max(1, Number(body.dataset.poll) || 20) * 1000;
  async function look() {
    if (document.hidden) return;  // a hidden tab looks again when shown
    try {
      const r = await fetch(base + "/version.json", { cache: "no-store" });
      if (r.status === 404) { document.getElementById("live").textContent = body.dataset.gone; return; }
      if (!r.ok) return;
      const now = (await r.json()).version;
      if (now !== version) { version = now; location.reload(); }
    } catch (e) { /* offline for a moment: the next look tries again */ }
  }
  setInterval(look, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) look(); });
})();
