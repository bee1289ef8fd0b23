// node --test: the page's layout (docs/architecture.md, "The page's rooms"). Every module of
// web/ lives in the folder of its job; its imports (import ... from, export ... from, import
// "x", import("x")) name files that exist and run one way: no circle among the modules, and a
// room imports only from the rooms below it in ROOMS. The entry pages, the service worker's
// template, the install manifest and its icons stay at web/'s top; build.py ships every
// module the pages reach (PAGE_FILES).

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const WEB = path.join(ROOT, "web");

// Each room and the rooms it may import from (its own files aside): only rooms listed before it.
const ROOMS = {
  kit: [], // the element builder, the store, the URL fragment: imports nothing
  words: ["kit"], // i18n.mjs and the *-i18n word lists (the language lives in the store)
  workers: ["kit", "words"], // Python in module workers, and the page's side of them
  verdict: ["kit", "words"], // one game's verdict drawn (asks Python only through a request it is given)
  tools: ["kit", "words", "verdict"], // the tool panels (ask Python through panel-kit's request)
  batch: ["kit", "words", "workers", "verdict"], // a batch of games and archives, its export
  audit: ["kit", "words", "verdict", "tools"], // the audit of a batch (a panel: panel-kit)
  inputs: ["kit", "words", "workers", "verdict", "batch"], // files, links, lists, seeds, samples
  shell: ["kit", "words", "workers", "verdict", "tools", "batch", "audit", "inputs"], // each page's start
  styles: [], // the style sheets
};
// What build.py writes into the site beside web/'s files, which a module may name: the
// Python runtime (pyodide/, reached from the workers' room only) and the tile faces.
const BUILT = { "pyodide/": ["workers"], "tiles/": ["verdict"] };
const ENTRY_PAGES = ["index.html", "embed.html", "calc.html"];
// web/'s top: the entry pages, the service worker's template, the install manifest and its
// icons (tools/make_icons.py), npm's files; folders: the rooms, the sample games, npm's.
const TOP_FILES = new Set([...ENTRY_PAGES, "sw.js", "manifest.webmanifest", "icon.svg", "icon-192.png",
  "icon-512.png", "icon-maskable-512.png", "apple-touch-icon.png", "package.json", "package-lock.json"]);
const TOP_FOLDERS = new Set([...Object.keys(ROOMS), "samples", "node_modules"]);
const MODULE = /\.(mjs|js|py|css)$/;
// Build-time scripts in a room, not shipped: make_snapshot.mjs and compile_stdlib.mjs (run by
// build.py under Node).
const BUILD_TIME = new Set(["workers/make_snapshot.mjs", "workers/compile_stdlib.mjs"]);

const posix = (p) => p.split(path.sep).join("/");
const roomOf = (file) => file.split("/")[0];

function roomFiles() {
  const out = [];
  for (const room of Object.keys(ROOMS)) {
    const dir = path.join(WEB, room);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) out.push(`${room}/${name}`);
  }
  return out.sort();
}

// Comments out, strings kept: a line comment or a block comment never names an import.
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

