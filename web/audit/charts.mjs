// Grouped bar charts drawn as SVG with DOM calls only (no library). Every bar has its
// value written beside it and the chart names its categories, so it reads without
// colour; callers also give a table of the same numbers for screen readers.

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// About how wide a text is at `size` px: a CJK character is about a full em wide, others
// about 0.6 em (the legend places its next swatch after it, never on it).
function textWidth(text, size) {
  let width = 0;
  for (const ch of text) width += ch.codePointAt(0) >= 0x2e80 ? size : size * 0.6;
  return width;
}

// `text` in lines of at most `room` units at `size` px: at spaces, or between any two
// characters of a text without spaces (Japanese, Chinese).
function wrapped(text, size, room) {
  const parts = text.includes(" ") ? text.split(" ").map((w, i) => (i ? ` ${w}` : w)) : [...text];
  const lines = [""];
  for (const part of parts) {
    const line = lines[lines.length - 1];
    if (line && textWidth(line + part, size) > room) lines.push(part.trimStart());
    else lines[lines.length - 1] = line + part;
  }
  return lines;
}

function niceMax(value) {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= value) return m * step;
  return 10 * step;
}

function short(value) {
  if (Number.isInteger(value)) return String(value);
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

// barChart({title, categories: ["0", "1", ...], series: [{name, cls, values}], xLabel, yLabel, width}):
// drawn at `width` units, the width it is given (`fitted`), so its 12-unit labels are 12 px
// on a phone as on a desktop. Narrow, the values stand upright above their bars and the
// categories' names take two rows, so no label runs into another.
export function barChart({ title, categories, series, xLabel = "", yLabel = "", width = 520 }) {
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const left = Math.max(34, Math.ceil(textWidth(short(max), 12)) + 10), right = 10;
  const plotW = width - left - right;
  const groupW = plotW / Math.max(1, categories.length);
  const barW = Math.min(28, (groupW - 8) / series.length);
  const upright = barW < Math.max(...series.flatMap((s) => s.values.map((v) => textWidth(short(v), 12)))) + 2;
  const stagger = categories.some((c) => textWidth(c, 12) + 6 > groupW);
  const legendH = 22, valueH = upright ? 6 + Math.max(...series.flatMap((s) => s.values.map((v) => textWidth(short(v), 12)))) : 16;
  const top = legendH + valueH, bottom = (stagger ? 44 : 30) + (xLabel ? 16 : 0);
  const height = Math.round(top + 150 + bottom), plotH = height - top - bottom;
  const y = (v) => top + plotH - (v / max) * plotH;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart bar-chart", role: "img",
    "aria-label": title, width: "100%", preserveAspectRatio: "xMinYMin meet" });
  root.dataset.width = String(width);
  root.append(svg("title", {}, title));
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    root.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: left - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, short(v)));
  }
  categories.forEach((cat, c) => {
    const x0 = left + c * groupW + (groupW - barW * series.length) / 2;
    series.forEach((s, k) => {
      const value = s.values[c] || 0;
      const x = x0 + k * barW, cx = x + (barW - 2) / 2;
      root.append(svg("rect", { x, y: y(value), width: Math.max(1, barW - 2), height: Math.max(0, top + plotH - y(value)),
        class: `bar ${s.cls}` }, svg("title", {}, `${s.name}, ${cat}: ${short(value)}`)));
      root.append(upright
        ? svg("text", { x: cx + 4, y: y(value) - 3, class: "value", transform: `rotate(-90 ${cx + 4} ${y(value) - 3})` }, short(value))
        : svg("text", { x: cx, y: y(value) - 3, class: "value", "text-anchor": "middle" }, short(value)));
    });
    const half = textWidth(cat, 12) / 2 + 2; // kept inside the box at either end
    const cx = Math.min(width - half, Math.max(half, left + c * groupW + groupW / 2));
    root.append(svg("text", { x: cx, y: top + plotH + 16 + (stagger && c % 2 ? 14 : 0),
      class: "axis", "text-anchor": "middle" }, cat));
  });
  root.append(svg("line", { x1: left, x2: width - right, y1: top + plotH, y2: top + plotH, class: "base" }));
  if (xLabel) root.append(svg("text", { x: left + plotW / 2, y: height - 6, class: "axis", "text-anchor": "middle" }, xLabel));
  if (yLabel) root.append(svg("text", { x: 4, y: 14, class: "axis" }, yLabel));
  // legend: a swatch with a pattern letter and the name (readable without colour)
  let lx = 4;
  series.forEach((s) => {
    root.append(svg("rect", { x: lx, y: 4, width: 12, height: 12, class: `bar ${s.cls}` }),
      svg("text", { x: lx + 16, y: 15, class: "legend-text" }, s.name));
    lx += 30 + textWidth(s.name, 12);
  });
  return root;
}

