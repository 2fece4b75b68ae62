// The judges' queue of calls (T14): the minutes a table has waited count up from what the
// server drew (the phone's own clock does not matter).
(function () {
  "use strict";
  function tick() {
    var now = performance.now();
    document.querySelectorAll(".waited[data-waited]").forEach(function (el) {
      if (el.dataset.running !== "1") return;
      if (el._drawn === undefined) el._drawn = now;
      var waited = parseFloat(el.dataset.waited) + (now - el._drawn) / 1000;
      el.textContent = el.dataset.words ? el.dataset.words.replace("{m}", Math.floor(waited / 60)) : el.textContent;
    });
  }
  setInterval(tick, 5000);
})();
