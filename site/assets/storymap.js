/* Story map of the authoring build: draws the campaign graph embedded in the page
   (<script type="application/json" id="storymap-data">, written by pipeline/publish/storymap.py)
   on a canvas.  Pan by dragging, zoom with the wheel or + and -, search by id or title,
   click a node to open its page.  No network request, no dependency.

   Scale: only what is in the viewport is drawn; edges are drawn once few enough nodes are
   visible; labels once nodes are big enough.  Content text only ever reaches the DOM through
   textContent, never as markup. */
(function () {
  "use strict";

  var dataEl = document.getElementById("storymap-data");
  var canvas = document.getElementById("storymap-canvas");
  if (!dataEl || !canvas || !canvas.getContext) return;
  var D = JSON.parse(dataEl.textContent);
  var ctx = canvas.getContext("2d");
  var stage = document.getElementById("storymap-stage");
  var tooltip = document.getElementById("storymap-tooltip");
  var statusEl = document.getElementById("storymap-status");
  var liveEl = document.getElementById("storymap-live") || statusEl;
  var searchEl = document.getElementById("storymap-search");
  var resultsEl = document.getElementById("storymap-results");

  // ------------------------------------------------------------------ data
  var UNREACHABLE = 1, ERROR = 2, WARNING = 4, ROOT = 8;
  var DX = 64, DY = 26, R = 8; // world units: column and row spacing, node radius
  var RULER = 34; // CSS pixels: the strip along the top with band titles and depths
  var EDGE_NODE_LIMIT = 5000; // edges are drawn when at most this many nodes are visible
  var LABEL_NODE_LIMIT = 1500;
  var N = D.ids.length;
  var X = new Float32Array(N), Y = new Float32Array(N);
  var F = new Uint8Array(N), K = new Uint16Array(N);
  var cells = new Map();
  var stride = (D.rows || 1) + 1;
  for (var i = 0; i < N; i++) {
    X[i] = D.x[i] * DX;
    Y[i] = D.y[i] * DY;
    F[i] = D.flags[i];
    K[i] = D.kind[i];
    cells.set(D.x[i] * stride + D.y[i], i);
  }
  var E = Int32Array.from(D.edges);
  var M = E.length / 2;
  var EC = Uint8Array.from(D.edgeCond);
  var colours = D.kinds.map(function (k) { return k.colour; });
  var nKinds = colours.length;
  var minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (i = 0; i < N; i++) {
    if (X[i] < minX) minX = X[i];
    if (X[i] > maxX) maxX = X[i];
    if (Y[i] < minY) minY = Y[i];
    if (Y[i] > maxY) maxY = Y[i];
  }
  if (!N) { minX = minY = 0; maxX = maxY = 1; }
  minX -= DX; maxX += DX; minY -= DY; maxY += DY;
  var hasReachBand = D.layers.some(function (l) { return l[3] === 0; });

  // flagged nodes, errors first, for n / p
  var flagged = [];
  for (i = 0; i < N; i++) if (F[i] & (ERROR | WARNING | UNREACHABLE)) flagged.push(i);
  flagged.sort(function (a, b) {
    return rank(a) - rank(b) || a - b;
    function rank(j) { return F[j] & ERROR ? 0 : F[j] & WARNING ? 1 : 2; }
  });
  var flaggedPos = -1;

  // ------------------------------------------------------------------ view
  var view = { s: 1, tx: 0, ty: 0 }; // screen = world * s + t (CSS pixels)
  var W = 1, H = 1, dpr = 1, minS = 0.01, maxS = 8;
  var hover = -1, selected = -1;
  var pending = false;
  var vis = new Int32Array(N), byKind = new Int32Array(N), kindStart = new Int32Array(nKinds + 1);

  // ------------------------------------------------------------------ coverage (simulated games)
  // with coverage data, nodes may be coloured by how often the simulated games visit them
  var NEVER = 16;
  var KIND_K = K, KIND_COLOURS = colours;
  // not counted, never visited, then the scale's steps (``storymap.HEAT``, ``heat_step``)
  var HEAT = ["#e8e8e8", "#ffffff"];
  var heatK = null;
  if (D.coverage) {
    var runs = Math.max(1, D.coverage.runs);
    var top = D.coverage.heat.length - 1;
    D.coverage.heat.forEach(function (step) { HEAT.push(step.colour); });
    heatK = new Uint16Array(N);
    for (i = 0; i < N; i++) {
      var v = D.coverage.visits[i];
      heatK[i] = v < 0 ? 0 : v === 0 ? 1 : 2 + Math.min(top, Math.floor((top * v) / runs));
    }
  }
  function colourBy(mode) {
    if (mode === "visits" && heatK) { K = heatK; colours = HEAT; }
    else { K = KIND_K; colours = KIND_COLOURS; }
    nKinds = colours.length;
    kindStart = new Int32Array(nKinds + 1);
    redraw();
  }
  var colourEl = document.getElementById("storymap-colour");
  if (colourEl && heatK) {
    colourEl.addEventListener("change", function () { colourBy(colourEl.value); });
    colourBy(colourEl.value);
  }

  var stripes = (function () {
    var c = document.createElement("canvas");
    c.width = c.height = 8;
    var g = c.getContext("2d");
    g.strokeStyle = "rgba(70,70,70,0.55)";
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(-2, 10); g.lineTo(10, -2);
    g.moveTo(-2, 2); g.lineTo(2, -2);
    g.moveTo(6, 10); g.lineTo(10, 6);
    g.stroke();
    return ctx.createPattern(c, "repeat");
  })();

  function resize() {
    var r = stage.getBoundingClientRect();
    dpr = window.devicePixelRatio || 1;
    var first = W === 1 && H === 1;
    W = Math.max(1, r.width);
    H = Math.max(1, r.height);
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    canvas.style.width = W + "px";
    canvas.style.height = H + "px";
    var fitS = fitScale();
    minS = Math.min(fitS * 0.5, 0.5);
    if (first) fit();
    redraw();
  }

  function fitScale() {
    return Math.min(W / (maxX - minX), (H - RULER) / (maxY - minY), 2.5);
  }

  function fit() {
    view.s = fitScale();
    view.tx = (W - (maxX - minX) * view.s) / 2 - minX * view.s;
    view.ty = RULER + (H - RULER - (maxY - minY) * view.s) / 2 - minY * view.s;
    redraw();
  }

  function zoomAt(px, py, factor) {
    var s = Math.min(maxS, Math.max(minS, view.s * factor));
    factor = s / view.s;
    view.tx = px - (px - view.tx) * factor;
    view.ty = py - (py - view.ty) * factor;
    view.s = s;
    redraw();
  }

  function centreOn(i, scale) {
    if (scale) view.s = Math.min(maxS, Math.max(view.s, scale));
    view.tx = W / 2 - X[i] * view.s;
    view.ty = H / 2 - Y[i] * view.s;
    redraw();
  }

  function redraw() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(draw);
    }
  }

  // ------------------------------------------------------------------ drawing
  function draw() {
    pending = false;
    var s = view.s, tx = view.tx, ty = view.ty;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fffdf8";
    ctx.fillRect(0, 0, W, H);
    var pad = R * 3;
    var wx0 = -tx / s - pad, wy0 = -ty / s - pad, wx1 = (W - tx) / s + pad, wy1 = (H - ty) / s + pad;
    var r = R * s;

    drawBands(s, tx, ty);

    // visible nodes
    var nv = 0;
    for (var i = 0; i < N; i++) {
      var x = X[i], y = Y[i];
      if (x >= wx0 && x <= wx1 && y >= wy0 && y <= wy1) vis[nv++] = i;
    }

    // edges
    var showEdges = nv <= EDGE_NODE_LIMIT;
    if (showEdges) drawEdges(s, tx, ty, wx0, wy0, wx1, wy1, r);
    var focus = selected >= 0 ? selected : hover;
    if (focus >= 0) drawFocusEdges(focus, s, tx, ty, r);

    // nodes by kind (one path per colour)
    kindStart.fill(0);
    for (var j = 0; j < nv; j++) kindStart[K[vis[j]] + 1]++;
    for (var k = 0; k < nKinds; k++) kindStart[k + 1] += kindStart[k];
    var fillPos = kindStart.slice(0, nKinds);
    for (j = 0; j < nv; j++) byKind[fillPos[K[vis[j]]]++] = vis[j];
    var rr = Math.max(r, 1.3);
    var round = rr >= 2.5;
    for (k = 0; k < nKinds; k++) {
      if (kindStart[k] === kindStart[k + 1]) continue;
      ctx.fillStyle = colours[k];
      ctx.beginPath();
      for (j = kindStart[k]; j < kindStart[k + 1]; j++) {
        i = byKind[j];
        shape(X[i] * s + tx, Y[i] * s + ty, rr, round);
      }
      ctx.fill();
    }
    // unreachable: striped and washed out
    ctx.beginPath();
    var anyU = false;
    for (j = 0; j < nv; j++) {
      i = vis[j];
      if (F[i] & UNREACHABLE) { shape(X[i] * s + tx, Y[i] * s + ty, rr, round); anyU = true; }
    }
    if (anyU) {
      ctx.fillStyle = "rgba(255,255,255,0.45)";
      ctx.fill();
      if (rr >= 4) { ctx.fillStyle = stripes; ctx.fill(); }
      ctx.strokeStyle = "#777";
      ctx.lineWidth = 1;
      if (rr >= 4) ctx.stroke();
    }
    // the root
    for (j = 0; j < nv; j++) {
      i = vis[j];
      if (F[i] & ROOT) {
        ctx.strokeStyle = "#3d2b1f";
        ctx.lineWidth = 2;
        ctx.beginPath();
        shape(X[i] * s + tx, Y[i] * s + ty, rr + 4, true);
        ctx.stroke();
      }
    }
    // rings: warnings, then errors on top; a ring keeps a visible size when zoomed out
    ring(nv, WARNING, ERROR, "#f08c00", s, tx, ty, rr);
    ring(nv, ERROR, 0, "#d32f2f", s, tx, ty, rr);
    ring(nv, NEVER, ERROR | WARNING, "#c2185b", s, tx, ty, rr);

    if (hover >= 0) mark(hover, "#222", 2, s, tx, ty, rr);
    if (selected >= 0) mark(selected, "#0b57d0", 3, s, tx, ty, rr);

    if (rr >= 7 && nv <= LABEL_NODE_LIMIT) drawLabels(nv, s, tx, ty, rr);
    drawRuler(s, tx);

    setStatus(nv, showEdges);
  }

  function shape(sx, sy, rr, round) {
    if (round) {
      ctx.moveTo(sx + rr, sy);
      ctx.arc(sx, sy, rr, 0, 6.283185307179586);
    } else {
      ctx.rect(sx - rr, sy - rr, rr * 2, rr * 2);
    }
  }

  function ring(nv, flag, skip, colour, s, tx, ty, rr) {
    var lw = Math.max(1.5, Math.min(4, rr * 0.35));
    var rad = Math.max(rr + lw * 0.5 + 1, 4);
    ctx.beginPath();
    var any = false;
    for (var j = 0; j < nv; j++) {
      var i = vis[j];
      if (F[i] & flag && !(F[i] & skip)) {
        shape(X[i] * s + tx, Y[i] * s + ty, rad, true);
        any = true;
      }
    }
    if (!any) return;
    ctx.strokeStyle = colour;
    ctx.lineWidth = lw;
    ctx.stroke();
  }

  function mark(i, colour, lw, s, tx, ty, rr) {
    ctx.beginPath();
    shape(X[i] * s + tx, Y[i] * s + ty, Math.max(rr + 5, 8), true);
    ctx.strokeStyle = colour;
    ctx.lineWidth = lw;
    ctx.stroke();
  }

  function bandX(c0, c1, s, tx, pad) {
    return [(c0 * DX - DX * pad) * s + tx, (c1 * DX + DX * pad) * s + tx];
  }

  // backgrounds: every other layer shaded, the unreachable band grey and striped
  function drawBands(s, tx, ty) {
    var top = minY * s + ty, bottom = maxY * s + ty;
    var layers = D.layers;
    for (var l = 0; l < layers.length; l++) {
      if (layers[l][3] !== 0 || l % 2 !== 0) continue;
      var b = bandX(layers[l][0], layers[l][1], s, tx, 0.5);
      if (b[1] < 0 || b[0] > W) continue;
      ctx.fillStyle = "#f6f0e6";
      ctx.fillRect(b[0], top, b[1] - b[0], bottom - top);
    }
    var ub = D.unreachableBand;
    if (ub) {
      var u = bandX(ub[0], ub[1], s, tx, 0.75);
      if (u[1] >= 0 && u[0] <= W) {
        ctx.fillStyle = "#ececec";
        ctx.fillRect(u[0], top, u[1] - u[0], bottom - top);
        ctx.fillStyle = stripes;
        ctx.globalAlpha = 0.25;
        ctx.fillRect(u[0], top, u[1] - u[0], bottom - top);
        ctx.globalAlpha = 1;
      }
    }
  }

  // the ruler along the top edge, drawn last so it stays readable: band titles and depths
  function drawRuler(s, tx) {
    ctx.fillStyle = "rgba(255,253,248,0.92)";
    ctx.fillRect(0, 0, W, RULER);
    ctx.fillStyle = "#e3d7c5";
    ctx.fillRect(0, RULER - 1, W, 1);
    ctx.textBaseline = "top";
    var ub = D.unreachableBand;
    var ux0 = ub ? bandX(ub[0], ub[1], s, tx, 0.75)[0] : W;
    ctx.font = "bold 12px system-ui, sans-serif";
    if (hasReachBand) {
      var r = bandX(D.band[0], D.band[1], s, tx, 0.5);
      if (r[1] > 0 && r[0] < W) {
        ctx.fillStyle = "#6b5a44";
        ctx.fillText("Distance depuis le départ →", Math.max(r[0] + 3, 6), 3);
      }
    }
    if (ub && ux0 < W) {
      var u = bandX(ub[0], ub[1], s, tx, 0.75);
      if (u[1] > 0) {
        ctx.fillStyle = "#555";
        var label = "Inatteignables depuis le départ";
        var lw = ctx.measureText(label).width;
        ctx.fillText(label, Math.max(Math.min(u[0] + 4, W - lw - 6), 6), 3);
      }
    }
    ctx.font = "11px system-ui, sans-serif";
    ctx.fillStyle = "#8a7a66";
    var layers = D.layers, lastRight = -Infinity;
    for (var l = 0; l < layers.length; l++) {
      var b = bandX(layers[l][0], layers[l][1], s, tx, 0.5);
      if (b[1] < 0 || b[0] > W || b[1] - b[0] < 14) continue;
      var text = String(layers[l][2]);
      var lx = Math.max(b[0] + 3, Math.min(6, b[1] - 20));
      if (lx < lastRight + 4) continue;
      ctx.fillText(text, lx, 19);
      lastRight = lx + ctx.measureText(text).width;
    }
  }

  // Liang-Barsky: the part of the segment inside the screen (plus a margin), written into
  // seg; false when none.  Lines are clipped before they are stroked: a dashed line running
  // for a million pixels off screen would cost seconds.
  var seg = new Float64Array(4);
  function clip(x0, y0, x1, y1) {
    var m = 20, dx = x1 - x0, dy = y1 - y0, t0 = 0, t1 = 1;
    var p = [-dx, dx, -dy, dy], q = [x0 + m, W + m - x0, y0 + m, H + m - y0];
    for (var k = 0; k < 4; k++) {
      if (p[k] === 0) {
        if (q[k] < 0) return false;
      } else {
        var t = q[k] / p[k];
        if (p[k] < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
        else { if (t < t0) return false; if (t < t1) t1 = t; }
      }
    }
    seg[0] = x0 + t0 * dx; seg[1] = y0 + t0 * dy; seg[2] = x0 + t1 * dx; seg[3] = y0 + t1 * dy;
    return t1 === 1 ? 2 : 1; // 2: the end point is on screen (room for an arrowhead)
  }

  function drawEdges(s, tx, ty, wx0, wy0, wx1, wy1, r) {
    var arrows = r >= 5;
    var plain = new Path2D(), cond = new Path2D(), heads = new Path2D();
    for (var e = 0; e < M; e++) {
      var a = E[2 * e], b = E[2 * e + 1];
      var ax = X[a], ay = Y[a], bx = X[b], by = Y[b];
      if ((ax < wx0 && bx < wx0) || (ax > wx1 && bx > wx1) || (ay < wy0 && by < wy0) || (ay > wy1 && by > wy1)) continue;
      var sx = ax * s + tx, sy = ay * s + ty, ex = bx * s + tx, ey = by * s + ty;
      var p = EC[e] ? cond : plain;
      if (arrows) {
        var dx = ex - sx, dy = ey - sy, len = Math.sqrt(dx * dx + dy * dy);
        if (len < 2 * r + 2) continue;
        var ux = dx / len, uy = dy / len;
        sx += ux * r; sy += uy * r;
        ex -= ux * (r + 1); ey -= uy * (r + 1);
      }
      var inside = clip(sx, sy, ex, ey);
      if (!inside) continue;
      p.moveTo(seg[0], seg[1]);
      p.lineTo(seg[2], seg[3]);
      if (arrows && inside === 2) {
        var hl = Math.min(8, r);
        heads.moveTo(ex, ey);
        heads.lineTo(ex - ux * hl - uy * hl * 0.45, ey - uy * hl + ux * hl * 0.45);
        heads.lineTo(ex - ux * hl + uy * hl * 0.45, ey - uy * hl - ux * hl * 0.45);
        heads.closePath();
      }
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = "rgba(90,80,70,0.35)";
    ctx.stroke(plain);
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = "rgba(90,80,70,0.5)";
    ctx.stroke(cond);
    ctx.setLineDash([]);
    if (arrows) {
      ctx.fillStyle = "rgba(90,80,70,0.55)";
      ctx.fill(heads);
    }
  }

  // the edges of the hovered or selected node, drawn at any zoom (built once per node)
  var focusCache = { i: -1, out: [], inc: [] };
  function neighbours(i) {
    if (focusCache.i === i) return focusCache;
    var out = [], inc = [];
    for (var e = 0; e < M; e++) {
      if (E[2 * e] === i) out.push(E[2 * e + 1]);
      else if (E[2 * e + 1] === i) inc.push(E[2 * e]);
    }
    focusCache = { i: i, out: out, inc: inc };
    return focusCache;
  }

  function drawFocusEdges(i, s, tx, ty) {
    var nb = neighbours(i);
    var sx = X[i] * s + tx, sy = Y[i] * s + ty;
    ctx.lineWidth = 1.6;
    ctx.strokeStyle = "rgba(11,87,208,0.8)";
    ctx.beginPath();
    for (var j = 0; j < nb.out.length; j++) {
      if (!clip(sx, sy, X[nb.out[j]] * s + tx, Y[nb.out[j]] * s + ty)) continue;
      ctx.moveTo(seg[0], seg[1]);
      ctx.lineTo(seg[2], seg[3]);
    }
    ctx.stroke();
    ctx.strokeStyle = "rgba(120,60,160,0.8)";
    ctx.beginPath();
    for (j = 0; j < nb.inc.length; j++) {
      if (!clip(X[nb.inc[j]] * s + tx, Y[nb.inc[j]] * s + ty, sx, sy)) continue;
      ctx.moveTo(seg[0], seg[1]);
      ctx.lineTo(seg[2], seg[3]);
    }
    ctx.stroke();
  }

  function fitText(text, room) {
    if (ctx.measureText(text).width <= room) return text;
    var lo = 0, hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + "…").width <= room) lo = mid;
      else hi = mid - 1;
    }
    return lo ? text.slice(0, lo) + "…" : "";
  }

  function drawLabels(nv, s, tx, ty, rr) {
    ctx.font = (rr >= 11 ? "12px" : "11px") + " system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(255,253,248,0.9)";
    ctx.fillStyle = "#222";
    var col = DX * s;
    var titles = rr >= 10 && nv <= 400;
    for (var j = 0; j < nv; j++) {
      var i = vis[j];
      var id = D.ids[i];
      var free = !cells.has((D.x[i] + 1) * stride + D.y[i]);
      var room = (free ? 2 : 1) * col - rr * 2 - 10;
      var text = id.slice(id.indexOf(":") + 1);
      if (titles && D.titles[i]) text += " · " + D.titles[i];
      text = fitText(text, room);
      var lx = X[i] * s + tx + rr + 4, ly = Y[i] * s + ty;
      ctx.strokeText(text, lx, ly);
      ctx.fillText(text, lx, ly);
    }
  }

  var lastStatus = "";
  function setStatus(nv, showEdges) {
    var parts = [nv + " / " + N + " nœuds visibles"];
    if (!showEdges && M) parts.push("zoomez pour voir les liens");
    if (selected >= 0) parts.unshift(selectionText(selected));
    var text = parts.join(" · ");
    if (text !== lastStatus) {
      statusEl.textContent = text;
      lastStatus = text;
    }
  }

  // ------------------------------------------------------------------ hit test and pages
  function hit(px, py) {
    var wx = (px - view.tx) / view.s, wy = (py - view.ty) / view.s;
    var cx = Math.round(wx / DX), cy = Math.round(wy / DY);
    var best = -1, bestD = Infinity;
    var tol = Math.max(R, 6 / view.s);
    for (var ox = -1; ox <= 1; ox++) {
      for (var oy = -1; oy <= 1; oy++) {
        var gx = cx + ox, gy = cy + oy;
        if (gx < 0 || gy < 0 || gy >= stride) continue;
        var i = cells.get(gx * stride + gy);
        if (i === undefined) continue;
        var d = Math.hypot(X[i] - wx, Y[i] - wy);
        if (d <= tol && d < bestD) { best = i; bestD = d; }
      }
    }
    return best;
  }

  // the node closest to a screen point, at any distance (Enter on the map with no selection)
  function nearest(px, py) {
    var wx = (px - view.tx) / view.s, wy = (py - view.ty) / view.s;
    var best = -1, bestD = Infinity;
    for (var i = 0; i < N; i++) {
      var d = (X[i] - wx) * (X[i] - wx) + (Y[i] - wy) * (Y[i] - wy);
      if (d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  function pageOf(i) {
    return "n/" + encodeURIComponent(D.slugs[i]) + ".html";
  }

  function open(i, newTab) {
    if (i < 0) return;
    if (newTab) window.open(pageOf(i), "_blank", "noopener");
    else window.location.href = pageOf(i);
  }

  function describe(i) {
    var k = D.kinds[KIND_K[i]];
    var bits = [];
    if (F[i] & ROOT) bits.push("départ");
    if (F[i] & ERROR) bits.push("erreur");
    if (F[i] & WARNING) bits.push("avertissement");
    if (F[i] & UNREACHABLE) bits.push("inatteignable");
    return { id: D.ids[i], title: D.titles[i] || "", kind: k ? k.label : "", flags: bits.join(", ") };
  }

  function showTooltip(i, px, py) {
    if (i < 0) { tooltip.hidden = true; return; }
    var d = describe(i);
    tooltip.replaceChildren();
    var head = document.createElement("strong");
    head.textContent = d.id;
    tooltip.appendChild(head);
    line(d.kind + (d.flags ? " · " + d.flags : ""), "sm-tt-meta");
    if (d.title) line(d.title, "sm-tt-title");
    if (D.coverage && D.coverage.visits[i] >= 0) {
      var n = D.coverage.visits[i];
      line(n ? "visité dans " + n + " des " + D.coverage.runs + " parties simulées"
        : F[i] & UNREACHABLE ? "inatteignable : jamais visité" : "jamais visité en jouant", "sm-tt-meta");
    }
    line("clic : ouvrir la page du nœud", "sm-tt-hint");
    tooltip.hidden = false;
    var tw = tooltip.offsetWidth, th = tooltip.offsetHeight;
    var left = px + 14, topp = py + 14;
    if (left + tw > W - 4) left = Math.max(4, px - tw - 14);
    if (topp + th > H - 4) topp = Math.max(4, py - th - 14);
    tooltip.style.left = left + "px";
    tooltip.style.top = topp + "px";
    function line(text, cls) {
      var p = document.createElement("span");
      p.className = cls;
      p.textContent = text;
      tooltip.appendChild(p);
    }
  }

  function selectionText(i) {
    var d = describe(i);
    return d.id + (d.title ? " — " + d.title : "") + (d.flags ? " (" + d.flags + ")" : "") +
      " · Entrée : ouvrir sa page";
  }

  function select(i, announce) {
    selected = i;
    if (i >= 0 && announce) liveEl.textContent = selectionText(i);
    redraw();
  }

  // ------------------------------------------------------------------ pointer
  var pointers = new Map();
  var drag = null;

  function local(e) {
    var r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  canvas.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    canvas.setPointerCapture(e.pointerId);
    var p = local(e);
    pointers.set(e.pointerId, p);
    if (pointers.size === 1) drag = { x: p.x, y: p.y, tx: view.tx, ty: view.ty, moved: false };
    else drag = null;
  });

  canvas.addEventListener("pointermove", function (e) {
    var p = local(e);
    if (pointers.has(e.pointerId)) {
      if (pointers.size === 2) {
        var ids = Array.from(pointers.keys());
        var other = pointers.get(ids[0] === e.pointerId ? ids[1] : ids[0]);
        var old = pointers.get(e.pointerId);
        var d0 = Math.hypot(old.x - other.x, old.y - other.y);
        var d1 = Math.hypot(p.x - other.x, p.y - other.y);
        if (d0 > 0) zoomAt((p.x + other.x) / 2, (p.y + other.y) / 2, d1 / d0);
        pointers.set(e.pointerId, p);
        return;
      }
      pointers.set(e.pointerId, p);
      if (drag) {
        var dx = p.x - drag.x, dy = p.y - drag.y;
        if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 4) {
          drag.moved = true;
          canvas.classList.add("sm-dragging");
          tooltip.hidden = true;
        }
        if (drag.moved) {
          view.tx = drag.tx + dx;
          view.ty = drag.ty + dy;
          redraw();
        }
      }
      return;
    }
    var i = hit(p.x, p.y);
    if (i !== hover) {
      hover = i;
      canvas.style.cursor = i >= 0 ? "pointer" : "";
      redraw();
    }
    showTooltip(i, p.x, p.y);
  });

  function release(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    canvas.classList.remove("sm-dragging");
    if (e.type === "pointerup" && drag && !drag.moved) {
      var p = local(e);
      var i = hit(p.x, p.y);
      if (i >= 0) open(i, e.ctrlKey || e.metaKey || e.shiftKey);
    }
    drag = null;
  }
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("pointerleave", function () {
    if (!pointers.size) {
      hover = -1;
      tooltip.hidden = true;
      redraw();
    }
  });
  canvas.addEventListener("auxclick", function (e) {
    if (e.button !== 1) return;
    var p = local(e);
    open(hit(p.x, p.y), true);
  });

  canvas.addEventListener("wheel", function (e) {
    e.preventDefault();
    var p = local(e);
    var delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * H : e.deltaY;
    zoomAt(p.x, p.y, Math.exp(-delta * 0.0015));
  }, { passive: false });

  // ------------------------------------------------------------------ keyboard
  function zoomKey(key) {
    if (key === "+" || key === "=") { zoomAt(W / 2, H / 2, 1.4); return true; }
    if (key === "-" || key === "_") { zoomAt(W / 2, H / 2, 1 / 1.4); return true; }
    if (key === "0") { fit(); return true; }
    return false;
  }

  canvas.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var step = 80;
    var handled = zoomKey(e.key);
    if (!handled) {
      handled = true;
      switch (e.key) {
        case "ArrowLeft": view.tx += step; redraw(); break;
        case "ArrowRight": view.tx -= step; redraw(); break;
        case "ArrowUp": view.ty += step; redraw(); break;
        case "ArrowDown": view.ty -= step; redraw(); break;
        case "Enter":
          if (selected >= 0) open(selected, e.shiftKey);
          else select(nearest(W / 2, H / 2), true);
          break;
        case "Escape": select(-1); break;
        case "n": case "p":
          if (flagged.length) {
            flaggedPos = (flaggedPos + (e.key === "n" ? 1 : flagged.length - 1)) % flagged.length;
            select(flagged[flaggedPos], true);
            centreOn(flagged[flaggedPos], 1.2);
          }
          break;
        default: handled = false;
      }
    }
    if (handled) e.preventDefault();
  });

  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t === canvas || (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA"))) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "/") { e.preventDefault(); searchEl.focus(); return; }
    if (t === document.body && zoomKey(e.key)) e.preventDefault();
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-zoom]"), function (b) {
    b.addEventListener("click", function () {
      var z = b.getAttribute("data-zoom");
      if (z === "fit") fit();
      else zoomAt(W / 2, H / 2, z === "in" ? 1.4 : 1 / 1.4);
    });
  });

  // ------------------------------------------------------------------ search
  var normIds = null, normTitles = null;
  function norm(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function find(q) {
    q = norm(q.trim());
    if (!q) return [];
    if (!normIds) {
      normIds = D.ids.map(norm);
      normTitles = D.titles.map(function (t) { return norm(t || ""); });
    }
    var buckets = [[], [], [], []], limit = 30;
    for (var i = 0; i < N; i++) {
      var id = normIds[i], key = id.slice(id.indexOf(":") + 1);
      if (id === q || key === q) buckets[0].push(i);
      else if (key.lastIndexOf(q, 0) === 0 || id.lastIndexOf(q, 0) === 0) {
        if (buckets[1].length < limit) buckets[1].push(i);
      } else if (id.indexOf(q) >= 0) {
        if (buckets[2].length < limit) buckets[2].push(i);
      } else if (buckets[3].length < limit && normTitles[i].indexOf(q) >= 0) buckets[3].push(i);
    }
    return buckets[0].concat(buckets[1], buckets[2], buckets[3]).slice(0, limit);
  }

  var found = [], lastQuery = null, timer = 0;
  function showResults() {
    found = find(searchEl.value);
    lastQuery = searchEl.value;
    resultsEl.replaceChildren();
    if (!searchEl.value.trim()) { resultsEl.hidden = true; return; }
    if (!found.length) {
      var none = document.createElement("li");
      none.className = "sm-none";
      none.textContent = "Aucun nœud ne correspond.";
      resultsEl.appendChild(none);
    }
    found.forEach(function (i) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = pageOf(i);
      a.setAttribute("data-i", String(i));
      var idEl = document.createElement("code");
      idEl.textContent = D.ids[i];
      a.appendChild(idEl);
      if (D.titles[i]) {
        var t = document.createElement("span");
        t.textContent = " " + D.titles[i];
        a.appendChild(t);
      }
      if (F[i] & (ERROR | WARNING | UNREACHABLE)) {
        a.classList.add(F[i] & ERROR ? "sm-f-error" : F[i] & WARNING ? "sm-f-warning" : "sm-f-unreach");
      }
      a.addEventListener("focus", function () { select(i, true); centreOn(i, 1.2); });
      a.addEventListener("keydown", function (e) {
        var links = resultsEl.querySelectorAll("a");
        var pos = Array.prototype.indexOf.call(links, a);
        if (e.key === "ArrowDown" && pos < links.length - 1) { links[pos + 1].focus(); e.preventDefault(); }
        else if (e.key === "ArrowUp") { (pos > 0 ? links[pos - 1] : searchEl).focus(); e.preventDefault(); }
        else if (e.key === "Escape") { searchEl.focus(); e.preventDefault(); }
      });
      li.appendChild(a);
      resultsEl.appendChild(li);
    });
    resultsEl.hidden = false;
  }

  searchEl.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(showResults, N > 20000 ? 200 : 60);
  });
  searchEl.addEventListener("keydown", function (e) {
    if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(timer);
      var again = lastQuery === searchEl.value && found.length && selected === found[0];
      if (lastQuery !== searchEl.value) showResults();
      if (!found.length) {
        liveEl.textContent = "Aucun nœud ne correspond à « " + searchEl.value + " ».";
        return;
      }
      if (again) open(found[0], e.shiftKey);
      else { select(found[0], true); centreOn(found[0], 1.2); }
    } else if (e.key === "ArrowDown") {
      var first = resultsEl.querySelector("a");
      if (first) { first.focus(); e.preventDefault(); }
    } else if (e.key === "Escape") {
      searchEl.value = "";
      showResults();
    }
  });

  // ------------------------------------------------------------------ start
  function fromHash() {
    var h = window.location.hash.slice(1);
    if (!h) return;
    var id;
    try { id = decodeURIComponent(h); } catch (err) { return; }
    var i = D.ids.indexOf(id);
    if (i >= 0) { select(i, true); centreOn(i, 1.2); }
  }

  if (window.ResizeObserver) new ResizeObserver(resize).observe(stage);
  else window.addEventListener("resize", resize);
  resize();
  fromHash();
  window.addEventListener("hashchange", fromHash);
})();
