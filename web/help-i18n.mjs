// Words added to the page for its players (issue 12), in English, Japanese and
// Chinese: the SEGA tool's link. Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

const en = {
  "sega.link": "Link to this wall",
  "sega.err.linkSeeds": "The link must give four player seeds separated by commas (seeds=S1,S2,S3,S4); it gives {n}.",
};

const ja = {
  "sega.link": "この牌山へのリンク",
  "sega.err.linkSeeds": "リンクにはプレイヤーシードを 4 個、カンマで区切って指定してください（seeds=S1,S2,S3,S4）。このリンクには {n} 個あります。",
};

const zh = {
  "sega.link": "此牌山的链接",
  "sega.err.linkSeeds": "链接必须给出四个玩家种子，用逗号分隔（seeds=S1,S2,S3,S4）；此链接给出了 {n} 个。",
};

addStrings({ en, ja, zh });
