"""The words of the audit's HTML report (``audit_html``), in English, Japanese and Chinese.

``pick(words, key, **figures)`` fills a text's ``{figures}``; a key with a ``.one`` form
takes it when ``n`` is 1. Counts are written with digits grouped (``count``: "1,937",
as all three languages write them).
"""

from __future__ import annotations

LANGS = ("en", "ja", "zh")


def count(n: int) -> str:
    return f"{n:,}"


def pick(words: dict[str, str], key: str, **figures: str) -> str:
    one = f"{key}.one"
    text = words[one] if figures.get("n") == "1" and one in words else words[key]
    return text.format(**figures)


EN = {
    "lang": "en",
    "title": "Fairness audit — pywall",
    "jobs": "pywall checks each game against the wall its platform committed to, and tests over "
    "many games whether the deals, the draws and the walls look like a fair shuffle's. "
    "This report is the second job, for the games listed at the end.",
    "games_n": "{n} verified games",
    "games_n.one": "{n} verified game",
    "hands_n": "{n} starting hands",
    "hands_n.one": "{n} starting hand",
    "draws_n": "{n} draws tested",
    "draws_n.one": "{n} draw tested",
    "list_sep": ", ",
    "stop": ".",
    "left_out": "{n} files left out (not verified, unreadable or repeated).",
    "left_out.one": "{n} file left out (not verified, unreadable or repeated).",
    "you": "You ({name})",
    "everyone": "All players together",
    "seats": "Dealer, non-dealer and each seat",
    "others": "Other players",
    "group_counts": "{hands} starting hands, {draws} draws",
    "verdict_ok": "Consistent with a fair shuffle: deals, draws and walls.",
    "verdict_bad": "Unlikely under a fair shuffle: look closer.",
    "verdict_detail": "smallest p {p} of {k} tests; one test flags below {each}",
    "reading_usual": "usual",
    "reading_unusual": "unusual",
    "reading_very_unusual": "very unusual",
    "draw_effective": "Effective draws (a tile that brings the hand closer to ready)",
    "draw_tenpai": "Winning tiles drawn while ready (tenpai)",
    "draw_dora": "Dora drawn",
    "draw_line": "{what}: {obs} of {n} — a fair shuffle gives {fair} on average, usually between {low} and {high}:",
    "no_draws": "no draws",
    "detect_effective": "With these {n} draws, a rigged shuffle that took away (or added) 1 effective tile in every {k} draws would be caught 8 times in 10.",
    "detect_tenpai": "With these {n} draws while ready, a rigged shuffle that took away (or added) 1 winning tile in every {k} of them would be caught 8 times in 10.",
    "detect_dora": "With these {n} draws, a rigged shuffle that took away (or added) 1 dora in every {k} draws would be caught 8 times in 10.",
    "few_effective": "With only {n} draws, even a rigged shuffle that added 1 effective tile in every 2 draws might not be caught: too few draws to see a bias.",
    "few_effective.one": "With only {n} draw, even a rigged shuffle that added 1 effective tile in every 2 draws might not be caught: too few draws to see a bias.",
    "few_tenpai": "With only {n} draws while ready, even a rigged shuffle that added 1 winning tile in every 2 of them might not be caught: too few draws to see a bias.",
    "few_tenpai.one": "With only {n} draw while ready, even a rigged shuffle that added 1 winning tile in every 2 of them might not be caught: too few draws to see a bias.",
    "few_dora": "With only {n} draws, even a rigged shuffle that added 1 dora in every 2 draws might not be caught: too few draws to see a bias.",
    "few_dora.one": "With only {n} draw, even a rigged shuffle that added 1 dora in every 2 draws might not be caught: too few draws to see a bias.",
    "no_draws_tested": "No draw tested.",
    "mean_line": "Mean shanten of the starting hands (steps from ready): {obs}, fair {fair}: {lean},",
    "dora_line": "Dora dealt in starting hands: {obs}, fair {fair}: {lean},",
    "close": "close to fair",
    "lean_worse": "worse hands than fair",
    "lean_better": "better hands than fair",
    "lean_more": "more than fair",
    "lean_fewer": "fewer than fair",
    "col_who": "Who",
    "col_hands": "Starting hands",
    "col_draws": "Effective draws",
    "col_verdict": "Verdict",
    "platform_tenhou": "Tenhou",
    "platform_majsoul": "Mahjong Soul",
    "platform_riichicity": "Riichi City",
    "platform_group": "{platform}, {players}-player",
    "seat_n": "Seat {n}",
    "dealer": "Dealer",
    "non-dealer": "Non-dealer",
    "chart_title": "{who}: effective draws above or below fair, game by game",
    "chart_x": "games",
    "chart_band": "95% range of a fair shuffle",
    "chart_line": "hits − fair, added up",
    "walls_title": "Wall tests: each region's p-value against the threshold",
    "walls_head": "Wall positions, {walls} whole walls of {games} games:",
    "walls_none": "Wall positions: no whole wall known (Mahjong Soul before 2023-05-23 states only the undealt tiles).",
    "walls_few": "too few for a test (the position test needs about 170).",
    "walls_threshold": "threshold {each}",
    "walls_axis": "longer bar = smaller p (−log10 p)",
    "wall_positions": "tile kinds by position",
    "wall_deal": "deal by seat",
    "wall_live": "live wall, early and late",
    "wall_dead": "dead wall",
    "wall_red_fives": "red fives by region",
    "method_heading": "How the tests work",
    "method": "Only verified games count, each once. Starting hands are compared with the exact "
    "shanten distribution of all possible hands. Every draw is followed: from the record each "
    "hand is known, so the chance that a draw is effective (brings the hand closer to ready), "
    "a winning tile while ready, or a dora is the share of such tiles among those the record had "
    "not yet shown; under a fair shuffle the hits add up on average to those chances. The wall "
    "tests ask, for walls known whole, whether tile kinds are spread over the wall's positions "
    "as a shuffle spreads them. A result is usual when chance alone gives one as far in 1 of 20 "
    "tries or more often, and very unusual when it alone would flag the group: the threshold "
    "0.001 is split over a group's tests. No test can prove a shuffle fair, and one small "
    "p-value among many players and tests is expected by chance.",
    "game_list": "The {n} games counted",
    "game_list.one": "The game counted",
    "made_by": "Made by pywall, a verifier for online mahjong walls; everything was computed on the player's own device.",
}

