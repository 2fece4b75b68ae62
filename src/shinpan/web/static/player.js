// A player's own table view (T12, T14): asks the server every few seconds what the page
// shows (the round and their table, whether a judge is coming, their result) and says so
// when the next round is paired, without a reload. No library, nothing from outside.
(function () {
  "use strict";
  var page = document.getElementById("my-table");
  if (!page) return;
  var POLL_MS = 3000;
  var round = Number(page.dataset.round || 0);

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key] === undefined || values[key] === null ? "" : values[key]; });
  }

  function show(data) {
    if (data.round !== round) {
      var notice = document.getElementById("new-pairing");
      notice.textContent = data.table
        ? say(page.dataset.paired, { round: data.round, table: data.table })
        : say(page.dataset.bye, { round: data.round });
      notice.hidden = false;
      round = data.round;
    }
    var status = document.getElementById("call-status");
    if (status && data.call) {
      status.textContent = data.call.judge ? say(page.dataset.coming, { judge: data.call.judge }) : page.dataset.called;
      status.dataset.state = data.call.state;
    }
    var result = document.getElementById("my-result");
    if (result && data.result) {
      result.textContent = say(page.dataset[data.result], { score: data.score || "" });
      result.hidden = false;
    }
  }

  function poll() {
    fetch(page.dataset.stateUrl, { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) show(data); })
      .catch(function () {})
      .then(function () { setTimeout(poll, POLL_MS); });
  }
  setTimeout(poll, POLL_MS);
})();
