// Every finding code of pywall.core.findings.CODES in the reader's words (English, Japanese,
// Chinese), filled from the finding's data by findings.mjs; Python's English message
// stays in the JSON and is shown only for a code not listed here. Also the words of the
// game facts: the rule line from Tenhou's rule code, dates and numbers in the reader's
// language (Intl), and the words for an unreadable file.

import { addStrings, language, t } from "../words/i18n.mjs";

const LOCALES = { en: "en-GB", ja: "ja-JP", zh: "zh-CN" };

// 12,345 / 12,345 in the page's language.
export function numberText(n) {
  return new Intl.NumberFormat(LOCALES[language()] || undefined).format(Number(n));
}

// "2022-06-02T22:00+09:00" -> "2 June 2022, 22:00" / "2022年6月2日 22:00", in the time zone
// the record gives (Tenhou's JST); text that is not such a date is returned as it is.
export function dateText(iso) {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::\d\d)?([+-]\d\d:\d\d|Z)?)?$/.exec(iso || "");
  if (!m) return iso;
  const [, y, mo, d, h, mi] = m;
  const when = new Date(Date.UTC(+y, +mo - 1, +d, +(h ?? 0), +(mi ?? 0)));
  const opts = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" };
  if (h != null) Object.assign(opts, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return new Intl.DateTimeFormat(LOCALES[language()] || undefined, opts).format(when);
}

// A seat's wind in a round whose dealer is `dealer` (0 East, 1 South, ...).
export function windOf(seat, dealer, players) {
  return (seat - (dealer || 0) + 4 * players) % players;
}

// Tenhou's rule code ("三鳳南喰赤速") as words: "3-player, Houou lobby, East-South, ...",
// and "vs computer" for a game against the computer (the report's `vs_computer`: the code
// has no letter for it); null when there is no code (the report's own rule text is shown then).
export function ruleText(code, players, vsComputer = false, length = null) {
  const parts = [t("rule.players", { n: players })];
  if (code) for (const ch of code.replace(/^三/, "")) parts.push(t(`rule.${ch}`));
  else parts.push(length ? t(`rule.${RULE_LENGTH[length]}`) : t("rule.unknown"));
  if (vsComputer) parts.push(t("rule.computer"));
  return parts.join(language() === "en" ? ", " : "、");
}

// A record's stated length (GameInfo's rule_length) as the letter of Tenhou's code that words it.
const RULE_LENGTH = { east: "東", south: "南" };

