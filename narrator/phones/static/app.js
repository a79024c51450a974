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
let round = { serial: null };  // the private round being filled in (target, ability, sent)

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
  if (v.ask) parts.push(ask(v.ask));
  if (v.request) parts.push(request(v.request));
  if (!v.ask && !v.request) parts.push(el("p", { class: "dim", id: "waiting", text: t("waiting") }));
  if (v.private && v.private.alive === false) parts.push(el("p", { class: "dim", id: "dead", text: t("dead") }));
  if (v.private && v.private.role) parts.push(cards(v.private, v.messages || []));
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

function request(r) {
  if (round.serial !== r.serial) {
    round = { serial: r.serial, target: null, ability: null, sent: false };
    if (!r.answered && navigator.vibrate) navigator.vibrate([200, 100, 200]);
  }
  const box = el("div", { class: "card ask", id: "request", "data-serial": String(r.serial), "data-phase": r.phase });
  box.append(el("h2", { text: t(r.phase === "night" ? "your_memo" : "your_vote") }));
  box.append(el("p", { text: r.text[lang] || Object.values(r.text)[0] || "" }));
  if (r.answered || round.sent) {
    box.append(el("p", { class: "msg", id: "msg", text: t("sent") }));
    return box;
  }
  const pick = (key, value) => { round[key] = value; render(view); };
  for (const choice of r.choices) {
    const button = el("button", { type: "button", "data-target": choice, text: choice });
    if (round.target === choice) button.classList.add("picked");
    button.addEventListener("click", () => pick("target", choice));
    box.append(button);
  }
  if (r.ability) {
    box.append(el("p", { text: t("ability_question") }));
    for (const [value, label] of [[true, "ability_yes"], [false, "ability_no"]]) {
      const button = el("button", { type: "button", "data-ability": String(value), text: t(label) });
      if (round.ability === value) button.classList.add("picked");
      button.addEventListener("click", () => pick("ability", value));
      box.append(button);
    }
  }
  const send = el("button", { type: "button", id: "send", text: t("send") });
  send.disabled = round.target === null || (r.ability && round.ability === null);
  send.addEventListener("click", async () => {
    const answer = { [r.key]: round.target };
    if (r.ability) answer.ability = round.ability;
    round.sent = true;
    render(view);
    const response = await post("/api/private", { serial: r.serial, answer });
    if (!response.ok && response.status !== 409) { round.sent = false; render(view); }
  });
  box.append(send, el("p", { class: "msg", id: "msg" }));
  return box;
}

function cards(p, messages) {
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
  if (p.lines) {  // Bestia Magica: the pack's own lines for role and attribute
    box.append(el("p", { id: "role", "data-role": p.role, text: p.lines[0][lang] || Object.values(p.lines[0])[0] }));
    box.append(el("p", { id: "attribute", "data-attribute": p.attribute, text: p.lines[1][lang] || Object.values(p.lines[1])[0] }));
  } else {
    box.append(el("p", {}, t("your_role") + ": ", el("b", { id: "role", "data-role": p.role, text: word("role", p.role) })));
    box.append(el("p", {}, t("your_card") + ": ", el("b", { id: "card", "data-card": p.card, text: word("card", p.card) })));
  }
  if (messages.length) {
    const list = el("ul", { id: "messages" });
    for (const m of messages) list.append(el("li", { text: m[lang] || Object.values(m)[0] }));
    box.append(el("h2", { text: t("messages") }), list);
  }
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
