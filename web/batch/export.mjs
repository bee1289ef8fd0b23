// The batch as a download: JSON (the logs' reports without per-round detail, archive
// games as their compact rows) or CSV (Python's one CSV writer, on the compact rows
// Python gave; with a byte-order mark so spreadsheet programs read it as UTF-8).

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";
import { request } from "../workers/session.mjs";
import { allRows, batchState, withoutDetail } from "./batch.mjs";

const $ = (id) => document.getElementById(id);
const BOM = "\ufeff";

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function exportable() {
  return batchState().entries.flatMap((e) => {
    if (e.archive) return e.rows.map(({ i, ...row }) => row);
    return (e.reports || []).map((r) => withoutDetail(r));
  });
}

async function exportAs(format) {
  const rows = allRows().map(({ row }) => row).filter((r) => r.status !== "pending");
  if (!rows.length) {
    $("batch-summary").textContent = t("export.none");
    return;
  }
  if (format === "json") {
    const files = exportable();
    const summary = { files: files.length, verified: 0, mismatch: 0, error: 0, checked: 0 };
    for (const r of files) {
      summary[r.status]++;
      summary.checked += r.checked;
    }
    download("pywall-report.json", "application/json", JSON.stringify({ schema: 2, files, summary }, null, 1));
  } else {
    const { csv } = await request("csv", { rows });
    download("pywall-report.csv", "text/csv;charset=utf-8", BOM + csv);
  }
}

export function initExport() {
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
}
