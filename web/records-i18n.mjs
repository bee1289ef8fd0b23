// Words that tell each platform's players where their records (and SEGA's seeds) are,
// in English, Japanese and Chinese: the guide under the file chooser (records.mjs),
// the steps for a Tenhou link on a phone (links.mjs), the SEGA tool's seeds (sega.mjs).
// Only tools and outputs the project's sources support are named (docs/records.md).
// Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

const en = {
  "sega.where": "Where to find them: SEGA shows every player's seed and the uncertainty value on the cabinet (during a match, touch and hold “乱数情報”, the random-number information, on the match status tab or the continue screen) and on MJ.NET (プレイデータ → 対戦履歴 → 乱数情報 of each match). All four players' seeds are disclosed when the match ends.",
};

const ja = {
  "sega.where": "確認できる場所: 全員のプレイヤー乱数シードと不確定要素は、筐体（対局中の「試合状況タブ」やコンティニュー画面で「乱数情報」をタッチしている間）と MJ.NET（プレイデータ → 対戦履歴 → 各試合の「乱数情報」）で確認できます。4 人全員のシードは試合終了時に公開されます。",
};

const zh = {
  "sega.where": "在哪里找到：全部玩家的随机数种子和“不确定要素”可以在机台上查看（对局中在“试合状况”标签页或续关画面按住“乱数情報”），也可以在 MJ.NET 查看（プレイデータ → 対戦履歴 → 每场的“乱数情報”）。四名玩家的种子在比赛结束时公开。",
};

addStrings({ en, ja, zh });
