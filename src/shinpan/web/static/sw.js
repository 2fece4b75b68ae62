// The service worker of the record screen: what a judge's phone keeps for working offline.
// Served at /sw.js (scope "/"), with VERSION set by the server from the static files, so a
// new shinpan replaces the old copies.
//
// - the scripts and styles: kept when installed, answered from the copy;
// - an event's record screen, its roster and the judge's own rulings: from the network while
//   it answers (keeping a copy each time), from the copy when it does not, so a reload
//   offline opens the screen. They are kept from the first visit: when the worker installs,
//   it keeps those of the record screens already open (the page that registered it, which
//   no worker controlled when it loaded), and then takes those pages over (clients.claim);
//   a record screen opened later asks for its own (a "keep" message) in case it was not
//   loaded through the worker, and one the worker does not control yet asks to be taken
//   over (a "claim" message);
// - everything else goes to the network as usual. Nothing is decided here: records wait in
//   the page's queue and the server decides when they arrive.
/* global VERSION */
"use strict";
var STATIC = "shinpan-static-" + VERSION;
var PAGES = "shinpan-pages";
var ASSETS = ["/static/app.css", "/static/htmx.min.js", "/static/menu.js", "/static/record.js",
              "/static/venue.css", "/static/outbox.js", "/static/deckcheck.js"];
var KEPT = /^\/events\/\d+\/record(\/roster|\/mine)?$/;
var SCREEN = /^\/events\/\d+\/record$/;
// The deck check screen of a table (its round and table in the query): kept as it is asked.
var CHECK = /^\/events\/\d+\/deckcheck$/;
var WAIT_MS = 4000; // venue Wi-Fi tends to hang rather than fail

// A record screen and what it reads, fetched now and kept (a sign-in page it was redirected
// to, or an error, is not kept; nothing failing here stops the worker from installing).
// Answers with the addresses it kept, so the page can ask again for what it could not.
function keepScreen(page) {
  var url = new URL(page, self.location.origin);
  if (CHECK.test(url.pathname)) return keepCheck(url.pathname + url.search);
  var path = url.pathname;
  if (!SCREEN.test(path)) return Promise.resolve([]);
  return caches.open(PAGES).then(function (cache) {
    return Promise.all([path, path + "/roster", path + "/mine"].map(function (url) {
      return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        if (!response.ok || response.redirected) return null;
        return cache.put(url, response).then(function () { return url; });
      }).catch(function () { return null; });
    }));
  }).then(function (urls) { return urls.filter(Boolean); });
}

function keepCheck(page) {
  return caches.open(PAGES).then(function (cache) {
    return fetch(page, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok || response.redirected) return [];
      return cache.put(page, response).then(function () { return [page]; });
    }).catch(function () { return []; });
  });
}

function keepOpenScreens() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    return Promise.all(open.map(function (client) { var url = new URL(client.url);
      return keepScreen(CHECK.test(url.pathname) ? url.pathname + url.search : url.pathname);
    }));
  });
}

self.addEventListener("install", function (event) {
  // An asset that does not come now is kept when it is next asked for: one slow answer must
  // not leave the phone without a worker.
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    return Promise.all(ASSETS.map(function (url) { return cache.add(url).catch(function () {}); }));
  }).then(keepOpenScreens)
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  // A page this worker should control and does not (its first claim came too early for it).
  if (data.claim && event.waitUntil) event.waitUntil(self.clients.claim());
  if (data.keep && typeof data.keep === "string") {
    var done = keepScreen(data.keep).then(function (urls) {
      if (event.source) event.source.postMessage({ kept: data.keep, urls: urls });
    });
    if (event.waitUntil) event.waitUntil(done);
  }
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("shinpan-static-") === 0 && n !== STATIC; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function networkFirst(request) {
  return new Promise(function (resolve, reject) {
    var settled = false;
    var timer = setTimeout(function () {
      caches.match(request, { cacheName: PAGES }).then(function (kept) {
        if (kept && !settled) { settled = true; resolve(kept); }
      });
    }, WAIT_MS);
    fetch(request).then(function (response) {
      // Keep a good answer; never a sign-in page the request was redirected to.
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { return cache.put(request, copy); });
      }
      clearTimeout(timer);
      if (!settled) { settled = true; resolve(response); }
    }, function (error) {
      clearTimeout(timer);
      caches.match(request, { cacheName: PAGES }).then(function (kept) {
        if (settled) return;
        settled = true;
        if (kept) resolve(kept); else reject(error);
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Sent by the worker itself, not left to the browser's fallback: a record then fails
    // while the network is down however the browser treats the worker (the page queues it).
    event.respondWith(fetch(request));
    return;
  }
  if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request, { cacheName: STATIC, ignoreSearch: true }).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(STATIC).then(function (cache) { return cache.put(url.pathname, copy); });
        }
        return response;
      });
    }));
  } else if ((KEPT.test(url.pathname) && !url.search) || CHECK.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
