// The header's menu: closes on a tap outside it or on Escape. Signing out also forgets the
// record screen's copies kept for working offline (the roster is people's names); records
// not sent yet stay on the phone.
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