const en = {
  "wall.wallTile": "wall",
  "windMark.0": "E",
  "windMark.1": "S",
  "windMark.2": "W",
  "windMark.3": "N",
  "code.dora_count_mismatch": "a win lists {listed} dora indicators, but the record revealed {revealed}",
  "code.dora_count_mismatch.beyond": "the record names {count} more dora or ura indicators than a wall can hold",
  "code.dice_mismatch": "the dice are {log} in the record, {wall} from the seed",
  "code.more_mismatches": "{count} more mismatches in this round",
  "code.more_findings": "{count} more findings in this game, not listed",
  "code.wall_unrelated": "{mismatches} of {checked} tiles differ from the wall: the seed does not belong to this game (or the record was rewritten)",
  "code.wall_unrelated.stated": "{mismatches} of {checked} tiles differ from the wall the record reveals: that wall is not this round's (or the record was rewritten)",
  "code.live_wall_overrun": "{player} draws more tiles than the live wall holds",
  "code.seed_missing": "the record has no seed (SHUFFLE): its walls cannot be rebuilt",
  "code.bad_seed": "the record's seed is not in a form pywall knows",
  "code.incomplete_log": "the record ends before the game's final result; the {rounds} rounds it has were verified",
  "code.legacy_seed": "a 2009 seed format: verified as far as is known",
  "code.legacy_seed.seen": "walls of {era}: every kind of tile has been seen on real records of this era, and every tile was verified",
  "code.legacy_seed.partial": "walls of {era}: verified; {unseen} verified as far as is known (no real record of this era shows them yet)",
  "era.june-2009": "June 2009",
  "era.july-2009": "July 2009",
  "era.late-2009": "late 2009",
  "kind.deal": "dealt tiles",
  "kind.live draws": "draws",
  "kind.dice": "dice",
  "kind.dora": "dora indicators",
  "kind.ura": "ura indicators",
  "kind.replacement draws": "replacement draws",
  "code.duplicate_attribute": "a tag of the record repeats an attribute (a known quirk of real records); the first value is used",
  "code.no_rounds": "the record has no rounds to verify",
  "code.hash.match": "{name} matches the wall",
  "code.hash.mismatch": "{name} does not match the wall shown",
  "code.salt_missing": "the record states {names} but no salt: it cannot be checked",
  "code.no_hash": "the record states no digest of this wall: its tiles were checked, but nothing shows the wall was fixed before the round",
  "code.no_digest_checked": "no digest of this wall could be checked (the record states none, or none with its salt): nothing of the round is verified",
  "code.red_fives_unusual": "more than one red five of a suit",
  "code.wall_composition": "the wall is not the game's set of tiles",
  "code.left_count_mismatch": "the record says {log} tiles are left in the live wall; its draws leave {wall}",
  "code.deal_not_committed": "the committed wall holds only the undealt tiles; the starting hands are outside the hash",
  "code.wall_copy_mismatch": "the record's second copy of the undealt wall differs from the wall in {count} places",
  "code.log_format": "This file is not a mahjong log pywall can read.",
  "code.empty_archive": "This archive holds no file.",
  "code.too_large": "This file is too large to check.",
  "code.unreadable": "This file could not be read.",
  "code.error": "This file could not be checked.",
  "severity.error": "error",
  "severity.warning": "warning",
  "severity.info": "info",
  "code.internal": "pywall could not finish checking this file (a fault in pywall, not in the file).",
  "code.bad_request": "pywall could not finish checking this file (a fault in pywall, not in the file).",
  "code.not_ready": "Python could not be started in this browser, so this file was not checked.",
  "code.worker_failed": "The browser stopped the worker that was checking this file.",
  "code.timed_out": "Checking this file took too long, so the page stopped it; the other files were checked. A real game log takes well under a second: this file is not one the page can check.",
  "code.reply_too_large": "The report of this file is too large for the page to show; the other files were checked. Check it with the command line (pywall verify).",
  "code.worker_restarted": "The page restarted the worker this needed (another file's check ran too long). Try again.",
  "error.detail": "Technical detail",
  "rule.players": "{n}-player",
  "rule.般": "Ippan lobby",
  "rule.上": "Joukyuu lobby",
  "rule.特": "Tokujou lobby",
  "rule.鳳": "Houou lobby",
  "rule.東": "East only",
  "rule.南": "East-South",
  "rule.喰": "open tanyao",
  "rule.赤": "red fives",
  "rule.速": "fast",
  "rule.computer": "vs computer",
  "rule.unknown": "rule unknown",
};

