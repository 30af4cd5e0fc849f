/* risk view: the replay of one game, drawn on the map `risk map` draws.
 *
 * The data (risk_cli/webview/bundle.py) is the viewer's events, each told as a log line, and
 * one frame per version: what changed since the version before.  The frames are expanded once
 * into full positions, so moving to any version only redraws.  Every string from the game
 * (names, log lines) is put in the page as text, never as HTML.
 */
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";

  function $(id) { return document.getElementById(id); }
  var config = JSON.parse($("config").textContent);
  var embedded = $("bundle");
  var dataUrl = "/" + encodeURIComponent(config.game_id) + "/data.json";

  var S = {
    meta: null, events: [], frames: [], lastMove: [], turnStarts: [], phases: {},
    luck: null, lineage: null, over: false, current: 0, marked: null
  };
  var circles = [], labels = [], overlay = null, logItems = [], dark = {};

  // ------------------------------------------------------------------ data
  function expand(frames) {
    var nt = S.meta.territories.length;
    frames.forEach(function (f) {
      var before = S.frames.length ? S.frames[S.frames.length - 1] : null;
      var owners = before ? before.owners.slice() : new Int32Array(nt).fill(-1);
      var armies = before ? before.armies.slice() : new Int32Array(nt);
      if (f.t) {
        Object.keys(f.t).forEach(function (k) { owners[+k] = f.t[k][0]; armies[+k] = f.t[k][1]; });
      }
      var now = {
        owners: owners, armies: armies,
        status: f.s || before.status,
        players: f.p || before.players,
        secrets: f.h !== undefined ? f.h : (before ? before.secrets : null)
      };
      if (before && now.status[0] !== before.status[0]) S.turnStarts.push(S.frames.length + 1);
      S.frames.push(now);
    });
  }

  function addEvents(events) {
    var index = {};
    S.meta.territories.forEach(function (t) { index[t] = true; });
    events.forEach(function (e) {
      S.events.push(e);
      var v = S.events.length;
      var moved = (index[e.origin] && index[e.target]) || index[e.territory];
      S.lastMove.push(moved ? v : (v > 1 ? S.lastMove[v - 2] : 0));
      logItems.push(logLine(e, v));
    });
  }

  function merge(data) {
    var follow = S.current === S.frames.length;
    var list = $("log");
    var fresh = document.createDocumentFragment();
    var start = logItems.length;
    addEvents(data.events);
    for (var i = start; i < logItems.length; i++) fresh.appendChild(logItems[i]);
    list.appendChild(fresh);
    expand(data.frames);
    S.phases = data.phases; S.luck = data.luck; S.lineage = data.lineage; S.over = data.over;
    $("slider").max = String(S.frames.length);
    $("live").hidden = !config.live || S.over || !!embedded;
    drawTree(); drawCharts();
    if (follow || S.current === 0) show(S.current === 0 ? initialVersion() : S.frames.length);
  }

  // ------------------------------------------------------------------ the map
  function setUpMap() {
    var doc = new DOMParser().parseFromString(S.meta.svg, "image/svg+xml");
    var svg = document.importNode(doc.documentElement, true);
    var width = svg.getAttribute("width");
    svg.setAttribute("viewBox", "0 0 " + width + " " + S.meta.map_height);  // no footer
    svg.removeAttribute("width"); svg.removeAttribute("height");
    $("map").appendChild(svg);
    S.meta.territories.forEach(function (t) {
      var c = svg.querySelector('circle[data-territory="' + t + '"]');
      circles.push(c);
      labels.push(c.nextElementSibling);  // the armies, drawn right after the disc
    });
    overlay = document.createElementNS(SVG_NS, "g");
    overlay.setAttribute("id", "overlay");
    svg.appendChild(overlay);
    S.meta.dark.forEach(function (c) { dark[c] = true; });
  }

  function fillOf(owner) {
    var p = S.meta.players[owner];
    return p ? p.fill : S.meta.nobody;
  }

  function drawMap(v) {
    var f = S.frames[v - 1];
    for (var i = 0; i < circles.length; i++) {
      var fill = fillOf(f.owners[i]);
      circles[i].setAttribute("fill", fill);
      circles[i].setAttribute("data-owner", String(f.owners[i]));
      circles[i].setAttribute("data-armies", String(f.armies[i]));
      labels[i].textContent = String(f.armies[i]);
      labels[i].setAttribute("fill", dark[fill] ? "#ffffff" : "#000000");
    }
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    var at = S.lastMove[v - 1];
    if (!at) return;
    var e = S.events[at - 1];
    var target = circles[S.meta.territories.indexOf(e.target || e.territory)];
    var ring = shape("circle", {
      cx: target.getAttribute("cx"), cy: target.getAttribute("cy"), r: 17, fill: "none",
      stroke: S.meta.highlight, "stroke-width": e.type === "conquered" ? 5 : 3,
      "data-highlight": e.target || e.territory
    });
    overlay.appendChild(ring);
    if (e.origin && e.target) {
      // An arrow from origin to target, its head at the target's disc, as `risk map` draws.
      var from = circles[S.meta.territories.indexOf(e.origin)];
      var x0 = +from.getAttribute("cx"), y0 = +from.getAttribute("cy");
      var x1 = +target.getAttribute("cx"), y1 = +target.getAttribute("cy");
      if (Math.abs(x1 - x0) > S.meta.map_width / 2) {
        // Across the map's side (Alaska to Kamchatka), as on a globe: a stub leaves the origin
        // by its side and the arrow enters by the other, the drawing clipping both.
        var shift = x1 > x0 ? S.meta.map_width : -S.meta.map_width;
        overlay.appendChild(shape("line", {
          x1: x0, y1: y0, x2: x1 - shift, y2: y1, stroke: S.meta.highlight, "stroke-width": 4
        }));
        x0 += shift;
      }
      var len = Math.hypot(x1 - x0, y1 - y0) || 1, ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      var tip = [x1 - ux * 14, y1 - uy * 14], base = [tip[0] - ux * 14, tip[1] - uy * 14];
      overlay.appendChild(shape("line", {
        x1: x0, y1: y0, x2: base[0], y2: base[1], stroke: S.meta.highlight, "stroke-width": 4,
        "data-last-move": e.origin + "|" + e.target, "data-event": e.type
      }));
      overlay.appendChild(shape("polygon", {
        points: [tip, [base[0] - uy * 7, base[1] + ux * 7], [base[0] + uy * 7, base[1] - ux * 7]]
          .map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" "),
        fill: S.meta.highlight
      }));
    }
  }

  function shape(kind, attrs) {
    var el = document.createElementNS(SVG_NS, kind);
    Object.keys(attrs).forEach(function (k) { if (attrs[k] !== "") el.setAttribute(k, attrs[k]); });
    return el;
  }

  // ------------------------------------------------------------------ the panels
  function name(seat) {
    var p = S.meta.players[seat];
    return p ? p.name : "nobody";
  }

  function drawStatus(v) {
    var s = S.frames[v - 1].status;  // turn, round, phase, to act, winner
    var where = s[0] ? "round " + s[1] + ", turn " + s[0] : "setup";
    var todo = s[4] !== null && s[4] !== undefined ? name(s[4]) + " has won."
      : s[3] === null ? (S.phases[s[2]] || s[2])
      : name(s[3]) + " to act: " + (S.phases[s[2]] || s[2]);
    $("status").textContent = "Version " + v + " of " + S.frames.length + " · " + where + " · " + todo;
    $("version").textContent = "version " + v + " / " + S.frames.length;
  }

  function drawPlayers(v) {
    var f = S.frames[v - 1];
    var body = $("players").tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    S.meta.players.forEach(function (p, i) {
      var row = body.insertRow();
      var counts = f.players[i];
      row.setAttribute("data-seat", String(i));
      if (counts[3]) row.className = "out";
      if (f.status[3] === i) row.className += " acting";
      var swatch = document.createElement("span");
      swatch.className = "swatch"; swatch.style.background = p.fill;
      row.insertCell().appendChild(swatch);
      row.insertCell().textContent = p.name + (p.neutral ? " (neutral)" : "");
      for (var k = 0; k < 3; k++) row.insertCell().textContent = String(counts[k]);
    });
  }

  // The viewer's own secrets (risk_cli/webview/bundle.py): its hand, its mission or missions
  // and whatever else its rule family shows that seat only, each told as text.
  var TOLD = { hand: true, mission: true, missions: true };

  function drawSecrets(v) {
    var secrets = S.frames[v - 1].secrets;
    var seats = secrets ? Object.keys(secrets) : [];
    $("secrets").hidden = seats.length === 0;
    var hand = $("hand"), more = $("more-secrets");
    while (hand.firstChild) hand.removeChild(hand.firstChild);
    while (more.firstChild) more.removeChild(more.firstChild);
    var missions = [];
    seats.forEach(function (seat) {
      var mine = secrets[seat];
      var whose = seats.length > 1 ? name(+seat) + ": " : "";
      (mine.hand || []).forEach(function (c) {
        var li = document.createElement("li");
        li.setAttribute("data-card", String(c.id));
        li.setAttribute("data-seat", seat);
        li.textContent = (c.territory ? S.meta.names[c.territory] || c.territory : "joker") +
          (c.symbol ? " · " + c.symbol : "") + (seats.length > 1 ? " (" + name(+seat) + ")" : "");
        hand.appendChild(li);
      });
      if (mine.mission) missions.push(whose + (mine.mission.text_en || mine.mission.id));
      (mine.missions || []).forEach(function (m) {
        missions.push(whose + (m && (m.text_en || m.id)));
      });
      Object.keys(mine).forEach(function (key) {
        if (TOLD[key]) return;
        var li = document.createElement("li");
        li.setAttribute("data-secret", key);
        li.setAttribute("data-seat", seat);
        li.textContent = whose + key.replace(/_/g, " ") + ": " + told(mine[key]);
        more.appendChild(li);
      });
    });
    if (seats.length && !hand.firstChild) {
      var none = document.createElement("li"); none.textContent = "no cards"; hand.appendChild(none);
    }
    $("mission").textContent = missions.length
      ? (missions.length > 1 ? "Missions: " : "Mission: ") + missions.join("; ") : "";
  }

  // A family's value as text: territories by name, lists and tables item by item.
  function told(value) {
    if (value === null || value === undefined) return "-";
    if (Array.isArray(value)) return value.length ? value.map(told).join(", ") : "none";
    if (typeof value === "object") {
      if ("text_en" in value) return String(value.text_en);
      var keys = Object.keys(value);
      return keys.length ? keys.map(function (k) {
        return (S.meta.names[k] || k) + " " + told(value[k]);
      }).join("; ") : "none";
    }
    return String(value);
  }

  function logLine(e, v) {
    var li = document.createElement("li");
    li.setAttribute("data-v", String(v));
    li.appendChild(document.createTextNode(e.line + " "));
    if (e.attack && e.defence) {
      [["att", e.attack], ["def", e.defence]].forEach(function (side) {
        side[1].forEach(function (face) {
          var die = document.createElement("span");
          die.className = "die " + side[0];
          die.textContent = String(face);
          li.appendChild(die);
        });
        li.appendChild(document.createTextNode(" "));
      });
    }
    li.addEventListener("click", function () { show(v); });
    return li;
  }

  var shownLine = null;
  function drawLog(v) {
    if (shownLine) shownLine.classList.remove("current");
    shownLine = logItems[v - 1] || null;
    if (shownLine) {
      shownLine.classList.add("current");
      var list = $("log");
      var top = shownLine.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }

  function drawTree() {
    var box = $("tree");
    while (box.firstChild) box.removeChild(box.firstChild);
    if (!S.lineage) return;
    var list = document.createElement("ul");
    list.appendChild(treeNode(S.lineage.tree));
    box.appendChild(list);
  }

  function treeNode(node) {
    var li = document.createElement("li");
    li.setAttribute("data-game", node.game_id);
    var here = node.game_id === config.game_id;
    if (here) li.className = "this";
    var label;
    if (!here && node.in_store && !embedded) {
      label = document.createElement("a");
      label.href = "/" + encodeURIComponent(node.game_id);
    } else {
      label = document.createElement("span");
    }
    label.textContent = node.game_id;
    li.appendChild(label);
    var about = node.at === null ? "root" : "branched after version " + node.at;
    about += node.in_store ? ", " + plural(node.version, "event") + ", " + node.phase : ", not in this store";
    li.appendChild(document.createTextNode(" (" + about + ")" + (here ? " ◀ this game" : "")));
    if (!here && node.in_store && !embedded) {
      var compare = document.createElement("button");
      compare.className = "compare";
      compare.textContent = "compare";
      compare.title = "Compare this game at the version shown with " + node.game_id +
        " at the same point of play";
      compare.onclick = function () { compareWith(node.game_id); };
      li.appendChild(document.createTextNode(" "));
      li.appendChild(compare);
    }
    if (node.children.length) {
      var sub = document.createElement("ul");
      node.children.forEach(function (c) { sub.appendChild(treeNode(c)); });
      li.appendChild(sub);
    }
    return li;
  }

  function drawDiff(v) {
    var box = $("diff");
    while (box.firstChild) box.removeChild(box.firstChild);
    if (S.marked === null) return;
    var a = S.frames[S.marked - 1], b = S.frames[v - 1];
    var lines = [];
    S.meta.territories.forEach(function (t, i) {
      if (a.owners[i] !== b.owners[i] || a.armies[i] !== b.armies[i]) {
        lines.push([t, S.meta.names[t] + ": " + name(a.owners[i]) + " " + a.armies[i] +
          " → " + name(b.owners[i]) + " " + b.armies[i]]);
      }
    });
    S.meta.players.forEach(function (p, i) {
      var x = a.players[i], y = b.players[i];
      if (x[0] !== y[0] || x[1] !== y[1]) {
        lines.push(["seat-" + i, p.name + ": " + x[0] + " territories, " + x[1] + " armies → " +
          y[0] + " territories, " + y[1] + " armies"]);
      }
    });
    var head = document.createElement("li");
    head.textContent = "Version " + S.marked + " → version " + v + ": " +
      (lines.length ? plural(lines.length, "difference") : "no difference");
    box.appendChild(head);
    lines.forEach(function (l) {
      var li = document.createElement("li");
      li.setAttribute("data-diff", l[0]);
      li.textContent = l[1];
      box.appendChild(li);
    });
  }

  // `risk diff --at` of this game at the version shown and another game of its family, lined
  // up at the same point of play (server).
  function compareWith(other) {
    var url = "/" + encodeURIComponent(config.game_id) + "/diff.json?with=" +
      encodeURIComponent(other) + "&at=" + S.current;
    fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (d) {
      S.marked = null;
      $("marked").textContent = "(none marked)";
      var box = $("diff");
      while (box.firstChild) box.removeChild(box.firstChild);
      var head = document.createElement("li");
      head.setAttribute("data-compared", d.b.game_id);
      head.textContent = d.a.game_id + " (version " + d.a.version + ") and " + d.b.game_id +
        " (version " + d.b.version + "): " +
        (d.same ? "no difference" : plural(d.differences.length, "difference"));
      box.appendChild(head);
      d.differences.forEach(function (x) {
        var li = document.createElement("li");
        li.setAttribute("data-diff", x.kind === "territory" ? x.key : x.kind + "-" + x.key + "-" + x.field);
        var label = x.kind === "territory" ? S.meta.names[x.key] || x.key
          : x.kind === "player" ? name(+x.key) + " " + x.field : x.field;
        li.textContent = label + ": " + shown(x.a) + " → " + shown(x.b);
        box.appendChild(li);
      });
    });
  }

  function plural(n, one) { return n + " " + one + (n === 1 ? "" : "s"); }

  function shown(value) {
    if (value === null || value === undefined) return "-";
    if (typeof value === "object" && "owner" in value) return name(value.owner) + " " + value.armies;
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  // ------------------------------------------------------------------ charts
  function drawCharts() {
    var ends = S.turnStarts.map(function (v) { return v - 1; }).concat([S.frames.length]);
    lineChart($("chart-territories"), ends, 0);
    lineChart($("chart-armies"), ends, 1);
    luckChart($("chart-luck"));
  }

  function chartBox(box, w, h) {
    while (box.firstChild) box.removeChild(box.firstChild);
    var svg = shape("svg", { viewBox: "0 0 " + w + " " + h, role: "img" });
    box.appendChild(svg);
    return svg;
  }

  function text(svg, x, y, s, anchor) {
    var t = shape("text", { x: x, y: y, "font-size": 10, "text-anchor": anchor || "start" });
    t.textContent = s;
    svg.appendChild(t);
  }

  function lineChart(box, ends, k) {
    var w = 400, h = 180, left = 34, bottom = 20;
    var svg = chartBox(box, w, h);
    var top = 1;
    ends.forEach(function (v) { S.frames[v - 1].players.forEach(function (c) { top = Math.max(top, c[k]); }); });
    var x = function (i) { return left + (w - left - 6) * (ends.length > 1 ? i / (ends.length - 1) : 0); };
    var y = function (n) { return h - bottom - (h - bottom - 8) * n / top; };
    svg.appendChild(shape("line", { x1: left, y1: h - bottom, x2: w, y2: h - bottom, stroke: "#888" }));
    svg.appendChild(shape("line", { x1: left, y1: 4, x2: left, y2: h - bottom, stroke: "#888" }));
    text(svg, left - 4, 12, String(top), "end");
    text(svg, left - 4, h - bottom, "0", "end");
    text(svg, w - 2, h - 6, "turn " + (ends.length - 1), "end");
    // The turn of the version shown: a vertical line, moved by show().
    svg.appendChild(shape("line", { class: "cursor", y1: 4, y2: h - bottom, stroke: "#999", "stroke-dasharray": "3 3" }));
    box.cursorX = x;
    S.meta.players.forEach(function (p, seat) {
      var points = ends.map(function (v, i) { return x(i).toFixed(1) + "," + y(S.frames[v - 1].players[seat][k]).toFixed(1); });
      svg.appendChild(shape("polyline", {
        points: points.join(" "), fill: "none", stroke: p.fill, "stroke-width": 2, "data-seat": seat
      }));
    });
  }

  function drawCursors(v) {
    var turn = 0;  // the turns begun by version v
    while (turn < S.turnStarts.length && S.turnStarts[turn] <= v) turn++;
    ["chart-territories", "chart-armies"].forEach(function (id) {
      var box = $(id), line = box.querySelector("line.cursor");
      if (!line) return;
      var x = box.cursorX(turn).toFixed(1);
      line.setAttribute("x1", x); line.setAttribute("x2", x);
    });
  }

  function luckChart(box) {
    var seats = S.luck ? S.luck.seats : [];
    var w = 400, h = 180, bottom = 30, band = (w - 20) / Math.max(seats.length, 1);
    var svg = chartBox(box, w, h);
    var top = 1;
    seats.forEach(function (s) { top = Math.max(top, s.losses, s.expected_losses); });
    var y = function (n) { return (h - bottom - 12) * n / top; };
    seats.forEach(function (s, i) {
      var x0 = 10 + i * band;
      var fill = fillOf(s.seat);
      svg.appendChild(shape("rect", { x: x0 + band * 0.15, y: h - bottom - y(s.expected_losses), width: band * 0.3, height: y(s.expected_losses), fill: "none", stroke: fill, "stroke-width": 2, "data-expected": s.expected_losses.toFixed(2) }));
      svg.appendChild(shape("rect", { x: x0 + band * 0.5, y: h - bottom - y(s.losses), width: band * 0.3, height: y(s.losses), fill: fill, "data-losses": s.losses }));
      text(svg, x0 + band / 2, h - bottom + 12, s.name, "middle");
      text(svg, x0 + band / 2, h - bottom + 24, "luck " + (s.luck >= 0 ? "+" : "") + s.luck.toFixed(1), "middle");
    });
    text(svg, 10, 10, "outline: expected losses · filled: actual losses (" + (S.luck ? S.luck.battles : 0) + " battles)");
  }

  // ------------------------------------------------------------------ moving
  function initialVersion() {
    var asked = parseInt(new URLSearchParams(location.search).get("v") || "", 10);
    return asked >= 1 ? Math.min(asked, S.frames.length) : S.frames.length;
  }

  function show(v) {
    if (!S.frames.length) return;
    v = Math.max(1, Math.min(S.frames.length, v));
    S.current = v;
    drawMap(v); drawStatus(v); drawPlayers(v); drawSecrets(v); drawLog(v); drawDiff(v);
    drawCursors(v);
    $("slider").value = String(v);
    document.body.setAttribute("data-version", String(v));
    try { history.replaceState(null, "", "?v=" + v); } catch (err) { /* a file: page may refuse */ }
  }

  function turnStep(direction) {
    var v = S.current, starts = S.turnStarts;
    if (direction > 0) {
      for (var i = 0; i < starts.length; i++) if (starts[i] > v) return show(starts[i]);
      return show(S.frames.length);
    }
    for (var j = starts.length - 1; j >= 0; j--) if (starts[j] < v) return show(starts[j]);
    return show(1);
  }

  function bind() {
    $("first").onclick = function () { show(1); };
    $("last").onclick = function () { show(S.frames.length); };
    $("prev").onclick = function () { show(S.current - 1); };
    $("next").onclick = function () { show(S.current + 1); };
    $("prev-turn").onclick = function () { turnStep(-1); };
    $("next-turn").onclick = function () { turnStep(1); };
    $("mark").onclick = function () {
      S.marked = S.current;
      $("marked").textContent = "version " + S.current + " marked";
      drawDiff(S.current);
    };
    var pending = null;
    $("slider").addEventListener("input", function (e) {
      pending = +e.target.value;
      requestAnimationFrame(function () { if (pending !== null) { show(pending); pending = null; } });
    });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var keys = {
        ArrowLeft: function () { show(S.current - 1); }, ArrowRight: function () { show(S.current + 1); },
        ArrowUp: function () { turnStep(-1); }, ArrowDown: function () { turnStep(1); },
        Home: function () { show(1); }, End: function () { show(S.frames.length); }
      };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
  }

  function poll() {
    if (S.over) return;
    fetch(dataUrl + "?since=" + S.frames.length, { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) { if (data.version > S.frames.length || data.over) merge(data); })
      .catch(function () { /* the server stopped: keep what is shown */ })
      .then(function () { setTimeout(poll, 1500); });
  }

  function start(data) {
    S.meta = data.meta;
    setUpMap();
    bind();
    merge(data);
    window.riskView = { show: show };  // for scripts/bench_webview.py
    document.body.setAttribute("data-ready", "1");
    if (config.live && !embedded) setTimeout(poll, 1500);
  }

  if (embedded) {
    start(JSON.parse(embedded.textContent));
  } else {
    fetch(dataUrl, { cache: "no-store" }).then(function (r) { return r.json(); }).then(start);
  }
})();
