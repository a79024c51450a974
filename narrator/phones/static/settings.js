// The host screen's settings page, served by the appliance between games (settings_page.py).
// The host screen (the phone that typed the table code) changes the table's settings, saves
// and picks presets and starts the game; another phone takes a seat and types its own name
// and reading. Every change is a POST; a refusal's one line is shown in #msg. Words come from
// strings.json ("settings") and, for games, cards and settings, from the view (voice packs).
"use strict";

let S = {};
let lang = localStorage.getItem("narrator-lang");
let view = null;
let message = "";
let editing = false;   // a field has focus: the poll does not redraw under the typing thumb

const $ = (id) => document.getElementById(id);
function t(key, params) {
  let text = (S[lang] && ((S[lang].settings && S[lang].settings[key]) || S[lang][key])) || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(v);
  return text;
}
function textOf(texts) { return (texts && (texts[lang] || Object.values(texts)[0])) || ""; }
function labelOf(id) { return textOf(view.labels[id]) || id; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else if (k === "value") node.value = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// Every POST. The host screen's are sealed (seal.js, Seal.hostRequest): with the table code it
// sends a key pair's public half of its own (kept in this browser), and from then on every save
// goes sealed through one door, padded, with a counter the narrator takes once.
// One object for the page's life, so two saves at once never take the same counter.
const HOST_KEYS = "narrator-settings-keys";
let hostKeys = null;
function post(url, body) {
  const send = (b) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: Seal.body(b) });
  if (url === "/api/settings/join") {
    const fresh = Seal.hostKeys();
    return joinPost(() => send({ ...body, key: fresh.pk })).then((r) => {
      if (r.ok) { hostKeys = fresh; localStorage.setItem(HOST_KEYS, JSON.stringify(fresh)); }
      return r;
    });
  }
  const keys = hostKeys = hostKeys || JSON.parse(localStorage.getItem(HOST_KEYS) || "null");
  if (!(view && view.host && keys)) return send(body);
  const keep = () => localStorage.setItem(HOST_KEYS, JSON.stringify(keys));
  return Seal.hostRequest("/api/settings/sealed", keys, view.key, keep, url.split("/").pop(), body)
    .then((r) => ({ ok: r.ok, status: r.status, json: async () => r.body || {} }));
}

// A code typed within a second of a wrong one from this phone is asked to wait (429: the
// narrator's gate shuts an address out for a second per wrong code); it goes again after
// 1, 1 and 2 s, so the right code typed just after a typo still makes the host screen.
const JOIN_RETRIES = [1000, 1000, 2000];
async function joinPost(send) {
  for (let i = 0; ; i++) {
    const response = await send();
    if (response.status !== 429 || i >= JOIN_RETRIES.length) return response;
    await new Promise((r) => setTimeout(r, JOIN_RETRIES[i]));
  }
}

