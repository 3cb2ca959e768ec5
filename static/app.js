// Referee: the few behaviours htmx does not cover. No inline scripts (the CSP forbids them).
(function () {
  "use strict";

  function showToast(text) {
    var toast = document.getElementById("toast");
    if (!toast) return;
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(showToast.timer);
    showToast.timer = setTimeout(function () { toast.hidden = true; }, 6000);
  }

  // Heavy-wound countdowns: the server says how many seconds are left when it rendered,
  // so a phone with a wrong clock still counts right.
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-left]").forEach(function (el) {
      if (!el.dataset.start) el.dataset.start = String(now);
      var left = Number(el.dataset.left) - Math.floor((now - Number(el.dataset.start)) / 1000);
      if (left <= 0) {
        el.textContent = el.dataset.expired;
        el.classList.add("expired");
      } else {
        var s = left % 60;
        el.textContent = Math.floor(left / 60) + ":" + (s < 10 ? "0" : "") + s;
      }
    });
  }
  setInterval(tick, 1000);

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var text = "";
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var alert = doc.querySelector(".alert");
      text = alert ? alert.textContent.trim() : "";
    } catch (e) { /* keep the fallback below */ }
    showToast(text || (xhr.status + " " + xhr.statusText));
  });
  document.addEventListener("htmx:sendError", function () {
    showToast(document.body.dataset.offline);
  });

  // A sheet's history shows the latest changes only (data-keep, players/web.py): a tap
  // puts its row on top, and the oldest goes, as a reload would show it.
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("ul[data-keep]").forEach(function (list) {
      var keep = parseInt(list.dataset.keep, 10);
      while (keep > 0 && list.children.length > keep) {
        list.removeChild(list.lastElementChild);
      }
    });
  });

  // Nothing moves under the thumb. On the sheet, its history, the feed and the
  // players list ([data-steady]) an answer keeps the row that was tapped (its id, or the
  // one a floating question names in data-anchor) at the same height on the screen,
  // scrolling by what grew or shrank above it. Should another control still come to lie
  // under the finger, a shield takes a quick second tap for a moment, so a double tap
  // never lands on something its first tap did not aim at.
  var lastTap = null;

  // htmx readies what it swaps in only once the swap settles (20 ms; later on a busy
  // phone), and marks it htmx-added until then. The second tap of a double tap can come
  // in between: the new control's form would go the old way, and a whole page would load
  // under the thumb. Such a tap waits for htmx to ready the control, then goes through
  // htmx and its answer is swapped in place. (Readying it early instead would reset a
  // control whose request is under way: htmx keys its set-up on the class attribute.)
  var HX = "[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete]";

  function unready(el) {
    return window.htmx ? el.closest("." + htmx.config.addedClass) : null;
  }

  function afterReady(root, el, then) {
    root.addEventListener("htmx:load", function () { if (el.isConnected) then(); },
                          {once: true});
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var root = form.matches && form.matches(HX) && unready(form);
    if (!root) return;
    event.preventDefault();
    var by = event.submitter && event.submitter.form === form ? event.submitter : null;
    afterReady(root, form, function () { form.requestSubmit(by || undefined); });
  }, true);

  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest(HX);
    if (!el || el.tagName === "FORM") return;  // a form's own submit is caught above
    var root = unready(el);
    if (!root) return;
    event.preventDefault();
    event.stopPropagation();
    afterReady(root, el, function () { el.click(); });
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target;
    // detail 0: a click made by the keyboard, not a finger at a point.
    lastTap = target.closest && target.closest("[data-steady]") && event.detail ?
      {el: target, x: event.clientX, y: event.clientY} : null;
  }, true);

  function controlAt(x, y) {
    var el = document.elementFromPoint(x, y);
    var control = el && el.closest("button, a[href], input, select, textarea, summary, label");
    if (!control) return "";
    var owner = control.closest("[id]");
    return [owner ? owner.id : "", control.tagName, control.name || "", control.value || "",
            control.textContent.trim()].join("|");
  }

  function shield() {
    var cover = document.createElement("div");
    cover.className = "tap-shield";
    cover.setAttribute("aria-hidden", "true");
    document.body.appendChild(cover);
    setTimeout(function () { cover.remove(); }, 600);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (lastTap && (elt === lastTap.el || elt.contains(lastTap.el))) {
      event.detail.xhr.steadyTap = lastTap;
    }
    lastTap = null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var tap = event.detail.xhr && event.detail.xhr.steadyTap;
    if (!tap) return;
    var marked = tap.el.closest("[data-anchor]");
    var anchor = marked ? document.getElementById(marked.dataset.anchor) :
      tap.el.closest("[id]");
    tap.anchor = anchor ? anchor.id : "";
    tap.top = anchor ? anchor.getBoundingClientRect().top : 0;
    tap.control = controlAt(tap.x, tap.y);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var tap = event.detail.xhr && event.detail.xhr.steadyTap;
    if (!tap || tap.done) return;
    tap.done = true;
    var anchor = tap.anchor && document.getElementById(tap.anchor);
    if (anchor) {
      var moved = anchor.getBoundingClientRect().top - tap.top;
      var root = document.documentElement;
      var room = root.scrollHeight - window.innerHeight - window.scrollY;
      if (moved > room) {  // room to scroll by: the page's foot grows by what is missing
        var main = document.getElementById("main");
        var pad = parseFloat(getComputedStyle(main).paddingBottom) || 0;
        main.style.paddingBottom = (pad + moved - room) + "px";
      }
      if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    }
    var now = controlAt(tap.x, tap.y);
    if (now && now !== tap.control) shield();
    // The floating question sits in the half of the screen away from the finger.
    document.querySelectorAll(".confirm-undo").forEach(function (question) {
      question.classList.toggle("at-top", tap.y > window.innerHeight / 2);
    });
  });

  // A count that changes (+, −, a typed count) answers with the whole form: the card's
  // row stays where the thumb left it, even when a line above it grew or shrank (issue
  // 22). Such forms carry data-keep-row; their rows, data-code.
  var keptRow = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    keptRow = null;
    var target = event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-keep-row")) return;
    var config = event.detail.requestConfig || {};
    var from = (config.triggeringEvent && config.triggeringEvent.target) || event.detail.elt;
    var row = from && from.closest ? from.closest("[data-code]") : null;
    if (row && target.contains(row)) {
      keptRow = {form: target.id, code: row.dataset.code, top: row.getBoundingClientRect().top};
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!keptRow) return;
    var form = document.getElementById(keptRow.form);
    var row = form && form.querySelector('[data-code="' + CSS.escape(keptRow.code) + '"]');
    var moved = row ? row.getBoundingClientRect().top - keptRow.top : 0;
    keptRow = null;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  });

  // Enter in a card search (data-find) adds the one card the search finds; Enter in
  // any other field presses the form's first button, which only counts again. The
  // search asks through its own "find" trigger, which clears its pending typing delay:
  // a search sent late would replace the answer to Enter, refusal and all. htmx reads
  // the form synchronously, so the flag is cleared right after. Without htmx, Enter
  // submits the form with the flag.
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches("input[data-find]")) return;
    var flag = input.form && input.form.elements.namedItem("find");
    if (flag) flag.value = "1";
    if (!window.htmx || !input.hasAttribute("hx-post")) return;
    event.preventDefault();
    window.htmx.trigger(input, "find");
    if (flag) flag.value = "";
  });

  // One-time keys: a create form's key goes into the page's address, so Back
  // (which fetches the no-store page again) shows the same key and a second submission
  // is recognised as a repeat instead of starting a second table.
  function keepOnceKey() {
    var input = document.querySelector("form input[data-once]");
    if (!input || !window.history.replaceState) return;
    var url = new URL(window.location.href);
    if (url.searchParams.get("once") === input.value) return;
    url.searchParams.set("once", input.value);
    window.history.replaceState(window.history.state, "", url.toString());
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", keepOnceKey);
  } else {
    keepOnceKey();
  }
})();
