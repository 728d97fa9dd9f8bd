// flowgraph studio: the page, as ES modules (page: what they share; board: checking, drawing and editing;
// actions: the buttons; play; levels: the level browser; share: links and copies). This one starts it.
import { $, call, constants, markClean, setText, state, status } from "./page.js";
import { wireBoard } from "./board.js";
import { wireActions } from "./actions.js";
import { wirePlay } from "./play.js";
import { openFolder, openLevelNumber, openPack } from "./levels.js";
import { sharedBoard } from "./share.js";

const MAX_LINK_CHARS = 200_000;  // a share link's board, as the server's draft bound (api.MAX_DRAFT_CHARS)

wirePlay(); wireBoard(); wireActions();  // the handlers (in the order the modules once ran), before the first board

(async function start() {
  for (const f of constants.families) $("family").add(new Option(f, f));
  for (const r of constants.rules) $("rules").add(new Option(r.display_name, r.name));
  $("limit").max = constants.max_time_limit_s;
  for (const l of constants.labels) { const o = document.createElement("option"); o.textContent = l; $("label").appendChild(o); }
  const { ok, data } = await call("/api/file", null, "GET");
  if (ok && data.path) { state.file = data.path; $("file").textContent = data.path; $("save").disabled = !!data.folder; }
  if (!ok || data.error) status(data.error);  // FILE unreadable: said, and a new board to start with
  if (ok && data.folder) {  // a folder: its puzzle files in the level browser, nothing saved
    $("save").title = "the studio was started with a folder: export instead";
    const name = data.path.split(/[\\/]/).filter(Boolean).pop() || data.path;
    if (data.files.length && await openFolder(data.files, name)) {
      status(`${data.path}: ${data.files.length} files in the level browser` +
             (data.skipped ? `, ${data.skipped} passed over (links, not text, or over the limits)` : "") + " (Save is off)");
    } else {
      if (!data.error) status(`${data.path}: no puzzle file in that folder`);
      const t = await call("/api/new", { family: "standard", width: 5, height: 5 }); setText(t.data.text, false);
    }
  } else if (ok && data.text.trim() && await openPack(data.path, data.text)) {
    // a level pack or a file of URLs: its levels in the browser; Save would overwrite the pack with one board
    $("save").disabled = true; $("save").title = "FILE holds several puzzles: Save writes single boards only";
    status(`${data.path}: its levels are in the level browser (Save is off: FILE holds several puzzles)`);
    if (data.level) await openLevelNumber(data.level);
  } else if (ok && data.text.trim()) {
    setText(data.text, false);
    if (data.level > 1) status(`${data.path} holds one puzzle: there is no #${data.level}`);
  }
  else { const t = await call("/api/new", { family: "standard", width: 5, height: 5 }); setText(t.data.text, false); }
  markClean();
  const shared = sharedBoard();
  if (shared && shared.text.length > MAX_LINK_CHARS) status("this link's board is too large to open here");
  else if (shared) {
    $("rules").value = shared.rules; setText(shared.text); state.fromLink = true;
    status("opened the board of a shared link (Save asks before it overwrites FILE)");
  }
})();

