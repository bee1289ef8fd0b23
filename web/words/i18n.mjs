// The page's words in English, Japanese and Chinese. Strings only: every value
// is put into the page with textContent, never parsed as HTML. The language itself is
// the store's `language` slice (store.mjs): each part of a page that shows words
// subscribes to it where it is made.

import { flush, get, init, set } from "../kit/store.mjs";

const en = {
  "title": "pywall — mahjong wall verifier",
  "tagline": "Two jobs. Check each game against its committed wall: every tile from the wall Tenhou's published seed defines, or the wall Mahjong Soul or Riichi City committed to with a hash. And test, over many games, whether the deals, the draws and the walls look like a fair shuffle. Everything runs on this device: nothing is uploaded.",
  "door.button": "Are my games fair? Audit many games",
  "door.how": "Drop a .zip of your logs anywhere on this page (or choose them below), or paste a list of your games (links or log ids) into the box below. When they are checked, press “Is the dealing fair?” above the results.",
  "language": "Language",
  "status.loading": "Loading Python…",
  "status.runtime": "Loading the Python runtime…",
  "status.package": "Loading pywall…",
  "status.glue": "Starting…",
  "status.ready": "Ready",
  "status.error": "Python could not be loaded: {message}",
  "status.old_browser": "this browser is too old to unpack the page's files (it needs Chrome 80, Firefox 113, Safari 16.4 or newer)",
  "status.retry": "Loading the Python runtime again, from the network…",
  "status.corrupt": "the file {file} that came from the network is not the file this page ships (a Wi-Fi login page or a proxy may have answered in its place), even when asked again; it was not kept. Check that you are online, then reload the page",
  "status.again": "{message} (asked from the network a second time too). Check that you are online, then reload the page",
  "status.queued": "{n} waiting until Python is ready",
  "input.heading": "Verify logs",
  "input.choose": "Choose log files",
  "input.hint": "Tenhou .mjlog, .xml or .txt logs, Mahjong Soul or Riichi City game records (.json), gzip, a .zip of logs, or a phoenix-logs .db database. You can also drop files anywhere on this page.",
  "input.drop": "Drop logs to verify them",
  "paste.label": "Or paste a log, a Tenhou seed, or a game link or log id",
  "paste.verify": "Verify pasted text",
  "paste.name": "pasted log",
  "paste.empty": "Paste a log, a seed or a game link first.",
  "seed.heading": "Walls from a seed",
  "seed.round": "Round",
  "seed.players": "Players",
  "seed.p4": "4 players",
  "seed.p3": "3 players",
  "seed.prev": "Previous round",
  "seed.next": "Next round",
  "seed.link": "Link to this wall",
  "seed.embed": "Embed snippet",
  "seed.error": "This seed cannot be read: {message}",
  "seed.bad": "This is not a Tenhou seed. A seed is the long text in the seed attribute of a log's SHUFFLE tag.",
  "verdict.verified": "Verified",
  "verdict.mismatch": "Mismatch",
  "verdict.error": "Cannot read",
  "verdict.pending": "Waiting",
  "detail.verified": "All {checked} tile events checked match the wall.",
  "detail.mismatch": "{count} of {checked} tile events checked do not match the wall.",
  "detail.error": "This file could not be verified.",
  "game.players": "Players",
  "game.rule": "Rule",
  "game.date": "Date",
  "game.log": "Log",
  "game.unknown": "unknown",
  "findings": "Findings",
  "rounds": "Rounds",
  "round.verified": "verified",
  "round.mismatch": "mismatch",
  "round.checked": "{checked} checked",
  "wall.hands": "Dealt hands",
  "wall.live": "Live wall, in draw order",
  "wall.dead": "Dead wall",
  "wall.dice": "Dice",
  "wall.dora": "dora indicator",
  "wall.ura": "ura indicator",
  "wall.rinshan": "replacement",
  "wall.drawnBy": "drawn by {who}",
  "wall.notDrawn": "not drawn",
  "wall.logVsWall": "log {log}, wall {wall}",
  "wall.dealer": "dealer",
  "wall.seat": "Seat {n}",
  "wall.dealOrder": "Hand {n} (dealt {nth})",
  "wall.legend": "Legend",
  "wall.mismatchLegend": "does not match the log",
  "wall.redFive": "red five",
  "wind.0": "East",
  "wind.1": "South",
  "wind.2": "West",
  "wind.3": "North",
  "honba": "{n} honba",
  "export.none": "Nothing to export yet.",
  "wall.log": "log",
  "picture.svg": "Download as SVG",
  "picture.png": "Download as PNG",
  "picture.hint": "A picture of this wall, for pages that take images but not embedded pages",
  "picture.making": "Drawing the picture…",
  "picture.failed": "Could not draw the picture: {message}",
  "picture.credit": "drawn by pywall",
  "footer": "pywall runs Python in this page with Pyodide; after the first visit it also works offline.",
};