// The page's words, asked again until they come: the address may be between the game's page
// and the settings page for a moment (a failed fetch here left the page at 「…」).
async function strings() {
  for (;;) {
    try {
      const response = await fetch("/static/strings.json");
      if (response.ok) return await response.json();
    } catch (e) { /* nothing answered: once more, in a second */ }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function boot() {
  S = await strings();
  $("lang").addEventListener("click", () => {
    lang = lang === "ja" ? "en" : "ja";
    localStorage.setItem("narrator-lang", lang);
    render();
  });
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  await refresh();  // first: the page's language, for the join's message
  if (code) {
    history.replaceState(null, "", location.pathname);
    await joined(await post("/api/settings/join", { code }));
    await refresh();
  }
  document.addEventListener("focusin", () => { editing = true; });
  document.addEventListener("focusout", () => { editing = false; });
  setInterval(() => { if (!editing && !drag) refresh(true); }, 2000);
}

// `polled`: the 2 s poll's, which draws nothing if a field took focus while it was out (the
// host began typing then: a redraw would put the saved value back under the thumb).
async function refresh(polled) {
  let response;
  try { response = await fetch("/api/settings"); } catch (e) { return gone(); }
  if (!response.ok) return gone();
  const next = await response.json();
  if (drag) return;  // answered mid-drag: the drop's own refresh draws it
  if (polled && editing) return;  // typing began meanwhile: the next poll or save draws it
  view = next;
  lang = lang || view.lang;
  render();
}

// The table code's answer: a host screen, or a number to be confirmed at the table (a press),
// after which the poll shows the host screen.
async function joined(response) {
  const reply = await response.json().catch(() => ({}));
  if (response.status === 202) message = t("host_confirm", { n: reply.word });
  else message = response.ok ? "" : t(response.status === 429 ? "wait_code" : "wrong_code");
}

// The game began: this page is gone, the game's own page takes its place at the same address
// (the host screen stays the host screen: carry.py). Reloaded once the game's page answers;
// if the settings come back instead (a game with no phone page), they are drawn again.
let leaving = false;
function gone() {
  if (leaving) return;
  leaving = true;
  $("app").replaceChildren(el("p", { id: "gone", text: t("gone") }));
  const again = async () => {
    const ok = async (url) => { try { return (await fetch(url)).ok; } catch (e) { return false; } };
    if (await ok("/api/seats")) return location.reload();
    if (await ok("/api/settings")) { leaving = false; return refresh(); }
    setTimeout(again, 1000);
  };
  setTimeout(again, 1000);
}

// Send a change; show the refusal's line, or the saved note, then draw the new settings.
// A change made in a card (a setting, the names) that is refused shows its line in that card,
// beside the field, and the card keeps what the host typed (`refusal`), so it can be corrected
// there; it stays so through the poll's redraws until the next change is sent.
let refusal = null;   // { card: the card's id, text: the refusal's line, typed: its fields' values }
const cardId = (card) => card.id || "setting-" + card.dataset.key;
const fields = (card) => [...card.querySelectorAll("input, select")];
const typedIn = (card) => fields(card).map((f) => (f.type === "checkbox" ? f.checked : f.value));

async function send(url, body, card) {
  const typed = card ? typedIn(card) : null;
  const response = await post(url, body);
  const reply = await response.json().catch(() => ({}));
  const text = response.ok ? "" : (textOf(reply.errors) || reply.error || t("refused"));
  refusal = !response.ok && card ? { card: cardId(card), text, typed } : null;
  message = response.ok ? t("saved") : refusal ? "" : text;
  await refresh();
}
const change = (changes, card) => send("/api/settings/change", { changes }, card);

// The refused card again as the host left it: its line under its heading, its fields as typed.
function showRefusal() {
  const card = refusal && [...document.querySelectorAll(".card")].find((c) => cardId(c) === refusal.card);
  if (!card) return;
  const line = el("p", { class: "msg field-msg", id: "field-msg", role: "alert", text: refusal.text });
  const heading = card.querySelector("h2");
  if (heading) heading.after(line); else card.prepend(line);
  fields(card).forEach((f, i) => {
    if (i >= refusal.typed.length) return;
    if (f.type === "checkbox") f.checked = refusal.typed[i]; else f.value = refusal.typed[i];
  });
  card.addEventListener("input", () => { if (refusal) refusal.typed = typedIn(card); });
}

function render() {
  if (!view) return;
  document.documentElement.lang = lang;
  $("lang").textContent = (S[lang] && S[lang].lang_button) || "EN";
  $("who").textContent = view.host ? t("host") : view.seat ? t("seat", { n: view.seat }) : "";
  $("phase").textContent = t("title");
  const parts = [el("p", { class: "msg", id: "msg", text: message })];
  if (view.no_speaker) parts.push(el("p", { class: "notice", id: "no-speaker", role: "status", text: t("no_speaker") }));
  if (view.host) parts.push(...hostParts());
  else parts.push(...guestParts());
  if (view.join) parts.push(joinCard());
  $("app").replaceChildren(...parts);
  if (view.host) showRefusal();
}

function guestParts() {
  const parts = [];
  if (!view.has_host) {
    const input = el("input", { id: "code", type: "text", autocomplete: "off", inputmode: "numeric" });
    parts.push(el("div", { class: "card", id: "entry" }, el("h2", { text: t("host_code") }), input,
      el("button", { type: "button", id: "join", text: t("join"), onclick: async () => {
        await joined(await post("/api/settings/join", { code: input.value }));
        refresh();
      } })));
  }
  parts.push(seatCard());
  return parts;
}

// A player's own phone: a seat number, the name, its reading (the host screen sees it).
function seatCard() {
  const seat = el("select", { id: "seat-number", "aria-label": t("seat_number") });
  view.names.forEach((n, i) => seat.append(el("option", { value: String(i + 1), text: t("seat", { n: i + 1 }) + " " + n.name })));
  if (view.seat) seat.value = String(view.seat);
  const mine = view.seat ? view.names[view.seat - 1] : null;
  const name = el("input", { id: "my-name", type: "text", "aria-label": t("name"), placeholder: t("name"), value: mine ? mine.name : "" });
  const reading = el("input", { id: "my-reading", type: "text", "aria-label": t("reading"), placeholder: t("reading"), value: mine ? mine.reading : "" });
  return el("div", { class: "card", id: "my-seat" }, el("h2", { text: t("your_name") }), seat, name, reading,
    el("button", { type: "button", id: "send-name", text: t("send"), onclick: () =>
      send("/api/settings/seat", { seat: Number(seat.value), name: name.value, reading: reading.value }) }));
}

function hostParts() {
  const parts = [el("button", { type: "button", id: "play", text: t("play"), onclick: () => send("/api/settings/play", {}) })];
  const game = el("select", { id: "game", "aria-label": textOf(view.game_label) });
  for (const g of view.games) game.append(el("option", { value: g.id, text: textOf(g.title).replace(/[。.]$/, "") }));
  game.value = view.game;
  const gameCard = el("div", { class: "card", id: "game-card" }, el("h2", { text: textOf(view.game_label) }), game);
  game.addEventListener("change", () => change({ game: game.value }, gameCard));
  parts.push(gameCard);
  parts.push(namesCard());
  for (const row of view.settings) parts.push(settingCard(row));
  parts.push(presetsCard());
  return parts;
}

function namesCard() {
  const count = el("input", { id: "players", type: "number", min: "1", max: "20", value: String(view.players || "") });
  const box = el("div", { class: "card", id: "names" }, el("h2", { text: textOf(view.players_label) }), count,
    el("h2", { text: textOf(view.names_label) }));
  const rows = [];
  for (let i = 0; i < (Number(view.players) || 0); i++) {
    const n = view.names[i] || (view.seats || [])[i] || { name: "", reading: "" };
    const name = el("input", { class: "name", type: "text", "aria-label": t("name") + " " + (i + 1), placeholder: n.seat || t("name"), value: n.name });
    const reading = el("input", { class: "reading", type: "text", "aria-label": t("reading") + " " + (i + 1), placeholder: t("reading"), value: n.reading });
    rows.push([name, reading]);
    box.append(el("div", { class: "name-row", "data-seat": String(i + 1) }, el("span", { text: (i + 1) + "." }), name, reading));
    // How the narrator will read this name (the reading typed here wins once saved): the host
    // hears no surprise at the first night, and corrects a wrong guess in the field above.
    if (n.said) {
      const said = el("div", { class: "said", "data-seat": String(i + 1), text: t("said", { reading: n.said }) });
      const update = () => {  // a renamed seat's reading is known once saved, unless one is typed
        const typed = reading.value.trim();
        said.hidden = !typed && name.value.trim() !== n.name;
        said.textContent = t("said", { reading: typed || n.said });
      };
      name.addEventListener("input", update);
      reading.addEventListener("input", update);
      box.append(said);
    }
  }
  box.append(el("button", { type: "button", id: "save-names", text: t("save"), onclick: () => {
    const names = rows.map(([n, r]) => n.value.trim() + (r.value.trim() ? ":" + r.value.trim() : "")).filter((n) => n);
    const players = Number(count.value);
    // the names first: the narrator says the first key that changed. A new count keeps the
    // names (the narrator fills or cuts them: seat_fill.py); every name emptied drops them.
    const named = names.length ? { names: names.slice(0, players) } : view.names.length ? { names: null } : {};
    change({ ...named, players }, box);
  } }));
  return box;
}

function settingCard(row) {
  const box = el("div", { class: "card setting", "data-key": row.key }, el("h2", { text: textOf(row.label) }));
  const v = row.value;
  if (row.kind === "counts") {
    for (const [id, n] of Object.entries(v)) {
      const set = (m) => { const next = { ...v }; if (m > 0) next[id] = m; else delete next[id]; change({ [row.key]: next }, box); };
      const number = el("input", { class: "n", type: "number", min: "0", value: String(n), "aria-label": labelOf(id) });
      box.append(el("div", { class: "seat", "data-id": id }, el("span", { text: labelOf(id) }),
        el("button", { type: "button", class: "down", text: "−", onclick: () => set(n - 1) }), number,
        el("button", { type: "button", class: "up", text: "+", onclick: () => set(n + 1) }),
        el("button", { type: "button", class: "set", text: t("save"), onclick: () => set(Number(number.value)) })));
    }
    const others = (row.addable || []).filter((id) => !(id in v));  // what the game accepts (settings_view.addable)
    if (others.length) {
      const pick = el("select", { class: "add-id", "aria-label": t("add") });
      for (const id of others) pick.append(el("option", { value: id, text: labelOf(id) }));
      const number = el("input", { class: "add-n", type: "number", min: "1", value: "1", "aria-label": t("add") });
      box.append(el("div", { class: "seat add" }, pick, number, el("button", { type: "button", class: "add", text: t("add"),
        onclick: () => change({ [row.key]: { ...v, [pick.value]: Number(number.value) } }, box) })));
    }
  } else if (row.kind === "order") {
    // Drag a row by its handle, or move it with ↑ / ↓ (the keyboard's and the screen reader's way).
    const list = el("div", { class: "order" });
    v.forEach((id, i) => {
      const move = (j) => { const next = v.slice(); [next[i], next[j]] = [next[j], next[i]]; change({ [row.key]: next }, box); };
      const card = labelOf(id);
      list.append(el("div", { class: "seat", "data-id": id }, el("div", { class: "handle", "aria-hidden": "true" }),
        el("span", { text: (i + 1) + ". " + card }),
        i > 0 ? el("button", { type: "button", class: "up", text: "↑", "aria-label": t("up", { card }), onclick: () => move(i - 1) }) : null,
        i < v.length - 1 ? el("button", { type: "button", class: "down", text: "↓", "aria-label": t("down", { card }), onclick: () => move(i + 1) }) : null));
    });
    if (v.length > 1) box.append(el("p", { class: "dim hint", text: t("drag_hint") }));
    box.append(list);
    draggable(list, row.key, v);
  } else if (row.kind === "bool") {
    const box2 = el("input", { type: "checkbox", class: "value", "aria-label": textOf(row.label) });
    box2.checked = !!v;
    box2.addEventListener("change", () => change({ [row.key]: box2.checked }, box));
    box.append(box2);
  } else {
    const shown = Array.isArray(v) ? v.join(",") : v === null || v === undefined ? "" : String(v);
    const input = el("input", { class: "value", type: row.kind === "number" ? "number" : "text", value: shown,
      placeholder: row.default, "aria-label": textOf(row.label) });
    box.append(input, el("button", { type: "button", class: "save", text: t("save"), onclick: () => {
      const raw = input.value.trim();
      const value = row.kind === "number" ? Number(raw) : row.kind === "list" ? raw.split(/[,、\s]+/).filter((x) => x).map(Number) : raw;
      change({ [row.key]: value }, box);
    } }));
  }
  if (row.set) box.append(el("button", { type: "button", class: "reset", text: t("reset"), onclick: () => change({ [row.key]: null }, box) }));
  return box;
}

// Drag to reorder, with Pointer Events: one path for a finger and a mouse (HTML5 drag and drop
// does not reach a phone's touch). The row follows the pointer, lifted out of the list; a
// placeholder shows where it lands; the drop saves the new order through the same request as
// ↑ / ↓, so the same checks, the same refusal and the same spoken line.
let drag = null;   // the row being dragged: the poll neither redraws nor replaces the view under it

function draggable(list, key, order) {
  list.addEventListener("pointerdown", (e) => {
    const handle = e.target.closest(".handle");
    if (!handle || drag || !e.isPrimary || (e.pointerType === "mouse" && e.button !== 0)) return;
    e.preventDefault();
    const row = handle.closest("[data-id]");
    const box = row.getBoundingClientRect();
    const holder = el("div", { class: "placeholder", "aria-hidden": "true" });
    holder.style.height = box.height + "px";
    row.before(holder);
    row.classList.add("dragging");
    Object.assign(row.style, { left: box.left + "px", top: box.top + "px", width: box.width + "px" });
    handle.setPointerCapture(e.pointerId);
    drag = { pointer: e.pointerId, row, holder, dy: e.clientY - box.top };
  });
  list.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    e.preventDefault();
    drag.row.style.top = (e.clientY - drag.dy) + "px";
    const others = [...list.children].filter((n) => n !== drag.row && n !== drag.holder);
    const below = others.find((n) => { const r = n.getBoundingClientRect(); return e.clientY < r.top + r.height / 2; });
    if (below) below.before(drag.holder); else list.append(drag.holder);
  });
  const end = (e, dropped) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const { row, holder } = drag;
    drag = null;
    holder.replaceWith(row);
    row.classList.remove("dragging");
    row.removeAttribute("style");
    const next = [...list.children].map((n) => n.dataset.id);
    if (dropped && next.join() !== order.join()) change({ [key]: next }, list.closest(".card"));
    else render();
  };
  list.addEventListener("pointerup", (e) => end(e, true));
  list.addEventListener("pointercancel", (e) => end(e, false));
}

