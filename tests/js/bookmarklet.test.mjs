// node --test: the bookmarklet's host check (web/inputs/handoff.mjs, issue 43 finding 7).
// It fetches a log only from a page of tenhou.net itself: an address whose path begins
// with "//" (https://tenhou.net//evil.example/x) resolves to another host and is refused,
// as is any other host, a user or a port. Checked on the function, and on the bookmarklet
// as a person's browser runs it (its javascript: source, on a stand-in tenhou.net page).
import { test } from "node:test";
import assert from "node:assert/strict";
import vm from "node:vm";

const { bookmarkletHref, tenhouAddress } = await import("../../web/inputs/handoff.mjs");

const VIEWER = new URL("https://tenhou.net/0/?log=2022060222gm-0001-0000-a87679bc&tw=3");
const RECORD = "https://tenhou.net/0/log/?2022060222gm-0001-0000-a87679bc";
const HOSTILE = [
  "https://tenhou.net//evil.example/x",
  "https://tenhou.net/\\evil.example/x",
  "https://tenhou.net/\\/evil.example/x",
  "http://tenhou.net//evil.example/0/log/?2022060222gm-0001-0000-a87679bc",
  "https://evil.example/0/log/?2022060222gm-0001-0000-a87679bc",
  "https://tenhou.net.evil.example/0/log/",
  "https://www.tenhou.net.evil.example/0/log/",
  "https://user:pass@tenhou.net/0/log/",
  "https://tenhou.net:8443/0/log/",
  "javascript:alert(1)",
  "data:text/plain,x",
  "//evil.example/x",
  "not a url",
];

test("a Tenhou record's address is fetched from the page's own origin", () => {
  assert.equal(tenhouAddress(RECORD, VIEWER), RECORD);
  assert.equal(tenhouAddress(RECORD, new URL("http://tenhou.net/3/")), RECORD.replace("https:", "http:"));
  assert.equal(tenhouAddress("https://tenhou.net/0/log/find.cgi?log=x//y", VIEWER),
    "https://tenhou.net/0/log/find.cgi?log=x//y"); // "//" in the query is no host
});

test("an address that resolves to another host is refused", () => {
  for (const raw of HOSTILE) {
    assert.throws(() => tenhouAddress(raw, VIEWER), Error, raw);
  }
});

test("the bookmarklet runs only on tenhou.net itself", () => {
  for (const page of ["https://evil.example/0/?log=x", "https://tenhou.net.evil.example/0/", "https://www.tenhou.net/0/"]) {
    assert.throws(() => tenhouAddress(RECORD, new URL(page)), /not on tenhou\.net/, page);
  }
});

// The bookmarklet's source run on a stand-in tenhou.net page: what it fetches and answers
// when pywall's window asks it for `url`.
async function bookmarkletAsked(url) {
  const pywall = "https://pywall.example/";
  const fetched = [];
  const replies = [];
  const listeners = [];
  const opened = { postMessage: (message) => replies.push(message) };
  const location = new URL(VIEWER.href);
  const context = vm.createContext({
    URL,
    location,
    window: { open: () => opened },
    document: { links: [], body: { innerText: "" } },
    addEventListener: (type, listener) => listeners.push(listener),
    fetch: async (address) => {
      fetched.push(new URL(String(address), location.href).href);
      return { ok: true, status: 200, arrayBuffer: async () => new ArrayBuffer(4) };
    },
  });
  const source = decodeURIComponent(bookmarkletHref(pywall).slice("javascript:".length));
  vm.runInContext(source, context);
  assert.equal(listeners.length, 1);
  await listeners[0]({ source: opened, origin: "https://pywall.example", data: { pywall: "want", id: "g", url } });
  return { fetched, replies };
}

test("the bookmarklet fetches a record from tenhou.net", async () => {
  const { fetched, replies } = await bookmarkletAsked(RECORD);
  assert.deepEqual(fetched, [RECORD]);
  assert.equal(replies.length, 1);
  assert.equal(replies[0].error, undefined);
  assert.equal(replies[0].bytes.byteLength, 4);
});

test("the bookmarklet never fetches from another host, and says why", async () => {
  for (const raw of HOSTILE) {
    const { fetched, replies } = await bookmarkletAsked(raw);
    assert.deepEqual(fetched, [], raw);
    assert.equal(replies.length, 1, raw);
    assert.match(replies[0].error, /tenhou\.net|not an address/, raw);
    assert.equal(replies[0].bytes, undefined, raw);
  }
});
