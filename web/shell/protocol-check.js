// A classic script (module scripts do not run from file://): say how to open the page.
(function () {
  if (location.protocol !== "file:") return;
  var lang = String(navigator.language || "en").slice(0, 2);
  var text = {
    ja: "このページはファイルとしてではなく http(s) で開いてください: python3 build.py serve",
    zh: "请通过 http(s) 打开此页面，而不是作为本地文件: python3 build.py serve",
  }[lang] || "This page must be opened over http(s), not as a file: run python3 build.py serve";
  document.addEventListener("DOMContentLoaded", function () {
    var status = document.getElementById("status");
    if (!status) return;
    status.setAttribute("data-state", "error");
    var label = document.getElementById("status-text");
    if (label) label.textContent = text;
  });
})();