// Round tick values from 0 up to at least `top`, about `most` of them.
// `whole`: counts (games), never a tick between two.
export function ticks(top, most = 5, whole = false) {
  if (top <= 0) return [0, 1];
  const raw = top / most;
  let step = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * step >= raw) { step *= m; break; }
  if (whole) step = Math.max(1, step);
  const out = [];
  for (let v = 0; v <= top + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
  if (out[out.length - 1] < top) out.push(out.length * step);
  return out;
}

// The chart's width in its own units: the space it gets, so that its 13-unit labels are
// 13 px on a phone and on a desktop alike (between 260 and 600). Before it is placed, a
// guess from the window; `fitted` draws it again at the width it was given.
function chartWidth(space = (window.innerWidth || 600) - 48) {
  return Math.round(Math.max(260, Math.min(600, space)));
}

// A figure holding one chart that `draw(width)` makes; `fitCharts(root)` redraws each
// placed, visible one at the width its figure has.
export function fitted(figure, draw) {
  const svgNode = draw(chartWidth());
  figure.append(svgNode);
  figure.classList.add("fits");
  figure.fit = () => {
    const space = figure.clientWidth;
    const current = figure.querySelector(":scope > svg");
    if (space > 0 && current && Number(current.dataset.width) !== chartWidth(space)) {
      current.replaceWith(draw(chartWidth(space)));
    }
  };
  return figure;
}

export function fitCharts(root) {
  for (const figure of root.querySelectorAll(".fits")) figure.fit?.();
}

// bandChart({title, values, band, xLabel, lineName, bandName, format}): a line of
// values[i] (after game i, i = 0..n) over a shaded band from -band[i] to +band[i] around
// zero; the x axis counts games with tick numbers, the legend has a swatch for each.
// `flag` (optional): the verdict's flag line, drawn dashed at -flag[i] and +flag[i] and
// named in the legend (`flagName`). The left margin fits the widest y label ("+1,000").
export function bandChart({ title, values, band, xLabel = "", lineName = "", bandName = "", format = short,
  width = chartWidth(), flag = null, flagName = "" }) {
  const top = flag ? 64 : 46, right = 12, bottom = 42;
  const height = (width < 420 ? 240 : 260) + top - 46;
  const yTicks = ticks(Math.max(1, ...values.map(Math.abs), ...band, ...(flag || [])), 2);
  const max = yTicks[yTicks.length - 1];
  const labels = yTicks.flatMap((v) => (v ? [`+${format(v)}`, format(-v)] : [format(v)]));
  const left = Math.max(44, Math.ceil(Math.max(...labels.map((l) => textWidth(l, 13)))) + 10);
  const plotW = width - left - right, plotH = height - top - bottom;
  const n = Math.max(1, values.length - 1);
  const x = (i) => left + (i / n) * plotW;
  const y = (v) => top + plotH / 2 - (v / max) * (plotH / 2);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart band-chart", role: "img",
    "aria-label": title, width: "100%", preserveAspectRatio: "xMinYMin meet" });
  root.dataset.width = String(width);
  root.append(svg("title", {}, title));
  for (const v of yTicks.flatMap((v) => (v ? [v, -v] : [0]))) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: v === 0 ? "base" : "grid" }),
      svg("text", { x: left - 5, y: y(v) + 4, class: "axis", "text-anchor": "end" }, v > 0 ? `+${format(v)}` : format(v)));
  }
  const upper = band.map((b, i) => `${x(i)},${y(b)}`);
  const lower = band.map((b, i) => `${x(i)},${y(-b)}`).reverse();
  root.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" }, svg("title", {}, bandName)));
  if (flag) {
    for (const sign of [1, -1]) {
      root.append(svg("polyline", { points: flag.map((f, i) => `${x(i)},${y(sign * f)}`).join(" "), class: "flag-line" },
        svg("title", {}, flagName)));
    }
  }
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" },
    svg("title", {}, lineName)));
  const xTicks = ticks(n, width < 420 ? 4 : 6, true).filter((v) => v <= n);
  for (const v of xTicks) {
    root.append(svg("line", { x1: x(v), x2: x(v), y1: top + plotH, y2: top + plotH + 5, class: "base" }),
      svg("text", { x: x(v), y: top + plotH + 18, class: "axis tick", "text-anchor": "middle" }, format(v)));
  }
  root.append(svg("text", { x: left + plotW / 2, y: height - 4, class: "axis", "text-anchor": "middle" }, xLabel));
  // the legend, above the plot: a swatch of the line, of the band and of the flag line,
  // each with its name
  const lx = 6;
  root.append(svg("line", { x1: lx, x2: lx + 22, y1: 12, y2: 12, class: "line swatch" }),
    svg("text", { x: lx + 28, y: 16, class: "legend-text" }, lineName),
    svg("rect", { x: lx, y: 24, width: 22, height: 12, class: "band swatch" }),
    svg("text", { x: lx + 28, y: 35, class: "legend-text" }, bandName));
  if (flag) {
    root.append(svg("line", { x1: lx, x2: lx + 22, y1: 48, y2: 48, class: "flag-line swatch" }),
      svg("text", { x: lx + 28, y: 53, class: "legend-text" }, flagName));
  }
  return root;
}

