/* The local table's stand-in for telegram.org's telegram-web-app.js (issue 34): the Mini App
 * runs here inside the local table's page, with no network and no Telegram client around it.
 * It gives the page what the real script gives it: Telegram.WebApp with the launch
 * parameters of the address's fragment (tgWebAppData: the initData the local Telegram signed
 * for the tab's person; tgWebAppThemeParams), and haptics that only note what was asked
 * (window.__haptics). */
(function () {
  "use strict";
  const h = new URLSearchParams(location.hash.slice(1));
  let theme = {};
  try { theme = JSON.parse(h.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; }
  const dark = /^#?([0-9a-f]{2})/i.exec(theme.bg_color || "#ffffff");
  window.__haptics = [];
  const note = (what) => window.__haptics.push(what);
  window.Telegram = { WebApp: {
    initData: h.get("tgWebAppData") || "",
    themeParams: theme,
    colorScheme: dark && parseInt(dark[1], 16) < 100 ? "dark" : "light",
    platform: "local",
    ready() {}, expand() {}, close() {}, onEvent() {}, offEvent() {},
    HapticFeedback: {
      impactOccurred: (s) => note("impact:" + s),
      notificationOccurred: (s) => note("notify:" + s),
      selectionChanged: () => note("select"),
    },
  } };
})();
