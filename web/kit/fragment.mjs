// A seed's wall in the URL fragment (#tenhou=SEED&round=N&players=3): read it, write
// it; and whether pasted text looks like a seed rather than a log.

export function parseFragment(hash) {
  const out = { seed: null, round: 1, players: 4 };
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    let value = part.slice(eq + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    if (key === "tenhou") out.seed = value.replace(/ /g, "+"); // base64's + may arrive as space
    else if (key === "round") out.round = Math.max(1, Math.min(64, parseInt(value, 10) || 1));
    else if (key === "players") out.players = value === "3" ? 3 : 4;
  }
  return out;
}

export function fragmentFor(seed, round, players) {
  return `#tenhou=${encodeURIComponent(seed)}&round=${round}${players === 3 ? "&players=3" : ""}`;
}

export function looksLikeSeed(text) {
  const s = String(text).trim();
  return /^(mt19937ar-sha512-n288-base64,)?[A-Za-z0-9+/=\s]{16,}$/.test(s) ||
    /^(mt19937ar(-sha512-n288)?,)?[0-9a-fA-F,\s]{16,}$/.test(s);
}
