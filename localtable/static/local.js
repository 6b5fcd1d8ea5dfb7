/* The local table's page (issue 34): a tab is one person of the local Telegram. It shows
 * the local group and the person's private chat with the bot as Telegram shows them (every
 * button pressable, every chat writable), the Mini App's table between them, and the new
 * game's form while nothing is open.
 *
 * Who the tab is: a token the server gave when the tab chose (or made) its person, kept in
 * the tab's sessionStorage and sent as X-Local-Tab. What it shows: api/view, a long poll
 * that answers when what the tab shows changed (its etag). The page decides nothing of a
 * game: the bot answers presses and commands, the Mini App plays moves. */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const KEY = "kozel-local-tab";
  const THEME = { bg_color: "#ffffff", text_color: "#000000", hint_color: "#707579",
    link_color: "#3390ec", button_color: "#3390ec", button_text_color: "#ffffff",
    secondary_bg_color: "#f4f4f5" };
  let token = sessionStorage.getItem(KEY) || "";
  let etag = "", view = null, labels = {}, form = null, formEpoch = -1, epoch = 0, shown = null;
  let chosen = { game: null, options: {}, bots: 3, strength: "normal", wait: false };
  const seen = { group: 0, private: 0 };
  const stick = { group: true, private: true };  // the chat follows its newest message
  const placed = { group: -1, private: -1 };  // where the page itself scrolled it last

  // -- the server -------------------------------------------------------------------------------
  function call(path, body) {
    const opts = { headers: { "X-Local-Tab": token } };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch("/api/" + path, opts).then((r) =>
      r.json().catch(() => ({})).then((data) => ({ status: r.status, data })));
  }

  // -- who the tab is ---------------------------------------------------------------------------
  function hello() {
    return call("hello").then(({ data }) => {
      applyLabels(data.labels);
      const wantsNew = location.hash === "#new";
      if (wantsNew) history.replaceState(null, "", "/");
      if (wantsNew || !data.people.length) return claim({ new: true, language: navigator.language });
      if (data.people.length === 1) return claim({ person: data.people[0].id });
      choose(data.people);
    });
  }
  function choose(people) {
    const box = $("chooser-people");
    box.replaceChildren(...people.map((p) => button(p.name, () => claim({ person: p.id }))),
      button(labels["new-person"], () => claim({ new: true, language: navigator.language })));
    $("chooser").hidden = false;
  }
  function claim(body) {
    $("chooser").hidden = true;
    return call("tab", body).then(({ status, data }) => {
      if (status !== 200) { hello(); return; }
      token = data.token;
      sessionStorage.setItem(KEY, token);
      etag = "";
      follow();
    });
  }
  function button(text, onClick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  // -- following the view -----------------------------------------------------------------------
  let following = false;
  function follow() {
    if (following) return;
    following = true;
    const next = () => call("view?since=" + encodeURIComponent(etag)).then(({ status, data }) => {
      $("offline").hidden = true;
      if (status === 401) { following = false; token = ""; sessionStorage.removeItem(KEY); hello(); return; }
      if (status === 200 && data.etag !== etag) { etag = data.etag; render(data); }
      next();
    }).catch(() => {
      $("offline").hidden = false;
      withCode($("offline"), labels.offline || "…");
      setTimeout(next, 1000);
    });
    next();
  }

  // -- the page ---------------------------------------------------------------------------------
  function applyLabels(next) {
    labels = next || labels;
    for (const node of document.querySelectorAll("[data-l]")) {
      withCode(node, labels[node.dataset.l] || "");
    }
    for (const node of document.querySelectorAll("[data-lp]")) {
      node.placeholder = labels[node.dataset.lp] || "";
    }
    document.title = labels.title || document.title;
  }
  /* A text with `commands` in it (the terminal's words), those parts set as code. */
  function withCode(node, text) {
    node.replaceChildren(...text.split("`").map((part, i) => {
      if (i % 2 === 0) return part;
      const code = document.createElement("code");
      code.textContent = part;
      return code;
    }));
  }
  function render(next) {
    view = next;
    document.documentElement.lang = view.me.language;
    document.body.dataset.person = String(view.me.id);
    applyLabels(view.labels);
    $("bot-name").textContent = view.bot.name;
    renderWho();
    renderChat("group", view.group, view.group.title, view.group.subtitle);
    renderChat("private", view.private, view.bot.name, "@" + view.bot.username);
    renderTable();
    document.body.dataset.etag = etag;
  }
  function renderWho() {
    const select = $("person");
    select.replaceChildren(...view.people.map((p) => option(p.id, p.name, p.id === view.me.id)),
      option("new", labels["new-person"], false));
    const lang = $("language");
    lang.replaceChildren(...view.locales.map((c) => option(c, c.toUpperCase(), c === view.me.language)));
  }
  function option(value, text, selected) {
    const o = document.createElement("option");
    o.value = String(value);
    o.textContent = text;
    o.selected = selected;
    return o;
  }
  $("person").addEventListener("change", (ev) => {
    const value = ev.target.value;
    claim(value === "new" ? { new: true, language: navigator.language } : { person: Number(value) });
  });
  $("language").addEventListener("change", (ev) => call("me", { language: ev.target.value }));
  $("new-tab").addEventListener("click", () => window.open("/#new", "_blank"));
  for (const tab of document.querySelectorAll("#tabs button")) {
    tab.addEventListener("click", () => showPane(tab.dataset.pane));
  }
  function showPane(name) {
    document.body.dataset.pane = name;
    const tab = document.querySelector('#tabs [data-pane="' + name + '"]');
    tab.classList.remove("unread");
    if (name !== "table") { stick[name] = true; toBottom(name); }
  }

  // -- a chat -----------------------------------------------------------------------------------
  function renderChat(which, chat, title, subtitle) {
    const pane = $("pane-" + which);
    pane.querySelector(".chat-title").textContent = title || "";
    pane.querySelector(".chat-sub").textContent = subtitle || "";
    const box = pane.querySelector(".messages");
    const old = new Map([...box.children].map((n) => [n.dataset.key, n]));
    const nodes = chat.messages.map((m) => {
      const key = m.id + ":" + JSON.stringify(m).length + ":" + hash(JSON.stringify(m));
      return old.get(key) || message(which, m, key);
    });
    box.replaceChildren(...nodes);
    if (stick[which]) toBottom(which);
    const last = chat.messages.length ? chat.messages[chat.messages.length - 1].id : 0;
    if (last > seen[which] && seen[which] && document.body.dataset.pane !== which) {
      document.querySelector('#tabs [data-pane="' + which + '"]').classList.add("unread");
    }
    seen[which] = last;
    const menu = pane.querySelector(".commands");
    menu.replaceChildren(...(view.commands[which] || []).map((c) => {
      const b = button("", () => { menu.hidden = true; send(which, "/" + c.command); });
      const name = document.createElement("b");
      name.textContent = "/" + c.command;
      b.append(name, c.description);
      return b;
    }));
  }
  function toBottom(which) {
    const box = $("pane-" + which).querySelector(".messages");
    box.scrollTop = box.scrollHeight;
    placed[which] = box.scrollTop;
  }
  function hash(text) {
    let h = 0;
    for (let i = 0; i < text.length; i += 1) h = (h * 31 + text.charCodeAt(i)) | 0;
    return h;
  }
  function message(which, m, key) {
    const row = document.createElement("div");
    row.className = "msg" + (m.from.id === view.me.id ? " own" : "");
    row.dataset.key = key;
    row.dataset.id = String(m.id);
    const bubble = document.createElement("div");
    bubble.className = "bubble" + (m.photo ? " photo" : "");
    if (m.photo) {
      const img = document.createElement("img");
      img.src = "/" + m.photo.url;
      img.width = m.photo.width;
      img.height = m.photo.height;
      img.alt = "";
      img.addEventListener("load", () => { if (stick[which]) toBottom(which); });
      bubble.appendChild(img);
    }
    if (m.from.id !== view.me.id) {
      const who = document.createElement("div");
      who.className = "who";
      who.style.color = colour(m.from.id);
      who.textContent = m.from.name;
      if (m.from.bot) {
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = labels.bot;
        who.appendChild(tag);
      }
      bubble.insertBefore(who, bubble.firstChild);
    }
    if (m.reply_to) {
      const quote = document.createElement("div");
      quote.className = "reply";
      const b = document.createElement("b");
      b.textContent = m.reply_to.name;
      const s = document.createElement("span");
      s.textContent = m.reply_to.text;
      quote.append(b, s);
      bubble.appendChild(quote);
    }
    if (m.document) {
      const a = document.createElement("a");
      a.className = "doc";
      a.href = "/" + m.document.url;
      a.download = m.document.name;
      const icon = document.createElement("span");
      icon.className = "icon";
      icon.textContent = "📄";
      const name = document.createElement("span");
      name.textContent = m.document.name + " · " + Math.max(1, Math.round(m.document.size / 1024)) + " KB";
      a.append(icon, name);
      bubble.appendChild(a);
    }
    if (m.text) {
      const body = document.createElement("div");
      body.className = "body";
      entities(m.text, [...(m.entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length),
        0, m.text.length, body, which);
      bubble.appendChild(body);
    }
    const meta = document.createElement("div");
    meta.className = "meta";
    const time = new Date(m.date * 1000);
    meta.textContent = (m.edited ? labels.edited + " " : "")
      + String(time.getHours()).padStart(2, "0") + ":" + String(time.getMinutes()).padStart(2, "0");
    bubble.appendChild(meta);
    row.appendChild(bubble);
    if (m.buttons.length) row.appendChild(keyboard(which, m));
    return row;
  }
  function colour(id) {
    const palette = ["#c03d33", "#4fad2d", "#d09306", "#168acd", "#8544d6", "#cd4073", "#2996ad"];
    return palette[Math.abs(id) % palette.length];
  }
  function entities(text, list, start, end, parent, which) {
    let pos = start, i = 0;
    while (i < list.length) {
      const e = list[i];
      const stop = e.offset + e.length;
      let j = i + 1;
      const inner = [];
      while (j < list.length && list[j].offset < stop) { inner.push(list[j]); j += 1; }
      if (e.offset < pos) { i = j; continue; }  // overlapping: Telegram's HTML never makes it
      if (e.offset > pos) parent.append(text.slice(pos, e.offset));
      const node = entityNode(e, text.slice(e.offset, stop), which);
      entities(text, inner, e.offset, Math.min(stop, end), node, which);
      parent.append(node);
      pos = stop;
      i = j;
    }
    if (pos < end) parent.append(text.slice(pos, end));
  }
  function entityNode(e, inner, which) {
    const tags = { bold: "b", italic: "i", underline: "u", strikethrough: "s", code: "code",
      pre: "pre", blockquote: "blockquote", expandable_blockquote: "blockquote" };
    if (tags[e.type]) return document.createElement(tags[e.type]);
    if (e.type === "text_link" || e.type === "url") {
      const a = document.createElement("a");
      const url = e.url || inner;
      a.href = url;
      a.addEventListener("click", (ev) => { ev.preventDefault(); openUrl(url); });
      return a;
    }
    if (e.type === "bot_command") {
      const span = document.createElement("span");
      span.className = "cmd";
      span.addEventListener("click", () => send(which, inner));
      return span;
    }
    if (e.type === "spoiler") {
      const span = document.createElement("span");
      span.className = "spoiler";
      span.addEventListener("click", () => span.classList.add("shown"));
      return span;
    }
    return document.createElement("span");
  }
  function keyboard(which, m) {
    const keys = document.createElement("div");
    keys.className = "keys";
    m.buttons.forEach((row, r) => {
      const line = document.createElement("div");
      line.className = "krow";
      row.forEach((b, c) => {
        const btn = button(b.text, () => pressed(which, m, b, r, c, btn),
          b.kind === "callback" ? "" : "link");
        btn.dataset.kind = b.kind;
        line.appendChild(btn);
      });
      keys.appendChild(line);
    });
    return keys;
  }
  function pressed(which, m, b, row, column, btn) {
    if (b.kind === "url" || b.kind === "web_app") { openUrl(b.url); return; }
    if (b.kind !== "callback") return;
    btn.disabled = true;
    call("press", { chat: which, message: m.id, row, column }).then(({ data }) => {
      btn.disabled = false;
      if (data.reason) toast(data.reason);
      else if (data.text && data.alert) alertBox(data.text);
      else if (data.text) toast(data.text);
      if (data.url) showPane("private");
    }).catch(() => { btn.disabled = false; });
  }
  function send(which, text) {
    return call("send", { chat: which, text }).then(({ data }) => {
      if (data.reason) toast(data.reason);
    });
  }
  for (const box of document.querySelectorAll(".messages")) {
    const which = box.closest(".pane").dataset.chat;
    box.addEventListener("scroll", () => {
      // the page's own scroll to the newest message keeps following; a person's decides
      if (box.clientHeight && box.scrollTop !== placed[which]) {
        stick[which] = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
      }
    });
  }
  for (const form of document.querySelectorAll(".compose")) {
    const which = form.closest(".pane").dataset.chat;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = form.elements.text;
      if (!input.value.trim()) return;
      send(which, input.value);
      input.value = "";
    });
    const menu = form.querySelector(".commands");
    form.querySelector(".menu").addEventListener("click", () => { menu.hidden = !menu.hidden; });
  }
  /* A link: the bot's start link opens the private chat with /start <payload>; its Mini App
   * (the private chat's button, the group's t.me/<bot>/<app> link) opens in the middle;
   * anything else in a new tab. */
  function openUrl(url) {
    let u;
    try { u = new URL(url, location.href); } catch (e) { return; }
    const bot = view && view.bot.username.toLowerCase();
    if (u.origin === location.origin && u.pathname.startsWith("/webapp/")) {
      openMiniApp("m=" + (u.searchParams.get("m") || ""));
      return;
    }
    if (/^(t|telegram)\.me$/.test(u.hostname) && bot) {
      const parts = u.pathname.split("/").filter(Boolean);
      if ((parts[0] || "").toLowerCase() === bot && parts.length === 2 && u.searchParams.get("startapp")) {
        openMiniApp("start=" + u.searchParams.get("startapp"));
        return;
      }
      if ((parts[0] || "").toLowerCase() === bot && parts.length === 1) {
        call("link", { url: "https://t.me/" + view.bot.username + u.search }).then(() => showPane("private"));
        return;
      }
    }
    window.open(u.href, "_blank", "noopener");
  }
  function toast(text) {
    const t = $("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 3000);
  }
  function alertBox(text) {
    $("alert-text").textContent = text;
    $("alert").hidden = false;
  }
  $("alert-ok").addEventListener("click", () => { $("alert").hidden = true; });
  $("banner").hidden = localStorage.getItem("kozel-local-banner") === "read";
  $("banner-close").addEventListener("click", () => {
    $("banner").hidden = true;
    localStorage.setItem("kozel-local-banner", "read");
  });

  // -- the table: the form, the lobby, the Mini App ---------------------------------------------
  function renderTable() {
    const match = view.match;
    if (match) epoch = formEpoch + 1;  // the form is read again once nothing is open
    const playing = match && match.status === "playing";
    $("lobby").hidden = !(match && match.status === "lobby");
    if (playing && (!shown || shown.match !== match.id || shown.seated !== match.seated)) {
      openMiniApp("m=" + match.id, match.seated);
    }
    const showingGame = !!shown;
    $("game").hidden = !showingGame;
    $("again").hidden = !showingGame || !!match;
    $("game-note").textContent = shown && !shown.seated && !shown.finished ? labels.spectating : "";
    $("setup").hidden = !!match || showingGame;
    if (!match && !showingGame) loadForm();
  }
  function openMiniApp(which, seated) {
    return call("miniapp?" + which).then(({ status, data }) => {
      if (status !== 200) return;
      shown = { match: data.match, seated: data.seated, finished: data.finished };
      if (seated !== undefined) shown.seated = seated;
      const src = "/webapp/" + data.query + "#tgWebAppData=" + encodeURIComponent(data.init_data)
        + "&tgWebAppThemeParams=" + encodeURIComponent(JSON.stringify(THEME));
      $("miniapp").src = src;
      $("miniapp").dataset.match = String(data.match);
      showPane("table");
      renderTable();
    });
  }
  $("again").addEventListener("click", () => { shown = null; $("miniapp").removeAttribute("src"); renderTable(); });

  function loadForm() {
    const key = epoch;
    if (formEpoch === key || loadForm.busy) return;
    loadForm.busy = true;
    call("games").then(({ status, data }) => {
      loadForm.busy = false;
      if (status !== 200) return;
      formEpoch = key;
      form = data;
      if (!chosen.game || !form.games.some((g) => g.id === chosen.game)) chosen.game = form.chosen;
      renderForm();
    }).catch(() => { loadForm.busy = false; });
  }
  function game() { return form.games.find((g) => g.id === chosen.game) || form.games[0]; }
  function renderForm() {
    const g = game();
    $("games").replaceChildren(...form.games.map((x) => {
      const card = button("", () => { chosen.game = x.id; chosen.options = {}; renderForm(); }, "game");
      card.setAttribute("role", "radio");
      card.setAttribute("aria-checked", String(x.id === g.id));
      card.dataset.game = x.id;
      const name = document.createElement("b");
      name.textContent = x.name;
      const line = document.createElement("small");
      line.textContent = x.line;
      const seats = document.createElement("small");
      seats.className = "seats";
      seats.textContent = x.seats;
      card.append(name, line, seats);
      return card;
    }));
    $("about-text").textContent = g.about;
    $("game-line").textContent = g.line;
    $("options").replaceChildren(...g.options.map((o) => {
      const row = document.createElement("label");
      row.className = "option";
      const name = document.createElement("span");
      name.textContent = o.label;
      const select = document.createElement("select");
      select.dataset.option = o.key;
      const value = o.key in chosen.options ? chosen.options[o.key] : o.value;
      select.replaceChildren(...o.choices.map((c) => option(c.value, c.label, c.value === value)));
      select.addEventListener("change", () => { chosen.options[o.key] = select.value; });
      row.append(name, select);
      return row;
    }));
    const [lo, hi] = g.players;
    const fits = (n) => 1 + n <= hi && (chosen.wait || 1 + n >= lo) && (n > 0 || chosen.wait);
    if (!fits(chosen.bots)) chosen.bots = [3, 2, 1, 0].find(fits) ?? 0;
    $("bots").replaceChildren(...[0, 1, 2, 3].map((n) => {
      const b = button(String(n), () => { chosen.bots = n; renderForm(); });
      b.setAttribute("aria-pressed", String(n === chosen.bots));
      b.disabled = !fits(n);
      b.dataset.bots = String(n);
      return b;
    }));
    $("strengths").replaceChildren(...form.strengths.map((s) => {
      const b = button(s.label, () => { chosen.strength = s.id; renderForm(); });
      b.setAttribute("aria-pressed", String(s.id === chosen.strength));
      b.dataset.strength = s.id;
      return b;
    }));
    $("wait").checked = chosen.wait;
    $("deal").textContent = chosen.wait ? labels["open-lobby"] : labels.deal;
    $("deal").disabled = !fits(chosen.bots);
  }
  $("wait").addEventListener("change", (ev) => { chosen.wait = ev.target.checked; renderForm(); });
  $("deal").addEventListener("click", () => {
    const g = game();
    const options = {};
    for (const o of g.options) options[o.key] = o.key in chosen.options ? chosen.options[o.key] : o.value;
    $("deal").disabled = true;
    $("setup-error").hidden = true;
    call("newgame", { game: g.id, options, bots: chosen.bots, strength: chosen.strength,
      start: !chosen.wait }).then(({ status, data }) => {
      $("deal").disabled = false;
      if (status !== 200) {
        $("setup-error").textContent = data.reason || data.error || String(status);
        $("setup-error").hidden = false;
      } else if (chosen.wait) {
        showPane("group");
      }
    });
  });

  // -- start ------------------------------------------------------------------------------------
  if (token && location.hash !== "#new") follow();
  else hello();
})();