const ja = {
  "wall.wallTile": "牌山",
  "windMark.0": "東",
  "windMark.1": "南",
  "windMark.2": "西",
  "windMark.3": "北",
  "code.dora_count_mismatch": "和了に記されたドラ表示牌は {listed} 枚ですが、牌譜で公開されたのは {revealed} 枚です",
  "code.dora_count_mismatch.beyond": "牌譜のドラ・裏ドラ表示牌が、牌山に置ける数より {count} 枚多くあります",
  "code.dice_mismatch": "サイコロが牌譜では {log}、シードからは {wall} です",
  "code.more_mismatches": "この局にはさらに {count} 件の不一致があります",
  "code.more_findings": "この対局にはさらに {count} 件の指摘があります（一覧にはありません）",
  "code.wall_unrelated": "{checked} 枚中 {mismatches} 枚が牌山と異なります: シードがこの対局のものではありません（または牌譜が書き換えられています）",
  "code.wall_unrelated.stated": "{checked} 枚中 {mismatches} 枚が牌譜の公開した牌山と異なります: その牌山はこの局のものではありません（または牌譜が書き換えられています）",
  "code.live_wall_overrun": "{player} が牌山の枚数を超えてツモっています",
  "code.seed_missing": "牌譜にシード（SHUFFLE）がないため、牌山を再現できません",
  "code.bad_seed": "牌譜のシードが pywall の知らない形式です",
  "code.incomplete_log": "牌譜は対局の最終結果より前で終わっています。含まれる {rounds} 局は検証しました",
  "code.legacy_seed": "2009 年のシード形式: 分かっている範囲で検証しました",
  "code.legacy_seed.seen": "{era}の牌山: この時期の実際の牌譜で全種類の牌が確認されており、すべての牌を検証しました",
  "code.legacy_seed.partial": "{era}の牌山: 検証しました。{unseen}は分かっている範囲での検証です（この時期の実際の牌譜ではまだ確認されていません）",
  "era.june-2009": "2009 年 6 月",
  "era.july-2009": "2009 年 7 月",
  "era.late-2009": "2009 年後半",
  "kind.deal": "配牌",
  "kind.live draws": "ツモ",
  "kind.dice": "サイコロ",
  "kind.dora": "ドラ表示牌",
  "kind.ura": "裏ドラ表示牌",
  "kind.replacement draws": "嶺上牌",
  "code.duplicate_attribute": "牌譜のタグに同じ属性が重複しています（実際の牌譜に見られる癖）。最初の値を使います",
  "code.no_rounds": "牌譜に検証する局がありません",
  "code.hash.match": "{name} が牌山と一致",
  "code.hash.mismatch": "{name} が公開された牌山と一致しません",
  "code.salt_missing": "牌譜に {names} がありますがソルトがないため、確認できません",
  "code.no_hash": "牌譜にこの牌山のダイジェストがありません: 牌は確認しましたが、局の前に牌山が固定されていたことを示すものはありません",
  "code.no_digest_checked": "この牌山のダイジェストを一つも確認できませんでした（牌譜に記載がないか、ソルトがありません）: この局は何も確認されていません",
  "code.red_fives_unusual": "同じ色の赤五が 2 枚以上あります",
  "code.wall_composition": "牌山がこの対局の牌の組と一致しません",
  "code.left_count_mismatch": "牌譜では残り {log} 枚ですが、ツモから数えると残り {wall} 枚です",
  "code.deal_not_committed": "コミットされた牌山は配られていない牌だけです。配牌はハッシュの対象外です",
  "code.wall_copy_mismatch": "牌譜にある未配牌の牌山の写しが、牌山と {count} か所で異なります",
  "code.log_format": "このファイルは pywall が読める麻雀の牌譜ではありません。",
  "code.empty_archive": "このアーカイブにはファイルがありません。",
  "code.too_large": "このファイルは大きすぎて確認できません。",
  "code.unreadable": "このファイルを読み込めませんでした。",
  "code.error": "このファイルは確認できませんでした。",
  "severity.error": "エラー",
  "severity.warning": "警告",
  "severity.info": "情報",
  "code.internal": "pywall はこのファイルの確認を終えられませんでした（ファイルではなく pywall の不具合です）。",
  "code.bad_request": "pywall はこのファイルの確認を終えられませんでした（ファイルではなく pywall の不具合です）。",
  "code.not_ready": "このブラウザで Python を起動できなかったため、このファイルは確認されていません。",
  "code.worker_failed": "このファイルを確認していたワーカーをブラウザが停止しました。",
  "code.timed_out": "このファイルの確認に時間がかかりすぎたため、ページが停止しました。ほかのファイルは確認済みです。実際の牌譜なら 1 秒もかかりません。このページでは確認できないファイルです。",
  "code.reply_too_large": "このファイルの結果は大きすぎてページに表示できません。ほかのファイルは確認済みです。コマンドライン（pywall verify）で確認してください。",
  "code.worker_restarted": "別のファイルの確認が長引いたため、ページが作業用ワーカーを再起動しました。もう一度お試しください。",
  "error.detail": "技術的な詳細",
  "rule.players": "{n}人打ち",
  "rule.般": "一般卓",
  "rule.上": "上級卓",
  "rule.特": "特上卓",
  "rule.鳳": "鳳凰卓",
  "rule.東": "東風戦",
  "rule.南": "東南戦",
  "rule.喰": "喰いタンあり",
  "rule.赤": "赤あり",
  "rule.速": "速卓",
  "rule.computer": "コンピュータ戦",
  "rule.unknown": "ルール不明",
};

