// The check-in desk (templates/manage/checkin/scan.html). One form checks a badge in; this
// script posts it without leaving the page and swaps the answer in (#scan-result, #scan-more),
// from three sources:
// - a USB scanner or the keyboard: it types the QR code's text into #scan-code and presses
//   Enter; the box takes the focus back after each answer, and a key typed while nothing
//   editable has the focus goes to the box, so the next badge can be scanned at once;
// - the camera (getUserMedia: only on https or localhost): frames are read until a QR code is
//   found; the same badge is not sent again while it stays in view;
// - a photo (#scan-photo, a file input: works on plain http too).
// Reading a QR code: the browser's BarcodeDetector where it has one, else the vendored jsQR
// (static/vendor/jsqr). Answers are sent one after another, so they show in scan order.
(function () {
  "use strict";
  var form = document.getElementById("scan-form");
  if (!form) return;
  var input = document.getElementById("scan-code");
  var note = document.getElementById("camera-note");
  var startButton = document.getElementById("camera-start");
  var stopButton = document.getElementById("camera-stop");
  var photo = document.getElementById("scan-photo");
  var box = document.getElementById("camera-box");
  var video = document.getElementById("camera-video");
  var canvas = document.createElement("canvas");
  var context = canvas.getContext("2d", { willReadFrequently: true });
  var detector = null;
  if ("BarcodeDetector" in window) {
    try {
      detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    } catch (error) {
      detector = null;
    }
  }
  var queue = Promise.resolve();
  var lastVia = "typed";
  var stream = null;
  var timer = null;
  var seen = { code: "", at: 0 };
  var api = { lastReader: "" };
  window.gjCheckinScan = api;

  function say(text) {
    note.textContent = text || "";
    note.hidden = !text;
  }

  function keepFocus() {
    // Not after a camera or photo scan on a phone: the keyboard would cover the answer.
    if (lastVia === "typed") input.focus({ preventScroll: true });
  }

  // The answer's parts (manage/checkin/_scan_state.html) replace the page's by id; the
  // result's box itself stays, so screen readers announce its new content.
  function swap(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var found = 0;
    ["scan-result", "scan-more"].forEach(function (id) {
      var fresh = holder.querySelector("#" + id);
      var current = document.getElementById(id);
      if (!fresh || !current) return;
      current.replaceChildren.apply(current, Array.prototype.slice.call(fresh.childNodes));
      found += 1;
    });
    if (!found) throw new Error("no answer");
  }

  function showFailure() {
    var result = document.getElementById("scan-result");
    var div = document.createElement("div");
    div.className = "scan-result scan-error";
    div.setAttribute("role", "alert");
    div.dataset.error = "network";
    var p = document.createElement("p");
    p.className = "scan-message";
    p.textContent = form.dataset.msgFailed;
    div.appendChild(p);
    result.replaceChildren(div);
  }

  function send(action, data) {
    queue = queue
      .then(function () {
        return fetch(action, {
          method: "POST",
          body: data,
          credentials: "same-origin",
          headers: { "HX-Request": "true" },
        });
      })
      .then(function (response) {
        // 400 is a refusal with its answer (unknown code, another event's badge ...).
        if (response.status !== 200 && response.status !== 400) throw new Error(response.status);
        return response.text().then(swap);
      })
      .catch(showFailure)
      .then(keepFocus);
    return queue;
  }

  function checkIn(code, via) {
    lastVia = via;
    var data = new FormData(form);
    data.set("code", code);
    return send(form.action, data);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var code = input.value.trim();
    input.value = "";
    if (!code) {
      // A scanner's second Enter: nothing to send, the last answer stays.
      input.focus();
      return;
    }
    checkIn(code, "typed");
  });

  document.addEventListener("submit", function (event) {
    var target = event.target;
    if (!(target.matches && target.matches("form.scan-undo"))) return;
    event.preventDefault();
    send(target.action, new FormData(target));
  });

  // A USB scanner types wherever the focus is: a key typed outside any field goes to the box.
  document.addEventListener("keydown", function (event) {
    var active = document.activeElement;
    if (active && active.matches && active.matches("input, textarea, select, [contenteditable]")) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    input.focus();
  });

  // --- reading a QR code ------------------------------------------------------------------

  function readWithJsQR(source, width, height, limit) {
    if (!window.jsQR || !width || !height) return null;
    var scale = Math.min(1, limit / Math.max(width, height));
    var w = Math.max(1, Math.round(width * scale));
    var h = Math.max(1, Math.round(height * scale));
    canvas.width = w;
    canvas.height = h;
    context.drawImage(source, 0, 0, w, h);
    var found = window.jsQR(context.getImageData(0, 0, w, h).data, w, h, {
      inversionAttempts: "attemptBoth",
    });
    api.lastReader = "jsQR";
    return found && found.data ? found.data : null;
  }

  // The one decode function of the desk: a video frame, an <img>, a canvas or an ImageBitmap
  // in, the QR code's text (or null) out.
  function decode(source, width, height, limit) {
    var fallback = function () {
      return readWithJsQR(source, width, height, limit || 1200);
    };
    if (!detector) return Promise.resolve(fallback());
    return detector.detect(source).then(function (codes) {
      if (codes.length) {
        api.lastReader = "BarcodeDetector";
        return codes[0].rawValue;
      }
      return fallback();
    }, fallback);
  }

  function sizeOf(source) {
    return {
      width: source.videoWidth || source.naturalWidth || source.width,
      height: source.videoHeight || source.naturalHeight || source.height,
    };
  }

  // Decode an image and check in what it reads; resolves to the code read (or null). The photo
  // input uses it, and so do the browser tests (a headless browser has no camera).
  api.scanImage = function (source) {
    var size = sizeOf(source);
    return decode(source, size.width, size.height, 1600).then(function (code) {
      if (!code) {
        say(form.dataset.msgUnread);
        return null;
      }
      say("");
      return checkIn(code, "photo").then(function () {
        return code;
      });
    });
  };

  if (photo) {
    var photoLabel = document.querySelector("label[for='scan-photo']");
    if (photoLabel) photoLabel.hidden = false;
    photo.addEventListener("change", function () {
      var file = photo.files && photo.files[0];
      photo.value = "";
      if (!file) return;
      // An ImageBitmap, not a blob: URL (the Content-Security-Policy allows images from this
      // site and data: only).
      window.createImageBitmap(file).then(api.scanImage, function () {
        say(form.dataset.msgUnread);
      });
    });
  }

  // --- the camera -------------------------------------------------------------------------

  function stopCamera() {
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    clearTimeout(timer);
    box.hidden = true;
    stopButton.hidden = true;
    startButton.hidden = false;
  }

  function tick() {
    if (!stream) return;
    if (video.readyState < 2) {
      timer = setTimeout(tick, 150);
      return;
    }
    decode(video, video.videoWidth, video.videoHeight, 800)
      .then(function (code) {
        var now = Date.now();
        if (!code) return;
        var again = code === seen.code && now - seen.at < 3000;
        seen = { code: code, at: now };
        if (!again) checkIn(code, "camera");
      })
      .catch(function () {})
      .then(function () {
        timer = setTimeout(tick, 200);
      });
  }

  function startCamera() {
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (media) {
        stream = media;
        video.srcObject = media;
        box.hidden = false;
        startButton.hidden = true;
        stopButton.hidden = false;
        say(form.dataset.msgLooking);
        return video.play();
      })
      .then(tick)
      .catch(function () {
        stopCamera();
        say(form.dataset.msgDenied);
      });
  }

  if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    startButton.hidden = false;
    startButton.addEventListener("click", startCamera);
    stopButton.addEventListener("click", stopCamera);
  } else {
    say(form.dataset.msgInsecure);
  }
})();
