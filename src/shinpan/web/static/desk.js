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
  var wanted = {};  // panels a change touched that are not redrawn yet ("*": all of them)

  function busy() {
    var panels = document.getElementById("panels");
    if (!panels) return false;
    var el = document.activeElement;
    var typing = el && panels.contains(el) && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT");
    var written = Array.prototype.some.call(panels.querySelectorAll("textarea"), function (t) { return t.value.trim() !== ""; });
    return typing || written || !!panels.querySelector("details.correct[open]");
  }
  function refresh() {
    if (busy()) { pending = true; return; }
    pending = false;
    var names = Object.keys(wanted);
    wanted = {};
    if (!names.length) return;
    if (names.indexOf("*") >= 0) {
      htmx.ajax("GET", "/events/" + eventId + "/desk/panels", { target: "#panels", swap: "outerHTML" });
      return;
    }
    fetch("/events/" + eventId + "/desk/panels?only=" + names.join(","), { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var panels = document.getElementById("panels");
        doc.querySelectorAll("section[id]").forEach(function (fresh) {
          var old = document.getElementById(fresh.id);
          if (!old) return;
          var node = document.importNode(fresh, true);
          old.replaceWith(node);
          htmx.process(node);
          if (panels && +node.dataset.head > +panels.dataset.head) panels.dataset.head = node.dataset.head;
        });
        tick();
      })
      .catch(function () { wanted["*"] = true; setTimeout(refresh, 1000); });
  }
  function want(names) { names.forEach(function (n) { if (n) wanted[n] = true; }); refresh(); }
  function later() { if (pending) setTimeout(refresh, 300); }
  document.addEventListener("focusout", later);
  document.addEventListener("toggle", later, true);

  function connect() {
    var source = new EventSource("/api/events/" + eventId + "/stream");
    // "ready" carries the newest ledger entry: refresh if the page was drawn before it
    // (a ruling saved while the page loaded, or while the connection was lost).
    // "changed" has two lines: the newest entry, and the panels the change touched.
    function behind(head) {
      var panels = document.getElementById("panels");
      return !panels || +panels.dataset.head < +head;
    }
    source.addEventListener("ready", function (ev) { live.classList.remove("off"); if (behind(ev.data)) want(["*"]); });
    source.addEventListener("changed", function (ev) {
      var lines = ev.data.split("\n");
      if (behind(lines[0])) want((lines[1] || "*").split(" "));
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