JA = {
    "lang": "ja",
    "title": "公平性の検査 — pywall",
    "jobs": "pywall は各対局を運営が事前に確定した牌山と照合し、さらに多数の対局で配牌・ツモ・牌山が公平なシャッフルらしく見えるかを検定します。"
    "このレポートは後者の結果です（対象の対局は末尾の一覧）。",
    "games_n": "検証済みの対局 {n}",
    "hands_n": "配牌 {n}",
    "draws_n": "検定したツモ {n}",
    "list_sep": "、",
    "stop": "。",
    "left_out": "除外したファイル {n}（未検証・読めない・重複）。",
    "you": "あなた（{name}）",
    "everyone": "全員の合計",
    "seats": "親・子と各席",
    "others": "ほかのプレイヤー",
    "group_counts": "配牌 {hands}、ツモ {draws}",
    "verdict_ok": "公平なシャッフルと矛盾しません（配牌・ツモ・牌山）。",
    "verdict_bad": "公平なシャッフルでは起こりにくい結果です。詳しく確認してください。",
    "verdict_detail": "{k}個の検定で最小のp {p}。1つの検定は{each}未満で判定",
    "reading_usual": "よくある範囲",
    "reading_unusual": "珍しい",
    "reading_very_unusual": "非常に珍しい",
    "draw_effective": "有効牌のツモ（手を聴牌に近づける牌）",
    "draw_tenpai": "聴牌中の和了牌ツモ",
    "draw_dora": "ドラのツモ",
    "draw_line": "{what}: {n}回中{obs}回 — 公平なシャッフルなら平均{fair}回、通常は{low}〜{high}回:",
    "no_draws": "ツモなし",
    "detect_effective": "この{n}回のツモなら、{k}回に1回の割合で有効牌を抜く（または足す）不正なシャッフルを10回中8回見抜けます。",
    "detect_tenpai": "聴牌中のこの{n}回のツモなら、{k}回に1回の割合で和了牌を抜く（または足す）不正なシャッフルを10回中8回見抜けます。",
    "detect_dora": "この{n}回のツモなら、{k}回に1回の割合でドラを抜く（または足す）不正なシャッフルを10回中8回見抜けます。",
    "few_effective": "ツモが{n}回だけでは、2回に1回の割合で有効牌を足す不正なシャッフルでも見抜けるとは限りません。偏りを見るにはツモが少なすぎます。",
    "few_tenpai": "聴牌中のツモが{n}回だけでは、2回に1回の割合で和了牌を足す不正なシャッフルでも見抜けるとは限りません。偏りを見るにはツモが少なすぎます。",
    "few_dora": "ツモが{n}回だけでは、2回に1回の割合でドラを足す不正なシャッフルでも見抜けるとは限りません。偏りを見るにはツモが少なすぎます。",
    "no_draws_tested": "検定したツモはありません。",
    "mean_line": "配牌の平均向聴数（聴牌までの段階）: {obs}、公平なら{fair}: {lean}、",
    "dora_line": "配牌のドラ: {obs}枚、公平なら{fair}枚: {lean}、",
    "close": "公平に近い",
    "lean_worse": "公平より悪い配牌",
    "lean_better": "公平より良い配牌",
    "lean_more": "公平より多い",
    "lean_fewer": "公平より少ない",
    "col_who": "対象",
    "col_hands": "配牌",
    "col_draws": "有効牌のツモ",
    "col_verdict": "判定",
    "platform_tenhou": "天鳳",
    "platform_majsoul": "雀魂",
    "platform_riichicity": "麻雀一番街",
    "platform_group": "{platform}（{players}人打ち）",
    "seat_n": "{n}番目の席",
    "dealer": "親",
    "non-dealer": "子",
    "chart_title": "{who}: 有効牌ツモの公平との差（対局ごとの累計）",
    "chart_x": "対局数",
    "chart_band": "公平なシャッフルの95%範囲",
    "chart_line": "実際 − 公平 の累計",
    "walls_title": "牌山の検定: 各領域のp値としきい値",
    "walls_head": "牌山の位置（{games}局のうち牌山全体が分かる{walls}局）:",
    "walls_none": "牌山の位置: 牌山全体が分かる対局がありません（2023年5月23日以前の雀魂は配牌以外の牌だけを示します）。",
    "walls_few": "検定には少なすぎます（位置の検定には約170の牌山が必要です）。",
    "walls_threshold": "しきい値 {each}",
    "walls_axis": "棒が長いほどpが小さい（−log10 p）",
    "wall_positions": "位置ごとの牌の種類",
    "wall_deal": "席ごとの配牌",
    "wall_live": "ツモ山の前半と後半",
    "wall_dead": "王牌",
    "wall_red_fives": "赤ドラの位置",
    "method_heading": "検定の方法",
    "method": "検証済みの対局だけを、それぞれ1回だけ数えます。配牌はあり得るすべての手牌の向聴数の厳密な分布と比べます。"
    "ツモはすべて追います。牌譜から各手牌が分かるので、ツモが有効牌（聴牌に近づける牌）、聴牌中の和了牌、ドラである確率は、"
    "その時点で牌譜がまだ見せていない牌の中の該当する牌の割合です。公平なシャッフルなら当たりの数は平均するとこれらの確率の合計になります。"
    "牌山の検定は、牌山全体が分かる対局で牌の種類が位置にシャッフルどおりに散らばっているかを調べます。"
    "偶然だけで20回に1回以上起こる結果は「よくある範囲」、それだけでそのグループが判定される結果は「非常に珍しい」です（しきい値0.001をグループの検定数で分けます）。"
    "どの検定もシャッフルが公平だと証明することはできず、多くのプレイヤーと検定の中に小さなp値が一つあるのは偶然でも起こります。",
    "game_list": "数えた対局 {n}",
    "made_by": "オンライン麻雀の牌山を検証する pywall が作成しました。計算はすべてプレイヤー自身の端末で行われました。",
}

