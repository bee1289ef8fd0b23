// Words that help a reader read a result, in English, Japanese and Chinese: what a
// verdict means on each platform (meaning.mjs: a record that reveals its wall has no
// seed; a Mahjong Soul room with test settings) and how the audit's headline and its
// panels fit together (audit.mjs). Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

const en = {
  "meaning.mismatch.intro.stated": "Some tiles in this record are not where the wall the record reveals (and its hash commits to) puts them. That can mean:",
  "meaning.mismatch.wall": "the wall in the file was changed after the game (then its hash no longer matches, unless that was changed too);",
  "meaning.mismatch.stated.platform": "or the platform did not deal the wall it committed to and revealed.",
  "meaning.mismatch.unrelated.stated": "Here the revealed wall does not fit this game at all: most likely the wall or the rounds in the file come from another game.",
  "meaning.mismatch.todo.stated": "What to do: save the record again from the platform with a tool that keeps it whole, and check that copy. Only a mismatch in a record you saved yourself points at the platform; then keep that file and this report.",
  "meaning.room.heading": "A room with test settings",
  "meaning.room.what": "This game was played in a Mahjong Soul room with test settings (“testing_environment” in the record): the room's host can set the tiles in advance, so its walls need not be shuffled, nor even hold the usual tiles.",
  "meaning.room.check": "The check here says only whether the record agrees with the wall it reveals. A mismatch or an odd tile set in such a room is not evidence about the platform's shuffled games, and a verified game is no sign of a fair shuffle.",
  "audit.read.how": "How the verdict is reached: a group is flagged only when one of its {k} tests ({tests}) gives p below {alpha} ÷ {k} = {each}. Splitting the threshold over the tests keeps the chance of a false alarm for the whole group below {alpha}. The figures for dealer and non-dealer hands beside the charts are details, not tests of their own: a small p there does not flag the group unless one of its tests also falls below {each}.",
  "audit.test.chi": "the spread over shanten values",
  "audit.test.mean": "the mean shanten",
  "audit.test.dora": "the dora dealt",
  "audit.read.smallest": "smallest p of its {k} tests: {p}; a flag needs less than {each}",
  "audit.read.better": "better hands than a fair shuffle deals, on average",
  "audit.read.worse": "worse hands than a fair shuffle deals, on average",
  "audit.read.more": "more than a fair shuffle deals",
  "audit.read.fewer": "fewer than a fair shuffle deals",
  "audit.read.common": "a difference this large is common with a fair shuffle",
  "audit.read.rare": "chance alone gives a difference this large about once in {n} samples",
  "audit.read.never": "chance alone gives a difference this large less than once in a million samples",
  "audit.read.mean": "Mean shanten {mean} against {fair} for a fair shuffle: {direction}; {chance} (z = {z}, p = {p}).",
  "audit.read.chi": "Spread over shanten values against a fair shuffle's: {chance}. Chi-square {chi} on {dof} degrees of freedom, p = {p}.",
  "audit.read.dora": "Dora dealt: {obs} against {exp} for a fair shuffle, {direction}; {chance} (z = {z}, p = {p}).",
};

