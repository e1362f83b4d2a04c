// The one generic front end for every aloftnb board (plain ESM, no build step).
// Python draws the board as SVG and sends the legal actions as click paths; this file only shows
// them and turns clicks and keys into intents. It never decides a rule.

const KERNEL_SILENT_MS = 4000;
const WAITING_MS = 300; // after this, a click without an answer shows a "waiting" cursor
const BUSY_CHECK_MS = 1000; // while the kernel is busy, how often to look at it again
const KERNEL_BUSY_TEXT = "The kernel is busy running a cell; ";
const MOVE_INTENTS = new Set(["play", "force", "draw"]); // what "your move" means below
const KERNEL_GONE_TEXT = "No answer from the kernel. If it was restarted, run the cell that " +
  "shows this board again.";
// Where the page does not say what the kernel is doing: both possibilities, so nobody restarts
// a game that was only waiting.
const KERNEL_UNKNOWN_TEXT = "No answer from the kernel yet. If it is busy running a cell, your " +
  "move will be played when the cell ends; if it was restarted, run the cell that shows this " +
  "board again.";

// The kernel this widget's manager talks to (JupyterLab and Notebook 7 give it): null when it
// has none, undefined where the host does not say.
function kernelOf(model) {
  try {
    const manager = model.widget_manager;
    if (!manager || !("kernel" in manager)) return undefined;
    const kernel = manager.kernel;
    if (!kernel) return null;
    return typeof kernel.status === "string" ? kernel : undefined;
  } catch (error) {
    return undefined;
  }
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// Set only the attributes that differ: a tabindex written again on the focused element makes the
// browser recompute the page's style at once (to check it can still have focus).
function setAttributes(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
}

function startsWith(path, prefix) {
  return prefix.every((key, i) => path[i] === key);
}

let viewCount = 0; // with a random part (each widget may load this module anew): unique ids

function render({ model, el }) {
  const viewId = `aloft-${Math.random().toString(36).slice(2, 10)}-${++viewCount}`;
  let selected = []; // the click path chosen so far (local to this view)
  let intentId = 0;
  let dismissed = null; // the message number this view hid because the selection changed
  let logEntries = (model.get("log") || []).slice(); // kept up to date from log_delta
  const pending = new Map(); // intent id -> timer, to notice a kernel that does not answer
  const lastFocused = new Map(); // board region -> the data-key last focused in it

  const title = h("div", { class: "aloft-title" });
  const status = h("div", { class: "aloft-status", role: "status", "aria-live": "polite",
    id: `${viewId}-status` });
  const viewerSelect = h("select", { class: "aloft-viewer", "aria-label": "Whose view" });
  const revealButton = h("button", { class: "aloft-reveal", type: "button" });
  // Display settings a game board offers (a map's zoom): they change the drawing, never a rule.
  const viewControls = h("span", { class: "aloft-view-controls" });
  const header = h("div", { class: "aloft-header" }, title, status,
    h("label", { class: "aloft-viewer-label" }, "View ", viewerSelect), revealButton, viewControls);

  const svgBox = h("div", { class: "aloft-svg", role: "group", "aria-label": "Board" });
  // A drawing in parts (a hex map and its panel) shows its panel here, beside or below the map.
  const panelBox = h("div", { class: "aloft-panel", hidden: "" });
  const menu = h("div", { class: "aloft-menu", role: "group" });
  // The menu's visible heading: the hint of the step chosen, else "Choose:" and the status.
  const menuLabel = h("span", { id: `${viewId}-choose` });
  const announcer = h("div", { class: "aloft-announce", "aria-live": "polite" });
  const message = h("div", { class: "aloft-message", role: "alert" });
  // Laid over the board (never pushing it down) when the kernel is gone or does not answer.
  const offline = h("div", { class: "aloft-offline", role: "alert", hidden: "" });

  const undoButton = h("button", { type: "button", class: "aloft-undo" }, "↶ Undo");
  const redoButton = h("button", { type: "button", class: "aloft-redo" }, "Redo ↷");
  const stepButton = h("button", { type: "button", class: "aloft-step" }, "Bot: step");
  const roundButton = h("button", { type: "button", class: "aloft-run-round",
    title: "Bots play on until the round ends or a person is to move",
    "aria-label": "Bots play to the end of the round" }, "Bots: round");
  const autoplayBox = h("input", { type: "checkbox", class: "aloft-autoplay" });
  // The designer view's switch for the match's chance steps (games with chance only).
  const chanceBox = h("input", { type: "checkbox", class: "aloft-auto-chance" });
  const chanceLabel = h("label", { class: "aloft-auto-chance-label", hidden: "",
    title: "Off: the game stops at each draw or roll, and this view chooses its outcome" },
  chanceBox, " draw chance steps automatically");
  const thinking = h("span", { class: "aloft-thinking", "aria-live": "polite" });
  const movesSelect = h("select", { class: "aloft-moves", "aria-label": "Play a legal move" });
  const controls = h("div", { class: "aloft-controls" }, undoButton, redoButton,
    h("label", {}, autoplayBox, " bots play by themselves"), stepButton, roundButton,
    thinking, chanceLabel);

  // The timeline: replay any game on the board itself, in step with undo/redo and match.goto.
  const firstButton = h("button", { type: "button", class: "aloft-first", title: "Start",
    "aria-label": "Go to the start" }, "|◀");
  const backButton = h("button", { type: "button", class: "aloft-back", title: "Back one step",
    "aria-label": "Back one step" }, "◀");
  const forwardButton = h("button", { type: "button", class: "aloft-forward",
    title: "Forward one step", "aria-label": "Forward one step" }, "▶");
  const lastButton = h("button", { type: "button", class: "aloft-last", title: "Latest",
    "aria-label": "Go to the latest step" }, "▶|");
  const scrubber = h("input", { type: "range", class: "aloft-scrubber", min: "0", max: "0",
    step: "1", value: "0", "aria-label": "Position in the game" });
  const where = h("span", { class: "aloft-where" });
  const timeline = h("div", { class: "aloft-timeline", role: "group", "aria-label": "Timeline" },
    firstButton, backButton, scrubber, forwardButton, lastButton, where);

  const seatList = h("div", { class: "aloft-seats", role: "group", "aria-label": "Seats" });
  const log = h("ol", { class: "aloft-log", "aria-label": "Move log" });
  const side = h("div", { class: "aloft-side" },
    h("div", { class: "aloft-side-title" }, "Seats"), seatList,
    h("div", { class: "aloft-side-title" }, "Moves"), movesSelect,
    h("div", { class: "aloft-side-title" }, "Log"), log);

  // The choices come right after the map in the tab order (board.css keeps where each shows).
  const play = h("div", { class: "aloft-play" }, svgBox, message, menu, timeline, controls,
    announcer);
  const root = h("div", { class: "aloft-board", tabindex: "-1" },
    header, h("div", { class: "aloft-main" }, play, panelBox, side), offline);
  el.append(root);
  // What bots, chance and other boards just did, and a new round (Python's `news`, worded for
  // this viewer), told politely to screen readers; news from before this view opened is not.
  const newsBox = h("div", { class: "aloft-news", "aria-live": "polite", "aria-atomic": "true" });
  root.append(newsBox);
  let toldNews = (model.get("news") || {}).n;
  function tellNews() {
    const news = model.get("news") || {};
    if (news.n === toldNews || !news.text) return;
    toldNews = news.n;
    newsBox.textContent = news.text;
  }

  function showOffline(text) {
    offline.textContent = text;
    offline.hidden = false;
    root.classList.add("aloft-is-offline");
    // Over the board's header, or, when that is scrolled out of view (a click on a tall
    // drawing), at the top of the part of the board in view, where the person looks.
    let shownTop = 0;
    for (let node = root.parentElement; node; node = node.parentElement) {
      if (node.scrollHeight > node.clientHeight + 1 &&
          /auto|scroll/.test(getComputedStyle(node).overflowY)) {
        shownTop = Math.max(0, node.getBoundingClientRect().top);
        break;
      }
    }
    const box = root.getBoundingClientRect();
    const top = Math.min(Math.max(44, shownTop - box.top + 8), Math.max(44, box.height - 80));
    offline.style.top = `${Math.round(top)}px`;
  }

  // A move played from the keyboard: its path and the revision it was played on. The redraw
  // that answers it puts the focus where play goes on (settleFocus), never leaving it on the page.
  let keyboardUse = false; // the last input on the board was a key, not the pointer
  let focusAfterMove = null; // {path, revision}
  let parked = false; // the focus waits on the board itself for the next redraw

  function send(content, path = selected) {
    if (MOVE_INTENTS.has(content.intent) && keyboardUse && root.contains(document.activeElement)) {
      focusAfterMove = { path: [...path], revision: model.get("revision") };
    }
    const id = ++intentId;
    const waiting = setTimeout(() => root.classList.add("aloft-waiting"), WAITING_MS);
    const silent = setTimeout(() => noAnswer(id, content.intent, false), KERNEL_SILENT_MS);
    pending.set(id, [waiting, silent]);
    model.send({ ...content, id });
  }

  // Cells the kernel is running, from its status messages (busy, then idle, for each
  // execute_request). Its overall status is not enough: JupyterLab may send widget messages to
  // a kernel subshell, whose "idle" then reads as the whole kernel's while a cell still runs.
  const runningCells = new Set();
  const watchedKernel = kernelOf(model);
  function onIopub(_, msg) {
    const parent = msg && msg.parent_header;
    if (!parent || parent.msg_type !== "execute_request" || msg.header.msg_type !== "status") return;
    if (msg.content.execution_state === "busy") runningCells.add(parent.msg_id);
    else if (msg.content.execution_state === "idle") runningCells.delete(parent.msg_id);
  }
  function onKernelStatus(_, status) {
    if (status !== "busy" && status !== "idle") runningCells.clear(); // restarting, dead...
  }
  try {
    watchedKernel.iopubMessage.connect(onIopub);
    watchedKernel.statusChanged.connect(onKernelStatus);
  } catch (error) {
    // no kernel to watch here: its status alone (or nothing) says whether it is busy
  }

  // "busy" (running a cell: a message sent now waits its turn), "quiet" (idle, starting,
  // dead...), "gone" (no kernel), or "unknown" where the host does not say.
  function kernelState() {
    const kernel = kernelOf(model);
    if (kernel === undefined) return "unknown";
    if (kernel === null) return "gone";
    if (kernel.connectionStatus !== "connected") return "quiet";
    const running = kernel === watchedKernel && runningCells.size > 0;
    return kernel.status === "busy" || running ? "busy" : "quiet";
  }

  // An intent got no answer in time. A kernel busy with a cell answers when the cell ends:
  // say the move waits (and look again), rather than advise running the cell again, which
  // would start a new game. A kernel that has just stopped being busy gets time to answer.
  function noAnswer(id, intent, wasBusy) {
    if (!pending.has(id) || root.classList.contains("aloft-disconnected")) return;
    const kernel = kernelState();
    let again = null;
    if (kernel === "busy") {
      root.classList.add("aloft-kernel-busy");
      showOffline(KERNEL_BUSY_TEXT + (MOVE_INTENTS.has(intent)
        ? "your move will be played when it finishes." : "the board will answer when it finishes."));
      again = setTimeout(() => noAnswer(id, intent, true), BUSY_CHECK_MS);
    } else if (wasBusy) {
      again = setTimeout(() => noAnswer(id, intent, false), KERNEL_SILENT_MS);
    } else {
      root.classList.remove("aloft-kernel-busy");
      showOffline(kernel === "unknown" ? KERNEL_UNKNOWN_TEXT : KERNEL_GONE_TEXT);
    }
    if (again !== null) pending.set(id, [pending.get(id)[0], again]);
  }

  function onCustomMessage(content) {
    if (content && content.ack !== undefined && pending.has(content.ack)) {
      for (const timer of pending.get(content.ack)) clearTimeout(timer);
      pending.delete(content.ack);
      if (pending.size === 0) root.classList.remove("aloft-waiting");
      offline.hidden = true;
      root.classList.remove("aloft-is-offline", "aloft-disconnected", "aloft-kernel-busy");
    }
  }

  // The widget manager tells every model when its kernel restarts (the comm is then gone for
  // good): say so at once. A kernel that still answers (an ack below) clears it again.
  function onCommLive() {
    root.classList.remove("aloft-kernel-busy");
    root.classList.add("aloft-disconnected");
    showOffline("Disconnected: the kernel was restarted or stopped. Run the cell that shows " +
      "this board again to play on.");
    try {
      send({ intent: "hello" });
    } catch (error) {
      // a closed comm may refuse to send: the notice stays
    }
  }

  function choices() {
    return model.get("choices") || [];
  }

  // The keys that may come next after the current selection, each with the choices it leads to.
  function nextSteps() {
    const steps = new Map();
    for (const choice of choices()) {
      if (choice.path.length > selected.length && startsWith(choice.path, selected)) {
        const key = choice.path[selected.length];
        if (!steps.has(key)) steps.set(key, []);
        steps.get(key).push(choice);
      }
    }
    return steps;
  }

  function select(path) {
    if (path.join("\u0000") !== selected.join("\u0000")) {
      dismissed = (model.get("message") || {}).n; // a new selection: the old message is stale
      drawMessage();
    }
    selected = path;
    decorate();
  }

  function activate(key) {
    const path = [...selected, key];
    const matching = choices().filter((c) => startsWith(c.path, path));
    if (selected.includes(key)) {
      select(selected.slice(0, selected.indexOf(key)));
      return;
    }
    if (matching.length === 0 && selected.length && choices().some((c) => c.path[0] === key)) {
      select([]); // another first step: switch to it rather than refuse
      activate(key);
      return;
    }
    if (matching.length === 0) {
      // Explain why, and keep what was already chosen (a second click may just be a slip).
      send({ intent: "explain", path });
      return;
    }
    if (matching.some((c) => c.partial)) {
      // Many choices: Python sent only first steps; ask for the ones after this one.
      select(path);
      send({ intent: "select", path });
      return;
    }
    const complete = matching.filter((c) => c.path.length === path.length);
    if (complete.length === 1 && matching.length === 1) {
      // The move goes out first: the kernel works on it while this view clears the selection.
      send({ intent: complete[0].intent || "play", action: complete[0].action }, path);
      select([]);
      return;
    }
    select(path);
    const fromKeyboard = document.activeElement && root.contains(document.activeElement);
    const next = nextSteps();
    const drawnNext = [...next.keys()].some((k) => svgBox.querySelector(`[data-key="${CSS.escape(k)}"]`));
    if (fromKeyboard && !drawnNext) {
      const first = menu.querySelector(".aloft-choice");
      if (first) first.focus();
    }
  }

  // Where play goes on (after a move, or when the focused element is gone): the element the
  // move acted on if it is still to be played, else the map's first playable element, else the
  // menu's first choice, else the map's Tab stop. The focus never drops to the page.
  function focusWherePlayGoesOn(path) {
    parked = false;
    const playable = [...svgBox.querySelectorAll("[data-key].legal")];
    const actedOn = [...path].reverse()
      .map((key) => playable.find((node) => node.getAttribute("data-key") === key)).find(Boolean);
    const target = actedOn || playable[0] || menu.querySelector("button[tabindex='0']") ||
      svgBox.querySelector("[data-key][tabindex='0']");
    if (target) target.focus();
    else park();
  }

  // Hold the focus on the board itself until the redraw that says where play goes on.
  function park() {
    parked = true;
    root.focus({ preventScroll: true });
  }

  // After a redraw: a move played from the keyboard has its answer (or was refused), so the
  // focus parked on the board goes where play goes on. Focus the person moved elsewhere (a
  // notebook cell, another control) is theirs: it is never taken back.
  function settleFocus(messaged) {
    if (document.activeElement !== root) parked = false;
    if (focusAfterMove) {
      const left = !root.contains(document.activeElement);
      const answered = messaged || model.get("revision") !== focusAfterMove.revision;
      if (!left && !answered) return; // the move's redraw is still to come
      const path = focusAfterMove.path;
      focusAfterMove = null;
      if (parked) focusWherePlayGoesOn(path);
    } else if (parked) {
      focusWherePlayGoesOn([]);
    }
  }

  // A board region: the nearest group inside the drawing (ALU: tiles, actions), else the drawing.
  function regionOf(node) {
    const group = node.parentElement && node.parentElement.closest("[role=group]");
    return group && svgBox.contains(group) ? group : svgBox;
  }

  // A drawn element that can be played now says first what activating it does ("move ship 1
  // to corner 2,-1,S, corner 2,-1,S, empty, …"): Python words it (key_actions: [[path,
  // phrase]], the path being the selection and the element's key). The drawing's own name is
  // kept in data-drawn-label while the phrase stands before it, and comes back after.
  function keyActionsOf() {
    return new Map((model.get("key_actions") || []).map(([path, phrase]) =>
      [path.join("\u0000"), phrase]));
  }
  function nameAction(node, phrase) {
    const joined = (words, own) => (own ? `${words}, ${own}` : words);
    const before = node.getAttribute("data-action");
    const kept = node.getAttribute("data-drawn-label");
    const shown = node.getAttribute("aria-label");
    // A patch that renamed the element wrote its new own name over the phrase.
    const own = before !== null && shown === joined(before, kept) ? kept : shown;
    if (phrase) {
      setAttributes(node, { "aria-label": joined(phrase, own), "data-action": phrase,
        "data-drawn-label": own || "" });
    } else if (before !== null) {
      node.removeAttribute("data-action");
      node.removeAttribute("data-drawn-label");
      if (own) node.setAttribute("aria-label", own);
      else node.removeAttribute("aria-label");
    }
  }

  function decorate() {
    const steps = nextSteps();
    const keyActions = keyActionsOf();
    const drawn = new Set();
    const recent = new Set((model.get("recent") || {}).keys || []);
    const regions = new Map();
    const nodes = [...svgBox.querySelectorAll("[data-key]")];
    for (const node of nodes) {
      const key = node.getAttribute("data-key");
      drawn.add(key);
      const legal = steps.has(key);
      const chosen = selected.includes(key);
      node.classList.toggle("legal", legal);
      node.classList.toggle("selected", chosen);
      node.classList.toggle("recent", recent.has(key));
      if (legal || chosen || !model.get("explorable_map")) {
        setAttributes(node, { role: "button", "aria-disabled": legal || chosen ? "false" : "true",
          "aria-pressed": chosen ? "true" : "false" });
      } else {
        // A map is explored with the arrow keys: what cannot be played now is a picture with
        // a name, not one of dozens of disabled buttons.
        setAttributes(node, { role: "img" });
        for (const name of ["aria-disabled", "aria-pressed"]) {
          if (node.hasAttribute(name)) node.removeAttribute(name);
        }
      }
      nameAction(node, legal ? keyActions.get([...selected, key].join("\u0000")) : null);
      const region = regionOf(node);
      if (!regions.has(region)) regions.set(region, []);
      regions.get(region).push(node);
    }
    // One Tab stop per region (arrow keys move inside it): the focused element if it is there,
    // else the selection, else the first playable element, else the one focused last.
    const stops = new Set();
    for (const [region, inRegion] of regions) {
      const remembered = lastFocused.get(region);
      stops.add(inRegion.find((n) => n === document.activeElement) ||
        inRegion.find((n) => n.classList.contains("selected")) ||
        inRegion.find((n) => n.classList.contains("legal")) ||
        inRegion.find((n) => n.getAttribute("data-key") === remembered) || inRegion[0]);
    }
    for (const node of nodes) setAttributes(node, { tabindex: stops.has(node) ? "0" : "-1" });
    // The menu is built anew: a choice that had the focus must not drop it to the page.
    const menuFocus = menu.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-menu-key") || "" : null;
    menu.replaceChildren();
    if (selected.length) {
      const exact = choices().filter((c) => c.path.length === selected.length &&
        startsWith(c.path, selected));
      for (const choice of exact) {
        menu.append(h("button", { type: "button", class: "aloft-choice",
          onclick: () => { send({ intent: choice.intent || "play", action: choice.action }); select([]); },
        }, choice.label));
      }
    }
    const stepLabels = model.get("step_labels") || {};
    for (const [key, leadsTo] of steps) {
      if (drawn.has(key)) continue; // drawn keys are clicked on the board itself
      const label = leadsTo.length === 1 && leadsTo[0].path.length === selected.length + 1
        ? leadsTo[0].label : (stepLabels[key] || key);
      menu.append(h("button", { type: "button", class: "aloft-choice", "data-menu-key": key,
        onclick: () => activate(key) }, label));
    }
    if (selected.length) {
      menu.append(h("button", { type: "button", class: "aloft-cancel",
        onclick: () => select([]) }, "Cancel (Esc)"));
    }
    const hint = model.get("selection_hint") || {};
    menu.setAttribute("data-selected", selected.join(" "));
    // The hint of the latest step chosen that has one: it says what is chosen next.
    const hintText = [...selected].reverse().map((k) => hint[k]).find(Boolean) || "";
    // The group's heading: the hint, else "Choose:" read with the status (what is to be done).
    const buttons = [...menu.querySelectorAll("button")];
    menuLabel.className = hintText ? "aloft-hint" : "aloft-menu-label";
    menuLabel.textContent = hintText || "Choose:";
    menuLabel.hidden = !hintText && !buttons.length;
    menu.prepend(menuLabel);
    setAttributes(menu, { "aria-labelledby":
      hintText ? menuLabel.id : `${menuLabel.id} ${status.id}` });
    // One Tab stop for the whole menu (arrow keys move inside it, see moveInMenu).
    const again = menuFocus ? buttons.find((b) => b.getAttribute("data-menu-key") === menuFocus)
      : null;
    buttons.forEach((b, i) => b.setAttribute("tabindex",
      (again ? b === again : i === 0) ? "0" : "-1"));
    if (menuFocus !== null && keyboardUse) {
      // After a move, the same button may play again for the next seat: a second Enter must
      // not play it twice, so the move's answer says where play goes on.
      if (focusAfterMove) park();
      else if (again) again.focus({ preventScroll: true });
      else focusWherePlayGoesOn([]);
    }
    // Tell screen readers what the selection leads to.
    announcer.textContent = selected.length
      ? `${selected.map((k) => stepLabels[k] || k).join(", ")} selected: ${steps.size} ` +
        `choice${steps.size === 1 ? "" : "s"}. ${hintText} Escape cancels.`
      : "";
  }

  // The drawing: whole (`svg`, revision `svg_revision`) when a view needs all of it, else the
  // edits from one revision to the next (`svg_patch`, made by svgpatch.py), applied in place.
  let shown = null; // the revision of the drawing this view shows
  let asked = null; // the revision this view asked Python to send whole

  // A drawing whose root <svg> has `data-parts` is made of child <svg data-part="..."> only,
  // side by side when shown alone (board.svg, _repr_svg_). The board takes them apart: the
  // "map" part fills the drawing's frame and scales to it, the others go to the panel box (so
  // they hold no clickable element). `drawing` keeps the root, detached, and `parts` its
  // children, so patches still find every element by its path from the root.
  let drawing = null, parts = null;

  function drawWhole() {
    svgBox.innerHTML = model.get("svg");
    drawing = svgBox.firstElementChild;
    parts = drawing && drawing.hasAttribute("data-parts") ? [...drawing.children] : null;
    layOutParts();
    shown = model.get("svg_revision");
  }

  function layOutParts() {
    root.classList.toggle("aloft-parts", !!parts);
    panelBox.replaceChildren();
    if (parts) {
      svgBox.replaceChildren(...parts.filter((part) => part.getAttribute("data-part") === "map"));
      panelBox.append(...parts.filter((part) => part.getAttribute("data-part") !== "map"));
    }
    panelBox.hidden = !panelBox.childElementCount;
  }

  function childrenOf(node) {
    return node === drawing && parts ? parts : node.children;
  }

  // Apply svgpatch ops to the drawing shown; false (stop) at the first that does not fit it.
  function applyPatch(opsText) {
    try {
      for (const op of JSON.parse(opsText)) {
        let node = drawing;
        for (const index of op.at) node = node && childrenOf(node)[index];
        if (!node || node.tagName.toLowerCase() !== op.tag.toLowerCase() ||
          childrenOf(node).length !== op.n) return false;
        for (const [name, value] of Object.entries(op.attrs || {})) {
          if (value === null) node.removeAttribute(name);
          else node.setAttribute(name, value);
        }
        const splices = op.splices || [];
        if (!splices.length) continue;
        // Parse every new element of this op at once, in the element's own context (SVG, or
        // HTML inside a foreignObject); a detached holder runs no script, as innerHTML.
        const holder = document.createElementNS(node.namespaceURI, node.localName);
        holder.innerHTML = splices.map((splice) => splice[2]).join("");
        const fresh = [...holder.children];
        if (fresh.length !== splices.reduce((n, splice) => n + splice[3], 0)) return false;
        let taken = 0;
        if (node === drawing && parts) { // parts replaced: splice the list, lay them out again
          for (const [index, remove, , count] of splices) {
            if (index + remove > parts.length) return false;
            parts.splice(index, remove, ...fresh.slice(taken, taken += count));
          }
          layOutParts();
          continue;
        }
        for (const [index, remove, , count] of splices) {
          if (index + remove > node.children.length) return false;
          for (let k = 0; k < remove; k++) node.children[index].remove();
          const before = node.children[index] || null;
          for (let k = 0; k < count; k++) node.insertBefore(fresh[taken++], before);
        }
      }
    } catch (error) {
      return false;
    }
    return true;
  }

  // Bring the drawing to the newest revision this view knows of. A patch that does not apply
  // (this view missed a revision, or its drawing is not the one the patch was made for) leaves
  // the drawing to be replaced whole: from the model if it holds the newest, else from Python.
  function updateDrawing() {
    const whole = model.get("svg_revision") || 0;
    const patch = model.get("svg_patch") || {};
    const newest = Math.max(whole, patch.revision ?? -1);
    if (shown === newest) return;
    const patched = patch.revision === newest;
    if (patched && patch.base === shown) {
      if (applyPatch(patch.ops)) {
        shown = newest;
        return;
      }
      shown = null; // partly patched: only a whole drawing is right now
    }
    if (whole === newest || (patched && patch.base === whole)) {
      drawWhole();
      if (shown === newest) return;
      if (applyPatch(patch.ops)) {
        shown = newest;
        return;
      }
      shown = null;
    }
    if (asked !== newest) {
      asked = newest;
      send({ intent: "drawing" });
    }
  }

  // A map that was just zoomed opens centred on where the play is (its `data-focus`, in its
  // viewBox units), not on the empty top-left of its frame; later redraws keep the person's pan.
  let centredZoom = 1;
  function centreZoomedMap(svg, zoom) {
    svg.classList.toggle("aloft-zoomed", zoom > 1);
    if (zoom === centredZoom) return;
    centredZoom = zoom;
    const focus = (svg.getAttribute("data-focus") || "").split(" ").map(Number);
    const box = svg.viewBox.baseVal;
    if (focus.length !== 2 || focus.some(Number.isNaN) || !box || !box.width) return;
    // Read the layout in the next frame, once the new size applies.
    requestAnimationFrame(() => {
      const scale = svg.getBoundingClientRect().width / box.width;
      svgBox.scrollLeft = (focus[0] - box.x) * scale - svgBox.clientWidth / 2;
      svgBox.scrollTop = (focus[1] - box.y) * scale - svgBox.clientHeight / 2;
    });
  }

  function drawSvg() {
    const focusedKey = document.activeElement && svgBox.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    updateDrawing();
    const svg = svgBox.firstElementChild;
    // A map in parts is laid out at its unzoomed size, so zooming never moves the panel.
    const zoom = parts && svg ? Number(svg.getAttribute("data-zoom")) || 1 : 1;
    const width = svg && svg.getAttribute("width") ? `${svg.getAttribute("width") / zoom}px` : "";
    if (width && width !== root.style.getPropertyValue("--aloft-drawing-width")) {
      // The drawing keeps its own size while the board has room for it (board.css).
      // Set only when it changes: a new value restyles the whole board.
      root.style.setProperty("--aloft-drawing-width", width);
    }
    if (parts && svg) centreZoomedMap(svg, zoom);
    // Keep only the part of the selection that still leads somewhere.
    let kept = selected.slice();
    while (kept.length && !choices().some((c) => startsWith(c.path, kept))) kept.pop();
    select(kept);
    if (focusedKey && !svgBox.contains(document.activeElement)) {
      // The focused element was replaced: focus the new one (it is where it was: no scroll).
      const again = svgBox.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
      if (again) again.focus({ preventScroll: true });
      else if (keyboardUse) park(); // gone: settleFocus finds where play goes on
    }
    root.setAttribute("data-revision", String(model.get("revision")));
  }

  let drawnControls = null; // the view controls' names and options, as JSON
  function drawViewControls() {
    const specs = model.get("view_controls") || [];
    const key = JSON.stringify(specs.map((c) => [c.name, c.label, c.options]));
    if (key !== drawnControls) {
      drawnControls = key;
      viewControls.replaceChildren(...specs.map((c) => {
        const select = h("select", { class: "aloft-view-control", "data-control": c.name,
          "aria-label": `${c.label} (keys + and -)`,
          onchange: (event) => send({ intent: "view_option", name: c.name,
            value: c.options[Number(event.target.value)][0] }) },
        ...c.options.map(([, label], i) => h("option", { value: String(i) }, label)));
        return h("label", { class: "aloft-view-control-label" }, `${c.label} `, select);
      }));
    }
    for (const c of specs) {
      const select = viewControls.querySelector(`[data-control="${CSS.escape(c.name)}"]`);
      const index = String(c.options.findIndex(([value]) => value === c.value));
      if (select && select.value !== index) select.value = index;
    }
  }
  // + and - step the first view control (a map's zoom) from anywhere on the board.
  // Keys pressed faster than Python answers step on from the value last asked for, not from the
  // one the model still shows (two quick - presses zoom out two steps).
  // An answer to an earlier key can arrive after a later key was sent: only the answer to the
  // last one asked (or two quiet seconds, if Python refused it) ends stepping from the ask.
  let askedControl = null; // {name, value, at} sent and not yet seen in the model
  model.on("change:view_controls", () => {
    const c = (model.get("view_controls") || [])[0];
    if (!askedControl || !c || c.name !== askedControl.name || c.value === askedControl.value) {
      askedControl = null;
    }
  });
  function stepViewControl(delta) {
    const c = (model.get("view_controls") || [])[0];
    if (!c) return false;
    const pending = askedControl && askedControl.name === c.name &&
      Date.now() - askedControl.at < 2000;
    const from = pending ? askedControl.value : c.value;
    const i = c.options.findIndex(([value]) => value === from) + delta;
    if (i < 0 || i >= c.options.length) return true;
    askedControl = { name: c.name, value: c.options[i][0], at: Date.now() };
    send({ intent: "view_option", name: c.name, value: c.options[i][0] });
    return true;
  }

  let drawnViewers = null; // the viewer menu's options, as JSON
  function drawHeader() {
    title.textContent = model.get("title");
    status.textContent = model.get("status");
    const viewers = model.get("viewers") || [];
    const current = model.get("viewer");
    const viewersKey = JSON.stringify(viewers);
    if (viewersKey !== drawnViewers) { // the same list after every move: built once
      drawnViewers = viewersKey;
      viewerSelect.replaceChildren(...viewers.map(([value, label]) => h("option", { value }, label)));
    }
    if (viewerSelect.value !== current) viewerSelect.value = current;
    drawViewControls();
    const reveal = model.get("reveal_label");
    revealButton.classList.toggle("aloft-unused", !reveal); // keeps its place: nothing jumps
    revealButton.disabled = !reveal;
    revealButton.textContent = reveal || "Show colour card";
    revealButton.setAttribute("aria-pressed", model.get("revealed") ? "true" : "false");
  }

  function drawTimeline() {
    const position = model.get("position") || 0;
    const length = model.get("timeline_length") || 0;
    scrubber.max = String(length);
    scrubber.value = String(position);
    scrubber.disabled = length === 0;
    firstButton.disabled = backButton.disabled = position === 0;
    forwardButton.disabled = lastButton.disabled = position >= length;
    where.textContent = `step ${position} of ${length}`;
  }

  function drawLog() {
    const position = model.get("position") || 0;
    const recent = model.get("recent") || {};
    const from = recent.from ?? position, to = recent.to ?? position;
    // Entries already shown stay (a long game's log is not rebuilt on every move); the ones
    // after the first that changed are replaced, and only classes that changed are written.
    const items = log.children;
    let kept = 0;
    while (kept < items.length && kept < logEntries.length &&
      items[kept].textContent === logEntries[kept].text) kept++;
    while (items.length > kept) log.lastElementChild.remove();
    log.append(...logEntries.slice(kept).map((entry, i) =>
      h("li", { "data-step": String(kept + i + 1) }, entry.text)));
    logEntries.forEach((entry, i) => {
      const step = i + 1;
      const classes = [step > position ? "undone" : "", step === position ? "current" : "",
        step > from && step <= to ? "recent" : ""].filter(Boolean).join(" ");
      if (items[i].className !== classes) items[i].className = classes;
    });
    // The log follows the current position (not the end, which may hold undone steps). Read
    // its layout in the next frame, so a click's redraw never waits for a forced layout.
    requestAnimationFrame(() => {
      const current = log.querySelector("li.current");
      log.scrollTop = current
        ? Math.max(0, current.offsetTop - log.clientHeight + current.offsetHeight + 4) : 0;
    });
  }

  function onLogDelta() {
    const delta = model.get("log_delta") || {};
    if (typeof delta.start !== "number" || delta.start > logEntries.length) {
      send({ intent: "hello" }); // missed a step: ask for the whole log again
      return;
    }
    logEntries = logEntries.slice(0, delta.start).concat(delta.entries || []);
    later("log");
  }

  function onFullLog() {
    logEntries = (model.get("log") || []).slice();
    later("log");
  }

  let drawnSeats = null, drawnMoves = null; // what the seat list and the moves menu show
  function drawSide() {
    undoButton.disabled = !model.get("can_undo");
    redoButton.disabled = !model.get("can_redo");
    autoplayBox.checked = model.get("autoplay");
    chanceLabel.hidden = !model.get("chance_switch");
    chanceBox.checked = !!model.get("auto_chance");
    const seats = model.get("seats") || [];
    const bots = model.get("bot_names") || [];
    stepButton.disabled = !model.get("bot_to_move");
    roundButton.disabled = !model.get("bot_to_move");
    thinking.textContent = model.get("thinking") ? "thinking…" : "";
    drawTimeline();
    // Rebuild the seats' menus only when who may play them changed; a new turn or label is
    // written in place.
    const seatsKey = JSON.stringify([seats.map((s) => [s.seat, s.controller, s.played_by]), bots]);
    if (seatsKey !== drawnSeats) {
      drawnSeats = seatsKey;
      drawSeats(seats, bots);
    }
    seats.forEach((seat, i) => {
      const row = seatList.children[i];
      row.classList.toggle("to-move", !!seat.to_move);
      const label = row.querySelector(".aloft-seat-label");
      if (label.textContent !== seat.label) label.textContent = seat.label;
    });
    const sent = choices();
    if (sent !== drawnMoves) { // a new list each time Python sends one
      drawnMoves = sent;
      const total = sent.reduce((n, c) => n + (c.partial ? c.count : 1), 0);
      const playable = sent.map((c, i) => [c, i]).filter(([c]) => !c.partial);
      movesSelect.replaceChildren(h("option", { value: "" },
        total ? `Play a move… (${total} legal` +
          (playable.length < total ? `; ${playable.length} listed, pick on the board for more)` : ")")
          : "No move for you now"),
        ...playable.map(([c, i]) => h("option", { value: String(i) }, c.label)));
      movesSelect.disabled = playable.length === 0;
    }
  }

  function drawSeats(seats, bots) {
    seatList.replaceChildren(...seats.map((seat) => {
      const names = ["human", ...bots];
      const options = names.map((name) => h("option",
        name === seat.controller && !seat.played_by ? { value: name, selected: "" } : { value: name },
        name === "bot" ? "default bot" : name)); // value "bot": the game's default_bot
      if (seat.played_by) { // a replayed game: say which bot played this seat
        options.unshift(h("option", { value: "", selected: "", disabled: "" },
          `${seat.played_by} (replay)`));
      }
      const select = h("select", { "aria-label": `Who plays seat ${seat.seat}`,
        onchange: (event) => send({ intent: "seat", seat: seat.seat, controller: event.target.value }) },
        ...options);
      return h("div", { class: "aloft-seat" }, h("span", { class: "aloft-seat-label" }), select);
    }));
  }

  // The latest message, else why the bots wait (a note that lasts while they do, whatever
  // else is redrawn).
  function drawMessage() {
    const msg = model.get("message") || {};
    const text = msg.n === dismissed ? "" : msg.text || "";
    const note = text ? "" : model.get("bots_note") || "";
    message.textContent = text || note;
    message.className = `aloft-message ${text ? msg.kind || "" : note ? "info" : ""}`;
  }

  // Clicks and keys on the board.
  svgBox.addEventListener("click", (event) => {
    const node = event.target.closest("[data-key]");
    if (node && svgBox.contains(node)) activate(node.getAttribute("data-key"));
  });
  svgBox.addEventListener("focusin", (event) => {
    const node = event.target.closest && event.target.closest("[data-key]");
    if (!node) return;
    lastFocused.set(regionOf(node), node.getAttribute("data-key"));
    for (const other of regionOf(node).querySelectorAll("[data-key]")) {
      if (regionOf(other) === regionOf(node)) setAttributes(other, { tabindex: other === node ? "0" : "-1" });
    }
  });
  menu.addEventListener("focusin", (event) => {
    const button = event.target.closest && event.target.closest("button");
    if (!button) return;
    for (const other of menu.querySelectorAll("button")) {
      setAttributes(other, { tabindex: other === button ? "0" : "-1" });
    }
  });
  root.addEventListener("pointerdown", () => { keyboardUse = false; }, true);
  root.addEventListener("keydown", (event) => {
    // Every key typed on the board stays with the board: JupyterLab's command-mode shortcuts
    // (m, a, b, d d, 0 0, z...) must not change the notebook around it.
    event.stopPropagation();
    keyboardUse = true;
    const menuButton = event.target.closest && event.target.closest(".aloft-menu button");
    const node = event.target.closest && event.target.closest("[data-key]");
    if ((event.key === "Enter" || event.key === " ") && node && svgBox.contains(node)) {
      event.preventDefault();
      activate(node.getAttribute("data-key"));
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (selected.length) {
        select([]);
      } else {
        // Nothing to cancel: give the keyboard back to the notebook (its cell stays selected).
        const notebook = root.closest(".jp-Notebook");
        if (notebook) notebook.focus();
        else if (document.activeElement) document.activeElement.blur();
      }
    } else if ((event.key === "+" || event.key === "=" || event.key === "-") &&
               !(event.target.closest && event.target.closest("select, input"))) {
      if (stepViewControl(event.key === "-" ? -1 : 1)) event.preventDefault();
    } else if (menuButton && (event.key.startsWith("Arrow") || event.key === "Home" ||
               event.key === "End")) {
      event.preventDefault();
      moveInMenu(menuButton, event.key);
    } else if (event.key.startsWith("Arrow") && node && svgBox.contains(node)) {
      event.preventDefault();
      moveFocus(node, event.key);
    }
  });
  // Lumino listens for shortcuts on keydown; keypress/keyup are kept too for other handlers.
  for (const type of ["keypress", "keyup"]) root.addEventListener(type, (e) => e.stopPropagation());

  // Arrow keys move along the menu's choices (round from the last to the first), Home and End
  // to its ends.
  function moveInMenu(from, key) {
    const buttons = [...menu.querySelectorAll("button")];
    const i = buttons.indexOf(from), n = buttons.length;
    const to = key === "Home" ? 0 : key === "End" ? n - 1
      : key === "ArrowRight" || key === "ArrowDown" ? (i + 1) % n : (i - 1 + n) % n;
    if (buttons[to]) buttons[to].focus();
  }

  // Arrow keys move to the nearest board element of the same region in that direction.
  function moveFocus(from, key) {
    const a = from.getBoundingClientRect();
    const ax = a.x + a.width / 2, ay = a.y + a.height / 2;
    const region = regionOf(from);
    let best = null, bestScore = Infinity;
    for (const node of svgBox.querySelectorAll("[data-key]")) {
      // every element, playable or not, so all can be heard
      if (node === from || regionOf(node) !== region) continue;
      const b = node.getBoundingClientRect();
      const dx = b.x + b.width / 2 - ax, dy = b.y + b.height / 2 - ay;
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + 2 * across;
      if (score < bestScore) { best = node; bestScore = score; }
    }
    if (best) best.focus();
  }

  // Timeline steps clicked faster than Python answers step on from the position last asked for
  // (two quick ▶ clicks are two steps), as the zoom keys do; only the answer to the last ask
  // (or two quiet seconds, if Python refused it) ends stepping from the ask.
  let askedPosition = null; // {value, at} sent and not yet seen in the model
  model.on("change:position", () => {
    if (askedPosition && model.get("position") === askedPosition.value) askedPosition = null;
  });
  const goto = (position) => {
    askedPosition = { value: position, at: Date.now() };
    send({ intent: "goto", position });
  };
  const stepFrom = (delta) => {
    const pending = askedPosition && Date.now() - askedPosition.at < 2000;
    const from = pending ? askedPosition.value : (model.get("position") || 0);
    const to = Math.max(0, Math.min(model.get("timeline_length") || 0, from + delta));
    if (to !== from) goto(to);
  };
  undoButton.addEventListener("click", () => send({ intent: "undo" }));
  redoButton.addEventListener("click", () => send({ intent: "redo" }));
  firstButton.addEventListener("click", () => goto(0));
  backButton.addEventListener("click", () => stepFrom(-1));
  forwardButton.addEventListener("click", () => stepFrom(1));
  lastButton.addEventListener("click", () => goto(model.get("timeline_length") || 0));
  scrubber.addEventListener("change", () => goto(Number(scrubber.value)));
  stepButton.addEventListener("click", () => send({ intent: "step" }));
  roundButton.addEventListener("click", () => send({ intent: "run_round" }));
  autoplayBox.addEventListener("change", () => send({ intent: "autoplay", on: autoplayBox.checked }));
  chanceBox.addEventListener("change", () => send({ intent: "auto_chance", on: chanceBox.checked }));
  viewerSelect.addEventListener("change", () => send({ intent: "view", viewer: viewerSelect.value }));
  revealButton.addEventListener("click", () => send({ intent: "reveal", on: !model.get("revealed") }));
  movesSelect.addEventListener("change", () => {
    const choice = choices()[Number(movesSelect.value)];
    if (movesSelect.value !== "" && choice) send({ intent: choice.intent || "play", action: choice.action });
  });

  // One Python change sets many traits at once; draw each part once, after all of them.
  const dirty = new Set();
  function later(part) {
    if (dirty.size === 0) queueMicrotask(flush);
    dirty.add(part);
  }
  function flush() {
    const parts = new Set(dirty);
    dirty.clear();
    if (parts.has("header")) drawHeader();
    if (parts.has("svg")) drawSvg();
    else if (parts.has("decorate")) decorate();
    if (parts.has("side")) drawSide();
    else if (parts.has("timeline")) drawTimeline();
    if (parts.has("log")) drawLog();
    if (parts.has("message")) drawMessage();
    settleFocus(parts.has("message"));
  }
  const redraw = () => { drawHeader(); drawSvg(); drawSide(); drawLog(); drawMessage(); };
  for (const name of ["svg", "svg_revision", "svg_patch", "choices"]) {
    model.on(`change:${name}`, () => { later("svg"); later("side"); });
  }
  model.on("change:recent", () => { later("decorate"); later("log"); });
  model.on("change:selection_hint", () => later("decorate"));
  model.on("change:step_labels", () => later("decorate"));
  model.on("change:key_actions", () => later("decorate"));
  model.on("change:explorable_map", () => later("decorate"));
  model.on("change:news", tellNews);
  for (const name of ["title", "status", "viewer", "viewers", "revealed", "reveal_label",
                      "view_controls"]) {
    model.on(`change:${name}`, () => later("header"));
  }
  for (const name of ["seats", "can_undo", "can_redo", "autoplay", "thinking", "bot_to_move",
    "timeline_length", "auto_chance", "chance_switch"]) {
    model.on(`change:${name}`, () => later("side"));
  }
  model.on("change:position", () => { later("timeline"); later("log"); });
  model.on("change:log_delta", onLogDelta);
  model.on("change:log", onFullLog);
  model.on("change:message", () => { dismissed = null; later("message"); });
  model.on("change:bots_note", () => later("message"));
  model.on("msg:custom", onCustomMessage);
  model.on("comm_live_update", onCommLive);
  redraw();
  send({ intent: "hello" });

  return () => {
    for (const timers of pending.values()) for (const timer of timers) clearTimeout(timer);
    model.off("msg:custom", onCustomMessage);
    model.off("comm_live_update", onCommLive);
    try {
      watchedKernel.iopubMessage.disconnect(onIopub);
      watchedKernel.statusChanged.disconnect(onKernelStatus);
    } catch (error) {
      // nothing was connected
    }
  };
}

export default { render };