ZH = {
    "lang": "zh",
    "title": "公平性检验 — pywall",
    "jobs": "pywall 将每局与平台事先确定的牌山核对，并在许多对局上检验配牌、摸牌和牌山是否像公平洗牌的结果。"
    "本报告是后一项的结果（所检验的对局列在末尾）。",
    "games_n": "已验证对局 {n} 局",
    "hands_n": "配牌 {n} 手",
    "draws_n": "检验的摸牌 {n} 次",
    "list_sep": "，",
    "stop": "。",
    "left_out": "排除的文件 {n} 个（未验证、无法读取或重复）。",
    "you": "你（{name}）",
    "everyone": "全体玩家合计",
    "seats": "庄家、闲家与各座位",
    "others": "其他玩家",
    "group_counts": "配牌 {hands} 手，摸牌 {draws} 次",
    "verdict_ok": "与公平洗牌相符（配牌、摸牌、牌山）。",
    "verdict_bad": "在公平洗牌下不太可能出现，请仔细查看。",
    "verdict_detail": "{k} 项检验中最小的 p 为 {p}；单项检验低于 {each} 即判定",
    "reading_usual": "常见",
    "reading_unusual": "少见",
    "reading_very_unusual": "非常少见",
    "draw_effective": "有效牌摸牌（使手牌更接近听牌的牌）",
    "draw_tenpai": "听牌时摸到和牌",
    "draw_dora": "摸到宝牌",
    "draw_line": "{what}：{n} 次中 {obs} 次 — 公平洗牌平均 {fair} 次，通常在 {low} 到 {high} 次之间：",
    "no_draws": "没有摸牌",
    "detect_effective": "凭这 {n} 次摸牌，每 {k} 次摸牌拿走（或多给）1 张有效牌的作弊洗牌，10 次中有 8 次会被发现。",
    "detect_tenpai": "凭这 {n} 次听牌时的摸牌，每 {k} 次拿走（或多给）1 张和牌的作弊洗牌，10 次中有 8 次会被发现。",
    "detect_dora": "凭这 {n} 次摸牌，每 {k} 次摸牌拿走（或多给）1 张宝牌的作弊洗牌，10 次中有 8 次会被发现。",
    "few_effective": "只有 {n} 次摸牌：即使作弊洗牌每 2 次摸牌就多给 1 张有效牌，也未必能发现；摸牌太少，看不出偏差。",
    "few_tenpai": "只有 {n} 次听牌时的摸牌：即使作弊洗牌每 2 次就多给 1 张和牌，也未必能发现；摸牌太少，看不出偏差。",
    "few_dora": "只有 {n} 次摸牌：即使作弊洗牌每 2 次摸牌就多给 1 张宝牌，也未必能发现；摸牌太少，看不出偏差。",
    "no_draws_tested": "没有检验的摸牌。",
    "mean_line": "配牌的平均向听数（距听牌的步数）：{obs}，公平时 {fair}：{lean}，",
    "dora_line": "配牌中的宝牌：{obs} 张，公平时 {fair} 张：{lean}，",
    "close": "接近公平",
    "lean_worse": "配牌比公平差",
    "lean_better": "配牌比公平好",
    "lean_more": "比公平多",
    "lean_fewer": "比公平少",
    "col_who": "对象",
    "col_hands": "配牌",
    "col_draws": "有效牌摸牌",
    "col_verdict": "判定",
    "platform_tenhou": "天凤",
    "platform_majsoul": "雀魂",
    "platform_riichicity": "麻雀一番街",
    "platform_group": "{platform}（{players} 人）",
    "seat_n": "座位 {n}",
    "dealer": "庄家",
    "non-dealer": "闲家",
    "chart_title": "{who}：有效牌摸牌与公平值之差（按对局累计）",
    "chart_x": "对局数",
    "chart_band": "公平洗牌的 95% 范围",
    "chart_line": "实际 − 公平 的累计",
    "walls_title": "牌山检验：各区域的 p 值与阈值",
    "walls_head": "牌山位置（{games} 局中已知完整牌山 {walls} 局）：",
    "walls_none": "牌山位置：没有已知完整牌山的对局（2023年5月23日之前的雀魂只给出配牌以外的牌）。",
    "walls_few": "太少，无法检验（位置检验约需 170 个牌山）。",
    "walls_threshold": "阈值 {each}",
    "walls_axis": "条越长 p 越小（−log10 p）",
    "wall_positions": "各位置的牌种",
    "wall_deal": "各座位的配牌",
    "wall_live": "牌山前半与后半",
    "wall_dead": "王牌",
    "wall_red_fives": "赤宝牌的位置",
    "method_heading": "检验方法",
    "method": "只计已验证的对局，每局一次。配牌与所有可能手牌的向听数精确分布比较。"
    "每次摸牌都被跟踪：牌谱中每手牌都已知，因此摸到有效牌（使手牌更接近听牌）、听牌时摸到和牌或摸到宝牌的概率，"
    "就是牌谱当时尚未展示的牌中这类牌所占的比例；公平洗牌时命中次数平均等于这些概率之和。"
    "牌山检验针对已知完整牌山的对局，检查牌种在牌山各位置的分布是否与洗牌相符。"
    "仅凭偶然每 20 次至少出现 1 次的结果为“常见”，单凭它就会使该组被判定的结果为“非常少见”（阈值 0.001 按组内检验数平分）。"
    "任何检验都不能证明洗牌公平；在许多玩家和检验中出现一个很小的 p 值，偶然也会发生。",
    "game_list": "计入的对局 {n} 局",
    "made_by": "由在线麻将牌山验证工具 pywall 生成；所有计算都在玩家自己的设备上完成。",
}

WORDS = {"en": EN, "ja": JA, "zh": ZH}