const zh = {
  "wall.wallTile": "牌山",
  "windMark.0": "东",
  "windMark.1": "南",
  "windMark.2": "西",
  "windMark.3": "北",
  "code.dora_count_mismatch": "和牌记载了 {listed} 张宝牌指示牌，但牌谱公开了 {revealed} 张",
  "code.dora_count_mismatch.beyond": "牌谱中的宝牌和里宝牌指示牌比牌山能容纳的多 {count} 张",
  "code.dice_mismatch": "骰子在牌谱中是 {log}，由种子得出的是 {wall}",
  "code.more_mismatches": "本局还有 {count} 处不一致",
  "code.more_findings": "这局对局还有 {count} 条发现未列出",
  "code.wall_unrelated": "{checked} 张牌中有 {mismatches} 张与牌山不同：种子不属于这局（或牌谱被改写）",
  "code.wall_unrelated.stated": "{checked} 张牌中有 {mismatches} 张与牌谱公开的牌山不同：那个牌山不属于这一局（或牌谱被改写）",
  "code.live_wall_overrun": "{player} 摸的牌超过了牌山的张数",
  "code.seed_missing": "牌谱没有种子（SHUFFLE），无法重建牌山",
  "code.bad_seed": "牌谱的种子格式 pywall 无法识别",
  "code.incomplete_log": "牌谱在对局最终结果之前结束；已验证其中的 {rounds} 局",
  "code.legacy_seed": "2009 年的种子格式：已尽可能验证",
  "code.legacy_seed.seen": "{era}的牌山：这一时期的真实牌谱已见过每一种牌，每张牌都已验证",
  "code.legacy_seed.partial": "{era}的牌山：已验证；{unseen}为尽可能验证（这一时期的真实牌谱中尚未见到）",
  "era.june-2009": "2009 年 6 月",
  "era.july-2009": "2009 年 7 月",
  "era.late-2009": "2009 年下半年",
  "kind.deal": "配牌",
  "kind.live draws": "摸牌",
  "kind.dice": "骰子",
  "kind.dora": "宝牌指示牌",
  "kind.ura": "里宝牌指示牌",
  "kind.replacement draws": "岭上牌",
  "code.duplicate_attribute": "牌谱的标签重复了某个属性（真实牌谱的已知特点）；使用第一个值",
  "code.no_rounds": "牌谱中没有可验证的局",
  "code.hash.match": "{name} 与牌山一致",
  "code.hash.mismatch": "{name} 与公开的牌山不一致",
  "code.salt_missing": "牌谱给出了 {names} 但没有盐：无法检查",
  "code.no_hash": "牌谱没有给出这个牌山的摘要：牌已检查，但没有任何东西表明牌山在本局前已固定",
  "code.no_digest_checked": "这个牌山的摘要一个也无法检查（牌谱没有给出，或没有盐）：这一局没有任何内容得到验证",
  "code.red_fives_unusual": "同一花色的赤五多于一张",
  "code.wall_composition": "牌山不是本局的那一组牌",
  "code.left_count_mismatch": "牌谱说牌山还剩 {log} 张；按摸牌计算应剩 {wall} 张",
  "code.deal_not_committed": "承诺的牌山只包含未发出的牌；配牌不在哈希范围内",
  "code.wall_copy_mismatch": "牌谱中未发出牌山的副本与牌山有 {count} 处不同",
  "code.log_format": "这个文件不是 pywall 能读取的麻将牌谱。",
  "code.empty_archive": "这个压缩包里没有文件。",
  "code.too_large": "这个文件太大，无法检查。",
  "code.unreadable": "无法读取这个文件。",
  "code.error": "无法检查这个文件。",
  "severity.error": "错误",
  "severity.warning": "警告",
  "severity.info": "信息",
  "code.internal": "pywall 未能完成对这个文件的检查（问题出在 pywall，而不是文件）。",
  "code.bad_request": "pywall 未能完成对这个文件的检查（问题出在 pywall，而不是文件）。",
  "code.not_ready": "无法在这个浏览器中启动 Python，因此这个文件没有被检查。",
  "code.worker_failed": "浏览器停止了正在检查这个文件的工作线程。",
  "code.timed_out": "检查这个文件用时过长，页面已将其停止；其他文件已检查。真实的牌谱不到一秒即可检查完：这个文件页面无法检查。",
  "code.reply_too_large": "这个文件的报告太大，页面无法显示；其他文件已检查。请用命令行（pywall verify）检查。",
  "code.worker_restarted": "由于另一个文件检查过久，页面重启了所需的工作线程。请重试。",
  "error.detail": "技术细节",
  "rule.players": "{n}人麻将",
  "rule.般": "一般场",
  "rule.上": "上级场",
  "rule.特": "特上场",
  "rule.鳳": "凤凰场",
  "rule.東": "东风战",
  "rule.南": "东南战",
  "rule.喰": "有食断",
  "rule.赤": "有赤宝牌",
  "rule.速": "快速",
  "rule.computer": "人机对战",
  "rule.unknown": "规则不明",
};

addStrings({ en, ja, zh });