// The relative specifiers a module imports: static, re-exported, bare and dynamic with a literal.
function importsOf(text) {
  const body = code(text);
  const found = [];
  const patterns = [
    /(?:^|[;\n}])\s*(?:import|export)\s+(?:[\w*\s{},$]*?\s*from\s*)?["']([^"']+)["']/g,
    /\bimport\(\s*["'`]([^"'`$]+)["'`]\s*\)/g,
  ];
  for (const re of patterns) for (const m of body.matchAll(re)) found.push(m[1]);
  return found;
}

// URLs a module makes from its own address: new URL("x", import.meta.url), and its
// `here("x")` / here(`x${...}`) helper built on it (the part before any ${...}).
function urlsOf(text) {
  const body = code(text);
  const found = [...body.matchAll(/new URL\(\s*["'`]([^"'`$]+)[^)]*?,\s*import\.meta\.url\s*\)/g)].map((m) => m[1]);
  if (/const here = \(\w+\) => new URL\(\w+, import\.meta\.url\)/.test(body)) {
    for (const m of body.matchAll(/\bhere\(\s*["'`]([^"'`$]*)/g)) found.push(m[1]);
  }
  return found.filter((u) => u.startsWith("./") || u.startsWith("../"));
}

// The files an entry page names (scripts, style sheets, icons, other pages), not links
// within the page (#...) nor the page's folder ("./").
function pageRefs(text) {
  return [...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    .filter((u) => !u.startsWith("#") && !/^[a-z]+:/i.test(u) && u !== "./");
}

// A path relative to web/ (posix) from a file and a relative reference ("x/" for a folder).
const resolve = (from, ref) => posix(path.normalize(path.join(path.dirname(from), ref)))
  .replace(/^\.\/?$/, "").replace(/\/?$/, ref.endsWith("/") ? "/" : "");
const exists = (target) => existsSync(path.join(WEB, target));

// The graph of the page's modules: {file: [imported files]}, with every problem found on the way.
function graph() {
  const edges = {};
  const problems = [];
  for (const file of roomFiles().filter((f) => /\.(mjs|js)$/.test(f))) {
    const text = readFileSync(path.join(WEB, file), "utf8");
    edges[file] = [];
    for (const spec of importsOf(text)) {
      if (!spec.startsWith("./") && !spec.startsWith("../")) {
        if (!BUILD_TIME.has(file)) problems.push(`${file} imports "${spec}": the page's modules import by relative path only`);
        continue;
      }
      const target = resolve(file, spec);
      const built = builtEntry(target);
      if (built) {
        if (!BUILT[built].includes(roomOf(file))) problems.push(`${file} imports ${target}: build.py's ${built} is reached from ${BUILT[built].join(", ")} only`);
      } else if (!exists(target)) problems.push(`${file} imports "${spec}": ${target} does not exist`);
      else edges[file].push(target);
    }
    for (const ref of urlsOf(text)) {
      const target = resolve(file, ref);
      const built = builtEntry(target);
      if (built ? !BUILT[built].includes(roomOf(file)) : !exists(target)) {
        problems.push(`${file} makes the URL "${ref}": ${target} is ${built ? `build.py's, for ${BUILT[built].join(", ")} only` : "not a file of web/"}`);
      }
    }
  }
  return { edges, problems };
}

// The folder of BUILT a target is in, or null.
function builtEntry(target) {
  return Object.keys(BUILT).find((folder) => target.startsWith(folder)) ?? null;
}

// Every circle of imports, each named once as "a -> b -> ... -> a".
function cycles(edges) {
  const state = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of edges[node] || []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of Object.keys(edges).sort()) if (!state.has(node)) visit(node);
  return found;
}

// Every import that goes against ROOMS, as "file -> target (room may not import room)".
function wrongWay(edges, rooms = ROOMS) {
  const out = [];
  for (const [file, targets] of Object.entries(edges)) {
    for (const target of targets) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== to && !(rooms[from] || []).includes(to)) out.push(`${file} -> ${target} (${from} may not import ${to})`);
    }
  }
  return out;
}

// build.py's PAGE_FILES: the files copied into the site.
function pageFiles() {
  const text = readFileSync(path.join(ROOT, "build.py"), "utf8");
  const block = /^PAGE_FILES = \(\n([\s\S]*?)\n\)/m.exec(text);
  assert.ok(block, "build.py has no PAGE_FILES tuple");
  return new Set([...block[1].matchAll(/^\s*"([^"]+)",/gm)].map((m) => m[1]));
}

test("the checks see a circle and an import against the rooms", () => {
  assert.deepEqual(cycles({ "a/x.mjs": ["a/y.mjs"], "a/y.mjs": ["a/z.mjs"], "a/z.mjs": ["a/x.mjs"] }),
    ["a/x.mjs -> a/y.mjs -> a/z.mjs -> a/x.mjs"]);
  assert.deepEqual(cycles({ "a/x.mjs": ["a/y.mjs"], "a/y.mjs": [] }), []);
  assert.deepEqual(wrongWay({ "kit/store.mjs": ["words/i18n.mjs"], "words/i18n.mjs": ["kit/store.mjs"] }),
    ["kit/store.mjs -> words/i18n.mjs (kit may not import words)"]);
  assert.deepEqual(importsOf('import "./a.mjs";\nimport {\n  b,\n  c,\n} from "../b.mjs";\n'
    + 'export { d } from "./d.mjs";\n// import "./comment.mjs";\nconst e = await import("./e.mjs");\n'),
  ["./a.mjs", "../b.mjs", "./d.mjs", "./e.mjs"]);
});

test("web/'s top holds only the entry pages, the service worker and the install files", () => {
  const stray = [];
  for (const name of readdirSync(WEB)) {
    const folder = statSync(path.join(WEB, name)).isDirectory();
    if (folder ? !TOP_FOLDERS.has(name) : !TOP_FILES.has(name)) stray.push(folder ? `${name}/` : name);
  }
  assert.deepEqual(stray, [], "each module belongs in the room of its job (ROOMS, docs/architecture.md)");
  const modules = readdirSync(WEB).filter((n) => MODULE.test(n) && n !== "sw.js");
  assert.deepEqual(modules, []);
});

test("every room holds page files only, no folders; style sheets in styles/, Python in workers/", () => {
  const files = roomFiles();
  assert.ok(files.length > 40, "the rooms were found");
  for (const file of files) {
    assert.ok(statSync(path.join(WEB, file)).isFile(), `${file}: a room has no sub-folders`);
    assert.match(file, MODULE, `${file}: a room holds modules, scripts, the worker's Python and style sheets`);
    assert.equal(file.endsWith(".css"), roomOf(file) === "styles", `${file}: style sheets, and only they, in styles/`);
    if (file.endsWith(".py")) assert.equal(roomOf(file), "workers", `${file}: the worker's Python lives in workers/`);
  }
});

test("every import names a file that exists, and the modules import in no circle", () => {
  const { edges, problems } = graph();
  assert.ok(Object.keys(edges).length > 40, "the page's modules were found");
  assert.deepEqual(problems, []);
  assert.deepEqual(cycles(edges), [], "a circle means a helper lives in the wrong module");
});

test("the rooms import one way", () => {
  const { edges } = graph();
  assert.deepEqual(wrongWay(edges), []);
});

test("the entry pages name files that exist, and the site ships what they reach", () => {
  const { edges } = graph();
  const shipped = pageFiles();
  const reached = new Set();
  const reach = (file) => {
    if (reached.has(file)) return;
    reached.add(file);
    const text = /\.(mjs|js)$/.test(file) ? readFileSync(path.join(WEB, file), "utf8") : "";
    for (const next of edges[file] || []) reach(next);
    for (const ref of /\.(mjs|js)$/.test(file) ? urlsOf(text) : []) {
      const target = resolve(file, ref);
      if (!builtEntry(target) && !target.endsWith("/")) reach(target);
    }
  };
  for (const page of ENTRY_PAGES) {
    reach(page);
    for (const ref of pageRefs(readFileSync(path.join(WEB, page), "utf8"))) {
      const target = resolve(page, ref);
      assert.ok(exists(target), `${page} names ${ref}, which is not a file of web/`);
      reach(target);
    }
  }
  const missing = [...reached].filter((f) => !shipped.has(f)).sort();
  assert.deepEqual(missing, [], "build.py's PAGE_FILES lacks files the pages load");
  const absent = [...shipped].filter((f) => !exists(f)).sort();
  assert.deepEqual(absent, [], "build.py's PAGE_FILES names files web/ does not have");
  const unshipped = roomFiles().filter((f) => !shipped.has(f) && !BUILD_TIME.has(f));
  assert.deepEqual(unshipped, [], "a room's file the site does not ship");
});

// The names a module imports from each relative specifier: {spec: [names]} (`import { a, b as
// c } from "x"`, `export { d } from "x"`; a default import as "default").
function namedImportsOf(text) {
  const out = [];
  const re = /(?:^|[;\n}])\s*(?:import|export)\s+([\w$]+\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*["']([^"']+)["']/g;
  for (const m of code(text).matchAll(re)) {
    const names = (m[2] || "").split(",").map((s) => s.trim().split(/\s+as\s+/)[0]).filter(Boolean);
    if (m[1] && m[1].trim().replace(",", "") && !m[1].startsWith("*")) names.push("default");
    out.push({ spec: m[3], names });
  }
  return out;
}

// The names a module exports (declarations, `export { a, b as c }`, `export const { a, b } =`,
// `export default`).
function exportsOf(text) {
  const body = code(text);
  const names = new Set();
  for (const m of body.matchAll(/\bexport\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)/g)) names.add(m[1]);
  for (const m of body.matchAll(/\bexport\s*(?:(?:const|let|var)\s*)?\{([^}]*)\}/g)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  if (/\bexport\s+default\b/.test(body)) names.add("default");
  return names;
}

test("the checks read names imported and exported", () => {
  assert.deepEqual(namedImportsOf('import { a, b as c } from "./x.mjs";\nimport d, { e } from "./y.mjs";\nimport "./z.mjs";\n'),
    [{ spec: "./x.mjs", names: ["a", "b"] }, { spec: "./y.mjs", names: ["e", "default"] }]);
  assert.deepEqual([...exportsOf("export function f() {}\nexport async function g() {}\nexport const h = 1;\n"
    + "const i = 2;\nexport { i as j };\n// export const k = 3;\nexport const { l, m } = o;\n")].sort(),
  ["f", "g", "h", "j", "l", "m"]);
});

test("every name a module imports is exported by the module it names", () => {
  const missing = [];
  for (const file of roomFiles().filter((f) => /\.(mjs|js)$/.test(f))) {
    for (const { spec, names } of namedImportsOf(readFileSync(path.join(WEB, file), "utf8"))) {
      const target = resolve(file, spec);
      if (!spec.startsWith(".") || builtEntry(target) || !exists(target)) continue;
      const exported = exportsOf(readFileSync(path.join(WEB, target), "utf8"));
      for (const name of names) if (!exported.has(name)) missing.push(`${file} imports ${name} from ${target}, which does not export it`);
    }
  }
  assert.deepEqual(missing, [], "a missing export stops the page loading: it never becomes ready");
});
