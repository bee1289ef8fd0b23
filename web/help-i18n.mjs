// Words added to the page for its players (issue 12), in English, Japanese and
// Chinese: the sample games (samples.mjs), what a verdict means (meaning.mjs), a
// stopped run's progress and the SEGA tool's link. Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

const en = {
  "sega.link": "Link to this wall",
  "sega.err.linkSeeds": "The link must give four player seeds separated by commas (seeds=S1,S2,S3,S4); it gives {n}.",
  "archive.progressStopped": "{done} of {total} games checked — stopped",
  "batch.progressStopped": "{done} of {total} logs checked — stopped",
  "sample.button": "Try two sample games",
  "sample.hint": "A real Tenhou game, and the same game with one draw changed: see both verdicts before checking your own.",
  "sample.failed": "The sample games could not be loaded: {message}",
  "meaning.verified.summary": "What “verified” proves, and what it cannot",
  "meaning.verified.proves": "Every tile this log shows — the deal, each draw, the replacement tiles, the dora and ura indicators — is where the game's published wall puts it (for Tenhou, the wall its seed defines).",
  "meaning.verified.cannot": "It cannot show how that wall was chosen: a site that tried many seeds before the game and kept one it liked would still pass. A pre-game commitment (Tenhou's published hash list; Mahjong Soul's and Riichi City's wall hashes) shows the wall was fixed before the game began, not that it was picked fairly.",
  "meaning.verified.source": "Nor does it show where this file came from: a made-up game with its own made-up seed would pass too. Check a copy you downloaded from the platform yourself.",
  "meaning.mismatch.summary": "What a mismatch can mean, and what to do",
  "meaning.mismatch.intro": "Some tiles in this log are not where the game's published wall puts them. That can mean:",
  "meaning.mismatch.edited": "the file was edited or damaged after the game (a changed tile, or a copy cut or joined by some tool);",
  "meaning.mismatch.other": "the seed in the file belongs to another game;",
  "meaning.mismatch.platform": "or the platform did not deal from the wall it had committed to.",
  "meaning.mismatch.unrelated": "Here the wall does not fit this game at all: most likely the seed is another game's.",
  "meaning.mismatch.todo": "What to do: download the log again from the platform and check that fresh copy. Only a mismatch in a copy you fetched from the platform yourself points at the platform; then keep that file and this report.",
  "meaning.mismatch.fresh": "This game's log on tenhou.net:",
};

const ja = {
  "sega.link": "この牌山へのリンク",
  "sega.err.linkSeeds": "リンクにはプレイヤーシードを 4 個、カンマで区切って指定してください（seeds=S1,S2,S3,S4）。このリンクには {n} 個あります。",
  "archive.progressStopped": "{total} 局中 {done} 局を確認 — 中止",
  "batch.progressStopped": "{total} 件中 {done} 件を確認 — 中止",
  "sample.button": "サンプル対局を 2 つ試す",
  "sample.hint": "実際の天鳳の対局と、同じ対局のツモを 1 枚だけ変えたもの。自分の牌譜を確かめる前に、両方の判定を見てください。",
  "sample.failed": "サンプル対局を読み込めませんでした: {message}",
  "meaning.verified.summary": "「一致」が証明すること、できないこと",
  "meaning.verified.proves": "この牌譜に現れるすべての牌（配牌、各ツモ、嶺上牌、ドラ・裏ドラ表示牌）は、対局の公開された牌山（天鳳ではシードが定める牌山）のとおりの位置にあります。",
  "meaning.verified.cannot": "その牌山がどう選ばれたかは示せません。対局前に多くのシードを試して都合のよいものを選ぶサイトでも、この確認は通ります。対局前の公約（天鳳が公開するハッシュ一覧、雀魂や麻雀一番街の牌山ハッシュ）は、牌山が対局開始前に決まっていたことを示しますが、公平に選ばれたことまでは示しません。",
  "meaning.verified.source": "このファイルの出どころも示せません。シードごと作り上げた対局でも一致します。プラットフォームから自分でダウンロードした牌譜を確認してください。",
  "meaning.mismatch.summary": "不一致が意味しうること、すべきこと",
  "meaning.mismatch.intro": "この牌譜には、対局の公開された牌山の位置と合わない牌があります。考えられるのは:",
  "meaning.mismatch.edited": "対局後にファイルが編集または破損した（牌が書き換えられた、ツールで切り貼りされた など）。",
  "meaning.mismatch.other": "ファイル中のシードが別の対局のものである。",
  "meaning.mismatch.platform": "プラットフォームが公約した牌山から配らなかった。",
  "meaning.mismatch.unrelated": "この牌譜では牌山が対局にまったく合いません。シードが別の対局のものである可能性が高いです。",
  "meaning.mismatch.todo": "すべきこと: プラットフォームから牌譜をもう一度ダウンロードし、その新しいコピーを確認してください。プラットフォームを疑う根拠になるのは、自分で取得したコピーでの不一致だけです。その場合はそのファイルとこの結果を保管してください。",
  "meaning.mismatch.fresh": "tenhou.net にあるこの対局の牌譜:",
};

const zh = {
  "sega.link": "此牌山的链接",
  "sega.err.linkSeeds": "链接必须给出四个玩家种子，用逗号分隔（seeds=S1,S2,S3,S4）；此链接给出了 {n} 个。",
  "archive.progressStopped": "已检查 {done}/{total} 局 — 已停止",
  "batch.progressStopped": "已检查 {done}/{total} 份牌谱 — 已停止",
  "sample.button": "试试两局示例",
  "sample.hint": "一局真实的天凤对局，以及把其中一次摸牌改掉的同一局：在检查自己的牌谱之前，先看看两种结论。",
  "sample.failed": "无法加载示例对局：{message}",
  "meaning.verified.summary": "“一致”能证明什么、不能证明什么",
  "meaning.verified.proves": "此牌谱中出现的每一张牌（配牌、每次摸牌、岭上牌、宝牌和里宝牌指示牌）都在该局公开的牌山（天凤：由种子确定的牌山）所定的位置上。",
  "meaning.verified.cannot": "它无法说明牌山是怎样选出的：一个在开局前试过许多种子、挑了一个中意的网站，也能通过这项检查。开局前的承诺（天凤公布的哈希列表，雀魂和麻雀一番街的牌山哈希）说明牌山在开局前就已确定，但不能说明它是公平选出的。",
  "meaning.verified.source": "它也不能说明这个文件从何而来：连种子一起编造的对局同样会一致。请检查你自己从平台下载的牌谱。",
  "meaning.mismatch.summary": "不一致可能意味着什么，以及该怎么做",
  "meaning.mismatch.intro": "此牌谱中有些牌不在该局公开牌山所定的位置上。这可能意味着：",
  "meaning.mismatch.edited": "文件在对局后被修改或损坏（某张牌被改动，或被工具剪切、拼接）；",
  "meaning.mismatch.other": "文件中的种子属于另一局；",
  "meaning.mismatch.platform": "或者平台没有按它承诺的牌山发牌。",
  "meaning.mismatch.unrelated": "这里的牌山与这一局完全对不上：种子很可能属于另一局。",
  "meaning.mismatch.todo": "该怎么做：从平台重新下载牌谱，检查这份新的副本。只有你自己从平台取得的副本出现不一致，才指向平台；这时请保留该文件和这份结果。",
  "meaning.mismatch.fresh": "这一局在 tenhou.net 上的牌谱：",
};

addStrings({ en, ja, zh });
