import { $, call, download, fromBase64, rules, status, toBase64 } from "./page.js";

// -- share: a link whose fragment carries the board (base64url of the UTF-8 text), and copies in
// the formats other tools read ---------------------------------------------------------------------
function toBase64url(text) {
  return toBase64(new TextEncoder().encode(text)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromBase64url(data) {
  return new TextDecoder().decode(fromBase64(data.replace(/-/g, "+").replace(/_/g, "/")));
}
async function offer(text, said) {  // shown to copy by hand at once, then copied where the browser lets the page
  $("shared").value = text; $("shared").select();
  status(`${said} (in the box, to copy)`);  // said before the clipboard answers: it may never
  try { await navigator.clipboard.writeText(text); status(`${said} (copied)`); } catch { /* the box has it */ }
}
// For anyone: the board as a page that plays it (no server, no network; mail it or host it anywhere).
$("share-page").onclick = async () => {
  const { ok, data } = await call("/api/convert", { text: $("text").value, to: "html", rules: rules() });
  if (!ok) return status(data.error);
  download("board.html", new Blob([data.text], { type: "text/html" }));
  status("saved board.html: a page anyone can open and play, offline, on a phone too" +
         (data.note ? ` (${data.note.replace(/^note: /, "")})` : ""));
};
// For this browser: a link to this studio that carries the board (a friend's browser has no token for it).
$("share-link").onclick = async () => {
  const numberlink = $("rules").value === "numberlink" ? "&rules=numberlink" : "";
  await offer(`${location.origin}${location.pathname}#board=${toBase64url($("text").value)}${numberlink}`,
              "studio link: opens this board in this studio, in this browser only; for anyone: page, or the puzz.link URL");
};
document.querySelectorAll("[data-copy]").forEach((button) => button.onclick = async () => {
  const to = button.dataset.copy;
  if (to === "level-pack") status("solving for the level-pack line…");
  const { ok, data } = await call("/api/convert", { text: $("text").value, to, time_limit_s: +$("limit").value, rules: rules() });
  if (ok) offer(data.text.trim(), to === "puzzlink" ? "puzz.link URL" : "level-pack line"); else status(data.error);
});
export function sharedBoard() {  // the board a share link carries, or null
  const fields = new URLSearchParams(location.hash.slice(1));
  if (!fields.get("board")) return null;
  try { return { text: fromBase64url(fields.get("board")), rules: fields.get("rules") === "numberlink" ? "numberlink" : "flow" }; }
  catch { status("this link's board cannot be read"); return null; }
}

