// The scorekeeper's page: the round's countdown, and results entered without reloading.
//
// Keyboard first, for a stack of slips: the next table waits in the table box, the cursor
// in the score box; "21" Enter records 2-1 and readies the next table. "12 21" is table
// 12's 2-1. A table that already has a result is refused with it (T11): the page says
// which result stands and asks for the reason; Enter again records the correction.
// Every answer is the server's; the page then reads the rows and the standings again.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-ends]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.ends.replace(/\.(\d{3})\d*Z$/, ".$1Z")) - now) / 1000);
      el.classList.toggle("over", left <= 0);
      var shown = Math.abs(left);
      el.textContent = (left < 0 ? "+" : "") + Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
    });
  }
  setInterval(tick, 1000);
  tick();

  var quick = document.getElementById("quick");
  var rowsForms = document.querySelectorAll("form.result-form");
  if (!quick && !rowsForms.length) return;
  var eventId = quick ? quick.dataset.event : location.pathname.split("/")[2];
  var roundNo = quick ? quick.dataset.round : (document.querySelector('form.result-form input[name="round_no"]') || {}).value;
  var answer = document.getElementById("quick-answer");
  var pending = null; // a refused table waiting for its correction's reason: {table, body, replaces}

  function token() {
    var field = document.querySelector('input[name="csrf_token"]');
    return field ? field.value : "";
  }
  function newId() {
    return "sk-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }
  // The answer region beside the fields: every answer and every refusal is told there, in the
  // page's language (its words come from the page, translated on the server).
  function tell(text, bad, field) {
    if (!answer) return;
    answer.textContent = text;
    answer.className = "quick-answer flash " + (bad ? "error" : "ok");
    answer.setAttribute("role", bad ? "alert" : "status");
    document.querySelectorAll("#quick input[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    if (bad && field) field.setAttribute("aria-invalid", "true");
  }
  function words(key, values) {
    var text = (answer && answer.dataset[key]) || key;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }

  // "21" 2-1, "111" 1-1-1, "2-1", "10t" 1-0 at time, "a" "b" "d" without duels.
  function parseScore(raw) {
    var s = raw.normalize("NFKC").trim().toLowerCase().replace(/[‐‑‒–—―−ー－]/g, "-");
    var time = /(^t|t$|時間)/.test(s);
    s = s.replace(/t|時間/g, "").trim();
    if (s === "a" || s === "b") return { match: s };
    if (s === "d" || s === "draw" || s === "引き分け") return { match: "draw" };
    if (/^\d{2,3}$/.test(s)) s = s.split("").join("-");
    if (/^\d{1,2}-\d{1,2}(-\d{1,2})?$/.test(s)) return { score: s, time: time };
    return null;
  }

  function send(table, body) {
    var payload = Object.assign({ command_id: newId(), round: Number(roundNo), table: Number(table) }, body);
    return fetch("/api/events/" + eventId + "/results", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token(), Accept: "application/json" },
      body: JSON.stringify(payload),
    }).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; }, function () { return { status: r.status, body: {} }; });
    });
  }

  // The rows, the tables still playing and the standings, read again from the server.
  function refresh() {
    return fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["table.matches tbody", "#standings", "section.still-playing", "#end-round-warning"].forEach(function (sel) {
          var now = document.querySelector(sel), then = fresh.querySelector(sel);
          if (now && then) now.replaceWith(then);
          else if (now && !then) now.remove();
        });
        var freshQuick = fresh.getElementById("quick");
        if (quick && freshQuick) quick.dataset.open = freshQuick.dataset.open;
        var openNow = document.getElementById("open-tables"), openThen = fresh.getElementById("open-tables");
        if (openNow && openThen) openNow.textContent = openThen.textContent;
        bindRows();
      });
  }

  function nextOpen(after) {
    var open = (quick.dataset.open || "").split(",").filter(Boolean).map(Number);
    var later = open.filter(function (t) { return t > after; });
    return later.length ? later[0] : open.length ? open[0] : "";
  }

  // A result without duels in words, from the row's names: never a bare a, b or draw.
  function inWords(table, what) {
    var row = document.getElementById("match-" + table);
    var names = row ? row.querySelectorAll(".person > a") : [];
    var words = answer ? answer.dataset : {};
    var seat = { a: names[0], b: names[1] }[what];
    if (seat && words.won) return words.won.replace("{name}", seat.textContent);
    if (what === "draw" && words.draw) return words.draw;
    if (what === "both_lose" && words.bothLose) return words.bothLose;
    return what;
  }

  function describe(done) {
    var what = inWords(done.table, done.shown || (done.result === null ? "…" : done.result));
    return words(done.correction ? "corrected" : "recorded", { table: done.table, what: what });
  }

  if (quick) {
    var tableBox = document.getElementById("quick-table");
    var scoreBox = document.getElementById("quick-score");
    var reasonLabel = document.getElementById("quick-reason-box");
    var reasonBox = document.getElementById("quick-reason");
    tableBox.value = nextOpen(0);
    scoreBox.focus();
    quick.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var typed = scoreBox.value.trim();
      var text = typed;
      var table = tableBox.value.normalize("NFKC").trim();
      var parts = text.split(/\s+/);
      if (parts.length === 2) { table = parts[0].normalize("NFKC"); text = parts[1]; tableBox.value = table; scoreBox.value = text; }
      var parsed = parseScore(text);
      if (!/^\d+$/.test(table) || !parsed) {
        tell(words("give"), true, /^\d+$/.test(table) ? scoreBox : tableBox);
        scoreBox.focus();
        return;
      }
      var body = parsed.match ? { match: parsed.match } : { score: parsed.score, time: parsed.time };
      if (pending && pending.table === table && reasonBox.value.trim()) {
        body.replaces = pending.replaces;
        body.reason = reasonBox.value.trim();
      }
      // Never leave the last table's answer showing while this one is on its way.
      tell(words("sending", { table: table }), false);
      quick.setAttribute("aria-busy", "true");
      send(table, body).then(function (got) {
        quick.removeAttribute("aria-busy");
        if (got.status === 200) {
          tell(describe(got.body), false);
          pending = null;
          reasonBox.value = "";
          reasonLabel.hidden = true;
          return refresh().then(function () {
            tableBox.value = nextOpen(Number(table));
            scoreBox.value = "";
            scoreBox.focus();
          });
        }
        var stands = got.body.stands;
        var correcting = got.status === 409 && stands && stands.shown && !stands.ruling;
        var sameTable = correcting || (pending && pending.table === table);
        tell(got.body.detail || words("failed", { status: got.status }), true, sameTable ? (correcting ? reasonBox : scoreBox) : tableBox);
        if (correcting) {
          pending = { table: table, replaces: stands.shown };
          reasonLabel.hidden = false;
          reasonBox.focus();
          return refresh();
        }
        if (!sameTable) {
          // A refused table is not kept for the next slips: the box goes back to the next
          // table waiting (or empty), and the slip as typed stays in the score box to fix.
          pending = null;
          reasonBox.value = "";
          reasonLabel.hidden = true;
          scoreBox.value = typed;
        }
        scoreBox.focus();
        return refresh().then(function () { if (!sameTable) tableBox.value = nextOpen(0); });
      }, function () {
        quick.removeAttribute("aria-busy");
        tell(words("unsent", { table: table }), true, scoreBox);
        scoreBox.focus();
      });
    });
    reasonBox.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { pending = null; reasonBox.value = ""; reasonLabel.hidden = true; scoreBox.focus(); }
    });
  }

  // One row's buttons and its correction form: the same, through the API.
  function bindRows() {
    document.querySelectorAll("form.result-form").forEach(function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var data = new FormData(form);
        var button = ev.submitter;
        var body = {};
        if (button && button.name === "winner") body.winner = button.value;
        else if (button && button.name === "draw") body.draw = true;
        else if (button && button.name === "score" && button.value) body.score = button.value;
        else {
          var parsed = parseScore(String(data.get("score") || ""));
          if (!parsed) { tell(words("give"), true); return; }
          if (parsed.match) body.match = parsed.match; else body.score = parsed.score;
          body.time = Boolean(data.get("time")) || Boolean(parsed.time);
        }
        if (data.get("replaces")) { body.replaces = data.get("replaces"); body.reason = data.get("reason"); }
        send(form.dataset.table, body).then(function (got) {
          tell(got.status === 200 ? describe(got.body) : got.body.detail || words("failed", { status: got.status }), got.status !== 200);
          return refresh();
        });
      });
    });
  }
  bindRows();
})();
