// A tool's section of the page, shown when the URL fragment names it (#tool=NAME).

import { t } from "../words/i18n.mjs";
import { el } from "../kit/dom.mjs";

export function toolSection(name, heading, ...body) {
  const id = `tool-${name}-heading`;
  return el("section", { id: `tool-${name}`, class: "tool", data: { tool: name }, "aria-labelledby": id, hidden: true },
    el("h2", { id, tabindex: "-1" }, heading), body,
    el("p", {}, el("a", { href: "#", class: "close-tool" }, t("nav.close"))));
}

function toolFromHash() {
  const m = /(?:^#|&)tool=(\w+)/.exec(location.hash);
  return m ? m[1] : null;
}

// A tool is shown alone, like a tab: the Verify section waits below until "Verify logs"
// (or Close) is chosen again. Results already on the page stay, under the tool.
export function showTool(focus) {
  const name = toolFromHash();
  const verify = document.querySelector("main > section.input");
  if (verify) verify.hidden = Boolean(name) && [...document.querySelectorAll("section.tool")].some((s) => s.dataset.tool === name);
  for (const section of document.querySelectorAll("section.tool")) {
    const on = section.dataset.tool === name;
    section.hidden = !on;
    if (on && focus) section.querySelector("h2").focus();
  }
  for (const link of document.querySelectorAll("nav.tools a[data-tool]")) {
    if (link.dataset.tool === (name || "verify")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}
