// pagecheck: measures the page's geometry once it has laid out and writes the
// verdict, JSON, into <pre id="pagecheck-verdict">. Problems found:
//   overlap  two text boxes overlap
//   clipped  a text box leaves its SVG or its card (figure, .card)
//   marks    a chart (svg.plot, svg.chart) has fewer than 2 data marks
//   bars     a bar chart (in a figure.peaks or .bars) is one series of fewer
//            than 3 bars
//   units    a chart's time axis is in one unit, its texts or legend give
//            times in another
//   narrow   a plot takes less than 40% of its .plots container's width, or
//            a row of plots but the last spans less than 85% of it
//   wide     the page is wider than its viewport
//   label    a point label (text.point-label: a number the chart's key
//            names) is more than 12 px from every point (small coloured
//            mark) of its chart, or two labels sit by the same point
//   ratio    a table with a ratio column (a header "B/A" or "ratio") has no
//            CI column or no test column, or a row whose one side is
//            tagged host-timed has no "timers differ" mark
//   ci       in a chart of runs (points linking to /run/ or with data-ci),
//            a point with no CI (data-ci="none") lies in a drawn interval
//            (a .band or .ci of its chart), a point with one lies outside
//            the interval drawn at its x, or an interval has no height: a
//            missing CI must be drawn as missing
//   xticks   a chart of runs (svg.runs, or points linking to /run/) has x
//            tick labels (texts below its .axis) that repeat or lack a run
//            number ("#12")
// A data mark is a drawn shape (circle, rect, path, polygon) in a colour that
// is not grey: axes, grid lines and text are grey or black; bars, points and
// series lines are coloured.
(function () {
  "use strict";
  function grey(c) {
    if (!c || c === "none" || c === "transparent") return true;
    var m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/);
    if (!m) return true;
    if (m[4] !== undefined && parseFloat(m[4]) === 0) return true;
    var r = +m[1], g = +m[2], b = +m[3];
    return Math.max(r, g, b) - Math.min(r, g, b) < 40;
  }
  function describe(el) {
    var t = (el.textContent || "").trim().replace(/\s+/g, " ");
    return t.length > 60 ? t.slice(0, 57) + "..." : t;
  }
  function textBoxes() {
    var out = [];
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var n;
    while ((n = walker.nextNode())) {
      if (!n.nodeValue.trim()) continue;
      var p = n.parentElement;
      if (!p || p.closest("script,style,title,#pagecheck-verdict,select,option")) continue;
      var inSVG = p.closest("svg");
      var rects = [];
      if (inSVG) {
        var te = p.closest("text");
        if (!te || out.some(function (b) { return b.el === te; })) continue;
        var r = te.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) out.push({ el: te, svg: inSVG, r: r, text: describe(te) });
        continue;
      }
      var range = document.createRange();
      range.selectNodeContents(n);
      var rs = range.getClientRects();
      for (var i = 0; i < rs.length; i++) {
        if (rs[i].width > 0 && rs[i].height > 0) out.push({ el: p, svg: null, r: rs[i], text: describe(p) });
      }
    }
    return out;
  }
  function inter(a, b, tol) {
    var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > tol && h > tol;
  }
  function inside(r, box, tol) {
    return r.left >= box.left - tol && r.right <= box.right + tol && r.top >= box.top - tol && r.bottom <= box.bottom + tol;
  }
  // checkPointLabels: every point label sits next to a point of its own.
  function checkPointLabels(svg, k, problems) {
    var labels = svg.querySelectorAll("text.point-label");
    if (!labels.length) return;
    var pts = [];
    svg.querySelectorAll("circle, path, polygon, rect").forEach(function (el) {
      if (el.closest("text, defs, clipPath")) return;
      var st = getComputedStyle(el);
      if (grey(st.fill) && grey(st.stroke)) return;
      var r = el.getBoundingClientRect();
      if (r.width > 14 || r.height > 14 || (r.width === 0 && r.height === 0)) return;
      pts.push({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });
    });
    var owner = {};
    labels.forEach(function (t) {
      var r = t.getBoundingClientRect(), best = -1, bd = Infinity;
      pts.forEach(function (p, i) {
        var dx = Math.max(r.left - p.x, 0, p.x - r.right), dy = Math.max(r.top - p.y, 0, p.y - r.bottom);
        var d = Math.sqrt(dx * dx + dy * dy);
        if (d < bd) { bd = d; best = i; }
      });
      var name = "chart " + k + ": point label \"" + t.textContent.trim() + "\"";
      if (best < 0 || bd > 12) {
        problems.push({ kind: "label", what: name + " is " + (best < 0 ? "far" : Math.round(bd) + " px") + " from every point" });
        return;
      }
      if (owner[best] !== undefined) problems.push({ kind: "label", what: name + " and \"" + owner[best] + "\" sit by the same point" });
      owner[best] = t.textContent.trim();
    });
  }
  // checkRatios: a ratio is shown with its CI and test, and a ratio of a
  // host-timed against a device-timed run says so.
  function checkRatios(problems) {
    document.querySelectorAll("table").forEach(function (tb, k) {
      var heads = Array.prototype.map.call(tb.querySelectorAll("th"), function (th) { return th.textContent.trim(); });
      if (!heads.some(function (h) { return h === "B/A" || h === "ratio"; })) return;
      if (!heads.some(function (h) { return /\bCI\b/.test(h); }) || !heads.some(function (h) { return /test|p-value/.test(h); })) {
        problems.push({ kind: "ratio", what: "table " + k + " gives ratios with no CI or test column (" + heads.join(", ") + ")" });
      }
      tb.querySelectorAll("tbody tr").forEach(function (tr) {
        var hosts = 0;
        tr.querySelectorAll("td").forEach(function (td) { if (/host-timed/.test(td.textContent)) hosts++; });
        if (hosts === 1 && !/timers differ/.test(tr.textContent)) {
          problems.push({ kind: "ratio", what: "table " + k + ": \"" + describe(tr) + "\" compares a host-timed run with a device-timed one unmarked" });
        }
      });
    });
  }
  // checkCI: in a chart of runs (its points link to /run/, or carry
  // data-ci), a point with a CI lies in the interval drawn at its x, a point
  // with none (data-ci="none") lies in none, and no interval is a
  // zero-height sliver.
  function checkCI(svg, k, problems) {
    var bands = Array.prototype.filter.call(svg.querySelectorAll(".band, .ci"), function (b) { return b.isPointInFill; });
    svg.querySelectorAll("circle").forEach(function (pt) {
      if (!pt.closest('a[href*="/run/"]') && !pt.hasAttribute("data-ci")) return;
      var none = pt.getAttribute("data-ci") === "none";
      var cx = +pt.getAttribute("cx"), cy = +pt.getAttribute("cy");
      bands.forEach(function (b) {
        var bb = b.getBBox();
        if (cx < bb.x - 0.5 || cx > bb.x + bb.width + 0.5) return;
        var p = svg.createSVGPoint();
        p.x = Math.min(Math.max(cx, bb.x + 0.3), bb.x + bb.width - 0.3);
        p.y = cy;
        var in_ = b.isPointInFill(p);
        if (none && in_) problems.push({ kind: "ci", what: "chart " + k + ": a point with no CI at x=" + cx + " lies in a drawn interval" });
        if (!none && !in_) problems.push({ kind: "ci", what: "chart " + k + ": the interval drawn at x=" + cx + " does not hold its point (a missing CI drawn as zero-width or at 0?)" });
      });
    });
    bands.forEach(function (b) {
      var r = b.getBoundingClientRect();
      if (r.height < 0.5 && r.width > 0) problems.push({ kind: "ci", what: "chart " + k + ": an interval drawn with no height (a missing CI drawn as a zero-width one?)" });
    });
  }
  // checkRunTicks: a chart of runs tells its runs apart: every x tick below
  // the axis carries a run number, and no two ticks read the same.
  function checkRunTicks(svg, k, problems) {
    var axis = svg.querySelector(".axis");
    if (!axis) return;
    var bottom = axis.getBoundingClientRect().bottom;
    var seen = {}, n = 0;
    svg.querySelectorAll("text").forEach(function (t) {
      if (t.getBoundingClientRect().top < bottom) return;
      n++;
      var label = t.textContent.trim();
      var m = label.match(/#\d+/);
      if (!m) problems.push({ kind: "xticks", what: "chart " + k + ": the x tick \"" + label + "\" has no run number" });
      if (seen[label]) problems.push({ kind: "xticks", what: "chart " + k + ": the x tick \"" + label + "\" repeats" });
      seen[label] = true;
    });
    if (n === 0) problems.push({ kind: "xticks", what: "chart " + k + ": a chart of runs with no x ticks" });
  }
  function check() {
    var problems = [];
    var vw = document.documentElement.clientWidth;
    var sw = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (sw > vw + 1) problems.push({ kind: "wide", what: "the page is " + sw + " px wide in a " + vw + " px viewport" });
    var boxes = textBoxes();
    var sx = window.scrollX, sy = window.scrollY;
    for (var i = 0; i < boxes.length; i++) {
      var a = boxes[i];
      var host = a.svg;
      if (host) {
        var hr = host.getBoundingClientRect();
        if (!inside(a.r, hr, 1)) problems.push({ kind: "clipped", what: "\"" + a.text + "\" leaves its SVG" });
      }
      var card = a.el.closest("figure,.card");
      if (card && !inside(a.r, card.getBoundingClientRect(), 1)) problems.push({ kind: "clipped", what: "\"" + a.text + "\" leaves its card" });
      for (var j = i + 1; j < boxes.length; j++) {
        var b = boxes[j];
        if (a.r.top > b.r.bottom + 40 && b.r.top > a.r.bottom + 40) continue;
        if (inter(a.r, b.r, 1.5)) problems.push({ kind: "overlap", what: "\"" + a.text + "\" overlaps \"" + b.text + "\"" });
      }
    }
    // Plots use the page's width: every row of a .plots container but its
    // last spans 85% of it or more, and each plot takes 40% of it or more.
    document.querySelectorAll(".plots").forEach(function (box, k) {
      var bw = box.getBoundingClientRect().width;
      var rows = {}, ys = [];
      Array.prototype.forEach.call(box.children, function (f) {
        var r = f.getBoundingClientRect();
        var y = Math.round(r.top);
        if (!(y in rows)) { rows[y] = 0; ys.push(y); }
        rows[y] += r.width;
        if (bw > 0 && r.width < 0.4 * bw) {
          problems.push({ kind: "narrow", what: "a plot of row " + k + " is " + Math.round(r.width) + " px of " + Math.round(bw) });
        }
      });
      ys.slice(0, -1).forEach(function (y) {
        if (bw > 0 && rows[y] < 0.85 * bw) {
          problems.push({ kind: "narrow", what: "a row of plots " + k + " spans " + Math.round(rows[y]) + " of " + Math.round(bw) + " px" });
        }
      });
    });
    var charts = document.querySelectorAll("svg.plot, svg.chart");
    var nmarks = [];
    charts.forEach(function (svg, k) {
      var marks = 0, filled = 0;
      var colours = {};
      svg.querySelectorAll("circle, rect, path, polygon, polyline, line").forEach(function (el) {
        if (el.closest("text, defs, clipPath")) return;
        var st = getComputedStyle(el);
        if (st.display === "none" || st.visibility === "hidden") return;
        var r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) return;
        var fill = !grey(st.fill) && st.fill !== "none", stroke = !grey(st.stroke) && st.stroke !== "none";
        if (fill || stroke) marks++;
        if (fill) {
          filled++; // a bar; lines (ceilings, axes) are strokes
          colours[st.fill] = true;
        }
      });
      nmarks.push(marks);
      // The time unit of the axis, "(µs)", against the times the chart's
      // texts and legend give ("median 45.4 µs").
      var texts = [];
      svg.querySelectorAll("text").forEach(function (t) { texts.push(t.textContent); });
      var fig = svg.closest("figure");
      if (fig) fig.querySelectorAll("ul.legend li").forEach(function (li) { texts.push(li.textContent); });
      var axis = null, used = {};
      texts.forEach(function (t) {
        var a = t.match(/\((ns|µs|ms|s)\)/);
        if (a) axis = a[1];
        var re = /[0-9.]+\s?(ns|µs|ms|s)\b/g, m;
        while ((m = re.exec(t))) used[m[1]] = true;
      });
      var others = Object.keys(used).filter(function (u) { return u !== axis; });
      if (axis && others.length > 0) {
        var t0 = svg.closest("figure,.card,section");
        problems.push({ kind: "units", what: "chart " + k + " (" + (t0 ? describe(t0).slice(0, 50) : "?") + ") has an axis in " + axis + " and times in " + others.join(", ") });
      }
      var title = svg.closest("figure,.card,section");
      var name = "chart " + k + " (" + (title ? describe(title).slice(0, 50) : "?") + ")";
      if (marks < 2) {
        problems.push({ kind: "marks", what: name + " has " + marks + " data mark(s)" });
      } else if (svg.closest("figure.peaks, figure.bars") && Object.keys(colours).length < 2 && filled < 3) {
        problems.push({ kind: "bars", what: name + " is one series of " + filled + " bars: a table says it better" });
      }
    });
    document.querySelectorAll("svg").forEach(function (svg, k) { checkCI(svg, k, problems); checkPointLabels(svg, k, problems); });
    document.querySelectorAll("svg").forEach(function (svg, k) {
      if (svg.matches(".runs") || svg.querySelector('a[href*="/run/"] circle')) checkRunTicks(svg, k, problems);
    });
    checkRatios(problems);
    var v = { texts: boxes.length, charts: charts.length, marks: nmarks, width: sw, viewport: vw, problems: problems };
    var pre = document.createElement("pre");
    pre.id = "pagecheck-verdict";
    pre.textContent = JSON.stringify(v);
    pre.style.display = "none";
    document.body.appendChild(pre);
  }
  if (document.readyState === "complete") check();
  else window.addEventListener("load", check);
})();
