// The header's menu: closes on a tap outside it or on Escape. Signing out also forgets the
// record screen's copies kept for working offline (the roster is people's names); records
// not sent yet stay on the phone.
//
// A tab says whose page it is: its requests to the API name the account the page was opened
// as (the server refuses them once the browser is signed in as someone else), and when the
// tab comes back into view it asks who is signed in now and, if that changed, says so and
// sends nothing more until reloaded.
(function () {
  "use strict";
  var mine = document.querySelector('meta[name="shinpan-account"]');
  if (!mine || !window.fetch) return;
  var account = mine.getAttribute("content");
  var send = window.fetch.bind(window);
  var stale = false;
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : (input && input.url) || "";
    if (new URL(url, location.href).origin === location.origin) {
      init = Object.assign({}, init || {});
      var headers = new Headers(init.headers || (typeof input !== "string" && input.headers) || {});
      headers.set("X-Shinpan-Account", account);
      init.headers = headers;
    }
    return send(input, init);
  };
  function tell(now) {
    stale = true;
    var box = document.getElementById("session-changed");
    if (!box) {
      box = document.createElement("div");
      box.id = "session-changed";
      box.className = "flash error session-changed";
      box.setAttribute("role", "alert");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = now ? mine.dataset.changed.split("{now}").join(now) : mine.dataset.gone;
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = mine.dataset.reload;
    again.addEventListener("click", function () { location.reload(); });
    box.appendChild(document.createTextNode(" "));
    box.appendChild(again);
  }
  function check() {
    if (stale || document.visibilityState === "hidden") return;
    send("/session/who", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (who) {
        if (who && String(who.id) !== account) tell(who.name);
      }, function () { /* offline: nothing to say */ });
  }
  document.addEventListener("visibilitychange", check);
  window.addEventListener("focus", check);
  window.addEventListener("pageshow", check);
  document.addEventListener("submit", function (ev) {
    if (stale) { ev.preventDefault(); ev.stopImmediatePropagation(); }
  }, true);
})();
(function () {
  "use strict";
  var menu = document.getElementById("menu");
  if (!menu) return;
  document.addEventListener("click", function (ev) {
    if (menu.open && !menu.contains(ev.target)) menu.open = false;
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && menu.open) { menu.open = false; menu.querySelector("summary").focus(); }
  });
  var signOut = menu.querySelector("form.sign-out");
  if (signOut && window.caches) {
    signOut.addEventListener("submit", function (ev) {
      ev.preventDefault();
      caches.delete("shinpan-pages").then(function () { signOut.submit(); }, function () { signOut.submit(); });
    });
  }
})();