// The page's own address as a QR code, on request, for the other phones to scan: the one the
// narrator said aloud (no table code in it). Drawn here from the modules the view carries.
let showingJoin = false;
function joinCard() {
  const box = el("div", { class: "card", id: "join-card" },
    el("button", { type: "button", id: "show-join", text: t(showingJoin ? "hide_join_qr" : "join_qr"),
      onclick: () => { showingJoin = !showingJoin; render(); } }));
  if (showingJoin) {
    box.append(el("div", { id: "join-qr", role: "img", "aria-label": t("join_qr_alt") }, qrDrawing(view.join.qr)),
      el("p", { class: "letters", id: "join-url", text: view.join.url }));
  }
  return box;
}

function qrDrawing(rows) {
  const ns = "http://www.w3.org/2000/svg", size = rows.length + 4;  // a quiet zone of 2 modules
  const svg = document.createElementNS(ns, "svg");
  for (const [k, v] of [["viewBox", "0 0 " + size + " " + size], ["width", size * 6], ["height", size * 6]]) svg.setAttribute(k, String(v));
  const back = document.createElementNS(ns, "rect");
  for (const [k, v] of [["width", size], ["height", size], ["fill", "#fff"]]) back.setAttribute(k, String(v));
  let d = "";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += "M" + (x + 2) + " " + (y + 2) + "h1v1h-1z"; });
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}

function presetsCard() {
  const name = el("input", { id: "preset-name", type: "text", placeholder: t("preset_name"), "aria-label": t("preset_name") });
  const box = el("div", { class: "card", id: "presets" }, el("h2", { text: t("presets") }),
    el("div", { class: "seat preset", "data-name": "" }, el("span", { text: t("recommended") }),
      el("button", { type: "button", class: "pick", text: t("pick"), onclick: () => send("/api/settings/preset", { pick: "" }) })));
  for (const p of view.presets) {
    box.append(el("div", { class: "seat preset", "data-name": p }, el("span", { text: p }),
      el("button", { type: "button", class: "pick", text: t("pick"), onclick: () => send("/api/settings/preset", { pick: p }) })));
  }
  box.append(name, el("button", { type: "button", id: "save-preset", text: t("save_preset"),
    onclick: () => send("/api/settings/preset", { save: name.value }) }));
  return box;
}

boot();
