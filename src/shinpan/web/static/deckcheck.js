// The deck check screen on a judge's phone, through a Wi-Fi drop once opened: the service
// worker (/sw.js) keeps the screen; the counts, the end of the check and "the deck is
// corrected" are sent with their command ids, and without the network wait on this phone
// (outbox.js) and go, in order, when it is back; the screen is then opened again as the
// server has it. Nothing is decided here.
(function () {
  "use strict";
  var box = document.getElementById("check-outbox");
  if (!box || !window.shinpanOutbox) return;
  var O = window.shinpanOutbox;
  var page = location.pathname + location.search;
  var outbox = new O.Outbox("shinpan-deckcheck-" + box.dataset.event, function (items) {
    box.hidden = items.length === 0;
    box.querySelector(".queued").textContent = String(items.length);
  });
  var QUEUED = "form.count-form, form.end-check, form.deck-corrected";

  function item(form) {
    var fields = [];
    new FormData(form).forEach(function (value, key) { if (typeof value === "string") fields.push([key, value]); });
    var id = form.elements.command_id ? form.elements.command_id.value : String(Date.now());
    return { id: id, action: form.getAttribute("action"), fields: fields };
  }
  function kept(form, it) {
    outbox.add(it);
    form.classList.add("kept");
    var note = document.createElement("p");
    note.className = "flash warn kept-note"; note.setAttribute("role", "status");
    note.textContent = box.dataset.kept;
    form.appendChild(note);
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  }
  document.addEventListener("submit", function (ev) {
    var form = ev.target.closest(QUEUED);
    if (!form) return;
    ev.preventDefault();
    var it = item(form);
    if (outbox.items().length) { kept(form, it); return; } // after what already waits
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    O.post(it).then(function (response) {
      if (O.answered(response)) { location.replace(page); return; }
      form.submit(); // the server's own answer, as without this script
    }, function () { kept(form, it); });
  });

  function flush() { outbox.flush(function (sent) { if (sent && !outbox.items().length) location.replace(page); }); }
  window.addEventListener("online", flush);
  setInterval(flush, 5000);
  flush();
  O.keepWithWorker(page, [page]);
})();
