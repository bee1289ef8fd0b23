// The element builder every view draws with, by DOM calls only. Every string that comes
// from a log (names, file names, messages) is added as a text node: nothing here ever
// parses HTML, so a name like <img src=x onerror=...> stays text. It imports nothing.

// el("p", {class: "x", data: {file: name}, attrs: {"aria-label": ...}}, "text", child, ...)
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    else if (key === "attrs") for (const [k, v] of Object.entries(value)) setAttr(node, k, v);
    else if (key === "text") node.textContent = value;
    else if (key === "on") for (const [k, v] of Object.entries(value)) node.addEventListener(k, v);
    else setAttr(node, key, value);
  }
  append(node, children);
  return node;
}

function setAttr(node, name, value) {
  if (/^on/i.test(name) || /html/i.test(name)) throw new Error(`refusing attribute ${name}`);
  node.setAttribute(name, value === true ? "" : String(value));
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

// Fill a <details> the first time it is open (at once when `open`) with `contents()`, its
// children after the summary: folded content costs nothing until a person asks for it.
export function fillWhenOpen(details, contents, open) {
  const fill = () => {
    if (details.dataset.drawn) return;
    details.dataset.drawn = "1";
    details.append(...contents());
  };
  details.addEventListener("toggle", () => { if (details.open) fill(); });
  if (open) {
    details.open = true;
    fill();
  }
}
