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

// barChart({title, categories: ["0", "1", ...], series: [{name, cls, values}], xLabel, yLabel})
export function barChart({ title, categories, series, xLabel = "", yLabel = "" }) {
  const width = 520, height = 230;
  const left = 46, right = 10, top = 26, bottom = 44;
  const plotW = width - left - right, plotH = height - top - bottom;
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const groupW = plotW / Math.max(1, categories.length);
  const barW = Math.min(28, (groupW - 8) / series.length);
  const y = (v) => top + plotH - (v / max) * plotH;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": title, width: "100%", preserveAspectRatio: "xMinYMin meet" });
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
      const x = x0 + k * barW;
      root.append(svg("rect", { x, y: y(value), width: barW - 2, height: Math.max(0, top + plotH - y(value)),
        class: `bar ${s.cls}` }, svg("title", {}, `${s.name}, ${cat}: ${short(value)}`)));
      root.append(svg("text", { x: x + (barW - 2) / 2, y: y(value) - 3, class: "value", "text-anchor": "middle" },
        short(value)));
    });
    root.append(svg("text", { x: left + c * groupW + groupW / 2, y: top + plotH + 15, class: "axis",
      "text-anchor": "middle" }, cat));
  });
  root.append(svg("line", { x1: left, x2: width - right, y1: top + plotH, y2: top + plotH, class: "base" }));
  if (xLabel) root.append(svg("text", { x: left + plotW / 2, y: height - 6, class: "axis", "text-anchor": "middle" }, xLabel));
  if (yLabel) root.append(svg("text", { x: 4, y: 14, class: "axis" }, yLabel));
  // legend: a swatch with a pattern letter and the name (readable without colour)
  let lx = left + 4;
  series.forEach((s) => {
    root.append(svg("rect", { x: lx, y: 6, width: 12, height: 12, class: `bar ${s.cls}` }),
      svg("text", { x: lx + 16, y: 16, class: "legend-text" }, s.name));
    lx += 24 + s.name.length * 7.2;
  });
  return root;
}

// bandChart({title, values, band, xLabel, yLabel, lineName, bandName}): a line of
// values[i] (i = 0..n) over a shaded band from -band[i] to +band[i] around zero.
export function bandChart({ title, values, band, xLabel = "", yLabel = "", lineName = "", bandName = "" }) {
  const width = 520, height = 230;
  const left = 46, right = 10, top = 26, bottom = 44;
  const plotW = width - left - right, plotH = height - top - bottom;
  const max = niceMax(Math.max(1, ...values.map(Math.abs), ...band));
  const n = Math.max(1, values.length - 1);
  const x = (i) => left + (i / n) * plotW;
  const y = (v) => top + plotH / 2 - (v / max) * (plotH / 2);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart band-chart", role: "img",
    "aria-label": title, width: "100%", preserveAspectRatio: "xMinYMin meet" });
  root.append(svg("title", {}, title));
  for (const v of [-max, -max / 2, 0, max / 2, max]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: v === 0 ? "base" : "grid" }),
      svg("text", { x: left - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, short(v)));
  }
  const upper = band.map((b, i) => `${x(i)},${y(b)}`);
  const lower = band.map((b, i) => `${x(i)},${y(-b)}`).reverse();
  root.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" },
    svg("title", {}, bandName)));
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" },
    svg("title", {}, lineName)));
  root.append(svg("text", { x: left + plotW / 2, y: height - 6, class: "axis", "text-anchor": "middle" }, xLabel),
    svg("text", { x: 4, y: 14, class: "axis" }, yLabel),
    svg("text", { x: width - right, y: 14, class: "legend-text", "text-anchor": "end" }, `${lineName} · ${bandName}`));
  return root;
}