// pBars({title, rows: [{name, p}], threshold, thresholdText, axisText}): each row's
// p-value as a bar of -log10 p (longer: smaller p) against the threshold's line.
export function pBars({ title, rows, threshold, thresholdText, axisText, width = chartWidth() }) {
  const rowH = 40, top = 30, left = 10, right = 12;
  const axisLines = wrapped(axisText, 13, width - left - right);
  const height = top + rows.length * rowH + 8 + 16 * axisLines.length;
  const cap = 12;
  const limit = -Math.log10(threshold);
  const most = Math.max(limit + 1, ...rows.map((r) => Math.min(cap, -Math.log10(Math.max(r.p, 1e-12)))));
  const scale = (width - left - right - 90) / most;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart p-bars", role: "img",
    "aria-label": title, width: "100%", preserveAspectRatio: "xMinYMin meet" });
  root.dataset.width = String(width);
  root.append(svg("title", {}, title));
  rows.forEach((r, i) => {
    const yy = top + i * rowH;
    const value = Math.min(cap, -Math.log10(Math.max(r.p, 1e-12)));
    root.append(svg("text", { x: left, y: yy + 12, class: "axis" }, r.name),
      svg("rect", { x: left, y: yy + 17, width: Math.max(1, value * scale), height: 14,
        class: `bar ${r.p < threshold ? "over" : "under"}` }, svg("title", {}, `${r.name}: p = ${r.p.toPrecision(3)}`)),
      svg("text", { x: left + value * scale + 5, y: yy + 29, class: "axis" }, r.p < 1e-6 ? "p < 1e-6" : `p = ${r.p.toPrecision(3)}`));
  });
  const lx = left + limit * scale;
  const half = textWidth(thresholdText, 13) / 2 + 2;
  root.append(svg("line", { x1: lx, x2: lx, y1: top - 6, y2: top + rows.length * rowH + 2, class: "threshold" }),
    svg("text", { x: lx > width / 2 ? Math.min(lx, width - right) : Math.min(width - half, Math.max(half, lx)), y: top - 10,
      class: "axis", "text-anchor": lx > width / 2 ? "end" : "middle" }, thresholdText),
    svg("text", { x: left, y: height - 4 - 16 * (axisLines.length - 1), class: "axis" },
      ...axisLines.map((line, i) => svg("tspan", { x: left, dy: i ? 16 : 0 }, line))));
  return root;
}
