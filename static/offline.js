// Referee out of reach: the phone keeps a copy of the event and the taps made
// while no station answers, and sends them once one does (referee/players/pocket.py).
//
// - Signed in, a page registers the service worker (static/sw.js) and refreshes the copy
//   (/offline/data.json, 304 while nothing changed) into IndexedDB.
// - When a page cannot be fetched, the service worker answers with the shell
//   (templates/players/offline.html); this script then draws the list, a sheet or a game
//   from the copy, marked offline and from when. Taps on a sheet there are kept in
//   IndexedDB with an id made here, the time and the referee; they show at once as
//   pending, with a count in the top bar.
// - Back in reach (on load, on the browser's "online", or the "Send" button: Safari has
//   no Background Sync), they are sent; each is applied once. A held one went to
//   Conflicts; a refused one stays here, to be looked at and discarded.
// - Signing out clears the phone's copy (asking first if changes are still waiting).
(function () {
  "use strict";

  var body = document.body;
  var DB = "referee-pocket";
  var words = {};
  var me = body.dataset.referee ? Number(body.dataset.referee) : null;

  // --- IndexedDB ------------------------------------------------------------------------

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("copy")) db.createObjectStore("copy");
        if (!db.objectStoreNames.contains("queue")) db.createObjectStore("queue", {keyPath: "id"});
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(store, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(store, mode);
        var result = work(tx.objectStore(store));
        tx.oncomplete = function () {
          db.close();
          resolve(result instanceof IDBRequest ? result.result : result);
        };
        tx.onerror = function () { db.close(); reject(tx.error); };
        tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function getCopy() { return run("copy", "readonly", function (s) { return s.get("event"); }); }
  function putCopy(copy) { return run("copy", "readwrite", function (s) { s.put(copy, "event"); }); }
  // An entry that is not what this script wrote (damaged storage, an older version) is
  // kept and shown as damaged, to be looked at and discarded; it never breaks the page.
  function sound(t) {
    return t && typeof t.id === "string" && typeof t.player === "number" &&
      (t.kind === "adjust" || t.kind === "set") && t.values && typeof t.values === "object" &&
      Object.keys(t.values).length > 0 &&
      Object.keys(t.values).every(function (k) { return Number.isInteger(t.values[k]); });
  }

  function queued() {
    return run("queue", "readonly", function (s) { return s.getAll(); }).then(function (all) {
      return (all || []).filter(function (t) { return t && t.id !== undefined; }).map(function (t) {
        if (!sound(t) && !t.error) t.error = say("pocketDamagedEntry", 0);
        if (!t.values || typeof t.values !== "object") t.values = {};
        return t;
      }).sort(function (a, b) { return (a.made || 0) - (b.made || 0); });
    });
  }
  function keep(tap) { return run("queue", "readwrite", function (s) { s.put(tap); }); }
  function drop(id) { return run("queue", "readwrite", function (s) { s.delete(id); }); }
  function forget() {
    return new Promise(function (resolve) {
      var request = indexedDB.deleteDatabase(DB);
      request.onsuccess = request.onerror = request.onblocked = function () { resolve(); };
    });
  }

  // --- the count in the top bar, and sending ----------------------------------------------

  function say(key, n) {
    var button = document.getElementById("pending");
    var text = words[key] || (button && button.dataset[key]) || key;
    return text.replace("{n}", n);
  }

  function showCount(list) {
    var button = document.getElementById("pending");
    if (!button) return;
    var waiting = list.filter(function (t) { return !t.error; }).length;
    var damaged = list.length - waiting;
    button.hidden = list.length === 0;
    button.innerHTML = "";
    button.appendChild(el("span", {"aria-hidden": "true", text: "↑ " + list.length}));
    button.appendChild(el("span", {"class": "sr-only",
      text: damaged ? say("pocketDamaged", list.length) : say("pocketSend", waiting)}));
    button.title = button.lastChild.textContent;
    button.dataset.count = String(list.length);
  }

  function refreshCount() {
    if (!window.indexedDB) return Promise.resolve([]);
    return queued().then(function (list) { showCount(list); return list; })
      .catch(function () { return []; });
  }

  function csrf() {
    try { return JSON.parse(body.getAttribute("hx-headers"))["X-CSRF-Token"]; }
    catch (e) { return ""; }
  }

  var sending = null;
  function send() {
    if (sending) return sending;
    if (!me || navigator.onLine === false || body.dataset.shell) return Promise.resolve();
    sending = queued().then(function (list) {
      var ready = list.filter(function (t) { return !t.error && t.referee === me; });
      // a tap of another account waits for it to sign in here again, unless it cannot
      var others = list.filter(function (t) { return !t.error && t.referee !== me; });
      var batch = ready.concat(others).slice(0, 500);
      if (!batch.length) return null;
      return fetch("/offline/taps", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
        body: JSON.stringify({sent: Date.now(), taps: batch.map(function (t) {
          return {id: t.id, player: t.player, kind: t.kind, values: t.values,
                  reason: t.reason, made: t.made, referee: t.referee};
        })})
      }).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));  // kept, tried again
        return response.json();
      }).then(function (answer) {
        var held = 0, applied = 0, work = [];
        (answer.results || []).forEach(function (r) {
          var tap = batch.filter(function (t) { return t.id === r.id; })[0];
          if (!tap) return;
          if (r.status === "applied") { applied += 1; work.push(drop(tap.id)); }
          else if (r.status === "held") { held += 1; work.push(drop(tap.id)); }
          else { tap.error = r.message || "?"; work.push(keep(tap)); }
        });
        return Promise.all(work).then(function () {
          if (!applied && !held) return;
          var text = say("pocketSent", applied) + (held ? " " + say("pocketHeld", held) : "");
          if (!document.querySelector("[data-live]")) floating(text);
          // the open screen shows what they did (static/live.js)
          document.dispatchEvent(new CustomEvent("referee:pocket-sent", {detail: text}));
        });
      });
    }).catch(function () {
      floating(say("pocketNotSent", 0));
    }).then(function () { sending = null; return refreshCount(); });
    return sending;
  }

  function floating(text) {
    var el = document.getElementById("pocket-notice");
    if (!el) {
      el = document.createElement("p");
      el.id = "pocket-notice";
      el.className = "notice floating";
      el.setAttribute("role", "status");
      body.appendChild(el);
    }
    el.textContent = text;
    el.style.animation = "none";
    void el.offsetWidth;
    el.style.animation = "";
  }

  // --- the copy ---------------------------------------------------------------------------

  function refreshCopy() {
    if (!me || !window.indexedDB || body.dataset.shell) return Promise.resolve();
    return getCopy().then(function (copy) {
      if (copy && copy.referee && copy.referee.id !== me) {
        // another referee signed in on this phone: nothing of the last one's stays
        return Promise.all([window.caches ? caches.delete(GAMES) : null,
          run("copy", "readwrite", function (s) { s.clear(); })]).then(function () { return null; });
      }
      return copy;
    }).then(function (copy) {
      var headers = copy && copy.etag ? {"If-None-Match": copy.etag} : {};
      return fetch("/offline/data.json", {credentials: "same-origin", cache: "no-store", headers: headers})
        .then(function (response) {
          if (response.status === 304) return "kept";
          if (!response.ok) return null;
          var etag = response.headers.get("ETag");
          return response.json().then(function (data) {
            data.etag = etag;
            return putCopy(data).then(function () { return "kept"; });
          });
        })
        .then(function (kept) {
          if (!kept) return null;
          body.dataset.copy = "ready";  // tests wait on it
          return getCopy().then(keepGames);
        });
    }).catch(function () { /* out of reach: the copy stays as it was */ });
  }

  // --- the games in progress: their screens, kept as they stood ------------------------

  var GAMES = "referee-games";  // the service worker answers from it (static/sw.js)

  function keepGames(copy) {
    if (!copy || !window.caches) return Promise.resolve();
    // A screen is kept anew when its game moved, or when the referee turned the app to
    // another language: each kept screen is in the words of the page that kept it.
    var lang = document.documentElement.lang || "";
    var wanted = {};
    (copy.games || []).forEach(function (g) { wanted[g[0]] = g[1] + "@" + lang; });
    return run("copy", "readonly", function (s) { return s.get("games"); }).then(function (had) {
      had = had || {};
      return caches.open(GAMES).then(function (cache) {
        var work = Object.keys(had).filter(function (url) { return !(url in wanted); })
          .map(function (url) { return cache.delete(url); });
        Object.keys(wanted).forEach(function (url) {
          if (had[url] === wanted[url]) return;  // the same screen, in the same words
          work.push(fetch(url, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
            if (!r.ok || r.redirected) return;
            return r.text().then(function (html) {
              return cache.put(url, new Response(html, {headers: {
                "Content-Type": "text/html; charset=utf-8", "X-Kept-At": new Date().toISOString()}}));
            });
          }).catch(function () { delete wanted[url]; }));
        });
        return Promise.all(work);
      }).then(function () {
        return run("copy", "readwrite", function (s) { s.put(wanted, "games"); });
      });
    }).then(function () { body.dataset.games = "ready"; }).catch(function () {});
  }

  // A game's screen served from what the phone kept: read-only, and from when.
  function keptScreen() {
    var main = document.getElementById("main");
    if (main) main.inert = true;
    var note = el("p", {"class": "notice warn offline-banner", role: "status",
      text: say("pocketGameKept", 0).replace("{at}", when(body.dataset.keptAt))});
    if (main) main.parentNode.insertBefore(note, main);
    backInReach();
  }

  // A page drawn from what the phone kept asks a station every few seconds (a phone on
  // some Wi-Fi says it is online while no station answers), and at once on the browser's
  // "online"; once one answers, the page itself comes back (and sends what waits).
  function backInReach() {
    function probe() {
      fetch("/live/events", {credentials: "same-origin", cache: "no-store"})
        .then(function () { window.location.reload(); })
        .catch(function () { setTimeout(probe, 4000); });
    }
    setTimeout(probe, 4000);
    window.addEventListener("online", probe);
  }

  // --- the shell: drawing a page from the copy --------------------------------------------

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function players(copy) {
    var f = copy.fields;
    return copy.players.map(function (row) {
      var p = {};
      f.forEach(function (name, i) { p[name] = row[i]; });
      return p;
    });
  }

  function pendingFor(list, id) {
    var sum = {};
    list.filter(function (t) { return t.player === id && !t.error; }).forEach(function (t) {
      Object.keys(t.values).forEach(function (k) {
        if (t.kind === "set") sum[k] = {set: t.values[k]};
        else if (sum[k] && sum[k].set !== undefined) sum[k] = {set: sum[k].set + t.values[k]};
        else sum[k] = {add: ((sum[k] && sum[k].add) || 0) + t.values[k]};
      });
    });
    return sum;
  }

  function value(p, pending, k) {
    var c = pending[k];
    if (!c) return p[k];
    return c.set !== undefined ? c.set : p[k] + c.add;
  }

  function fold(text) {
    return (text || "").toLocaleLowerCase().replace(/ё/g, "е");
  }

  function when(iso) {
    var d = new Date(iso);
    if (isNaN(d)) return "";
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return two(d.getDate()) + "." + two(d.getMonth() + 1) + " " + two(d.getHours()) + ":" + two(d.getMinutes());
  }

  function banner(copy) {
    return el("p", {"class": "notice warn offline-banner", role: "status",
                    text: say("pocketOffline", 0).replace("{at}", when(copy.at))});
  }


  function drawList(main, copy, list) {
    var all = players(copy);
    var input = el("input", {type: "search", "aria-label": words.search, placeholder: words.search, "class": "wide"});
    var rows = el("ul", {"class": "rows players", id: "offline-list"});
    function fill() {
      var q = fold(input.value.trim());
      rows.innerHTML = "";
      all.filter(function (p) { return !q || fold(p.character).indexOf(q) >= 0 || fold(p.player).indexOf(q) >= 0; })
        .slice(0, 200).forEach(function (p) {
          var pending = pendingFor(list, p.id);
          rows.appendChild(el("li", {}, [el("a", {"class": "row player-row status-" + p.status, href: "/players/" + p.id}, [
            el("span", {"class": "grow"}, [el("strong", {"class": "character", text: p.character}),
                                          p.player ? el("span", {"class": "muted block", text: p.player}) : null]),
            el("span", {"class": "minis", text: "♥ " + value(p, pending, "hp") + "/" + p.hp_max + " " + words.hp +
              " ✦ " + value(p, pending, "chance") + " ⁍ " + value(p, pending, "cartridges")})])]));
        });
    }
    input.addEventListener("input", fill);
    fill();
    main.appendChild(el("section", {"class": "panel"}, [el("h1", {text: words.players}), input, rows]));
    if ((copy.games || []).length) {
      var games = el("ul", {"class": "rows", id: "offline-games"});
      copy.games.forEach(function (g) {
        games.appendChild(el("li", {}, [el("a", {"class": "row", href: g[0], text: g[2]})]));
      });
      main.appendChild(el("section", {"class": "panel"}, [el("h2", {text: words.games}), games]));
    }
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  var BOUNDS = {hp: [0, "hp_max"], chance: [0, "chance_max"], cartridges: [0, 999], level: [1, 10]};

  function within(p, k, v) {
    var b = BOUNDS[k];
    var max = typeof b[1] === "string" ? p[b[1]] : b[1];
    return v >= b[0] && v <= max;
  }

  function drawSheet(main, copy, list, id) {
    var p = players(copy).filter(function (x) { return x.id === id; })[0];
    if (!p) {
      main.appendChild(el("section", {"class": "panel"}, [el("p", {text: words.unknown})]));
      return;
    }
    var pending = pendingFor(list, id);
    var reason = el("input", {type: "text", name: "reason", maxlength: "200", "class": "wide", "aria-label": words.reason, placeholder: words.reason});
    var card = el("section", {"class": "card offline-card", id: "player-" + id, "data-player": String(id)}, [
      el("h1", {"class": "character", text: p.character}),
      p.player ? el("div", {"class": "muted", text: p.player}) : null]);
    var stats = el("div", {"class": "stats"});
    card.appendChild(stats);
    Object.keys(BOUNDS).forEach(function (k) {
      var now = value(p, pending, k);
      var max = k === "hp" ? "/" + p.hp_max : k === "chance" ? "/" + p.chance_max : "";
      var out = el("output", {"class": "value", "data-stat": k, text: String(now)});
      if (max) out.appendChild(el("small", {text: max}));
      if (pending[k]) out.appendChild(el("small", {"class": "pending-mark block", text: words.pending}));
      function tap(delta) {
        var next = value(p, pendingFor(list, id), k) + delta;
        if (!within(p, k, next)) { floating(words.bound); return; }
        var values = {}; values[k] = delta;
        var t = {id: newId(), player: id, kind: "adjust", values: values, reason: reason.value.trim(),
                 made: Date.now(), referee: me || (copy.referee && copy.referee.id), name: p.character};
        list.push(t);
        keep(t).then(function () { redraw(); });
      }
      var minus = el("button", {type: "button", "class": "tap minus", "aria-label": words[k] + " −1", text: "−"});
      var plus = el("button", {type: "button", "class": "tap plus", "aria-label": words[k] + " +1", text: "+"});
      minus.addEventListener("click", function () { tap(-1); });
      plus.addEventListener("click", function () { tap(1); });
      stats.appendChild(el("div", {"class": "stat"}, [el("span", {"class": "label", text: words[k]}), minus, out, plus]));
    });
    card.appendChild(reason);
    // Set exact values, kept the same way
    var exact = el("details", {"class": "offline-set"}, [el("summary", {text: words.setExact})]);
    var fields = {};
    Object.keys(BOUNDS).forEach(function (k) {
      fields[k] = el("input", {type: "number", inputmode: "numeric", name: k, "aria-label": words[k], placeholder: words[k]});
      exact.appendChild(el("label", {"class": "block"}, [el("span", {text: words[k] + " "}), fields[k]]));
    });
    var save = el("button", {type: "button", "class": "btn wide", text: words.save});
    save.addEventListener("click", function () {
      var values = {};
      Object.keys(fields).forEach(function (k) {
        var raw = fields[k].value.trim();
        if (raw !== "" && /^-?\d+$/.test(raw)) values[k] = Number(raw);
      });
      var bad = Object.keys(values).filter(function (k) { return !within(p, k, values[k]); });
      if (!Object.keys(values).length || bad.length) { floating(words.bound); return; }
      var t = {id: newId(), player: id, kind: "set",
               values: values, reason: reason.value.trim(), made: Date.now(), referee: me || copy.referee.id, name: p.character};
      list.push(t);
      keep(t).then(function () { redraw(); });
    });
    exact.appendChild(save);
    card.appendChild(exact);
    main.appendChild(card);
    drawQueue(main, list.filter(function (t) { return t.player === id; }));
    var history = el("ul", {"class": "rows events"});
    (p.history || []).forEach(function (h) {
      history.appendChild(el("li", {"class": "row"}, [el("span", {"class": "grow", text:
        h[3].map(function (c) { return (words[c[0]] || c[0]) + " " + c[1] + " → " + c[2]; }).join(", ")}),
        el("span", {"class": "muted", text: (h[1] ? h[1] + " " : "") + when(h[0])})]));
    });
    main.appendChild(el("section", {"class": "panel"}, [el("h2", {text: words.history}), history]));
  }

  function drawQueue(main, list) {
    if (!list.length) return;
    var rows = el("ul", {"class": "rows pending-list", id: "pending-list"});
    list.forEach(function (t) {
      var what = Object.keys(t.values).map(function (k) {
        var v = t.values[k];
        return (words[k] || k) + (t.kind === "set" ? " = " + v : (v > 0 ? " +" : " ") + v);
      }).join(", ");
      var discard = el("button", {type: "button", "class": "btn danger", text: words.discard});
      discard.addEventListener("click", function () { drop(t.id).then(redraw); });
      rows.appendChild(el("li", {"class": "row" + (t.error ? " damaged" : "")}, [
        el("span", {"class": "grow"}, [el("strong", {text: (t.name || "#" + t.player) + ": " + what}),
          el("span", {"class": "muted block", text: (Number.isFinite(t.made) ? when(new Date(t.made).toISOString()) : "") +
            (typeof t.reason === "string" && t.reason ? " · " + t.reason : "")}),
          t.error ? el("span", {"class": "why-not block", text: t.error}) : null]), discard]));
    });
    main.appendChild(el("section", {"class": "panel"}, [el("h2", {text: words.waiting}), rows]));
  }

  var drawn = null;
  function redraw() { return drawn ? drawn() : Promise.resolve(); }

  function drawShell() {
    var main = document.getElementById("main");
    try { words = JSON.parse(document.getElementById("offline-words").textContent); } catch (e) { words = {}; }
    drawn = function () {
      return Promise.all([getCopy(), queued()]).then(function (both) {
        var copy = both[0], list = both[1];
        main.innerHTML = "";
        showCount(list);
        if (!copy) { main.appendChild(el("p", {"class": "notice warn", text: words.noCopy})); return; }
        main.appendChild(banner(copy));
        var path = window.location.pathname;
        var sheet = /^\/players\/(\d+)/.exec(path);
        if (sheet) return drawSheet(main, copy, list, Number(sheet[1]));
        if (path === "/" || path === "/offline" || path === "/players") {
          drawQueue(main, list);
          return drawList(main, copy, list);
        }
        drawQueue(main, list);
        main.appendChild(el("section", {"class": "panel"}, [el("p", {text: words.notOffline}),
          el("a", {"class": "btn wide", href: "/", text: words.players})]));
      });
    };
    drawn();
    // (at /offline itself the page was asked for: the referee is looking at the kept
    // changes, online or not, and the ↑ button sends them)
    if (window.location.pathname !== "/offline") backInReach();
  }

  // --- wiring ----------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#pending");
    if (!button) return;
    // from the shell: the players list, which sends what waits once a station answers
    if (body.dataset.shell) { window.location.href = "/"; return; }
    queued().then(function (list) {
      if (list.some(function (t) { return t.error; })) window.location.href = "/offline";
      else send();
    });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-sign-out]")) return;
    var count = Number((document.getElementById("pending") || {dataset: {}}).dataset.count || 0);
    if (count && !window.confirm(say("pocketLose", count))) { event.preventDefault(); return; }
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("forget");
    }
    forget();
  });

  // A tap that could not reach the station: the page comes back as the phone's copy
  document.addEventListener("htmx:sendError", function () {
    if (me && navigator.serviceWorker && navigator.serviceWorker.controller) window.location.reload();
  });

  function start() {
    if (body.dataset.shell) { drawShell(); return; }
    if (body.dataset.keptAt !== undefined) { keptScreen(); return; }
    if (!me) return;
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
      navigator.serviceWorker.ready.then(function () { body.dataset.worker = "ready"; });
    }
    refreshCount().then(function () { return send(); }).then(refreshCopy);
    window.addEventListener("online", function () { send().then(refreshCopy); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
