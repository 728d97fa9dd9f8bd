// flowgraph studio: what every part of the page shares. The neighbor-link text is the source of truth;
// every change is checked by the server (the same problem-finder as `flowgraph validate`), which also
// draws the board. Constants (labels, families, rules) come from the server, never copied here.
export function $(id) { return document.getElementById(id); }
export const state = { history: [], future: [], job: null, timer: null, check: 0, file: null, typing: null, clean: null,
                       answerFor: null, fromLink: false };
// The per-launch token (flowgraph/studio/guard.py): the address the studio opens carries it (?token=...); the page
// keeps it for this origin, takes it out of the address bar (so a copied address or a screenshot does not
// show it) and sends it with every API call. A share link never carries it.
const given = new URLSearchParams(location.search).get("token");
if (given) {
  localStorage.setItem("flowgraph-studio-token", given);
  history.replaceState(null, "", location.pathname + location.hash);
}
const token = given || localStorage.getItem("flowgraph-studio-token") || "";
const auth = { Authorization: `token ${token}` };
export const constants = await fetch("/api/constants", { headers: auth }).then(async (res) => {
  if (res.ok) return res.json();
  const said = (await res.json().catch(() => ({}))).error || res.statusText;
  // e.g. no token: open the address the studio printed; a link's board stays in its address meanwhile
  document.getElementById("status").textContent = said + (location.hash.includes("board=")
    ? " · this link's board is kept in its address: open the address the studio printed once in this browser, " +
      "then this link again" : "");
  throw new Error(said);
});
let checker = () => {};
export function onCheck(fn) { checker = fn; }  // the board module's check, run after every change

// The rule set chosen on the page: a call that reads a board under rules passes it itself (call() adds nothing).
export function rules() { return $("rules").value; }

export async function call(path, body, method = "POST") {
  const res = await fetch(path, method === "GET" ? { headers: auth }
    : { method, headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  return { ok: res.ok, status: res.status, data };
}

// Base64 of bytes and back (a picture to scan, a PNG exported, a board in a share link).
export function toBase64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
export function download(name, blob) {  // a file the browser saves, made in the page
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = name; a.click();
}
export function fromBase64(data) { return Uint8Array.from(atob(data), (c) => c.charCodeAt(0)); }

export function setText(text, remember = true) {
  if (remember && $("text").value !== text) { state.history.push($("text").value); state.future = []; }
  $("text").value = text;
  scheduleCheck(0);
}

export function scheduleCheck(delay = 250) {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => checker(), delay);
}

export function offset(text, line, column) {
  const lines = text.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  return at + column - 1;
}

export function select(line, column) {
  const box = $("text"), at = offset(box.value, line, column);
  box.focus(); box.setSelectionRange(at, at + 1);
}

// Unsaved changes: the browser asks before the page is left (the text differs from the one opened or saved).
export function markClean() { state.clean = $("text").value; }
window.addEventListener("beforeunload", (ev) => { if (state.clean !== null && $("text").value !== state.clean) ev.preventDefault(); });
export function status(text) { $("status").textContent = text || ""; }

// An answer about the board shown (a solve's or Unique?'s): cleared once the board changes.
export function answerStatus(text) { status(text); state.answerFor = $("text").value; }
