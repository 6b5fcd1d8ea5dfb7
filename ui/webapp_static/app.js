/* The Mini App's page (issue 21): the table and, for a player, their hand, live.
 *
 * Who we are is Telegram's signed initData (Telegram.WebApp.initData, or the launch
 * parameter tgWebAppData when telegram-web-app.js is absent); every call sends it as
 * "Authorization: tma <initData>" and the server checks it. The state comes from
 * api/state, then from the server-sent events of api/stream (re-synced by version when the
 * page comes back from the background), and from polling when the stream fails. A move is
 * POSTed to api/action with the version shown; a refusal comes back with its reason and the
 * current state. The page never decides a rule: the legal moves are the server's. */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const ARROW = { left: "←", right: "→", up: "↑", down: "↓", gap: "⋯" };
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  const matchParam = query.get("m") || "";
  let state = null, labels = {}, token = null, offset = 0, chosen = [], pendingTile = null;
  let source = null, pollTimer = null, failures = 0, seenSummary = null, busy = false;

  // -- Telegram: theme and haptics ------------------------------------------------------------
  function applyTheme() {
    let params = (tg && tg.themeParams) || null;
    if (!params || !Object.keys(params).length) {
      try { params = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { params = {}; }
    }
    const root = document.documentElement.style;
    for (const [key, value] of Object.entries(params)) {
      root.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
    }
    const scheme = (tg && tg.colorScheme) || (params.bg_color && luminance(params.bg_color) < 0.5
      ? "dark" : "light");
    document.documentElement.dataset.scheme = scheme;
  }
  function luminance(hex) {
    const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) return 1;
    return (0.299 * parseInt(m[1], 16) + 0.587 * parseInt(m[2], 16) + 0.114 * parseInt(m[3], 16)) / 255;
  }
  function haptic(kind) {
    const h = tg && tg.HapticFeedback;
    if (!h) return;
    try {
      if (kind === "move") h.impactOccurred("medium");
      else if (kind === "error") h.notificationOccurred("error");
      else h.selectionChanged();
    } catch (e) { /* an old client without haptics */ }
  }

  // -- the server -------------------------------------------------------------------------------
  function api(path, body) {
    const opts = { headers: { Authorization: "tma " + initData } };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch("api/" + path, opts).then((r) => r.json().then((data) => ({ status: r.status, data })));
  }
  function load() {
    const m = matchParam ? "?m=" + encodeURIComponent(matchParam) : "";
    return api("state" + m).then(({ status, data }) => {
      if (status !== 200) { fatal(data); return; }
      token = data.token;
      show(data.state);
    });
  }
  function fatal(data) {
    $("turn-text").textContent = (data && (data.reason || data.error)) || "error";
    document.body.dataset.error = (data && data.error) || "error";
  }
  function follow() {
    if (source) source.close();
    if (!window.EventSource || failures >= 2) { poll(); return; }
    const since = state ? state.version : -1;
    source = new EventSource("api/stream?token=" + encodeURIComponent(token) + "&since=" + since);
    source.addEventListener("state", (ev) => { failures = 0; online(true); show(JSON.parse(ev.data)); });
    source.onopen = () => online(true);
    source.onerror = () => {
      online(false);
      failures += 1;
      if (failures >= 2) {  // the stream keeps failing (a proxy that buffers it?): poll
        source.close(); source = null; poll();
        return;
      }
      if (source.readyState === EventSource.CLOSED) {  // refused: the token expired
        source = null;
        setTimeout(() => load().then(follow), 1000);
      }
    };
  }
  function poll() {
    clearInterval(pollTimer);
    document.body.dataset.polling = "1";
    pollTimer = setInterval(() => { if (!busy) load(); }, 2000);
  }
  function online(on) { $("live").classList.toggle("off", !on); $("live").title = on ? "" : labels.offline || ""; }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") load().then(() => { if (!pollTimer) follow(); });
    else if (source) { source.close(); source = null; }  // not looking: the chat takes over
  });

  // -- drawing tiles -----------------------------------------------------------------------------
  const PIPS = {
    0: [], 1: [[.5, .5]], 2: [[.25, .25], [.75, .75]], 3: [[.25, .25], [.5, .5], [.75, .75]],
    4: [[.25, .25], [.75, .25], [.25, .75], [.75, .75]],
    5: [[.25, .25], [.75, .25], [.5, .5], [.25, .75], [.75, .75]],
    6: [[.25, .22], [.75, .22], [.25, .5], [.75, .5], [.25, .78], [.75, .78]],
    7: [[.25, .22], [.75, .22], [.25, .5], [.5, .5], [.75, .5], [.25, .78], [.75, .78]],
    8: [[.25, .22], [.5, .22], [.75, .22], [.25, .5], [.75, .5], [.25, .78], [.5, .78], [.75, .78]],
    9: [[.25, .22], [.5, .22], [.75, .22], [.25, .5], [.5, .5], [.75, .5], [.25, .78], [.5, .78], [.75, .78]],
  };
  // the children's set (RULES.md §2.10.4): the server sends its seven pictures
  let faces = null, style = "pips";
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function pips(g, n, x, y, s, rotate) {
    if ((style === "pictures" && faces && n <= 6) || style === "numerals" || n > 9) {
      // a picture of the children's set, or a numeral (the double-9 and double-12 sets)
      if (n === 0 && style !== "pictures") return;
      const t = el("text", { class: style === "pictures" ? "face" : "num", x: x + s / 2,
        y: y + s / 2, "font-size": s * (style === "pictures" ? 0.62 : n > 9 ? 0.6 : 0.8) }, g);
      t.textContent = style === "pictures" && n <= 6 ? faces[n] : String(n);
      return;
    }
    for (const [px, py] of PIPS[n] || []) {
      const [qx, qy] = rotate ? [py, px] : [px, py];
      el("circle", { class: "pip", cx: x + qx * s, cy: y + qy * s, r: s * 0.09 }, g);
    }
  }
  function domino(parent, x0, y0, x1, y1, a, b, vertical, face, cls) {
    const g = el("g", { class: "tile " + (face || "up") + (cls ? " " + cls : "") }, parent);
    const w = x1 - x0, h = y1 - y0, r = Math.min(w, h) * 0.14;
    el("rect", { class: "body", x: x0 + 1, y: y0 + 1, width: w - 2, height: h - 2, rx: r }, g);
    if (face === "down" || face === "ghost") return g;
    if (vertical) {
      el("line", { x1: x0 + w * 0.15, x2: x1 - w * 0.15, y1: y0 + h / 2, y2: y0 + h / 2 }, g);
      pips(g, a, x0, y0, w, false); pips(g, b, x0, y0 + h / 2, w, false);
    } else {
      el("line", { y1: y0 + h * 0.15, y2: y1 - h * 0.15, x1: x0 + w / 2, x2: x0 + w / 2 }, g);
      pips(g, a, x0, y0, h, true); pips(g, b, x0 + w / 2, y0, h, true);
    }
    return g;
  }
  function drawTable(layout) {
    const svg = $("table");
    svg.setAttribute("viewBox", "0 0 " + layout.zone[0] + " " + layout.zone[1]);
    svg.style.aspectRatio = layout.zone[0] + " / " + layout.zone[1];  // the trains are tall
    svg.dataset.kind = layout.kind;
    svg.replaceChildren();
    style = layout.style || "pips";
    faces = layout.legend || null;
    for (const t of layout.tiles) {
      const [x0, y0, x1, y1] = t.box;
      domino(svg, x0, y0, x1, y1, t.a, t.b, t.vertical, t.face,
        (t.last ? "last" : "") + (t.open ? " open" : ""));
    }
    // the trains' owners and markers, the sausage's positions and lines (issue 32)
    for (const l of layout.labels || []) {
      const text = el("text", { class: "label " + l.cls, x: l.x, y: l.y }, svg);
      text.textContent = l.text;
    }
    for (const f of layout.flags || []) {
      const g = el("g", { class: "flag", "data-seat": String(f.seat) }, svg);
      el("line", { x1: f.x, y1: f.y, x2: f.x, y2: f.y + 18 }, g);
      el("path", { d: "M" + f.x + " " + f.y + " l12 4 l-12 4 z" }, g);
    }
    const legend = $("legend");
    legend.hidden = !faces;
    if (faces) {
      legend.replaceChildren(labels.legend + ": " + faces.map((f, n) => f + "=" + n).join("  "));
    }
    for (const m of layout.marks) {
      const [x0, y0, x1, y1] = m.box;
      const g = el("g", { class: "mark", "data-end": m.name }, svg);
      const r = Math.min(x1 - x0, y1 - y0) * 0.42;
      el("circle", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, r }, g);
      const text = el("text", { x: (x0 + x1) / 2, y: (y0 + y1) / 2 }, g);
      text.textContent = m.closed ? "×" : (m.number === null ? "·" : String(m.number));
    }
    svg.dataset.tiles = String(layout.tiles.length);
  }
  function handTile(code, legal, extra) {
    const [a, b] = code.split("-").map(Number);
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "tile" + (legal ? " legal" : "") + (extra || "");
    btn.dataset.tile = code;
    btn.disabled = !legal;
    btn.setAttribute("aria-label", "[" + a + "|" + b + "]");
    const svg = el("svg", { viewBox: "0 0 40 76" });
    domino(svg, 0, 0, 40, 76, a, b, true, "up");
    btn.appendChild(svg);
    btn.addEventListener("click", () => tap(code));
    return btn;
  }

  // -- composing a move (as the private keyboard does: ui/compose.py) ----------------------------
  const key = (p) => [p.tile, p.end || "", !!p.closed, !!p.along, p.to || ""].join("/");
  function matching(picked) {
    if (!state || !state.hand) return [];
    const keys = picked.map(key);
    return state.hand.legal.filter((m) => {
      const own = m.placements.map(key);
      if (keys.length > own.length || !keys.every((k) => own.includes(k))) return false;
      return !(m.first && keys.length && keys[0] !== own[0]);
    });
  }
  function candidates(picked) {
    const keys = picked.map(key), out = new Map();
    for (const m of matching(picked)) {
      for (const p of m.placements) {
        const k = key(p);
        if (!keys.includes(k) && !out.has(k) && matching(picked.concat([p])).length) out.set(k, p);
      }
    }
    return [...out.values()];
  }
  function complete(picked) {
    return matching(picked).find((m) => m.placements.length === picked.length) || null;
  }
  function tap(code) {
    if (busy) return;
    const options = candidates(chosen).filter((p) => p.tile === code);
    if (!options.length) { haptic("error"); return; }
    haptic("select");
    if (options.length === 1) { pick(options[0]); return; }
    pendingTile = code;
    renderHand();
  }
  function pick(p) {
    chosen = chosen.concat([p]);
    pendingTile = null;
    const done = complete(chosen);
    if (done && !candidates(chosen).length) { send(done); return; }
    renderHand();
  }
  function reset() { chosen = []; pendingTile = null; renderHand(); }
  function send(move) {
    busy = true;
    document.body.dataset.busy = "1";
    pendingTile = null;
    renderHand();
    const body = { m: matchParam || state.match_id, version: state.version,
      placements: move.placements };
    api("action", body).then(({ status, data }) => {
      busy = false; chosen = []; pendingTile = null;
      document.body.dataset.busy = "";
      if (status === 200) haptic("move");
      else { haptic("error"); toast(data.reason || data.error); }
      if (data.state) show(data.state);
      renderHand();  // a newer state may have come while the move was on its way
    }).catch(() => {
      busy = false; document.body.dataset.busy = ""; haptic("error"); toast(labels.offline); reset();
    });
  }
  function toast(text) {
    const t = $("toast");
    t.textContent = text || "";
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 3500);
  }

  // -- the page ---------------------------------------------------------------------------------
  function show(next) {
    if (state && next.version < state.version) return;  // never go back in time
    const changed = !state || next.version !== state.version;
    state = next;
    labels = next.labels;
    offset = next.now - Date.now() / 1000;
    if (changed) { chosen = []; pendingTile = null; }
    document.documentElement.lang = next.locale;
    document.title = labels.title;
    $("version").textContent = String(next.version);
    document.body.dataset.version = String(next.version);
    document.body.dataset.role = next.hand ? "player" : "spectator";
    render();
  }
  function render() {
    const t = state.table;
    $("round").innerHTML = "";
    $("round").append(labels.round + " ", bold(t.round + (t.deals ? "/" + t.deals : "")));
    $("count").hidden = t.layout.count === null;
    $("count").replaceChildren(labels.count + " ", bold(String(t.layout.count)));
    $("bazar").replaceChildren(labels.bazar + " ", bold(String(t.drawable)),
      t.reserve ? " (+" + t.reserve + " " + labels.reserve + ")" : "");
    $("bazar").hidden = t.layout.kind === "sausage";  // Колбаса has no bazar
    $("flags").hidden = !t.flags.length;
    $("flags").replaceChildren(...t.flags.map((text) => {
      const p = document.createElement("p"); p.textContent = text; return p;
    }));
    renderSeats(t);
    drawTable(t.layout);
    $("log-title").textContent = labels["last-moves"];
    $("log").replaceChildren(...t.log.slice(-8).map((line) => {
      const li = document.createElement("li"); li.textContent = line; return li;
    }));
    renderTurn();
    renderHand();
    renderPanel(t);
  }
  function bold(text) { const b = document.createElement("b"); b.textContent = text; return b; }
  function renderSeats(t) {
    const goats = (t.final && t.final.goats) || [];
    $("seats").replaceChildren(...t.seats.map((s) => {
      const div = document.createElement("div");
      div.className = "seat" + (s.to_act ? " to-act" : "") + (s.bot ? " bot" : "") + (s.seat === state.seat ? " me" : "")
        + (goats.includes(s.seat) ? " goat" : "");
      div.dataset.seat = String(s.seat);
      const name = document.createElement("div");
      name.className = "name";
      name.textContent = (goats.includes(s.seat) ? (t.final.goat_mark || "🐐") + " " : "") + s.name
        + (s.seat === state.seat ? " (" + labels.you + ")" : "");
      const meta = document.createElement("div");
      meta.className = "meta";
      const backs = document.createElement("span");  // a back per tile, drawn by CSS
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(s.tiles, 12); i += 1) backs.appendChild(document.createElement("i"));
      const count = document.createElement("span");
      count.className = "count";
      count.dataset.tiles = String(s.tiles);
      count.textContent = s.tiles + " " + labels.tiles;
      meta.append(backs, count);
      if (t.points) {  // the side's score, labelled as the text table labels it
        const side = t.sides[s.side];
        const score = document.createElement("span");
        score.className = "score";
        score.append(labels.score + " ", bold(side ? side.shown : String(s.score)));
        meta.append(" · ", score);
      }
      for (const m of s.marks) meta.append(" · " + m.text);
      if (s.left) meta.append(" · " + labels.left);
      div.append(name, meta);
      return div;
    }));
  }
  function renderTurn() {
    const t = state.table;
    const text = $("turn-text");
    if (t.final) { text.textContent = labels["match-end"]; $("clock").textContent = ""; return; }
    if (t.to_act === null) { text.textContent = labels.waiting; return; }
    const seat = t.seats[t.to_act];
    text.textContent = t.to_act === state.seat ? labels["your-turn"]
      : labels["turn-of"].replace(/\u2068|\u2069/g, "");
    if (t.to_act !== state.seat) text.textContent = text.textContent.replace("{name}", seat.name);
    tick();
  }
  function tick() {
    const t = state && state.table, clock = $("clock");
    if (!t || t.final || !t.deadline_at || t.to_act === null) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round(t.deadline_at - (Date.now() / 1000 + offset)));
    clock.textContent = left + " " + labels.seconds;
    clock.classList.toggle("low", left <= 10);
  }
  setInterval(tick, 250);
  function renderHand() {
    const hand = state && state.hand;
    const me = $("me");
    me.hidden = false;
    if (!hand) {
      $("notice").textContent = labels.spectator;
      $("hand").replaceChildren(); $("ends").hidden = true; $("building").hidden = true;
      return;
    }
    const yours = hand.your_turn && !state.table.final;
    const open = yours ? new Set(candidates(chosen).map((p) => p.tile)) : new Set();
    const picked = new Set(chosen.map((p) => p.tile));
    $("notice").textContent = yours && !hand.legal.length ? labels["no-moves"] : "";
    if (hand.queue !== null && hand.queue !== undefined) {
      // Колбаса: a queue nobody sees (RULES.md §2.12 rule 1); the tile turned over is on the
      // table, and only its places are to choose
      $("notice").textContent = hand.queue + " " + labels.queue;
      if (yours && hand.legal.length && !busy) pendingTile = hand.legal[0].placements[0].tile;
    }
    $("hand").replaceChildren(...hand.tiles.map((code) => handTile(code, open.has(code) && !busy,
      (picked.has(code) ? " chosen" : "") + (hand.drawn.includes(code) ? " drawn" : ""))));
    const ends = $("ends");
    if (pendingTile) {
      ends.hidden = false;
      ends.replaceChildren(...candidates(chosen).filter((p) => p.tile === pendingTile).map((p) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "end";
        b.dataset.end = p.end || "";
        b.dataset.closed = String(!!p.closed);
        b.dataset.along = String(!!p.along);
        b.dataset.to = p.to || "";
        b.textContent = p.label || ((ARROW[p.end] || "•") + (p.closed ? " 🔒" : "") + (p.along ? " ⇆" : ""));
        b.title = (p.closed ? labels.closed : "") + (p.along ? labels.along : "");
        b.addEventListener("click", () => { haptic("select"); pick(p); });
        return b;
      }));
      if (hand.queue === null || hand.queue === undefined) $("notice").textContent = labels["choose-end"];
    } else {
      ends.hidden = true;
    }
    const building = $("building");
    building.hidden = (!chosen.length && !pendingTile) || (hand.queue !== null && hand.queue !== undefined);
    $("chosen").textContent = chosen.map((p) => "[" + p.tile.replace("-", "|") + "]"
      + (ARROW[p.end] || "") + (p.closed ? "🔒" : "")).join(" ");
    const done = chosen.length ? complete(chosen) : null;
    $("play-now").hidden = !done || busy;
    $("play-now").textContent = labels.play;
    $("play-now").onclick = () => done && send(done);
    $("cancel").textContent = labels.cancel;
    $("cancel").onclick = reset;
  }
  function renderPanel(t) {
    const panel = $("panel");
    $("panel-close").textContent = labels.close;
    // the match's end is no panel over the table: it stands above the seats, and the final
    // table (the seats with the goat, the last tiles) stays in view
    $("final").hidden = !t.final;
    if (t.final) {
      $("final-text").textContent = t.final.text;
      if (panel.dataset.kind === "summary") panel.hidden = true;
      return;
    }
    if (t.summary && seenSummary !== t.summary.round && t.layout.tiles.length < 2) {
      panel.hidden = false;
      panel.dataset.kind = "summary";
      $("panel-title").textContent = labels.summary + " · " + labels.round + " " + t.summary.round;
      $("panel-text").textContent = t.summary.text;
      return;
    }
    if (panel.dataset.kind === "summary" && t.layout.tiles.length >= 2) panel.hidden = true;
  }
  $("panel-close").addEventListener("click", () => {
    $("panel").hidden = true;
    if (state && state.table.summary) seenSummary = state.table.summary.round;
  });

  // -- start ------------------------------------------------------------------------------------
  applyTheme();
  if (tg) {
    try { tg.ready(); tg.expand(); tg.onEvent && tg.onEvent("themeChanged", applyTheme); } catch (e) { /* */ }
  }
  if (!initData) { fatal({ error: "no initData" }); return; }
  load().then(() => { if (token) follow(); });
})();
