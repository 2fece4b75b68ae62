// The head judge's desk: refresh the panels when the event changes (server-sent events),
// count deadlines down from the time left the server computed, and never clobber a form
// someone is filling in or a ruling's corrections someone opened.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var eventId = live.dataset.event;
  var pending = false;

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
    htmx.ajax("GET", "/events/" + eventId + "/desk/panels", { target: "#panels", swap: "outerHTML" });
  }
  function later() { if (pending) setTimeout(refresh, 300); }
  document.addEventListener("focusout", later);
  document.addEventListener("toggle", later, true);

  function connect() {
    var source = new EventSource("/api/events/" + eventId + "/stream");
    // "ready" carries the newest ledger entry: refresh if the page was drawn before it
    // (a ruling saved while the page loaded, or while the connection was lost).
    function behind(ev) {
      var panels = document.getElementById("panels");
      return !panels || String(panels.dataset.head) !== String(ev.data);
    }
    source.addEventListener("ready", function (ev) { live.classList.remove("off"); if (behind(ev)) refresh(); });
    source.addEventListener("changed", function (ev) { if (behind(ev)) refresh(); });
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
