// Scan in the app: a passport's QR code read by the phone's camera.
//
// A [data-scan] button opens the camera screen (templates/players/_scan.html). The code
// is read by the browser's own BarcodeDetector where it reads QR codes, else by the
// decoder vendored in static/vendor (barcode-detector over zxing-wasm), fetched from
// this server on the first Scan only, never from elsewhere. The server says whom the
// code names (/scan/resolve); then the button's page goes on:
//   data-scan="sheet"                   the player's sheet (the top bar);
//   data-scan-into=URL data-scan-param  URL with param=<player id> (a duel slot, with
//     [data-scan-append]                  data-scan-other: the other slot's player), or
//                                         one more param=<id> (a seat);
//   data-scan-select=SELECTOR           that <select>/<input> of the button's form.
// A refused code floats its sentence over the camera, which keeps looking.
(function () {
  "use strict";

  var box = null;        // the camera screen
  var origin = null;     // the button that opened it
  var stream = null;
  var running = false;   // the camera is looking for codes
  var busy = false;      // a frame is being decoded or a code resolved
  var timer = 0;
  var detector = null;   // a promise of the decoder, made on the first Scan
  var refusedCode = "", refusedAt = 0;

  document.documentElement.classList.add("can-scan");  // app.css: buttons show with JS only

  function $(selector) { return box.querySelector(selector); }

  // The decoder --------------------------------------------------------------------
  function nativeDetector() {
    var Native = window.BarcodeDetector;
    if (!Native || !Native.getSupportedFormats) return Promise.resolve(null);
    return Native.getSupportedFormats().then(function (formats) {
      return formats.indexOf("qr_code") >= 0 ? new Native({ formats: ["qr_code"] }) : null;
    }, function () { return null; });
  }

  function vendoredDetector() {
    var wasm = new URL(box.dataset.wasm, location.href).href;
    return import(new URL(box.dataset.decoder, location.href).href).then(function (lib) {
      // Our own copy of the .wasm: the library's default is a CDN, out of reach in the field.
      var ready = lib.prepareZXingModule({
        overrides: {
          locateFile: function (path, prefix) {
            return path.slice(-5) === ".wasm" ? wasm : prefix + path;
          }
        },
        fireImmediately: true
      });
      return Promise.resolve(ready).then(function () {
        return new lib.BarcodeDetector({ formats: ["qr_code"] });
      });
    });
  }

  function loadDetector() {
    if (!detector) {
      detector = nativeDetector().then(function (found) { return found || vendoredDetector(); });
      detector.catch(function () { detector = null; });  // the next Scan tries again
    }
    return detector;
  }

  // The screen ---------------------------------------------------------------------
  function hint(text) { $(".scan-hint").textContent = text || $(".scan-hint").dataset.default; }

  function refuse(text) {
    // A new element each time, so that the fade (app.css .alert.refusal) starts over.
    var old = $(".scan-refusal");
    if (old) old.remove();
    var note = document.createElement("p");
    note.className = "alert refusal scan-refusal";
    note.setAttribute("role", "alert");
    note.textContent = text;
    box.appendChild(note);
  }

  function stopCamera() {
    running = false;
    clearTimeout(timer);
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    $(".scan-video").srcObject = null;
  }

  function close() {
    stopCamera();
    box.hidden = true;
    document.documentElement.classList.remove("scanning");
    var old = $(".scan-refusal");
    if (old) old.remove();
    if (origin) origin.focus();
  }

  function noCamera() {
    box.classList.add("no-camera");
    hint(box.dataset.noCamera);
  }

  function startCamera() {
    var media = navigator.mediaDevices;
    if (!media || !media.getUserMedia) return Promise.reject(new Error("no camera"));
    return media.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false })
      .then(function (got) {
        if (box.hidden) {  // cancelled while the phone asked for the camera
          got.getTracks().forEach(function (track) { track.stop(); });
          return;
        }
        stream = got;
        var video = $(".scan-video");
        video.srcObject = got;
        return video.play();
      });
  }

  function open(button) {
    box = document.getElementById("scan");
    if (!box) return;
    origin = button;
    box.hidden = false;
    box.classList.remove("no-camera");
    document.documentElement.classList.add("scanning");
    hint("");
    refusedCode = "";
    $(".scan-cancel").focus();
    var camera = startCamera().then(function () { return true; }, function () {
      noCamera();
      return false;
    });
    Promise.all([loadDetector(), camera]).then(function (both) {
      if (both[1] && stream && !box.hidden) {
        running = true;
        look(both[0]);
      }
    }, function () {
      stopCamera();  // nothing could read what it films
      refuse(box.dataset.noDecoder);
    });
  }

  // Reading ------------------------------------------------------------------------
  function look(reader) {
    if (!running) return;
    var video = $(".scan-video");
    if (busy || video.readyState < 2) {
      timer = setTimeout(function () { look(reader); }, 150);
      return;
    }
    busy = true;
    reader.detect(video).then(function (codes) {
      var text = codes.length ? codes[0].rawValue : "";
      // The same refused code, still in front of the camera: the sentence is up already.
      if (!text || (text === refusedCode && Date.now() - refusedAt < 4000)) return null;
      return resolve(text);
    }).catch(function () { return null; }).then(function () {
      busy = false;
      if (running) timer = setTimeout(function () { look(reader); }, 120);
    });
  }

  function resolve(text) {
    var url = new URL(box.dataset.resolve, location.href);
    url.searchParams.set("code", text);
    url.searchParams.set("slot", origin.dataset.scan);
    if (origin.dataset.scanOther) url.searchParams.set("other", origin.dataset.scanOther);
    return fetch(url.href, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          if (response.ok && body.player) {
            land(body);
          } else {
            refusedCode = text;
            refusedAt = Date.now();
            refuse(body.error || response.status + " " + response.statusText);
          }
        });
      }, function () {
        refuse(box.dataset.offline);
      });
  }

  function land(found) {
    var button = origin;
    var id = String(found.player.id);
    if (button.dataset.scanInto) {
      stopCamera();
      var url = new URL(button.dataset.scanInto, location.href);
      if ("scanAppend" in button.dataset) url.searchParams.append(button.dataset.scanParam, id);
      else url.searchParams.set(button.dataset.scanParam, id);
      location.assign(url.href);
    } else if (button.dataset.scanSelect) {
      close();
      var field = (button.closest("form") || document).querySelector(button.dataset.scanSelect);
      if (!field) return;
      if (field.tagName === "SELECT" && !field.querySelector("option[value='" + id + "']")) {
        field.add(new Option(found.player.character, id));
      }
      field.value = id;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      field.dispatchEvent(new Event("change", { bubbles: true }));
    } else {
      stopCamera();
      location.assign(found.sheet_url);
    }
  }

  function photo(input) {
    var file = input.files && input.files[0];
    if (!file) return;
    busy = true;
    Promise.all([loadDetector(), createImageBitmap(file)]).then(function (got) {
      return smaller(file, got[1]).then(function (image) { return got[0].detect(image); });
    }).then(function (codes) {
      if (!codes.length) {
        refuse(box.dataset.noCode);
        return null;
      }
      return resolve(codes[0].rawValue);
    }, function () {
      refuse(detector ? box.dataset.noCode : box.dataset.noDecoder);
    }).then(function () {
      busy = false;
      input.value = "";  // the same photo again is a change too
    });
  }

  // A phone's photo is 12 megapixels; a passport's code reads as well, and far faster,
  // from 1600 pixels across.
  function smaller(file, image) {
    var scale = 1600 / Math.max(image.width, image.height);
    if (scale >= 1) return Promise.resolve(image);
    return createImageBitmap(file, {
      resizeWidth: Math.round(image.width * scale),
      resizeHeight: Math.round(image.height * scale),
      resizeQuality: "high"
    });
  }

  // Wiring -------------------------------------------------------------------------
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-scan]");
    if (button) {
      event.preventDefault();
      open(button);
    } else if (box && !box.hidden && event.target.closest(".scan-cancel")) {
      close();
    }
  });
  document.addEventListener("change", function (event) {
    if (box && event.target.classList.contains("scan-file")) photo(event.target);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && box && !box.hidden) close();
  });
  // Leaving the page (or coming Back to it from the cache) never leaves the camera on.
  window.addEventListener("pagehide", function () { if (box && !box.hidden) close(); });
})();
