// The one generic front end for every aloftnb board (plain ESM, no build step).
// Python draws the board as SVG and sends the legal actions as click paths; this file only shows
// them and turns clicks and keys into intents. It never decides a rule.

const KERNEL_SILENT_MS = 4000;

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

function startsWith(path, prefix) {
  return prefix.every((key, i) => path[i] === key);
}

function render({ model, el }) {
  let selected = []; // the click path chosen so far (local to this view)
  let intentId = 0;
  const pending = new Map(); // intent id -> timer, to notice a kernel that does not answer

  const title = h("div", { class: "aloft-title" });
  const status = h("div", { class: "aloft-status", role: "status", "aria-live": "polite" });
  const viewerSelect = h("select", { class: "aloft-viewer", "aria-label": "Whose view" });
  const revealButton = h("button", { class: "aloft-reveal", type: "button" });
  const header = h("div", { class: "aloft-header" }, title, status,
    h("label", { class: "aloft-viewer-label" }, "View ", viewerSelect), revealButton);

  const svgBox = h("div", { class: "aloft-svg", role: "group", "aria-label": "Board" });
  const menu = h("div", { class: "aloft-menu", role: "group", "aria-label": "Choices" });
  const announcer = h("div", { class: "aloft-announce", "aria-live": "polite" });
  const message = h("div", { class: "aloft-message", role: "alert" });
  const banner = h("div", { class: "aloft-banner", hidden: "" },
    "No answer from the kernel. If it was restarted, run the cell that shows this board again.");

  const undoButton = h("button", { type: "button", class: "aloft-undo" }, "↶ Undo");
  const redoButton = h("button", { type: "button", class: "aloft-redo" }, "Redo ↷");
  const stepButton = h("button", { type: "button", class: "aloft-step" }, "Bot: step");
  const autoplayBox = h("input", { type: "checkbox", class: "aloft-autoplay" });
  const thinking = h("span", { class: "aloft-thinking", "aria-live": "polite" });
  const movesSelect = h("select", { class: "aloft-moves", "aria-label": "Play a legal move" });
  const controls = h("div", { class: "aloft-controls" }, undoButton, redoButton,
    h("label", {}, autoplayBox, " bots play by themselves"), stepButton, thinking);

  const seatList = h("div", { class: "aloft-seats", role: "group", "aria-label": "Seats" });
  const log = h("ol", { class: "aloft-log", "aria-label": "Move log" });
  const side = h("div", { class: "aloft-side" },
    h("div", { class: "aloft-side-title" }, "Seats"), seatList,
    h("div", { class: "aloft-side-title" }, "Moves"), movesSelect,
    h("div", { class: "aloft-side-title" }, "Log"), log);

  const root = h("div", { class: "aloft-board", tabindex: "-1" },
    header, banner, h("div", { class: "aloft-main" },
      h("div", { class: "aloft-play" }, svgBox, menu, announcer, message, controls), side));
  el.append(root);

  function send(content) {
    const id = ++intentId;
    pending.set(id, setTimeout(() => { banner.hidden = false; }, KERNEL_SILENT_MS));
    model.send({ ...content, id });
  }

  function onCustomMessage(content) {
    if (content && content.ack !== undefined && pending.has(content.ack)) {
      clearTimeout(pending.get(content.ack));
      pending.delete(content.ack);
      banner.hidden = true;
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

  function activate(key) {
    const path = [...selected, key];
    const matching = choices().filter((c) => startsWith(c.path, path));
    if (selected.includes(key)) {
      selected = selected.slice(0, selected.indexOf(key));
      decorate();
      return;
    }
    if (matching.length === 0 && selected.length && choices().some((c) => c.path[0] === key)) {
      selected = []; // another first step: switch to it rather than refuse
      activate(key);
      return;
    }
    if (matching.length === 0) {
      send({ intent: "explain", path });
      selected = [];
      decorate();
      return;
    }
    const complete = matching.filter((c) => c.path.length === path.length);
    if (complete.length === 1 && matching.length === 1) {
      selected = [];
      send({ intent: "play", action: complete[0].action });
      decorate();
      return;
    }
    selected = path;
    decorate();
    const fromKeyboard = document.activeElement && root.contains(document.activeElement);
    const next = nextSteps();
    const drawnNext = [...next.keys()].some((k) => svgBox.querySelector(`[data-key="${CSS.escape(k)}"]`));
    if (fromKeyboard && !drawnNext) {
      const first = menu.querySelector(".aloft-choice");
      if (first) first.focus();
    }
  }

  function decorate() {
    const steps = nextSteps();
    const drawn = new Set();
    for (const node of svgBox.querySelectorAll("[data-key]")) {
      const key = node.getAttribute("data-key");
      drawn.add(key);
      const legal = steps.has(key);
      const chosen = selected.includes(key);
      node.classList.toggle("legal", legal);
      node.classList.toggle("selected", chosen);
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", legal || chosen ? "0" : "-1");
      node.setAttribute("aria-disabled", legal || chosen ? "false" : "true");
      node.setAttribute("aria-pressed", chosen ? "true" : "false");
    }
    menu.replaceChildren();
    if (selected.length) {
      const exact = choices().filter((c) => c.path.length === selected.length &&
        startsWith(c.path, selected));
      for (const choice of exact) {
        menu.append(h("button", { type: "button", class: "aloft-choice",
          onclick: () => { selected = []; send({ intent: "play", action: choice.action }); decorate(); },
        }, choice.label));
      }
    }
    for (const [key, leadsTo] of steps) {
      if (drawn.has(key)) continue; // drawn keys are clicked on the board itself
      const label = leadsTo.length === 1 && leadsTo[0].path.length === selected.length + 1
        ? leadsTo[0].label : key;
      menu.append(h("button", { type: "button", class: "aloft-choice", "data-menu-key": key,
        onclick: () => activate(key) }, label));
    }
    if (selected.length) {
      menu.append(h("button", { type: "button", class: "aloft-cancel",
        onclick: () => { selected = []; decorate(); } }, "Cancel (Esc)"));
    }
    const hint = model.get("selection_hint") || {};
    menu.setAttribute("data-selected", selected.join(" "));
    if (selected.length && hint[selected[0]]) {
      menu.prepend(h("span", { class: "aloft-hint" }, hint[selected[0]]));
    }
    // Tell screen readers what the selection leads to.
    announcer.textContent = selected.length
      ? `${selected.join(", ")} selected: ${steps.size} choice${steps.size === 1 ? "" : "s"}. ` +
        (hint[selected[0]] || "") + " Escape cancels."
      : "";
  }

  function drawSvg() {
    const focusedKey = document.activeElement && svgBox.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    svgBox.innerHTML = model.get("svg");
    // Keep only the part of the selection that still leads somewhere.
    while (selected.length && !choices().some((c) => startsWith(c.path, selected))) selected.pop();
    decorate();
    if (focusedKey) {
      const again = svgBox.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
      if (again) again.focus();
    }
  }

  function drawHeader() {
    title.textContent = model.get("title");
    status.textContent = model.get("status");
    const viewers = model.get("viewers") || [];
    const current = model.get("viewer");
    viewerSelect.replaceChildren(...viewers.map(([value, label]) =>
      h("option", value === current ? { value, selected: "" } : { value }, label)));
    const reveal = model.get("reveal_label");
    revealButton.hidden = !reveal;
    revealButton.textContent = reveal || "";
    revealButton.setAttribute("aria-pressed", model.get("revealed") ? "true" : "false");
  }

  function drawSide() {
    undoButton.disabled = !model.get("can_undo");
    redoButton.disabled = !model.get("can_redo");
    autoplayBox.checked = model.get("autoplay");
    const seats = model.get("seats") || [];
    const bots = model.get("bot_names") || [];
    stepButton.disabled = !model.get("bot_to_move");
    thinking.textContent = model.get("thinking") ? "thinking…" : "";
    seatList.replaceChildren(...seats.map((seat) => {
      const select = h("select", { "aria-label": `Who plays seat ${seat.seat}`,
        onchange: (event) => send({ intent: "seat", seat: seat.seat, controller: event.target.value }) },
        ...["human", ...bots].map((name) => h("option",
          name === seat.controller ? { value: name, selected: "" } : { value: name }, name)));
      return h("div", { class: seat.to_move ? "aloft-seat to-move" : "aloft-seat" },
        h("span", { class: "aloft-seat-label" }, seat.label), select);
    }));
    const moves = choices();
    movesSelect.replaceChildren(h("option", { value: "" },
      moves.length ? `Play a move… (${moves.length} legal)` : "No move for you now"),
      ...moves.map((c, i) => h("option", { value: String(i) }, c.label)));
    movesSelect.disabled = moves.length === 0;
    const entries = model.get("log") || [];
    log.replaceChildren(...entries.map((entry) =>
      h("li", { class: entry.undone ? "undone" : "" }, entry.text)));
    log.scrollTop = log.scrollHeight;
  }

  function drawMessage() {
    const msg = model.get("message") || {};
    message.textContent = msg.text || "";
    message.className = `aloft-message ${msg.kind || ""}`;
  }

  // Clicks and keys on the board.
  svgBox.addEventListener("click", (event) => {
    const node = event.target.closest("[data-key]");
    if (node && svgBox.contains(node)) activate(node.getAttribute("data-key"));
  });
  root.addEventListener("keydown", (event) => {
    const node = event.target.closest && event.target.closest("[data-key]");
    if ((event.key === "Enter" || event.key === " ") && node && svgBox.contains(node)) {
      event.preventDefault();
      activate(node.getAttribute("data-key"));
    } else if (event.key === "Escape") {
      selected = [];
      decorate();
    } else if (event.key.startsWith("Arrow") && node && svgBox.contains(node)) {
      event.preventDefault();
      moveFocus(node, event.key);
    }
  });

  // Arrow keys move to the nearest focusable board element in that direction.
  function moveFocus(from, key) {
    const a = from.getBoundingClientRect();
    const ax = a.x + a.width / 2, ay = a.y + a.height / 2;
    let best = null, bestScore = Infinity;
    for (const node of svgBox.querySelectorAll("[data-key]")) {
      if (node === from) continue; // every element, playable or not, so all can be heard
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

  undoButton.addEventListener("click", () => send({ intent: "undo" }));
  redoButton.addEventListener("click", () => send({ intent: "redo" }));
  stepButton.addEventListener("click", () => send({ intent: "step" }));
  autoplayBox.addEventListener("change", () => send({ intent: "autoplay", on: autoplayBox.checked }));
  viewerSelect.addEventListener("change", () => send({ intent: "view", viewer: viewerSelect.value }));
  revealButton.addEventListener("click", () => send({ intent: "reveal", on: !model.get("revealed") }));
  movesSelect.addEventListener("change", () => {
    const choice = choices()[Number(movesSelect.value)];
    if (movesSelect.value !== "" && choice) send({ intent: "play", action: choice.action });
  });

  const redraw = () => { drawHeader(); drawSvg(); drawSide(); drawMessage(); };
  model.on("change:svg", drawSvg);
  model.on("change:choices", () => { drawSvg(); drawSide(); });
  for (const name of ["title", "status", "viewer", "viewers", "revealed", "reveal_label"]) {
    model.on(`change:${name}`, drawHeader);
  }
  for (const name of ["log", "seats", "can_undo", "can_redo", "autoplay", "thinking", "bot_to_move"]) {
    model.on(`change:${name}`, drawSide);
  }
  model.on("change:message", drawMessage);
  model.on("msg:custom", onCustomMessage);
  redraw();
  send({ intent: "hello" });

  return () => {
    for (const timer of pending.values()) clearTimeout(timer);
    model.off("msg:custom", onCustomMessage);
  };
}

export default { render };
