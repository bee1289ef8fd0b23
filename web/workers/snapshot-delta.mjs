// The start-up snapshot as build.py ships it, made whole again: its delta from the
// interpreter (snapshot_delta: the module's initial memory XOR-ed out of the snapshot's
// memory, 1.4 MB less to send), without the pages of that delta that are all zeros
// (snapshot_pages: two thirds of its 31 MB, which cost the worker more to unpack than the
// rest). Pure functions of bytes, so node --test runs them (tests/js/snapshot-delta.test.mjs).

// A WebAssembly module's LEB128 number at `at`: [value, the offset after it].
function leb128(bytes, at, signed = false) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return [signed && byte & 0x40 ? value - scale : value, at];
}

// The module's active data segments, [offset, bytes]: what its instantiation writes into a
// fresh memory (build.py's wasm_data_segments reads them the same way).
export function dataSegments(wasm) {
  const segments = [];
  let at = 8;
  while (at < wasm.length) {
    const section = wasm[at];
    const [size, body] = leb128(wasm, at + 1);
    at = body + size;
    if (section !== 11) continue;
    let [count, p] = leb128(wasm, body);
    for (; count > 0; count--) {
      let flags, offset = null, length;
      [flags, p] = leb128(wasm, p);
      if (flags === 2) p = leb128(wasm, p)[1]; // memory 0: build.py refuses any other
      if (flags !== 1) {
        [offset, p] = leb128(wasm, p + 1, true); // i32.const N, end
        p += 1;
      }
      [length, p] = leb128(wasm, p);
      if (offset !== null) segments.push([offset, wasm.subarray(p, p + length)]);
      p += length;
    }
  }
  return segments;
}

const MAGIC = 0x50575350; // "PWSP", big-endian

// build.py's snapshot_pages undone: a header (magic, length, page size, count of runs; u32
// little-endian), each run's first page and page count, then the runs' bytes in order.
export function expandPages(shipped) {
  const view = new DataView(shipped.buffer, shipped.byteOffset, shipped.byteLength);
  if (shipped.byteLength < 16 || view.getUint32(0) !== MAGIC) throw new Error("the snapshot is not in pages");
  const [length, page, count] = [4, 8, 12].map((at) => view.getUint32(at, true));
  const out = new Uint8Array(length); // zeros: the pages left out
  let at = 16 + 8 * count;
  for (let i = 0; i < count; i++) {
    const start = view.getUint32(16 + 8 * i, true) * page;
    const size = Math.min(view.getUint32(20 + 8 * i, true) * page, length - start);
    if (size < 0 || at + size > shipped.byteLength) throw new Error("the snapshot's pages run past its end");
    out.set(shipped.subarray(at, at + size), start);
    at += size;
  }
  if (at !== shipped.byteLength) throw new Error("the snapshot has bytes beyond its pages");
  return out;
}

// The snapshot Pyodide takes, from the shipped bytes and the interpreter's module.
export function snapshotFromDelta(shipped, wasm) {
  const delta = expandPages(shipped);
  const start = new DataView(delta.buffer).getUint32(4, true); // Pyodide's header: where the memory starts (a multiple of 16)
  const segments = dataSegments(wasm);
  const end = segments.reduce((most, [offset, data]) => Math.max(most, offset + data.length), 0);
  const image = new Uint8Array(Math.ceil(end / 4) * 4);
  for (const [offset, data] of segments) image.set(data, offset); // in order, as instantiation writes them
  if (start + image.length > delta.byteLength) throw new Error("the snapshot's memory is smaller than the interpreter's data");
  const memory = new Uint32Array(delta.buffer, start, image.length / 4);
  const words = new Uint32Array(image.buffer);
  for (let i = 0; i < words.length; i++) memory[i] ^= words[i];
  return delta;
}
