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
};

addStrings({ en, ja, zh });
