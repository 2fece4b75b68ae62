// The round's countdown on the scorekeeper's page: minutes and seconds to the end of time.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-ends]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.ends.replace(/\.(\d{3})\d*Z$/, ".$1Z")) - now) / 1000);
      el.classList.toggle("over", left <= 0);
      var shown = Math.abs(left);
      el.textContent = (left < 0 ? "+" : "") + Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
    });
  }
  setInterval(tick, 1000);
  tick();
})();
