// Referee: a screen left open stays true (referee/web/live.py). The screen's root names
// where to ask and the mark of what it shows; every few seconds, while the page is in
// view, it asks with If-None-Match: a 304 costs the server next to nothing. When the mark
// moved because of someone else, the page fetches itself and puts the new <main> in
// place, keeping what the referee was typing, and a notice floats over the top saying
// who changed it and when. The referee's own taps already brought their answer: their
// change is taken in silently.
(function () {
  "use strict";

  var root = null;
  var timer = null;
  var busy = false;

  function live() {
    return document.querySelector("[data-live]");
  }

  function notice(text) {
    var el = document.getElementById("live-notice");
    if (!el) {
      el = document.createElement("p");
      el.id = "live-notice";
      el.className = "notice floating live-notice";
      el.setAttribute("role", "status");
      document.body.appendChild(el);
    }
    el.textContent = text;
    // restart the fade of .notice.floating
    el.style.animation = "none";
    void el.offsetWidth;
    el.style.animation = "";
  }

  function when(iso) {
    if (!iso) return "";
    var d = new Date(iso);
    if (isNaN(d)) return "";
    var h = d.getHours(), m = d.getMinutes();
    return (h < 10 ? "0" : "") + h + ":" + (m < 10 ? "0" : "") + m;
  }

  function said(change) {
    if (change.text) return change.text;
    var body = document.body.dataset;
    var text = change.by ? body.liveBy : body.liveAt;
    return (text || "").replace("{by}", change.by || "").replace("{at}", when(change.at));
  }

  // What the referee typed but did not send, by field, to put back after the swap.
  function typed(main) {
    var kept = [];
    main.querySelectorAll("input, textarea, select").forEach(function (field) {
      var key = field.id || field.name;
      if (!key || field.type === "hidden" || !field.dataset.touched) return;
      kept.push({key: key, value: field.value, checked: field.checked,
                 focused: field === document.activeElement});
    });
    return kept;
  }

  function putBack(main, kept) {
    kept.forEach(function (k) {
      var field = main.querySelector("#" + CSS.escape(k.key)) ||
                  main.querySelector("[name='" + CSS.escape(k.key) + "']");
      if (!field) return;
      field.value = k.value;
      field.checked = k.checked;
      field.dataset.touched = "1";
      if (k.focused) field.focus();
    });
  }

  function refresh(change) {
    busy = true;
    return fetch(window.location.href, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        var main = document.getElementById("main");
        if (!fresh || !main) return;
        var kept = typed(main);
        var y = window.scrollY;
        main.innerHTML = fresh.innerHTML;
        main.dataset.liveEtag = fresh.dataset.liveEtag || change.etag;
        if (window.htmx) window.htmx.process(main);
        putBack(main, kept);
        window.scrollTo(0, y);  // nothing moves under the thumb
        root = live();
        document.dispatchEvent(new CustomEvent("referee:live-refreshed"));
        notice(said(change));
      })
      .catch(function () { /* the next question tries again */ })
      .then(function () { busy = false; });
  }

  function ask() {
    root = live();
    if (!root || busy || document.visibilityState !== "visible") return schedule();
    // The referee's own tap is on its way: its answer brings the fresh screen
    if (document.querySelector(".htmx-request")) return schedule();
    var etag = root.dataset.liveEtag || "";
    var headers = etag ? {"If-None-Match": etag} : {};
    fetch(root.dataset.live, {credentials: "same-origin", cache: "no-store", headers: headers})
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 401 || response.status === 404) {
          root.removeAttribute("data-live");  // signed out or gone: stop asking
          return null;
        }
        if (!response.ok) return null;
        return response.json();
      })
      .then(function (change) {
        if (!change || !root || change.etag === root.dataset.liveEtag) return;
        if (change.mine) {
          root.dataset.liveEtag = change.etag;  // the referee's own change, already shown
          return;
        }
        return refresh(change);
      })
      .catch(function () { /* offline: the next question tries again */ })
      .then(schedule);
  }

  function schedule() {
    clearTimeout(timer);
    var el = live();
    if (!el || !el.dataset.live) return;
    timer = setTimeout(ask, Number(el.dataset.liveEvery) || 2500);
  }

  // Changes kept on the phone were just sent (static/offline.js): show what they did.
  document.addEventListener("referee:pocket-sent", function (event) {
    if (live()) refresh({text: event.detail || ""});
  });

  document.addEventListener("input", function (event) {
    if (event.target && event.target.dataset) event.target.dataset.touched = "1";
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") ask();
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", schedule);
  } else {
    schedule();
  }
})();
