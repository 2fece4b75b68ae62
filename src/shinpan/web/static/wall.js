// The wall screen (T12): the round's clock counted down here from the server's end time,
// the server's clock asked again every few seconds (it also brings new rounds and the
// tables given time). No library, nothing from outside the server.
(function () {
  "use strict";
  var wall = document.getElementById("wall");
  if (!wall) return;
  var POLL_MS = 5000;
  var state = { endsAt: wall.dataset.endsAt ? Date.parse(wall.dataset.endsAt) : null, status: wall.dataset.state, offset: 0 };
  if (wall.dataset.now) state.offset = Date.parse(wall.dataset.now) - Date.now();
  var words = function (key, value) { return wall.dataset[key].replace(/\{\w+\}/, value); };
  var clock = document.getElementById("wall-clock");

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    if (state.status !== "started" || state.endsAt === null) return;
    var left = Math.round((state.endsAt - (Date.now() + state.offset)) / 1000);
    clock.classList.remove("words");
    if (left <= 0) {
      clock.textContent = wall.dataset.time;
      clock.classList.add("over");
      return;
    }
    clock.classList.remove("over");
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    clock.textContent = (h > 0 ? h + ":" + two(m) : two(m)) + ":" + two(s);
  }

  function show(data) {
    state.endsAt = data.ends_at ? Date.parse(data.ends_at) : null;
    state.status = data.state;
    state.offset = Date.parse(data.now) - Date.now();
    document.getElementById("wall-round").textContent = data.round ? words("round", data.round) : "";
    document.getElementById("wall-ends").textContent = data.ends_local ? words("until", data.ends_local) : "";
    if (data.state !== "started") {
      clock.textContent = data.state === "ended" ? wall.dataset.ended : wall.dataset.waiting;
      clock.classList.remove("over");
      clock.classList.add("words");
    }
    var tables = document.getElementById("wall-tables");
    tables.textContent = "";
    data.tables.forEach(function (t) {
      var line = document.createElement("p");
      line.className = "wall-table";
      var which = document.createElement("span");
      which.textContent = words("table", t.table);
      var until = document.createElement("span");
      until.textContent = words("until", t.ends_local);
      line.appendChild(which);
      line.appendChild(document.createTextNode(" "));
      line.appendChild(until);
      tables.appendChild(line);
    });
    tick();
  }

  function poll() {
    fetch(wall.dataset.clock, { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) show(data); })
      .catch(function () {})
      .then(function () { setTimeout(poll, POLL_MS); });
  }

  tick();
  setInterval(tick, 250);
  setTimeout(poll, POLL_MS);
})();