const ja = {
  "title": "pywall — 牌山検証",
  "tagline": "2つのことをします。各対局を事前に確定した牌山と照合し、すべての牌がその牌山（天鳳では公開された乱数シードが定める牌山、雀魂と麻雀一番街ではハッシュでコミットされた牌山）から来たかを確かめます。そして多数の対局で、配牌・ツモ・牌山が公平なシャッフルらしく見えるかを検定します。処理はすべてこの端末上で行われ、何もアップロードされません。",
  "door.button": "自分の対局は公平？ 多数の対局を検定",
  "door.how": "牌譜の .zip をこのページのどこかにドロップする（または下で選ぶ）か、対局の一覧（リンクか牌譜 ID）を下の欄に貼り付けてください。確認が終わったら、結果の上の「配牌は公平？」を押します。",
  "language": "言語",
  "status.loading": "Python を読み込み中…",
  "status.runtime": "Python ランタイムを読み込み中…",
  "status.package": "pywall を読み込み中…",
  "status.glue": "起動中…",
  "status.ready": "準備完了",
  "status.error": "Python を読み込めませんでした: {message}",
  "status.old_browser": "このブラウザは古く、ページのファイルを展開できません（Chrome 80、Firefox 113、Safari 16.4 以降が必要です）",
  "status.retry": "Python ランタイムをネットワークから読み込み直しています…",
  "status.corrupt": "ネットワークから届いたファイル {file} は、このページが配布しているファイルではありません（Wi-Fi のログインページやプロキシが代わりに応答した可能性があります）。もう一度取得しても同じだったため、保存していません。オンラインであることを確認してから、ページを再読み込みしてください",
  "status.again": "{message}（ネットワークからもう一度取得しても同じでした）。オンラインであることを確認してから、ページを再読み込みしてください",
  "status.queued": "{n} 件が Python の準備を待っています",
  "input.heading": "牌譜を検証",
  "input.choose": "牌譜ファイルを選択",
  "input.hint": "天鳳の .mjlog・.xml・.txt、雀魂・麻雀一番街の牌譜（.json）、gzip、牌譜の .zip、または phoenix-logs の .db データベース。ページのどこにでもドロップできます。",
  "input.drop": "ドロップして検証",
  "paste.label": "または牌譜、天鳳のシード、対局のリンクか牌譜 ID を貼り付け",
  "paste.verify": "貼り付けた内容を検証",
  "paste.name": "貼り付けた牌譜",
  "paste.empty": "先に牌譜、シード、対局のリンクのいずれかを貼り付けてください。",
  "seed.heading": "シードから牌山を表示",
  "seed.round": "局",
  "seed.players": "人数",
  "seed.p4": "四人打ち",
  "seed.p3": "三人打ち",
  "seed.prev": "前の局",
  "seed.next": "次の局",
  "seed.link": "この牌山へのリンク",
  "seed.embed": "埋め込みコード",
  "seed.error": "このシードは読めません: {message}",
  "seed.bad": "天鳳のシードではありません。シードは牌譜の SHUFFLE タグの seed 属性にある長い文字列です。",
  "verdict.verified": "一致",
  "verdict.mismatch": "不一致",
  "verdict.error": "読めません",
  "verdict.pending": "待機中",
  "detail.verified": "確認した {checked} 件の牌はすべて牌山と一致しました。",
  "detail.mismatch": "確認した {checked} 件のうち {count} 件が牌山と一致しません。",
  "detail.error": "このファイルは検証できませんでした。",
  "game.players": "対局者",
  "game.rule": "ルール",
  "game.date": "日時",
  "game.log": "牌譜",
  "game.unknown": "不明",
  "findings": "指摘",
  "rounds": "局",
  "round.verified": "一致",
  "round.mismatch": "不一致",
  "round.checked": "{checked} 件確認",
  "wall.hands": "配牌",
  "wall.live": "山（ツモ順）",
  "wall.dead": "王牌",
  "wall.dice": "サイコロ",
  "wall.dora": "ドラ表示牌",
  "wall.ura": "裏ドラ表示牌",
  "wall.rinshan": "嶺上牌",
  "wall.drawnBy": "{who} のツモ",
  "wall.notDrawn": "未使用",
  "wall.logVsWall": "牌譜 {log}、牌山 {wall}",
  "wall.dealer": "親",
  "wall.seat": "席 {n}",
  "wall.dealOrder": "手牌 {n}（{nth} 番目に配牌）",
  "wall.legend": "凡例",
  "wall.mismatchLegend": "牌譜と一致しない",
  "wall.redFive": "赤五",
  "wind.0": "東",
  "wind.1": "南",
  "wind.2": "西",
  "wind.3": "北",
  "honba": "{n} 本場",
  "export.none": "書き出す結果がまだありません。",
  "wall.log": "牌譜",
  "picture.svg": "SVG でダウンロード",
  "picture.png": "PNG でダウンロード",
  "picture.hint": "この牌山の画像（埋め込みページは使えないが画像は使えるページ向け）",
  "picture.making": "画像を作成しています…",
  "picture.failed": "画像を作成できませんでした: {message}",
  "picture.credit": "pywall で作成",
  "footer": "pywall はこのページの中で Pyodide により Python を動かします。一度開けばオフラインでも使えます。",
};

