// Why the audit left a game out, in the reader's words: from each exclusion's
// `reason_code` and `reason_data` (pywall.audit.Exclusion); Python's English `reason`
// is what English readers see. A problem is worded by findings.mjs (`{problem}`).

import { addStrings } from "./i18n.mjs";

const en = {
  "excluded.mismatch": "mismatch: {problem}",
  "excluded.error": "could not be verified: {problem}",
  "excluded.unreadable": "unreadable: {problem}",
  "excluded.mismatch.bare": "mismatch",
  "excluded.error.bare": "could not be verified",
  "excluded.unreadable.bare": "unreadable",
  "excluded.duplicate": "the same game as {path}",
  "excluded.no_starting_hands": "the report carries no starting hands (check the game with the audit on)",
  "excluded.no_fingerprint": "the report has no game fingerprint",
};

const ja = {
  "excluded.mismatch": "不一致: {problem}",
  "excluded.error": "検証できませんでした: {problem}",
  "excluded.unreadable": "読めません: {problem}",
  "excluded.mismatch.bare": "不一致",
  "excluded.error.bare": "検証できませんでした",
  "excluded.unreadable.bare": "読めません",
  "excluded.duplicate": "{path} と同じ対局です",
  "excluded.no_starting_hands": "レポートに配牌がありません（監査を有効にして対局を確認してください）",
  "excluded.no_fingerprint": "レポートに対局の識別子（フィンガープリント）がありません",
};

const zh = {
  "excluded.mismatch": "不一致：{problem}",
  "excluded.error": "无法验证：{problem}",
  "excluded.unreadable": "无法读取：{problem}",
  "excluded.mismatch.bare": "不一致",
  "excluded.error.bare": "无法验证",
  "excluded.unreadable.bare": "无法读取",
  "excluded.duplicate": "与 {path} 是同一局",
  "excluded.no_starting_hands": "报告中没有配牌（请在开启检验的情况下检查这局）",
  "excluded.no_fingerprint": "报告中没有对局指纹",
};

addStrings({ en, ja, zh });
