// The head judge's desk: refresh the panels when the event changes (server-sent events),
// only those the change touched (the stream names them), count deadlines down from the
// time left the server computed, and never clobber a form someone is filling in or a
// ruling's corrections someone opened.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var eventId = live.dataset.event;
  var pending = false;
  var wanted = {};  // panels a change touched that are not redrawn yet

  // Every panel carries the ledger entry it was drawn at (data-head). A change is news to a
  // panel drawn before it; an answer drawn before what a panel shows now (a refresh that
  // crossed a form's answer on the way) is not shown.
  function sections() { return Array.prototype.slice.call(document.querySelectorAll("#panels > section[id]")); }
  function headOf(el) { return +(el && el.dataset.head) || 0; }
  // A panel with something the judge is writing, has focused or has opened (a ruling's
  // corrections) is not redrawn under them.
  function holdsInput(el) {
    var active = document.activeElement;
    if (active && el.contains(active) && /^(TEXTAREA|INPUT|SELECT)$/.test(active.tagName)) return true;
    if (el.querySelector("details.correct[open]")) return true;
    return Array.prototype.some.call(el.querySelectorAll("textarea"), function (t) { return t.value.trim() !== ""; });
  }
  function busy() {
    var panels = document.getElementById("panels");
    return !!panels && holdsInput(panels);
  }
  // One refresh at a time, and at most one a second: changes that arrive meanwhile wait
  // and go together in the next (rulings given together at time in the round cost one
  // redraw, not one each; a dozen desks do not redraw a busy event's feed ten times a second).
  var SPACING_MS = 1000;
  var inFlight = false, lastStart = -SPACING_MS, timer = null;
  // The panels say whether a redraw is still to come (aria-busy): a change heard and not
  // yet drawn, a refresh waiting its turn or on its way.
  function settled() {
    var panels = document.getElementById("panels");
    if (!panels) return;
    if (inFlight || timer || Object.keys(wanted).length) panels.setAttribute("aria-busy", "true");
    else panels.removeAttribute("aria-busy");
  }
  function refresh() { redraw(); settled(); }
  function redraw() {
    if (busy()) { pending = true; return; }
    if (inFlight || timer) return;
    var wait = lastStart + SPACING_MS - performance.now();
    if (wait > 0) { timer = setTimeout(function () { timer = null; refresh(); }, wait); return; }
    pending = false;
    var names = Object.keys(wanted);
    wanted = {};
    if (!names.length) return;
    inFlight = true;
    lastStart = performance.now();
    // ``since``: any drawing newer than the oldest of these panels will do (another desk's,
    // made a moment ago, costs the server nothing); what is still older than the change
    // that touched it is asked for again.
    var since = Math.min.apply(null, names.map(function (n) { return headOf(document.getElementById(n)); })) + 1;
    fetch("/events/" + eventId + "/desk/panels?only=" + names.join(",") + "&since=" + since, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("section[id]").forEach(function (fresh) {
          var old = document.getElementById(fresh.id);
          if (!old || headOf(fresh) <= headOf(old)) return;  // nothing newer than what is shown
          if (holdsInput(old)) { wanted[fresh.id] = true; pending = true; return; }  // after the judge is done
          var node = document.importNode(fresh, true);
          old.replaceWith(node);
          htmx.process(node);
        });
        names.forEach(function (n) { if (headOf(document.getElementById(n)) < (needed[n] || 0)) wanted[n] = true; });
        tick();
        inFlight = false;
        refresh();
      })
      .catch(function () {
        inFlight = false;
        names.forEach(function (n) { wanted[n] = true; });
        settled();
        setTimeout(refresh, 1000);
      });
  }
  // The panels drawn before ``head`` among ``names`` (every panel for "*"), and for each
  // the newest change that touched it (``needed``). The newest entry heard is kept:
  // whatever a form's answer put in place is checked against it.
  var latest = 0, needed = {};
  function want(head, names) {
    if (head > latest) latest = head;
    sections().forEach(function (section) {
      if ((names.indexOf("*") >= 0 || names.indexOf(section.id) >= 0) && headOf(section) < head) {
        wanted[section.id] = true;
        needed[section.id] = Math.max(needed[section.id] || 0, head);
      }
    });
    refresh();
  }
  function later() { if (pending) setTimeout(refresh, 300); }
  document.addEventListener("focusout", later);
  document.addEventListener("toggle", later, true);
  document.body.addEventListener("htmx:afterSettle", function () {
    want(latest, ["*"]);  // a form's answer drawn before the newest change heard: redraw it
    later();  // and it took the text away: what waited for that goes now
  });

  function connect() {
    var source = new EventSource("/api/events/" + eventId + "/stream");
    // "ready" carries the newest ledger entry: refresh what was drawn before it (a ruling
    // saved while the page loaded, or while the connection was lost).
    // "changed" has two lines: the newest entry, and the panels the change touched.
    // ``data-heard`` on the tag: the newest entry the stream named (what the page is up to).
    source.addEventListener("ready", function (ev) {
      live.classList.remove("off");
      want(+ev.data, ["*"]);
      live.dataset.heard = ev.data;
    });
    source.addEventListener("changed", function (ev) {
      var lines = ev.data.split("\n");
      want(+lines[0], (lines[1] || "*").split(" "));
      live.dataset.heard = lines[0];
    });
    source.onerror = function () { live.classList.add("off"); };
  }
  connect();

  // Time left as the server computed it when it drew the panel (the phone's or laptop's
  // clock does not matter); a timed deadline can be marked missed once it is due (D21).
  function tick() {
    var now = performance.now();
    document.querySelectorAll(".countdown[data-left]").forEach(function (el) {
      if (el._drawn === undefined) el._drawn = now;
      var left = Math.ceil(parseFloat(el.dataset.left) - (now - el._drawn) / 1000);  // due at 0, never sooner
      var box = el.closest(".deadline");
      if (left <= 0) {
        el.textContent = "0:00";
        box.classList.add("overdue");
        var missed = box.querySelector("button[data-until-due]");
        if (missed) { missed.disabled = false; missed.removeAttribute("data-until-due"); missed.removeAttribute("title"); }
        return;
      }
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    });
  }
  setInterval(tick, 1000); tick();
  document.body.addEventListener("htmx:afterSettle", tick);
})();
