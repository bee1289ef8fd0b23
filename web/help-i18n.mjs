// Words added to the page for its players (issue 12), in English, Japanese and
// Chinese: a stopped run's progress and the SEGA tool's link. Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

const en = {
  "sega.link": "Link to this wall",
  "sega.err.linkSeeds": "The link must give four player seeds separated by commas (seeds=S1,S2,S3,S4); it gives {n}.",
  "archive.progressStopped": "{done} of {total} games checked — stopped",
  "batch.progressStopped": "{done} of {total} logs checked — stopped",
};

const ja = {
  "sega.link": "この牌山へのリンク",
  "sega.err.linkSeeds": "リンクにはプレイヤーシードを 4 個、カンマで区切って指定してください（seeds=S1,S2,S3,S4）。このリンクには {n} 個あります。",
  "archive.progressStopped": "{total} 局中 {done} 局を確認 — 中止",
  "batch.progressStopped": "{total} 件中 {done} 件を確認 — 中止",
};

const zh = {
  "sega.link": "此牌山的链接",
  "sega.err.linkSeeds": "链接必须给出四个玩家种子，用逗号分隔（seeds=S1,S2,S3,S4）；此链接给出了 {n} 个。",
  "archive.progressStopped": "已检查 {done}/{total} 局 — 已停止",
  "batch.progressStopped": "已检查 {done}/{total} 份牌谱 — 已停止",
};

addStrings({ en, ja, zh });