const zh = {
  "title": "pywall — 麻将牌山验证",
  "tagline": "两项工作。将每局与事先承诺的牌山核对：每一张牌是否来自天凤公开种子确定的牌山，或雀魂、麻雀一番街用哈希承诺的牌山。并在许多对局上检验配牌、摸牌和牌山是否像公平洗牌的结果。所有计算都在本设备上进行，不会上传任何内容。",
  "door.button": "我的对局公平吗？检验多局",
  "door.how": "把牌谱的 .zip 拖放到本页任意位置（或在下面选择），或把对局列表（链接或牌谱编号）粘贴到下面的框中。检查完成后，按结果上方的“发牌公平吗？”。",
  "language": "语言",
  "status.loading": "正在加载 Python…",
  "status.runtime": "正在加载 Python 运行环境…",
  "status.package": "正在加载 pywall…",
  "status.glue": "正在启动…",
  "status.ready": "就绪",
  "status.error": "无法加载 Python：{message}",
  "status.old_browser": "此浏览器太旧，无法解压页面的文件（需要 Chrome 80、Firefox 113、Safari 16.4 或更新版本）",
  "status.retry": "正在从网络重新加载 Python 运行环境…",
  "status.corrupt": "从网络收到的文件 {file} 不是本页面发布的文件（可能是 Wi-Fi 登录页面或代理代为应答），再次获取也一样；它没有被保存。请确认已连接网络，然后重新加载页面",
  "status.again": "{message}（再次从网络获取也一样）。请确认已连接网络，然后重新加载页面",
  "status.queued": "{n} 个文件等待 Python 就绪",
  "input.heading": "验证牌谱",
  "input.choose": "选择牌谱文件",
  "input.hint": "天凤 .mjlog、.xml、.txt 牌谱，雀魂或麻雀一番街的牌谱（.json），gzip，牌谱的 .zip 压缩包，或 phoenix-logs 的 .db 数据库。也可以把文件拖放到页面任意位置。",
  "input.drop": "拖放到这里进行验证",
  "paste.label": "或粘贴牌谱、天凤种子、对局链接或牌谱编号",
  "paste.verify": "验证粘贴的内容",
  "paste.name": "粘贴的牌谱",
  "paste.empty": "请先粘贴牌谱、种子或对局链接。",
  "seed.heading": "由种子生成牌山",
  "seed.round": "局",
  "seed.players": "人数",
  "seed.p4": "四人麻将",
  "seed.p3": "三人麻将",
  "seed.prev": "上一局",
  "seed.next": "下一局",
  "seed.link": "此牌山的链接",
  "seed.embed": "嵌入代码",
  "seed.error": "无法读取此种子：{message}",
  "seed.bad": "这不是天凤的种子。种子是牌谱中 SHUFFLE 标签的 seed 属性里的长文本。",
  "verdict.verified": "一致",
  "verdict.mismatch": "不一致",
  "verdict.error": "无法读取",
  "verdict.pending": "等待中",
  "detail.verified": "检查的 {checked} 张牌全部与牌山一致。",
  "detail.mismatch": "检查的 {checked} 张牌中有 {count} 张与牌山不一致。",
  "detail.error": "无法验证此文件。",
  "game.players": "玩家",
  "game.rule": "规则",
  "game.date": "日期",
  "game.log": "牌谱",
  "game.unknown": "未知",
  "findings": "发现",
  "rounds": "各局",
  "round.verified": "一致",
  "round.mismatch": "不一致",
  "round.checked": "检查 {checked} 张",
  "wall.hands": "配牌",
  "wall.live": "牌山（摸牌顺序）",
  "wall.dead": "王牌",
  "wall.dice": "骰子",
  "wall.dora": "宝牌指示牌",
  "wall.ura": "里宝牌指示牌",
  "wall.rinshan": "岭上牌",
  "wall.drawnBy": "{who} 摸牌",
  "wall.notDrawn": "未摸",
  "wall.logVsWall": "牌谱 {log}，牌山 {wall}",
  "wall.dealer": "庄家",
  "wall.seat": "座位 {n}",
  "wall.dealOrder": "手牌 {n}（第 {nth} 个配牌）",
  "wall.legend": "图例",
  "wall.mismatchLegend": "与牌谱不一致",
  "wall.redFive": "赤五",
  "wind.0": "东",
  "wind.1": "南",
  "wind.2": "西",
  "wind.3": "北",
  "honba": "{n} 本场",
  "export.none": "还没有可导出的结果。",
  "wall.log": "牌谱",
  "picture.svg": "下载为 SVG",
  "picture.png": "下载为 PNG",
  "picture.hint": "此牌山的图片，供不能嵌入网页但可以放图片的页面使用",
  "picture.making": "正在生成图片…",
  "picture.failed": "无法生成图片：{message}",
  "picture.credit": "由 pywall 绘制",
  "footer": "pywall 通过 Pyodide 在本页面中运行 Python；首次访问后也可离线使用。",
};

