// The phone page: choose a seat, then show what the server sends for this seat only.
// No build step, no framework: the server pushes this player's view by server-sent
// events; answers go back by POST. Text is set with textContent only (never as HTML).
"use strict";

let S = {};            // UI strings by language (strings.json)
let lang = localStorage.getItem("narrator-lang");
let view = null;
let shown = false;     // cards revealed (hidden again by default)
let hideTimer = null;
let picked = [];       // choices toggled for a multiple-choice question
let sentSerial = null;
let vibrated = null;
let events = null;

const $ = (id) => document.getElementById(id);

function t(key, params) {
  let text = (S[lang] && S[lang][key]) || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(v);
  return text;
}
function word(group, key) { return (S[lang] && S[lang][group] && S[lang][group][key]) || key; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function boot() {
  S = await (await fetch("/static/strings.json")).json();
  $("lang").addEventListener("click", () => {
    lang = lang === "ja" ? "en" : "ja";
    localStorage.setItem("narrator-lang", lang);
    view ? render(view) : seats();
  });
  const response = await fetch("/api/view");
  if (response.status === 401) return seats();
  view = await response.json();
  render(view);
  listen();
}

async function seats() {
  const data = await (await fetch("/api/seats")).json();
  lang = lang || data.lang;
  if (data.you) { listen(); return; }
  $("lang").textContent = t("lang_button");
  const list = el("div", { id: "seats" }, el("h2", { text: t("choose_seat") }));
  for (const seat of data.seats) {
    const button = el("button", { "data-seat": seat.name, type: "button", text: seat.name + (seat.taken ? " (" + t("taken") + ")" : "") });
    if (seat.taken) button.disabled = true;
    button.addEventListener("click", () => join(seat.name));
    list.append(button);
  }
  list.append(el("p", { class: "msg", id: "msg" }));
  $("app").replaceChildren(list);
}

async function join(seat) {
  const response = await post("/api/join", { seat });
  if (response.ok) return listen();
  $("msg").textContent = response.status === 409 ? t("seat_taken") : t("error");
}

function listen() {
  if (events) events.close();
  events = new EventSource("/api/events");
  events.onmessage = (e) => { view = JSON.parse(e.data); render(view); };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) setTimeout(() => boot(), 2000);
  };
}

function post(url, body) {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

function render(v) {
  lang = lang || "ja";
  document.documentElement.lang = lang;
  document.body.className = "phase-" + v.phase;
  $("lang").textContent = t("lang_button");
  $("who").textContent = v.seat;
  $("phase").textContent = t("phase_" + v.phase, { n: v.phase === "night" ? v.night : v.day });
  const parts = [];
  if (v.phase === "over" && v.winner) parts.push(result(v));
  parts.push(v.ask ? ask(v.ask) : el("p", { class: "dim", id: "waiting", text: t("waiting") }));
  if (v.private && v.private.role) parts.push(cards(v.private));
  $("app").replaceChildren(...parts);
}

function result(v) {
  const box = el("div", { class: "card result", id: "result" }, el("div", { text: t("winner_" + v.winner) }));
  if (v.private && "won" in v.private) box.append(el("b", { id: "you-won", "data-won": String(v.private.won), text: t(v.private.won ? "won" : "lost") }));
  return box;
}

function ask(a) {
  if (a.private && vibrated !== a.serial && navigator.vibrate) navigator.vibrate([200, 100, 200]);
  vibrated = a.serial;
  if (sentSerial !== a.serial && picked.serial !== a.serial) picked = Object.assign([], { serial: a.serial });
  const box = el("div", { class: "card ask", id: "ask", "data-serial": String(a.serial), "data-line": a.line });
  if (a.private) box.append(el("h2", { text: t("your_turn") }));
  box.append(el("p", { text: a.text[lang] || Object.values(a.text)[0] || "" }));
  const sent = sentSerial === a.serial;
  for (const choice of a.choices) {
    const label = word("choice", choice) !== choice ? word("choice", choice) : word("role", choice);
    const button = el("button", { type: "button", "data-choice": choice, text: label });
    if (picked.includes(choice)) button.classList.add("picked");
    button.disabled = sent;
    button.addEventListener("click", () => {
      if (!a.multiple) return answer(a, choice);
      picked.includes(choice) ? picked.splice(picked.indexOf(choice), 1) : picked.push(choice);
      render(view);
    });
    box.append(button);
  }
  if (a.multiple) {
    const submit = el("button", { type: "button", id: "submit", text: t("submit") });
    submit.disabled = sent || picked.length === 0;
    submit.addEventListener("click", () => answer(a, [...picked]));
    box.append(submit);
  }
  box.append(el("p", { class: "msg", id: "msg", text: sent ? t("sent") : "" }));
  return box;
}

async function answer(a, value) {
  sentSerial = a.serial;
  render(view);
  const response = await post("/api/answer", { serial: a.serial, value });
  const msg = $("msg");
  if (!msg) return;
  if (response.ok) msg.textContent = t("sent");
  else {
    if (response.status !== 409) sentSerial = null;
    msg.textContent = response.status === 409 ? t("closed") : t("error");
  }
}

function cards(p) {
  const box = el("div", { class: "card", id: "cards" });
  const toggle = el("button", { type: "button", id: "reveal", text: shown ? t("hide_cards") : t("show_cards") });
  toggle.addEventListener("click", () => {
    shown = !shown;
    clearTimeout(hideTimer);
    if (shown) hideTimer = setTimeout(() => { shown = false; render(view); }, 15000);
    render(view);
  });
  box.append(toggle);
  if (!shown) return box;
  box.append(el("p", {}, t("your_role") + ": ", el("b", { id: "role", "data-role": p.role, text: word("role", p.role) })));
  box.append(el("p", {}, t("your_card") + ": ", el("b", { id: "card", "data-card": p.card, text: word("card", p.card) })));
  if (p.hand) box.append(el("p", { id: "hand", text: t("your_hand") + ": " + p.hand.map((r) => word("role", r)).join(", ") }));
  if (p.memos && p.memos.length) {
    const list = el("ul", { id: "memos" });
    for (const m of p.memos) list.append(el("li", { "data-kind": m.kind, text: memo(m) }));
    box.append(el("h2", { text: t("memos") }), list);
  }
  return box;
}

function memo(m) {
  if (m.kind === "strategist") {
    const seen = Object.entries(m.cards).map(([n, r]) => n + "=" + word("role", r)).join(", ");
    return t("memo_strategist", { day: m.day, cards: seen });
  }
  return t("memo_" + m.kind, { night: m.night, target: m.target, role: word("role", m.role || ""), partner: m.partner });
}

boot();
