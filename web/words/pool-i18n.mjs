// Words of the pool of workers (pool-setting.mjs, the status line, an archive's
// progress) in English, Japanese and Chinese. Text only, like i18n.mjs.

import { addStrings } from "./i18n.mjs";

addStrings({
  en: {
    "pool.label": "Python workers",
    "pool.auto": "Automatic ({n})",
    "pool.hint": "Batches and archives are checked by up to this many workers at once (this device has {cores} cores); one log uses one.",
    "pool.workers": "{n} workers",
  },
  ja: {
    "pool.label": "Python ワーカー数",
    "pool.auto": "自動（{n}）",
    "pool.hint": "複数のログやアーカイブは最大この数のワーカーで同時に検証します（この端末のコア数: {cores}）。ログ 1 件ならワーカー 1 つです。",
    "pool.workers": "ワーカー {n} 個",
  },
  zh: {
    "pool.label": "Python 工作线程数",
    "pool.auto": "自动（{n}）",
    "pool.hint": "多个牌谱和压缩包最多由这么多个工作线程同时检查（这台电脑有 {cores} 个核心）；单个牌谱只用一个。",
    "pool.workers": "{n} 个工作线程",
  },
});
