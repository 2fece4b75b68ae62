// What a judge's phone sends while the venue's Wi-Fi comes and goes: posts that could not be
// sent wait here (localStorage), in order, and go when the connection is back, each with the
// command id it was made with (the server takes a repeated id as a retry: nothing twice).
// Nothing is decided here. Used by the deck check screen (deckcheck.js).
(function () {
  "use strict";
  // A fetch that gives up after `ms` (venue Wi-Fi tends to hang rather than fail).
  function fetchWithin(url, options, ms) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, ms);
    return fetch(url, Object.assign({ credentials: "same-origin", signal: controller.signal }, options || {}))
      .finally(function () { clearTimeout(timer); });
  }
  // A form post as it would go from the form, not following the server's redirect (the page
  // is opened again after it): resolves with the answer, rejects without the network.
  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (kv) { body.append(kv[0], kv[1]); });
    return fetchWithin(item.action, { method: "POST", body: body, redirect: "manual" }, 8000);
  }
  // The server answered: a redirect (done, or refused with its reason shown on the page) or
  // a page. Signed out, an old CSRF token, a server in trouble: not done, kept for later.
  function answered(response) {
    return !(response.status === 401 || response.status === 403 || response.status >= 500);
  }

  function Outbox(key, changed) {
    this.key = key; this.changed = changed || function () {}; this.flushing = false;
  }
  Outbox.prototype.items = function () {
    try { return JSON.parse(localStorage.getItem(this.key) || "[]"); } catch (e) { return []; }
  };
  Outbox.prototype.set = function (items) {
    localStorage.setItem(this.key, JSON.stringify(items));
    this.changed(items);
  };
  Outbox.prototype.add = function (item) { this.set(this.items().concat([item])); };
  // Sends what waits, oldest first; `done(sent)` once none is left that can go now.
  Outbox.prototype.flush = function (done) {
    var self = this;
    var items = self.items();
    if (self.flushing) return;
    if (!items.length) { self.changed(items); return; }
    self.flushing = true;
    var sent = 0;
    (function next() {
      var waiting = self.items();
      if (!waiting.length) { self.flushing = false; self.changed(waiting); if (done) done(sent); return; }
      var item = waiting[0];
      post(item).then(function (response) {
        if (!answered(response)) throw new Error(String(response.status));
        sent += 1;
        self.set(self.items().filter(function (q) { return q.id !== item.id; }));
        next();
      }).catch(function () { self.flushing = false; self.changed(self.items()); if (done && sent) done(sent); });
    })();
  };

  // The worker (/sw.js) keeps this screen from its first visit; a page no worker loaded asks
  // the running worker to keep it (and to take it over), again a few times and further apart,
  // until it answers that it kept `wanted` (the Wi-Fi may drop just then).
  function keepWithWorker(page, wanted) {
    if (!("serviceWorker" in navigator)) return;
    var loadedByWorker = !!navigator.serviceWorker.controller;
    var asked = 0;
    var timer = null;
    function ask() {
      if (asked >= 8) return;
      asked += 1;
      timer = setTimeout(ask, 1500 * asked);
      navigator.serviceWorker.ready.then(function (registration) {
        var claim = !navigator.serviceWorker.controller;
        if (registration.active) registration.active.postMessage({ keep: page, claim: claim });
      }).catch(function () {});
    }
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.kept !== page) return;
      var urls = data.urls || [];
      if (wanted.every(function (u) { return urls.indexOf(u) >= 0; }) && navigator.serviceWorker.controller) {
        clearTimeout(timer); asked = 8;
      }
    });
    if (navigator.serviceWorker.startMessages) navigator.serviceWorker.startMessages();
    navigator.serviceWorker.register("/sw.js").then(function () { if (!loadedByWorker) ask(); }).catch(function () {});
  }

  window.shinpanOutbox = { Outbox: Outbox, post: post, answered: answered, fetchWithin: fetchWithin, keepWithWorker: keepWithWorker };
})();
