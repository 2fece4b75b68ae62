// The record screen: find the player, pick the infraction, answer its questions, see the
// ruling, save. It works offline too, and decides nothing there:
// - the service worker (/sw.js) keeps this page, its scripts and the roster, so the page
//   opens without the network; every infraction's questions are in the page;
// - players are searched on the server, or, without it, in the roster kept here (the same
//   search keys, the same romaji spelling rules, both from the server);
// - a record is sent with an id made here and the time the judge saved it (given_at), so a
//   double tap or a retry never records twice; without the network it waits on this phone
//   (localStorage) and is sent, through the same checks, when the connection is back. The
//   server decides the offence number and the penalty when it arrives.
(function () {
  "use strict";
  var form = document.getElementById("record-form");
  // T14: opened from a judge call (?call=N): the ruling carries the call.
  var fromCall = new URLSearchParams(location.search).get("call");
  if (form && fromCall && /^[0-9]{1,9}$/.test(fromCall)) form.elements.call.value = fromCall;
  if (!form) return;
  var eventId = form.dataset.event;
  var QUEUE = "shinpan-queue-" + eventId;
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var previewTimer = null;
  var chosenPlayer = null; // the picked player, with their seat and opponent
  var roster = null; // {round, players: [...], spelling: [[pattern, replacement]…]}

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function csrf() { return form.elements.csrf_token.value; }
  function word(id) { var e = $("#" + id); return e.dataset.text || e.textContent; }  // data-text: a sentence with {blanks}
  function show(el, on) { if (el) el.hidden = !on; }
  function clone(id) { return $("#" + id).content.firstElementChild.cloneNode(true); }
  form.elements.command_id.value = newId();

  // A fetch that gives up after `ms` (venue Wi-Fi tends to hang rather than fail).
  function fetchWithin(url, options, ms) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, ms);
    return fetch(url, Object.assign({ credentials: "same-origin", signal: controller.signal }, options || {}))
      .finally(function () { clearTimeout(timer); });
  }

  // -- the roster, for searching without the network --------------------------------------
  function loadRoster() {
    return fetchWithin("/events/" + eventId + "/record/roster", {}, 8000)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) { roster = data; }, function () { /* keep the one we have */ });
  }
  loadRoster();
  setInterval(function () { if (navigator.onLine !== false) loadRoster(); }, 60000);

  // -- 自分の記録: what this judge recorded today, as it stands on the server -------------
  // (kept by the service worker: offline, the last copy is shown, and the queue above it)
  function loadMine() {
    return fetchWithin("/events/" + eventId + "/record/mine", {}, 8000)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { $("#mine-list").innerHTML = html; }, function () { /* keep what is shown */ });
  }
  loadMine();

  var KATAKANA = /[\u30a1-\u30f6]/g;
  function normalize(s) {
    return s.normalize("NFKC").toLowerCase()
      .replace(KATAKANA, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); });
  }
  function spelling(w) { // as romaji.spelling: the rules, again until nothing changes
    var out = w.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    for (var pass = 0; pass < 5; pass++) {
      var before = out;
      (roster ? roster.spelling : []).forEach(function (rule) { out = out.replace(new RegExp(rule[0], "g"), rule[1]); });
      if (out === before) break;
    }
    return out;
  }
  function isRomaji(w) { return /^[\x00-\x7f]*$/.test(w) && /[a-z]/.test(w); }
  function tableAsked(w) {
    var digits = /^[t卓]\d+$/.test(w) ? w.slice(1) : w;
    return /^\d{1,6}$/.test(digits) ? parseInt(digits, 10) : null;
  }
  // The roster searched as the server searches (services/queries.find_players).
  function searchRoster(query, limit) {
    if (!roster) return [];
    var words = query.split(/\s+/).map(normalize).filter(Boolean);
    var found = [];
    var seen = {};
    function add(p) { if (!seen[p.number]) { seen[p.number] = true; found.push(p); } }
    var table = words.length === 1 ? tableAsked(words[0]) : null;
    if (table !== null) roster.players.forEach(function (p) { if (p.table === table) add(p); });
    roster.players.forEach(function (p) { if (p.number === query.trim()) add(p); });
    var forms = words.map(function (w) {
      var spelt = isRomaji(w) ? spelling(w) : "";
      return spelt && spelt !== w ? [w, spelt] : [w];
    });
    roster.players.forEach(function (p) {
      if (forms.every(function (f) { return f.some(function (x) { return p.search.indexOf(x) >= 0; }); })) add(p);
    });
    return found.slice(0, limit);
  }
  // Players matching `query`: from the server, or from the roster when it cannot answer.
  function findPlayers(query, limit) {
    var url = "/api/events/" + eventId + "/players?q=" + encodeURIComponent(query);
    return fetchWithin(url, {}, 3000)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (players) { return players.slice(0, limit); },
            function () { return searchRoster(query, limit); });
  }

  function fill(el, sel, text) { var x = $(sel, el); if (x) x.textContent = text; return x; }
  function seatText(p) { return p.seat ? $("#fragments [data-side='" + p.seat + "']").textContent : ""; }
  function playerButton(p) {
    var b = clone("player-result");
    b.dataset.player = p.number;
    b.dataset.label = p.name + " (" + p.number + ")";
    fill(b, ".name", p.name); fill(b, ".reading", p.reading || ""); fill(b, ".number", p.number);
    if (p.table) {
      show($(".seat", b), true);
      fill(b, ".table", String(p.table)); fill(b, ".side", seatText(p));
      fill(b, ".opponent", p.opponent ? (p.opponent_name || p.opponent) + " (" + p.opponent + ")" : "—");
    }
    if (p.status && p.status !== "active") {
      var status = fill(b, ".status", $("#fragments [data-status='" + p.status + "']").textContent);
      show(status, true);
    }
    b._player = p;
    return b;
  }
  function renderPlayers(box, players, q, make) {
    box.textContent = "";
    if (!players.length && q) { box.appendChild($("#no-player").cloneNode(true)); return; }
    players.forEach(function (p) { box.appendChild(make(p)); });
  }

  // -- 1. the player -------------------------------------------------------------------------
  var playerSearch = $("#player-search");
  var searchTimer = null;
  var asked = 0;
  playerSearch.addEventListener("input", function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      var q = playerSearch.value.trim();
      var mine = ++asked;
      if (!q) { $("#player-results").textContent = ""; return; }
      findPlayers(q, 12).then(function (players) {
        if (mine === asked) renderPlayers($("#player-results"), players, q, playerButton);
      });
    }, 150);
  });

  function chosen(box, label, detail, onChange) {
    box.textContent = "";
    var text = document.createElement("div");
    var strong = document.createElement("strong"); strong.textContent = label; text.appendChild(strong);
    if (detail) { var d = document.createElement("div"); d.className = "muted"; d.textContent = detail; text.appendChild(d); }
    box.appendChild(text);
    var again = document.createElement("button"); again.type = "button"; again.textContent = "✎";
    again.setAttribute("aria-label", label);
    again.addEventListener("click", onChange); box.appendChild(again);
    show(box, true);
  }
  document.addEventListener("click", function (ev) {
    var pick = ev.target.closest(".player-pick");
    if (!pick) return;
    chosenPlayer = pick._player || { number: pick.dataset.player, name: pick.dataset.label };
    form.elements.player.value = chosenPlayer.number;
    var seat = pick.querySelector(".seat:not([hidden])");
    chosen($("#chosen-player"), pick.dataset.label, seat ? seat.textContent.replace(/\s+/g, " ").trim() : "", function () {
      form.elements.player.value = ""; chosenPlayer = null; show($("#chosen-player"), false);
      show(playerSearch, true); show($("#player-results"), true); playerSearch.focus();
      offerOpponent(); schedulePreview();
    });
    show(playerSearch, false); show($("#player-results"), false);
    offerOpponent();
    if (!form.elements.infraction.value) $("#infraction-search").focus();
    schedulePreview();
  });

  // -- 2. the infraction: instant filter by words and category ------------------------------
  var category = "";
  function filter() {
    var words = $("#infraction-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll("#infraction-results .infraction-pick").forEach(function (b) {
      var hay = b.dataset.search.toLowerCase();
      var ok = words.every(function (w) { return hay.indexOf(w) >= 0 || hay.indexOf(normalize(w)) >= 0; });
      b.hidden = !(ok && (!category || b.dataset.category === category || !b.dataset.category));
    });
  }
  function setCategory(value) {
    category = value;
    document.querySelectorAll("#categories .chip").forEach(function (c) {
      c.classList.toggle("active", value !== "" && c.dataset.category === value);
    });
    filter();
  }
  $("#infraction-search").addEventListener("input", filter);
  document.querySelectorAll("#categories .chip").forEach(function (chip) {
    chip.addEventListener("click", function () { setCategory(chip.dataset.category); });
  });
  document.addEventListener("click", function (ev) {
    var pick = ev.target.closest(".infraction-pick");
    if (!pick) return;
    form.elements.infraction.value = pick.dataset.infraction;
    chosen($("#chosen-infraction"), pick.dataset.label, "", function () {
      form.elements.infraction.value = ""; show($("#chosen-infraction"), false); show($("#infraction-picker"), true);
      show($("#step-questions"), false); show($("#step-preview"), false); $("#questions").textContent = "";
    });
    show($("#infraction-picker"), false);
    var questions = $("#fragments template[data-questions='" + pick.dataset.infraction + "']");
    $("#questions").textContent = "";
    if (questions) $("#questions").appendChild(questions.content.cloneNode(true));
    show($("#step-questions"), $("#questions").children.length > 0);
    offerOpponent();
    schedulePreview();
  });

  // Two-player infractions: the opponent of the current pairing in one tap; anyone else by search.
  function offerOpponent() {
    document.querySelectorAll("#questions .participant").forEach(function (box) {
      var button = $(".opponent-pick", box);
      var p = chosenPlayer;
      var ok = p && p.opponent;
      show(button, !!ok);
      if (ok) {
        fill(button, "strong", (p.opponent_name || p.opponent) + " (" + p.opponent + ")");
        button.dataset.player = p.opponent;
      }
    });
  }
  function participantButton(p) {
    var b = clone("participant-result");
    b.dataset.player = p.number;
    fill(b, ".name", p.name); fill(b, ".number", p.number);
    if (p.table) { show($(".seat", b), true); fill(b, ".table", String(p.table)); }
    return b;
  }
  var participantTimer = null;
  form.addEventListener("input", function (ev) {
    var input = ev.target.closest(".participant-input");
    if (!input) return;
    clearTimeout(participantTimer);
    participantTimer = setTimeout(function () {
      var box = input.closest(".participant");
      var results = $(".participant-results", box);
      var q = input.value.trim();
      if (!q) { results.textContent = ""; return; }
      findPlayers(q, 6).then(function (players) {
        renderPlayers(results, players.filter(function (p) { return p.number !== form.elements.player.value; }), "", participantButton);
      });
    }, 200);
  });
  form.addEventListener("click", function (ev) {
    var pick = ev.target.closest(".opponent-pick, .participant-pick");
    if (!pick) return;
    var box = pick.closest(".participant");
    $(".participant-input", box).value = pick.dataset.player;
    $(".participant-results", box).textContent = "";
    schedulePreview();
  });

  // -- 3. the ruling before saving -------------------------------------------------------------
  form.addEventListener("change", function (ev) { if (ev.target.closest("#questions")) schedulePreview(); });
  form.addEventListener("input", function (ev) { if (ev.target.closest("#questions")) schedulePreview(); });
  // The preview is busy from a change until its answer is shown (the save button and the page
  // may move then): aria-busy tells assistive technology, and tests, to wait. An answer to an
  // earlier state of the form (the judge changed it since, or saved it) is not shown.
  var previewSeq = 0;
  function busy(on) { $("#preview").setAttribute("aria-busy", on ? "true" : "false"); }
  function schedulePreview() {
    previewSeq++; busy(true);
    clearTimeout(previewTimer); previewTimer = setTimeout(preview, 120);
  }
  function cancelPreview() { previewSeq++; clearTimeout(previewTimer); busy(false); }
  function ready() { return form.elements.player.value && form.elements.infraction.value; }
  function saveInSight() {
    var save = $("#save");
    var box = save.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) save.scrollIntoView({ block: "end" });
  }
  function preview() {
    var mine = ++previewSeq;
    show($("#step-preview"), !!ready());
    $("#save").disabled = true;
    if (!ready()) { busy(false); return; }
    fetchWithin("/events/" + eventId + "/record/preview", { method: "POST", body: new FormData(form) }, 4000)
      .then(function (r) { return r.text(); })
      .then(function (html) {
        if (mine !== previewSeq) return;
        $("#preview").innerHTML = html;
        $("#save").disabled = !$("#preview .ruling-preview") || !!$("#preview .field-error");
        saveInSight();
        busy(false);
      }, function () {
        if (mine !== previewSeq) return;
        // No server: nothing is decided here. Say so, and let the judge save for later.
        $("#preview").textContent = ""; $("#preview").appendChild(clone("offline-preview"));
        $("#save").disabled = false;
        saveInSight();
        busy(false);
      });
  }

  // A late player who is at the table: their late deadlines end in one tap (到着, D9, D23).
  $("#preview").addEventListener("click", function (ev) {
    var button = ev.target.closest(".arrived");
    if (!button) return;
    button.disabled = true;
    var body = new FormData();
    body.append("csrf_token", csrf()); body.append("command_id", newId());
    var url = "/events/" + eventId + "/desk/deadline/" + button.dataset.ruling + "/" + button.dataset.position + "/arrived";
    fetchWithin(url, { method: "POST", body: body }, 8000).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      var box = button.closest(".arrival");
      box.className = "flash ok arrival-done"; box.textContent = word("word-arrived");
    }).catch(function () { button.disabled = false; });
  });

  // -- a table's time extension (a judge call, a deck check): the table, minutes, why ---------
  var timeForm = $("#time-form");
  $("#extend").addEventListener("toggle", function () {
    if ($("#extend").open && chosenPlayer && chosenPlayer.table && !timeForm.elements.table.value) {
      timeForm.elements.table.value = chosenPlayer.table;
    }
  });
  timeForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var body = { command_id: newId(), table: parseInt(timeForm.elements.table.value, 10),
                 minutes: parseInt(timeForm.elements.minutes.value, 10), reason: timeForm.elements.reason.value.trim() };
    var box = $("#time-result");
    $("#give-time").disabled = true;
    fetchWithin("/api/events/" + eventId + "/extensions", {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body)
    }, 8000).then(function (r) {
      return r.json().then(function (answer) {
        box.className = "flash " + (r.ok ? "ok" : "error");
        box.textContent = r.ok ? word("word-time-given").replace("{table}", body.table).replace("{minutes}", body.minutes)
                               : (answer.detail || String(r.status));
        if (r.ok) { timeForm.elements.reason.value = ""; timeForm.elements.table.value = ""; }
      });
    }).catch(function () { box.className = "flash error"; box.textContent = word("word-kept-no"); })
      .finally(function () { $("#give-time").disabled = false; });
  });

  // -- saving, with the queue of records not sent yet ----------------------------------------
  function payload() {
    var data = { command_id: form.elements.command_id.value, player: form.elements.player.value,
                 infraction: form.elements.infraction.value, facts: {}, given_at: new Date().toISOString() };
    new FormData(form).forEach(function (value, key) {
      if (key.indexOf("fact_") === 0 && value !== "") data.facts[key.slice(5)] = value === "yes" ? true : value === "no" ? false : value;
    });
    if (form.elements.draft && form.elements.draft.value) data.draft = form.elements.draft.value;
    if (form.elements.call && form.elements.call.value) data.call = parseInt(form.elements.call.value, 10);
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
    var list = $("#outbox");
    list.textContent = "";
    items.forEach(function (item) {
      var li = clone("queued-item");
      fill(li, ".what", item.shown ? item.shown.player + " · " + item.shown.infraction : item.body.player);
      fill(li, ".when", clock(item.body.given_at));
      list.appendChild(li);
    });
    show(list, items.length > 0);
  }
  // A time as the event reads it: in the event's time zone, whatever the phone's.
  function clock(iso) {
    var options = { hour: "2-digit", minute: "2-digit", hour12: false };
    try { return new Date(iso).toLocaleTimeString("ja-JP", Object.assign({ timeZone: form.dataset.zone }, options)); }
    catch (e) { return new Date(iso).toLocaleTimeString("ja-JP", options); }
  }
  function send(body) {
    return fetchWithin("/api/events/" + eventId + "/rulings", {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body)
    }, 8000);
  }
  // ok: true (saved), false (refused: an error), or "kept" (not sent yet, kept on the phone:
  // nothing went wrong with it, so it is not told as an error).
  function report(ok, text, append) {
    var box = $("#result");
    if (!append || box.className !== "flash ok") { box.textContent = ""; }
    box.className = "flash " + (ok === "kept" ? "warn" : ok ? "ok" : "error");
    box.setAttribute("role", ok === true || ok === "kept" ? "status" : "alert");
    var line = document.createElement("p"); line.textContent = text; box.appendChild(line);
  }
  function saved(body, append) {
    var en = document.documentElement.lang === "en";
    var lines = body.rulings.map(function (r) {
      var who = r.player_name ? r.player_name + " (" + r.player + ")" : r.player;
      return word("word-ruling") + " #" + r.number + " " + who + ": " + (en ? r.explanation_en : r.explanation_ja);
    });
    report(true, word("word-saved") + " " + lines.join(" / "), append);
  }
  function refused(response, item) {
    return response.json().then(function (body) {
      var detail = body.detail || response.statusText;
      if (body.errors) detail += ": " + body.errors.map(function (e) { return e.field + " " + e.message; }).join("; ");
      var what = item.shown ? item.shown.player + " / " + item.shown.infraction + ": " : "";
      report(false, what + detail);
    }, function () { report(false, response.status + " " + response.statusText); });
  }
  function reset() {
    cancelPreview();
    form.elements.command_id.value = newId();
    form.elements.player.value = ""; form.elements.infraction.value = ""; chosenPlayer = null;
    show($("#chosen-player"), false); show($("#chosen-infraction"), false);
    show(playerSearch, true); show($("#player-results"), true); show($("#infraction-picker"), true);
    playerSearch.value = ""; $("#player-results").textContent = "";
    $("#infraction-search").value = ""; setCategory("");
    show($("#step-questions"), false); show($("#step-preview"), false);
    $("#questions").textContent = ""; $("#preview").textContent = "";
    window.scrollTo(0, 0);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!ready()) return;
    var item = { body: payload(), shown: { player: $("#chosen-player strong").textContent,
                                            infraction: $("#chosen-infraction strong").textContent } };
    $("#save").disabled = true;
    send(item.body).then(function (response) {
      if (response.ok) return response.json().then(function (body) { saved(body); reset(); loadMine(); });
      return refused(response, item).then(function () { $("#save").disabled = false; });
    }, function () {
      setQueue(queue().concat([item]));
      report("kept", word("word-kept"));
      reset();
    });
  });

  var flushing = false;
  function flush(first) {
    var items = queue();
    if (!items.length || flushing) { setQueue(items); return; }
    flushing = true;
    var item = items[0];
    send(item.body).then(function (response) {
      if (response.ok) return response.json().then(function (body) { saved(body, !first); loadMine(); return true; });
      // Signed out, an old CSRF token, a server in trouble: say so, keep it, try again later.
      // Refused for what it says (unknown player…): say why and let it go.
      var keep = response.status === 401 || response.status === 403 || response.status >= 500;
      return refused(response, item).then(function () { return !keep; });
    }).then(function (done) {
      flushing = false;
      if (!done) { setQueue(queue()); return; }
      setQueue(queue().filter(function (q) { return q.body.command_id !== item.body.command_id; }));
      flush(false);
    }, function () { flushing = false; setQueue(queue()); });
  }
  window.addEventListener("online", function () { flush(true); loadRoster(); });
  setInterval(function () { flush(true); }, 5000);
  flush(true);

  // The worker keeps this screen from its first visit: when it installs it keeps the record
  // screens open then; a page that no worker loaded (a hard reload, a worker installed by
  // another tab) asks the running worker to keep it, and asks again, a few times and further
  // apart, until the screen, its roster and 自分の記録 are kept (the Wi-Fi may drop just then).
  if ("serviceWorker" in navigator) {
    var loadedByWorker = !!navigator.serviceWorker.controller;
    // Asked again on a timer, not only on an answer: an answer can be lost with the worker.
    var keepAsked = 0;
    var keepTimer = null;
    var askToKeep = function () {
      if (keepAsked >= 8) return;
      keepAsked += 1;
      keepTimer = setTimeout(askToKeep, 1500 * keepAsked);
      navigator.serviceWorker.ready.then(function (registration) {
        var claim = !navigator.serviceWorker.controller; // its searches and records go through it
        if (registration.active) registration.active.postMessage({ keep: location.pathname, claim: claim });
      }).catch(function () {});
    };
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.kept !== location.pathname) return;
      var urls = data.urls || [];
      var whole = ["", "/roster", "/mine"].every(function (end) { return urls.indexOf(location.pathname + end) >= 0; });
      if (whole && navigator.serviceWorker.controller) { clearTimeout(keepTimer); keepAsked = 8; }
    });
    if (navigator.serviceWorker.startMessages) navigator.serviceWorker.startMessages();
    navigator.serviceWorker.register("/sw.js").then(function () {
      if (!loadedByWorker) askToKeep();
    }).catch(function () {});
  }
})();
