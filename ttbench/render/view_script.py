"""The inline script of the bringup view (see bringup_html.py). Plain ES2015, no library, nothing fetched.

It finds its own view by id (`__TTB_PREFIX__` is replaced by the view's prefix), reads the view's JSON (per stage and
op: the source line and module index, -1 for none; the module paths in tree order with where each subtree ends; the
folded repeats), and turns a click on a source row, a module row, an op or an in-page link into a selection.
In-page links are handled here because JupyterLab swallows them; the static anchors stay for pages without scripts.
"""

SCRIPT = r"""
(function () {
  var root = document.getElementById("__TTB_PREFIX__ttb-root");
  if (!root || root.dataset.ready) return;
  root.dataset.ready = "1";
  var data = JSON.parse(document.getElementById("__TTB_PREFIX__ttb-data").textContent);
  var P = data.prefix;
  root.classList.add("js");
  var elements = {};  // stage -> {op index: element} for every op drawn (folded runs included)
  data.stages.forEach(function (stage) {
    var pane = document.getElementById(P + "stage-" + stage);
    var map = elements[stage] = {};
    if (!pane) return;
    pane.querySelectorAll(".op").forEach(function (el) {
      var ln = el.querySelector(".ln");
      if (ln && /^\d+$/.test(ln.textContent)) { map[+ln.textContent] = el; el.dataset.stage = stage; }
    });
  });
  function folded(stage, i) {  // an op inside a folded repeat is drawn as its twin in the first block
    var r = data.repeat[stage];
    return r && i >= r[0] + r[1] && i < r[0] + r[1] * r[2];
  }
  function drawn(stage, i) {
    var r = data.repeat[stage];
    return elements[stage][folded(stage, i) ? r[0] + (i - r[0]) % r[1] : i];
  }
  function clear() {
    root.querySelectorAll(".sel").forEach(function (el) { el.classList.remove("sel"); });
  }
  function scrollInto(box, el) {  // scroll the box only: never the page or JupyterLab's notebook
    if (!box || !el) return;
    var top = el.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = Math.max(0, top - 24);
  }
  function openFolds(el) {
    for (var d = el.parentElement; d && d !== root; d = d.parentElement) {
      if (d.tagName === "DETAILS") d.open = true;
    }
  }
  // The module tree: a toggle folds a module's subtree; a deep tree starts folded below its second level.
  var moduleRows = data.modules.map(function (_, m) { return document.getElementById(P + "mod-" + m); });
  var closed = data.modules.map(function () { return false; });
  function depth(m) { return data.modules[m] ? data.modules[m].split(".").length : 0; }
  function drawTree() {
    var hideUntil = -1;
    for (var m = 0; m < moduleRows.length; m++) {
      var row = moduleRows[m];
      if (!row) continue;
      row.classList.toggle("hid", m < hideUntil);
      var tw = row.querySelector(".tw");
      if (tw && tw.textContent) tw.textContent = closed[m] ? "▸" : "▾";
      if (m >= hideUntil && closed[m]) hideUntil = data.moduleEnd[m];
    }
  }
  function reveal(m) {  // open every ancestor of module m
    for (var a = 0; a < m; a++) if (data.moduleEnd[a] > m) closed[a] = false;
    drawTree();
  }
  if (data.modules.length > 60) {
    data.modules.forEach(function (_, m) { closed[m] = depth(m) >= 2 && data.moduleEnd[m] > m + 1; });
  }
  drawTree();
  function select(what, label, match) {
    clear();
    var counts = [], first = {}, twins = 0;
    data.stages.forEach(function (stage) {
      var n = 0, seen = new Set();
      var lines = data.opLine[stage], mods = data.opModule[stage];
      for (var i = 0; i < lines.length; i++) {
        if (!match(lines[i], mods[i], stage, i)) continue;
        n++;
        if (folded(stage, i)) twins++;
        var el = drawn(stage, i);
        if (el && !seen.has(el)) {
          seen.add(el); el.classList.add("sel"); openFolds(el);
          if (!first[stage]) first[stage] = el;
        }
      }
      counts.push(stage + " " + n);
    });
    data.stages.forEach(function (stage) {
      var pane = document.getElementById(P + "stage-" + stage);
      if (pane && first[stage]) scrollInto(pane.querySelector("pre"), first[stage]);
    });
    if (what) { what.classList.add("sel"); scrollInto(what.closest(".src, .mods"), what); }
    root.querySelector(".ttb-sel").textContent = label + "\n" + counts.join(" · ") +
      (twins ? "\n" + twins + " of them in folded repeats: marked on their twins in the first block" : "");
  }
  function selectLine(k) {  // its ops, and in a stage where it was fused into another op, that op
    var line = data.lines[k], fused = data.fused[k] || {};
    select(document.getElementById(P + "src-" + k), line[0] + (line[2] ? "   " + line[2] : ""),
           function (l, mod, stage, i) { return l === k || (fused[stage] || []).indexOf(i) >= 0; });
  }
  function selectModule(m) {
    var end = data.moduleEnd[m];
    reveal(m);
    select(document.getElementById(P + "mod-" + m), "module " + (data.modules[m] || "(model)"),
           function (l, mod) { return mod >= m && mod < end; });
  }
  function selectOp(stage, i) {  // the ops of the same line and module: what this op became, or came from
    var k = data.opLine[stage][i], m = data.opModule[stage][i];
    if (k < 0 && m < 0) {
      select(null, stage + " op " + i + ": no source line or module", function (l, mod, s, j) {
        return s === stage && j === i;
      });
      return;
    }
    var label = (k >= 0 ? data.lines[k][0] + (data.lines[k][2] ? "   " + data.lines[k][2] : "") : "no source line") +
      (m >= 0 ? "\nin module " + (data.modules[m] || "(model)") : "");
    if (m >= 0) reveal(m);
    select(k >= 0 ? document.getElementById(P + "src-" + k) : null, label, function (l, mod) {
      return (k < 0 || l === k) && (m < 0 || mod === m);
    });
    if (m >= 0 && moduleRows[m]) {
      moduleRows[m].classList.add("sel");
      scrollInto(moduleRows[m].closest(".mods"), moduleRows[m]);
    }
  }
  root.addEventListener("click", function (ev) {
    var t = ev.target;
    var a = t.closest("a[href^='#']");
    if (a) ev.preventDefault();
    if (t.closest(".ttb-clear")) { clear(); root.querySelector(".ttb-sel").textContent = ""; return; }
    if (t.closest("summary, button, input, label")) return;
    var row = t.closest("tr[data-k]");
    if (row) return selectLine(+row.dataset.k);
    row = t.closest("tr[data-m]");
    if (row && t.closest(".tw") && t.closest(".tw").textContent) {  // the toggle folds, it does not select
      closed[+row.dataset.m] = !closed[+row.dataset.m];
      return drawTree();
    }
    if (row) return selectModule(+row.dataset.m);
    var op = t.closest(".op");
    if (op && op.dataset.stage) return selectOp(op.dataset.stage, +op.querySelector(".ln").textContent);
    var target = a && document.getElementById(a.getAttribute("href").slice(1));
    if (target) target.scrollIntoView({block: "nearest"});
  });
  var bookkeeping = root.querySelector(".ttb-ctl input[data-bookkeeping]");
  if (bookkeeping) bookkeeping.addEventListener("change", function () {
    root.classList.toggle("show-bk", bookkeeping.checked);
  });
  var boxes = root.querySelectorAll(".ttb-ctl input[data-stage]");
  boxes.forEach(function (box) {
    box.addEventListener("change", function () {
      var pane = document.getElementById(P + "stage-" + box.dataset.stage);
      if (pane) pane.classList.toggle("off", !box.checked);
    });
  });
  // The last stages are what a bringup is about: when the panes do not fit the cell's width (a laptop, a file
  // browser open), the earliest stages fold away, each a tick away in "stages shown", until the last one is on screen.
  var panes = root.querySelector(".panes"), foldedToFit = [];
  var laidOut = panes && panes.clientWidth > 0;  // a view drawn while hidden has no width to fit yet
  for (var i = 0; laidOut && i < boxes.length - 1 && panes.scrollWidth > panes.clientWidth + 1; i++) {
    boxes[i].checked = false;
    boxes[i].dispatchEvent(new Event("change"));
    foldedToFit.push(boxes[i].dataset.stage);
  }
  if (foldedToFit.length) {
    var note = document.createElement("span");
    note.className = "fit";
    note.textContent = "(" + foldedToFit.join(", ") + " folded to fit the width: tick to show)";
    root.querySelector(".ttb-ctl button").before(note);
  }
  root.dataset.readyMs = Math.round(performance.now());  // time to interactive, read by the browser tests
})();
"""
