// The record screen: pick the player and the infraction, answer its questions, see the
// ruling, save. Saving sends the record with an id made here, so a double tap or a retry
// never records twice; when the server cannot be reached the record waits on this phone
// (localStorage) and is sent, through the same checks, when the connection is back.
(function () {
  "use strict";
  var form = document.getElementById("record-form");
  if (!form) return;
  var eventId = form.dataset.event;
  var QUEUE = "shinpan-queue-" + eventId;
  var $ = function (sel) { return document.querySelector(sel); };
  var previewTimer = null;

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function csrf() { return form.elements.csrf_token.value; }
  form.elements.command_id.value = newId();

  function show(el, on) { el.hidden = !on; }
  function chosen(box, label, onChange) {
    box.textContent = "";
    var span = document.createElement("strong"); span.textContent = label; box.appendChild(span);
    var again = document.createElement("button"); again.type = "button"; again.textContent = box.dataset.change || "✎";
    again.addEventListener("click", onChange); box.appendChild(again);
    show(box, true);
  }

  // 1. the player
  document.addEventListener("click", function (ev) {
    var pick = ev.target.closest(".player-pick");
    if (!pick) return;
    form.elements.player.value = pick.dataset.player;
    chosen($("#chosen-player"), pick.dataset.label, function () {
      form.elements.player.value = ""; show($("#chosen-player"), false);
      show($("#player-search"), true); show($("#player-results"), true); $("#player-search").focus(); schedulePreview();
    });
    show($("#player-search"), false); show($("#player-results"), false);
    schedulePreview();
  });

  // 2. the infraction: instant filter by words and category
  var category = "";
  function filter() {
    var words = $("#infraction-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll("#infraction-results .infraction-pick").forEach(function (b) {
      var hay = b.dataset.search.toLowerCase();
      var ok = words.every(function (w) { return hay.indexOf(w) >= 0 || hay.indexOf(toHiragana(w)) >= 0; });
      b.hidden = !(ok && (!category || b.dataset.category === category || !b.dataset.category));
    });
  }
  function toHiragana(s) { return s.replace(/[\u30a1-\u30f6]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); }); }
  $("#infraction-search").addEventListener("input", filter);
  document.querySelectorAll("#categories .chip").forEach(function (chip) {
    chip.addEventListener("click", function () {
      category = chip.dataset.category;
      document.querySelectorAll("#categories .chip").forEach(function (c) { c.classList.toggle("active", c === chip); });
      filter();
    });
  });
  document.addEventListener("click", function (ev) {
    var pick = ev.target.closest(".infraction-pick");
    if (!pick) return;
    form.elements.infraction.value = pick.dataset.infraction;
    chosen($("#chosen-infraction"), pick.dataset.label, function () {
      form.elements.infraction.value = ""; show($("#chosen-infraction"), false); show($("#infraction-picker"), true);
      show($("#step-questions"), false); show($("#step-preview"), false);
    });
    show($("#infraction-picker"), false);
    fetch("/events/" + eventId + "/record/questions?infraction=" + encodeURIComponent(pick.dataset.infraction), { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        $("#questions").innerHTML = html;
        show($("#step-questions"), html.trim().length > 0);
        schedulePreview();
      });
  });

  // 3. the ruling before saving
  form.addEventListener("change", function (ev) { if (ev.target.closest("#questions")) schedulePreview(); });
  form.addEventListener("input", function (ev) { if (ev.target.closest("#questions")) schedulePreview(); });
  function schedulePreview() { clearTimeout(previewTimer); previewTimer = setTimeout(preview, 120); }
  function preview() {
    var ready = form.elements.player.value && form.elements.infraction.value;
    show($("#step-preview"), !!ready);
    $("#save").disabled = true;
    if (!ready) return;
    fetch("/events/" + eventId + "/record/preview", { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        $("#preview").innerHTML = html;
        $("#save").disabled = !$("#preview .ruling-preview") || !!$("#preview .field-error");
      })
      .catch(function () { $("#preview").textContent = ""; $("#save").disabled = false; });
  }

  // Saving, with the unsent queue
  function payload() {
    var data = { command_id: form.elements.command_id.value, player: form.elements.player.value,
                 infraction: form.elements.infraction.value, facts: {} };
    new FormData(form).forEach(function (value, key) {
      if (key.indexOf("fact_") === 0 && value !== "") data.facts[key.slice(5)] = value === "yes" ? true : value === "no" ? false : value;
    });
    if (form.elements.draft && form.elements.draft.value) data.draft = form.elements.draft.value;
    if (form.elements.uncategorized) {
      data.penalties = Array.prototype.map.call(form.querySelectorAll("input[name=penalties]:checked"), function (c) { return c.value; });
    }
    return data;
  }
  function queue() { try { return JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { return []; } }
  function setQueue(items) {
    localStorage.setItem(QUEUE, JSON.stringify(items));
    show($("#offline"), items.length > 0);
    $("#queued").textContent = items.length ? "(" + items.length + ")" : "";
  }
  function send(data) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, 8000);
    return fetch("/api/events/" + eventId + "/rulings", {
      method: "POST", credentials: "same-origin", signal: controller.signal,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(data)
    }).finally(function () { clearTimeout(timer); });
  }
  function report(ok, text) {
    var box = $("#result"); box.className = "flash " + (ok ? "ok" : "error"); box.textContent = text;
    box.setAttribute("role", ok ? "status" : "alert");
  }
  function saved(body) {
    var lines = body.rulings.map(function (r) {
      return "#" + r.number + " " + r.player + ": " + (document.documentElement.lang === "en" ? r.explanation_en : r.explanation_ja);
    });
    report(true, (document.documentElement.lang === "en" ? "Saved. " : "記録しました。") + lines.join(" / "));
  }
  function refused(response, data) {
    return response.json().then(function (body) {
      var detail = body.detail || response.statusText;
      if (body.errors) detail += ": " + body.errors.map(function (e) { return e.field + " " + e.message; }).join("; ");
      report(false, (data.player ? data.player + " / " + data.infraction + ": " : "") + detail);
    }, function () { report(false, response.status + " " + response.statusText); });
  }
  function reset() {
    form.elements.command_id.value = newId();
    form.elements.player.value = ""; form.elements.infraction.value = "";
    show($("#chosen-player"), false); show($("#chosen-infraction"), false);
    show($("#player-search"), true); show($("#player-results"), true); show($("#infraction-picker"), true);
    $("#player-search").value = ""; $("#player-results").innerHTML = "";
    show($("#step-questions"), false); show($("#step-preview"), false); $("#preview").innerHTML = "";
    window.scrollTo(0, 0);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var data = payload();
    $("#save").disabled = true;
    send(data).then(function (response) {
      if (response.ok) return response.json().then(function (body) { saved(body); reset(); });
      return refused(response, data).then(function () { $("#save").disabled = false; });
    }, function () {
      setQueue(queue().concat([data]));
      report(false, document.documentElement.lang === "en" ? "Not sent yet: kept on this phone." : "未送信: この端末に保存しました。");
      reset();
    });
  });
  var flushing = false;
  function flush() {
    var items = queue();
    if (!items.length || flushing) { setQueue(items); return; }
    flushing = true;
    var item = items[0];
    send(item).then(function (response) {
      if (response.ok) return response.json().then(saved).then(function () { return true; });
      // Signed out, an old CSRF token, a server in trouble: say so, keep it, try again later.
      // Refused for what it says (unknown player…): say why and let it go.
      var keep = response.status === 401 || response.status === 403 || response.status >= 500;
      return refused(response, item).then(function () { return !keep; });
    }).then(function (done) {
      flushing = false;
      if (!done) { setQueue(queue()); return; }
      setQueue(queue().filter(function (q) { return q.command_id !== item.command_id; }));
      flush();
    }, function () { flushing = false; setQueue(queue()); });
  }
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
  flush();
})();