const ja = {
  "meaning.mismatch.intro.stated": "この牌譜には、牌譜が公開した牌山（そのハッシュがコミットする牌山）の位置にない牌があります。考えられるのは:",
  "meaning.mismatch.wall": "対局後にファイルの牌山が変更された（その場合ハッシュも一致しなくなります。ハッシュまで書き換えられていなければ）;",
  "meaning.mismatch.stated.platform": "あるいは、サービスがコミットして公開した牌山のとおりに配らなかった。",
  "meaning.mismatch.unrelated.stated": "ここでは公開された牌山がこの対局にまったく合いません: ファイルの牌山か局が別の対局のものである可能性が高いです。",
  "meaning.mismatch.todo.stated": "すべきこと: 牌譜をそのまま保つツールでサービスから保存し直し、そのコピーを確認してください。自分で保存した牌譜に不一致があるときだけ、サービスを疑う根拠になります。そのときはファイルとこの結果を保管してください。",
  "meaning.room.heading": "テスト設定のある部屋",
  "meaning.room.what": "この対局は、テスト設定のある雀魂の部屋（牌譜の “testing_environment”）で打たれました。部屋の主催者は牌をあらかじめ決められるので、牌山はシャッフルされたものとは限らず、通常の牌の組でさえないことがあります。",
  "meaning.room.check": "ここでの検証が示すのは、牌譜が自ら公開した牌山と合っているかどうかだけです。このような部屋での不一致や変わった牌の組は、サービスのシャッフルされた対局についての証拠にはならず、一致しても公正なシャッフルの証拠にはなりません。",
  "audit.read.how": "判定のしかた: グループに警告が出るのは、その {k} つの検定（{tests}）のいずれかで p が {alpha} ÷ {k} = {each} を下回るときだけです。しきい値を検定の数で分けることで、グループ全体の誤警報の確率を {alpha} 未満に保っています。グラフの横にある親・子の配牌ごとの数値は内訳で、それ自体は検定ではありません。そこに小さい p があっても、グループの検定のどれかが {each} を下回らない限り警告にはなりません。",
  "audit.test.chi": "向聴数の分布",
  "audit.test.mean": "平均向聴数",
  "audit.test.dora": "配られたドラの数",
  "audit.read.smallest": "{k} つの検定で最小の p: {p}。警告には {each} 未満が必要",
  "audit.read.better": "平均すると公正なシャッフルより良い配牌",
  "audit.read.worse": "平均すると公正なシャッフルより悪い配牌",
  "audit.read.more": "公正なシャッフルより多い",
  "audit.read.fewer": "公正なシャッフルより少ない",
  "audit.read.common": "この程度の差は公正なシャッフルでもよく起こります",
  "audit.read.rare": "偶然だけでこの程度の差が出るのは、およそ {n} 回に 1 回です",
  "audit.read.never": "偶然だけでこの程度の差が出るのは 100 万回に 1 回未満です",
  "audit.read.mean": "平均向聴数 {mean}、公正なシャッフルでは {fair}: {direction}。{chance}（z = {z}、p = {p}）。",
  "audit.read.chi": "向聴数の分布を公正なシャッフルと比べると: {chance}。カイ二乗 {chi}、自由度 {dof}、p = {p}。",
  "audit.read.dora": "配られたドラ: {obs}、公正なシャッフルでは {exp}、{direction}。{chance}（z = {z}、p = {p}）。",
};

const zh = {
  "meaning.mismatch.intro.stated": "此牌谱中有些牌不在牌谱公开的牌山（其哈希所承诺的牌山）所定的位置上。这可能意味着：",
  "meaning.mismatch.wall": "文件中的牌山在对局后被改动（那样它的哈希也就不再一致，除非哈希也被改了）；",
  "meaning.mismatch.stated.platform": "或者平台没有按它承诺并公开的牌山发牌。",
  "meaning.mismatch.unrelated.stated": "这里公开的牌山与这一局完全对不上：文件中的牌山或各局很可能来自另一局。",
  "meaning.mismatch.todo.stated": "该怎么做：用能完整保留牌谱的工具从平台重新保存牌谱，检查这份副本。只有你自己保存的牌谱出现不一致，才指向平台；这时请保留该文件和这份结果。",
  "meaning.room.heading": "带测试设置的房间",
  "meaning.room.what": "这一局是在带测试设置的雀魂房间里打的（牌谱中的 “testing_environment”）：房主可以预先设定牌，所以它的牌山不一定是洗出来的，甚至不一定是通常的一副牌。",
  "meaning.room.check": "这里的检查只说明牌谱是否与它自己公开的牌山相符。在这种房间里出现的不一致或不寻常的牌组，不能作为平台正常洗牌对局的证据；一致也不说明洗牌公平。",
  "audit.read.how": "判定方法：只有当一组的 {k} 项检验（{tests}）中任何一项的 p 低于 {alpha} ÷ {k} = {each} 时，才会对这一组发出警告。把阈值分给各项检验，使整组误报的概率保持在 {alpha} 以下。图表旁庄家和闲家配牌的数字只是明细，本身不是检验：那里即使有较小的 p，只要这一组的检验都不低于 {each}，就不会发出警告。",
  "audit.test.chi": "向听数的分布",
  "audit.test.mean": "平均向听数",
  "audit.test.dora": "发到的宝牌数",
  "audit.read.smallest": "{k} 项检验中最小的 p：{p}；发出警告需要低于 {each}",
  "audit.read.better": "平均而言比公平洗牌发的配牌更好",
  "audit.read.worse": "平均而言比公平洗牌发的配牌更差",
  "audit.read.more": "比公平洗牌多",
  "audit.read.fewer": "比公平洗牌少",
  "audit.read.common": "这么大的差距在公平洗牌下很常见",
  "audit.read.rare": "仅凭偶然出现这么大的差距，大约每 {n} 次才有 1 次",
  "audit.read.never": "仅凭偶然出现这么大的差距，不到百万分之一",
  "audit.read.mean": "平均向听数 {mean}，公平洗牌为 {fair}：{direction}；{chance}（z = {z}，p = {p}）。",
  "audit.read.chi": "与公平洗牌的向听数分布相比：{chance}。卡方 {chi}，自由度 {dof}，p = {p}。",
  "audit.read.dora": "发到的宝牌：{obs}，公平洗牌为 {exp}，{direction}；{chance}（z = {z}，p = {p}）。",
};

addStrings({ en, ja, zh });
