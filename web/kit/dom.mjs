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
const fillers = new WeakMap(); // a fold's fill, for openFold
export function fillWhenOpen(details, contents, open) {
  const fill = () => {
    if (details.dataset.drawn) return;
    details.dataset.drawn = "1";
    details.append(...contents());
  };
  fillers.set(details, fill);
  details.addEventListener("toggle", () => { if (details.open) fill(); });
  if (open) {
    details.open = true;
    fill();
  }
}

// Open a fold with its contents drawn now (its toggle event comes a task later).
export function openFold(details) {
  details.open = true;
  fillers.get(details)?.();
}

// The folds of `fresh`, a view drawn again (after a change of language), opened and closed as a
// person left them in `old`. A fold is named by its class and its place among the folds of that
// class in its parent fold, so the folds inside a fold never opened in `fresh` name nothing.
export function keepFolds(old, fresh) {
  const open = new Map();
  eachFold(old, (key, fold) => open.set(key, fold.open));
  if (!open.size) return; // a pending entry's first answer: nothing a person opened
  eachFold(fresh, (key, fold) => {
    if (open.get(key) === true && !fold.open) openFold(fold);
    else if (open.get(key) === false && fold.open) fold.open = false;
  });
}

// visit(key, fold) for every <details> below `node`, a fold before the folds inside it (which
// visit may have just drawn).
function eachFold(node, visit, parent = "") {
  const seen = new Map();
  const walk = (element) => {
    for (const child of element.children) {
      if (child.tagName !== "DETAILS") {
        walk(child);
        continue;
      }
      const n = seen.get(child.className) ?? 0;
      seen.set(child.className, n + 1);
      const key = `${parent}/${child.className}#${n}`;
      visit(key, child);
      eachFold(child, visit, key);
    }
  };
  walk(node);
}