export const LANGUAGES = { en: "English", ja: "日本語", zh: "中文" };
const TABLES = { en, ja, zh };

// More strings from another module (panels-i18n.mjs): { en: {...}, ja: {...}, zh: {...} }.
export function addStrings(tables) {
  for (const [lang, table] of Object.entries(tables)) Object.assign(TABLES[lang], table);
}

// The keys a language's table holds (the node unit tests compare the three languages).
export function tableKeys(lang) {
  return Object.keys(TABLES[lang] || {});
}

// Whether the page has words for a key (in English, which every language falls back to).
export function hasWords(key) {
  return key in en;
}

export function pickLanguage(stored, browserLanguages) {
  if (stored && TABLES[stored]) return stored;
  for (const tag of browserLanguages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  set("language", TABLES[lang] ? lang : "en");
  return get("language");
}

export function language() {
  return get("language");
}

export function t(key, params = {}) {
  const text = TABLES[get("language")][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

// Why Python could not start, in words, from the worker's fatal {code, file, message}:
// `again` when the page already tried once more from the network (session.mjs).
export function startFailure({ code, file, message }, again = false) {
  if (code === "old_browser") return t("status.old_browser");
  if (code === "corrupt") return t("status.corrupt", { file });
  return again ? t("status.again", { message }) : message;
}

// A number with the page language's separators ("1,937", "4,301.5"): at most `digits`
// decimals, exactly `digits` when `fixed`. One Intl.NumberFormat per language and precision,
// made once: making one costs far more than using it (a batch writes thousands of numbers).
const numberFormats = new Map();
export function number(n, digits = 0, fixed = false) {
  const lang = get("language");
  const key = `${lang} ${digits} ${fixed}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 });
    numberFormats.set(key, format);
  }
  return format.format(Number(n));
}

// A count in words: `${key}.one` or `${key}.other` as the language's plural rules pick
// ({n} is the count); Japanese and Chinese have only "other".
export function tn(key, n, params = {}) {
  const lang = get("language");
  const form = `${key}.${new Intl.PluralRules(lang).select(n)}`;
  // the count written with the language's separators ("1,937"), unless the caller words it
  const shown = typeof n === "number" ? number(n) : n;
  return t(form in TABLES[lang] || form in en ? form : `${key}.other`, { n: shown, ...params });
}

// "East 2, 1 honba" (the report's label) in the current language.
export function roundLabel(label) {
  const m = /^(East|South|West|North) (\d+), (\d+) honba$/.exec(label || "");
  if (!m || get("language") === "en") return label;
  const wind = t(`wind.${["East", "South", "West", "North"].indexOf(m[1])}`);
  return `${wind}${m[2]}局 ${t("honba", { n: m[3] })}`;
}

const STORAGE_KEY = "pywall.lang";

// `lang=ja` in the address's fragment (index.html, embed.html, calc.html): the
// language a shared link or a wiki's iframe asks for; null when it names none.
export function fragmentLanguage(hash = location.hash) {
  const m = /(?:^#|&)lang=([a-z]{2})(?:&|$)/.exec(String(hash || ""));
  return m && TABLES[m[1]] ? m[1] : null;
}

// A fragment this page writes (a round's link, a tool's values), keeping the
// address's lang= so the link and a reload stay in the language it asked for.
export function withLanguage(fragment) {
  const lang = fragmentLanguage();
  const body = String(fragment).replace(/^#/, "").split("&").filter((p) => p && !p.startsWith("lang=")).join("&");
  return `#${[body, lang ? `lang=${lang}` : ""].filter(Boolean).join("&")}`;
}

// The language to start in: the fragment's, else the remembered one, else the browser's.
export function startLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch { /* storage may be off */ }
  return fragmentLanguage() || pickLanguage(stored, navigator.languages || [navigator.language]);
}

// A change of language translates the page's fixed text, then draws at once what
// subscribed to the store's `language` (no page keeps a list of what to redraw).
function languageChanged(onChange) {
  translatePage();
  flush();
  if (onChange) onChange();
}

// Fill a language <select>, start in startLanguage() (the store's starting value: nothing
// is drawn yet), and follow changes (remembered for the next visit, and written into the
// fragment when it names a language) and a fragment that names another language; what
// subscribed to `language` redraws the page, then onChange (optional).
export function initLanguageSelect(select, onChange = null) {
  init("language", startLanguage());
  const lang = get("language");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", () => {
    // the language already shown (a script's change event): nothing to redraw, and the fixed
    // text must not be written over what subscribers drew (the status line's "ready")
    if (select.value === get("language")) return;
    setLanguage(select.value);
    try {
      localStorage.setItem(STORAGE_KEY, select.value);
    } catch { /* ignore */ }
    if (fragmentLanguage()) history.replaceState(null, "", withLanguage(location.hash).replace(/lang=\w+$/, `lang=${get("language")}`));
    languageChanged(onChange);
  });
  window.addEventListener("hashchange", () => {
    const asked = fragmentLanguage();
    if (!asked || asked === get("language")) return;
    select.value = setLanguage(asked);
    languageChanged(onChange);
  });
  translatePage();
  return lang;
}

// Fill every element that names its text with data-i18n (and data-i18n-attr).
// Only what changes is written: the page's HTML is already in English, and rewriting its
// every text at start-up made the browser lay the whole page out again for nothing.
export function translatePage(root = document) {
  document.documentElement.lang = get("language");
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const text = t(node.dataset.i18n);
    if (node.textContent !== text) node.textContent = text;
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    const label = t(node.dataset.i18nLabel);
    if (node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    const title = t(node.dataset.i18nTitle);
    if (node.title !== title) node.title = title;
  }
}
