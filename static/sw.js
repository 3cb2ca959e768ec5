// Referee's service worker (served at /sw.js by referee/players/pocket_web.py, which fills
// in the shell's addresses and version). It keeps the offline shell and the static files,
// and when a page cannot be fetched (the phone is out of the station's Wi-Fi) it answers
// with the shell, which draws the page from the copy of the event the phone keeps
// (static/offline.js). Pages themselves are never kept: they are one referee's, and a
// sign-out clears the phone's copy (offline.js).
"use strict";

const SHELL = __SHELL__;
const CACHE = "referee-shell-__VERSION__";
const PAGES = "referee-games";  // the games' screens, kept by offline.js

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((n) => n.startsWith("referee-shell-") && n !== CACHE)
      .map((n) => caches.delete(n)))).then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  if (event.data === "forget") {  // signed out: nothing of the event stays
    event.waitUntil(caches.keys().then((names) => Promise.all(names.map((n) => caches.delete(n)))));
  }
});

function offlineShell() {
  return caches.open(CACHE).then((cache) => cache.match(SHELL[0])).then((found) =>
    found || new Response("offline", {status: 503, headers: {"Content-Type": "text/plain"}}));
}

// A game's screen the phone kept (static/offline.js puts the games in progress there),
// marked as the copy it is: offline.js then shows it read-only, and from when.
function keptGame(request) {
  return caches.open(PAGES).then((cache) => cache.match(request, {ignoreSearch: true}))
    .then((found) => {
      if (!found) return null;
      const at = found.headers.get("X-Kept-At") || "";
      return found.text().then((html) => new Response(
        html.replace("<body ", '<body data-kept-at="' + at + '" '),
        {headers: {"Content-Type": "text/html; charset=utf-8"}}));
    });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    // fingerprinted, so a kept copy is always right
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() =>
      keptGame(request).then((kept) => kept || offlineShell())));
  }
});
