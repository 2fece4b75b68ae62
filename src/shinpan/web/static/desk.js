// The head judge's desk: refresh the panels when the event changes (server-sent
// events), count deadlines down, and never clobber a form someone is typing in.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var eventId = live.dataset.event;
  var pending = false;

  function typing() {
    var el = document.activeElement;
    var panels = document.getElementById("panels");
    return el && panels && panels.contains(el) && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT");
  }
  function refresh() {
    if (typing()) { pending = true; return; }
    pending = false;
    htmx.ajax("GET", "/events/" + eventId + "/desk/panels", { target: "#panels", swap: "outerHTML" });
  }
  document.addEventListener("focusout", function () { if (pending) setTimeout(refresh, 300); });

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

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-due]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.due) - now) / 1000);
      if (left <= 0) { el.textContent = "0:00"; el.closest(".deadline").classList.add("overdue"); return; }
      el.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    });
  }
  setInterval(tick, 1000); tick();
})();
