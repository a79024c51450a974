// The phone page: join with a code, then show what the server sends for this phone only.
// No build step, no framework: the server pushes this phone's view by server-sent events;
// answers go back by POST. Text is set with textContent only (never as HTML).
// A seated phone's views arrive sealed with its seat's key and its requests leave sealed
// (seal.js); a send is retried with backoff and shown "sent" only once the narrator has it.
"use strict";

let S = {};            // UI strings by language (strings.json)
let lang = localStorage.getItem("narrator-lang");
let view = null;
let shown = false;     // cards revealed (hidden again by default)
let hideTimer = null;
let picked = [];       // choices toggled for a multiple-choice question
let sentSerial = null;
let lastCall = null;   // every phone vibrates at every call, whoever is called
let events = null;
let round = { serial: null };  // the private round being filled in (target, ability, sent)
let showing = null;    // host screen: the seat number whose code is shown now
let shownCode = null;  // host screen: {number, data} of that code as fetched, kept across renders
let timerLeft = null, timerTick = null;
let asked = null;      // host screen: the standings asked for before the first night
let table = null;      // /api/seats: the table's salt and the narrator's public key
let mine = null;       // this seat's key and counter, or the host screen's key pair (localStorage)
const RETRIES = [500, 1000, 2000, 4000, 8000];  // ms before each new try of a send that failed
const DECOY_DELAY = [1000, 6000];               // ms: a decoy leaves at a random time in this range

const $ = (id) => document.getElementById(id);

function t(key, params) {
  // A game may word a string its own way (Bestia Magica counts 1回目の夜, not 1日目): strings.json's
  // `by_game.<game>.<key>` first, then the page's own.
  const own = S[lang] && S[lang].by_game && view && S[lang].by_game[view.game];
  let text = (own && own[key]) || (S[lang] && S[lang][key]) || key;
  for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(v);
  return text;
}
function word(group, key) { return (S[lang] && S[lang][group] && S[lang][group][key]) || key; }
function textOf(texts) { return texts[lang] || Object.values(texts)[0] || ""; }

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

// A player by seat: "3. Chika", the same number on every phone (position in the table's names + 1).
function seatLabel(name) {
  const i = view && view.names ? view.names.indexOf(name) : -1;
  return i < 0 ? choiceLabel(name) : (i + 1) + ". " + name;
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

let booted = false;
async function boot() {
  if (!booted) {
    S = await strings();
    $("lang").addEventListener("click", () => {
      lang = lang === "ja" ? "en" : "ja";
      localStorage.setItem("narrator-lang", lang);
      view ? render(view) : entry();
    });
    booted = true;
  }
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (code) history.replaceState(null, "", location.pathname);  // the code is spent: keep it out of the address bar
  const seats = await fetch("/api/seats").catch(() => null);
  if (!seats || !seats.ok) return between();
  table = await seats.json();
  mine = JSON.parse(localStorage.getItem(storeKey()) || "null");
  if (table.host && !code && !(mine && mine.sk)) return carried();
  if (table.you && table.carried && !code && !(mine && mine.key) && seatCarried()) return listen();
  const seated = (table.you && mine && mine.key) || (table.host && mine && mine.sk);
  if (seated && !code) return listen();
  if (code) return join(code, seated);
  // This phone holds a seat's key (or the host screen's keys) for this table but no longer
  // the seat: the host screen released it (a lost phone, a wrong seat), or the table released
  // the host screen. Say so, once, instead of a bare code box.
  const released = mine && (mine.key || mine.sk) && !table.you && !table.host;
  if (released) localStorage.removeItem(storeKey());
  await entry();
  if (released) $("msg").replaceChildren(el("span", { id: "released", text: t(mine.key ? "seat_released" : "host_released_here") }));
}

// No game here (it ended): the appliance's settings page takes its place at this address,
// where the host screen is still the host screen (carry.py); until one answers, try again.
async function between() {
  const settings = await fetch("/api/settings").catch(() => null);
  if (settings && settings.ok) return location.reload();
  setTimeout(() => boot(), 2000);
}

// The host screen of the settings page, carried into this game: the game took the key pair the
// table confirmed on the settings page (carry.py), so the seat codes come sealed to it. A page
// that lost it asks for a new one, which the narrator binds only on the table's press, said
// aloud (issue 38: a key sent with the cookie alone let a sniffed cookie read every seat code).
async function carried() {
  const confirmed = JSON.parse(localStorage.getItem("narrator-settings-keys") || "null");
  if (confirmed && confirmed.sk) { mine = confirmed; keep(); return listen(); }
  const keys = Seal.hostKeys();
  const response = await post("/api/host/key", { key: keys.pk });
  if (response.status === 202) {
    mine = keys;  // kept only in memory: until the press it opens nothing (a reload asks again)
    const pending = await response.json();
    if (!$("msg")) await entry();
    $("msg").textContent = t("host_rekey", { n: pending.word });
    setTimeout(() => listen(), (pending.seconds + 1) * 1000);
    return;
  }
  listen();
}

// The seat this phone held in the last game, kept in this one (seat_carry.py): this game's key
// comes sealed with the last game's, which only this phone holds; no code to scan. False when
// that key is gone (the phone then joins with its seat's code, as before).
function seatCarried() {
  const old = JSON.parse(localStorage.getItem("narrator-keys-" + table.carried.salt) || "null");
  const opened = old && old.key ? Seal.open(Seal.unb64(old.key), table.carried.box) : null;
  if (!opened || !opened.key) return false;
  mine = { key: opened.key, n: Date.now() };
  keep();
  return true;
}

// What this phone keeps for this table (its salt names the game): its key or key pair.
function storeKey() { return "narrator-keys-" + table.salt; }
function keep() { localStorage.setItem(storeKey(), JSON.stringify(mine)); }
function seatKey() { return mine && mine.key ? Seal.unb64(mine.key) : null; }

async function entry() {
  const data = await (await fetch("/api/seats")).json();
  table = data;
  lang = lang || data.lang;
  $("lang").textContent = t("lang_button");
  const input = el("input", { id: "code", type: "text", autocomplete: "off", autocapitalize: "characters", inputmode: "text" });
  const go = el("button", { type: "button", id: "join", text: t("join") });
  go.addEventListener("click", () => join(input.value, false));
  const box = el("div", { id: "entry" }, el("h2", { text: t("enter_code") }), el("p", { text: t("code_help") }),
    el("label", { for: "code", text: t("code_label") }), input, go,
    el("p", { class: "dim", id: "free", text: t("seats_free", { n: data.free }) }), el("p", { class: "msg", id: "msg" }));
  $("app").replaceChildren(box);
}

// A seat's code never leaves the phone: the page derives the seat's key and seat id from it
// and sends the id with a box sealed with the key. The table code (8 digits, spoken to all)
// makes the host screen, which sends a public key of its own for the seat codes it will show.
async function join(code, seatedAlready) {
  if ($("msg")) $("msg").textContent = t("joining");
  let body, joined;
  if (Seal.normal(code).length === 8) {
    joined = Seal.hostKeys();
    body = async () => ({ code, key: joined.pk });
  } else {
    const derived = await Seal.derive(code, table.salt);
    const n = Date.now();
    joined = { key: Seal.b64(derived.key), n };
    // each try carries a fresh challenge from the narrator, taken once: a captured join sent
    // again by someone else is refused (narrator/phones/join_challenge.py)
    body = async () => {
      const asked = await fetch("/api/join/challenge").then((r) => r.json()).catch(() => ({}));
      return { id: derived.id, box: Seal.seal(derived.key, { from: "phone", n, join: true, challenge: asked.challenge }) };
    };
  }
  const response = await joinPost(body);
  // A host screen's key pair is the settings page's too (the appliance carries this host screen
  // back to it after the game, with this key: carry.back_from_game), so its saves come sealed.
  if (response && response.ok && joined.sk) localStorage.setItem("narrator-settings-keys", JSON.stringify(joined));
  if (response && response.status === 202) { mine = joined; keep(); return awaitTable(await response.json()); }
  if (response && response.ok) { mine = joined; keep(); return listen(); }
  if (seatedAlready) return listen();
  if (!$("msg")) await entry();
  const status = response ? response.status : 0;
  // Another phone waits for the table's press: this one is in line (host_turns.py), not refused for good.
  const waiting = status === 409 && /waiting/.test(((await response.json().catch(() => null)) || {}).error || "");
  $("msg").textContent = t(waiting ? "host_wait" : { 409: "host_taken", 429: "wait_code" }[status] || (status === 0 || status >= 500 ? "send_failed" : "wrong_code"));
}

// A join that got no answer (its connection dropped: a Wi-Fi gap, a flood the narrator sheds)
// or was asked to wait its turn (429: a wrong code from this address a moment ago) goes again
// after 0.5, 1, 2, 4 and 8 s, as a send does; null when none came. `body()` makes each try's body.
async function joinPost(body) {
  for (let i = 0; ; i++) {
    const response = await post("/api/join", await body()).catch(() => null);
    if (response && response.status !== 429 && response.status < 500) return response;
    if (i >= RETRIES.length) return response;
    await new Promise((r) => setTimeout(r, RETRIES[i]));
  }
}

// The table code makes the host screen only once the table confirms it: the narrator says
// this phone's number aloud, and a press of the button (or "done") at the table confirms it.
async function awaitTable(pending) {
  if (!$("msg")) await entry();
  $("msg").textContent = t("host_confirm", { n: pending.word });
  const end = Date.now() + pending.seconds * 1000 + 2000;
  while (Date.now() < end) {
    await new Promise((done) => setTimeout(done, 1000));
    const seats = await (await fetch("/api/seats")).json();
    if (seats.host) return listen();
  }
  $("msg").textContent = t("host_not_confirmed");
}

// A view as it arrives: a seat's is sealed with its key, the host screen's is public.
function opened(data) {
  if (!data.box) return data;
  const key = seatKey();
  return key ? Seal.open(key, data.box) : null;
}

// The stream opens with a proof of this seat's key (the host screen's: its key pair), a counter
// the narrator takes once: a proven stream is never kept out by one opened with a sniffed cookie
// (narrator/phones/streams.py). So a stream that fails is opened again here with a fresh proof,
// never by EventSource's own retry, which would send the spent one.
function streamProof() {
  if (mine && mine.key) {
    mine.n = Math.max(mine.n + 1, Date.now());
    keep();
    return Seal.seal(seatKey(), { from: "phone", n: mine.n, to: "stream", body: {} });
  }
  return mine && mine.sk ? Seal.hostBox(mine, table.key, keep, "stream") : null;
}

function listen() {
  if (events) events.close();
  const proof = streamProof();
  events = new EventSource("/api/events" + (proof ? "?proof=" + encodeURIComponent(proof) : ""));
  events.onmessage = (e) => { const v = opened(JSON.parse(e.data)); if (v) { view = v; render(view); } };
  events.onerror = () => {
    events.close();
    setTimeout(() => boot(), 2000);
  };
}

// The host screen's actions, sealed to the narrator through one door (seal.js: Seal.hostRequest).
function hostPost(to, body) { return Seal.hostRequest("/api/host", mine, table.key, keep, to, body); }

function post(url, body) {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: Seal.body(body) });
}

// One request through this seat's sealed door: {status, body} as the narrator replied inside
// the box, or null when no sealed reply came back. The counter only grows (kept across reloads).
async function sealedOnce(to, body) {
  const key = seatKey();
  if (!key) return null;
  mine.n = Math.max(mine.n + 1, Date.now());
  keep();
  const n = mine.n;
  try {
    const response = await post("/api/seat", { box: Seal.seal(key, { from: "phone", n, to, body: body || {} }) });
    if (!response.ok) return null;
    const inner = Seal.open(key, (await response.json()).box);
    return inner && inner.n === n ? inner : null;
  } catch (e) { return null; }
}

// A send that keeps trying: a lost request or reply (a flood, a Wi-Fi drop) is sent again
// after 0.5, 1, 2, 4 and 8 s; the result is the narrator's own reply, or null if none came.
async function send(to, body, onRetry) {
  if (cover && COVER.on && to !== "view") return queued(to, body, onRetry);  // a call is open: in its next slot
  for (let i = 0; ; i++) {
    const reply = await sealedOnce(to, body);
    if (reply) return Object.assign(reply, { retried: i > 0 });
    if (i >= RETRIES.length) return null;
    if (onRetry) onRetry(i);
    await new Promise((r) => setTimeout(r, RETRIES[i]));
  }
}

// The page's own view, asked through the sealed door (the tests read a phone's view with it).
async function sealedView() { const r = await send("view"); return r && r.status === 200 ? r.body : null; }

// At every night call and private round every seated phone sends the same requests at the
// same moments, whatever its role, so neither who sends nor when tells who was called. From
// the call's opening (the narrator's clock: its view's `call_age`) to its close, the phone sends
// one sealed request per slot, at call opening + 1, 2, 3... slots: the answer its player gave
// if one waits, else a decoy; the narrator answers a decoy as it answers a real one. An answer
// waits at most one slot; a lost one goes again in the next slots (as many tries as RETRIES).
// `COVER.on = false` is the page before slots: a decoy at a random moment, answers at once.
// `grace`: each slot leaves that long after its time, so the view saying a call ended just
// before a slot's time reaches the phone before the slot would go (a push late by less than
// `grace` no longer sends one slot more than the other phones did). The count is unchanged:
// slot k belongs to the call when the call was open k slots after it opened.
const COVER = { on: true, slot: 1000, grace: 300, log: [] };  // log: the last (call, slot)s sent (the tests read it)
let cover = null;      // the open call's slots: {call, start, k (the slot due next), timer, queue}
function follow(v) {
  if (!COVER.on) return lastCall !== null && v.call !== lastCall && decoy(v);
  if (cover && (cover.call !== v.call || !v.calling)) coverStop(v);
  if (cover || !v.seat || !v.calling) return;
  // Slot times from the call's opening, not from this phone's arrival or a tap: a phone that
  // saw the call late sends the slots it missed at once.
  cover = { call: v.call, start: performance.now() - (v.call_age || 0) * 1000, k: 0, timer: null, queue: [] };
  coverNext(cover);
}
function coverNext(c) {
  c.k += 1;
  c.timer = setTimeout(() => { if (cover === c) { coverSlot(c); coverNext(c); } },
                       Math.max(0, c.start + c.k * COVER.slot + COVER.grace - performance.now()));
}
async function coverSlot(c) {  // slot c.k: the answer waiting, else a decoy
  const item = c.queue.shift();
  COVER.log.push({ call: c.call, slot: c.k });
  if (COVER.log.length > 2000) COVER.log.shift();
  const reply = await sealedOnce(item ? item.to : "decoy", item ? item.body : {});
  if (!item) return;
  if (!reply && cover === c && item.tries < RETRIES.length) {  // lost: again in the next slot
    if (item.onRetry) item.onRetry(item.tries);
    item.tries += 1;
    return c.queue.unshift(item);
  }
  item.done(reply && Object.assign(reply, { retried: item.tries > 0 }));
}
function queued(to, body, onRetry) {
  return new Promise((done) => cover.queue.push({ to, body, onRetry, done, tries: 0 }));
}
// The call closed (or the next one opened): the slots it lasted that this phone has not sent
// yet (its timer ran late) go now, as every phone sent them; an answer still waiting after
// them was never sent, and the narrator takes none for a closed call. Its length is the
// view's `call_lengths` for it: a phone that hears of the end only after the next call
// closed too (its views came late) still knows how long this one lasted.
function coverStop(v) {
  const c = cover;
  cover = null;
  clearTimeout(c.timer);
  const ended = v.call === c.call ? !v.calling : v.call === c.call + 1 && v.calling;
  const known = v.call_lengths ? v.call_lengths[String(c.call)] : undefined;
  const length = typeof known === "number" ? known : ended && typeof v.call_length === "number" ? v.call_length : 0;
  for (; c.k <= Math.floor(length * 1000 / COVER.slot); c.k++) coverSlot(c);
  for (const item of c.queue) item.done({ status: 409, body: {}, retried: item.tries > 0 });
}

// The page before slots: a phone with nothing to send sends one decoy at a random moment.
let decoyFor = null;
function decoy(v) {
  if (!v.seat || v.call === decoyFor || !v.call) return;
  decoyFor = v.call;
  const acting = (v.ask && v.ask.private) || (v.request && !v.request.answered);
  if (acting) return;
  const wait = DECOY_DELAY[0] + Math.random() * (DECOY_DELAY[1] - DECOY_DELAY[0]);
  setTimeout(() => send("decoy"), wait);
}

function render(v) {
  lang = lang || "ja";
  document.documentElement.lang = lang;
  document.body.className = "phase-" + v.phase;
  $("lang").textContent = t("lang_button");
  $("who").textContent = v.seat ? seatLabel(v.seat) : t("host");
  $("phase").textContent = t("phase_" + v.phase, { n: v.phase === "night" ? v.night : v.day });
  if (lastCall !== null && v.call !== lastCall && navigator.vibrate) navigator.vibrate([200, 100, 200]);
  follow(v);
  lastCall = v.call;
  const parts = [];
  if (v.waiting) parts.push(waiting(v));
  if (v.phase === "over") parts.push(result(v));
  if (v.phase === "day") parts.push(day(v));
  if (v.ask) parts.push(ask(v.ask));
  if (v.request) parts.push(request(v.request));
  if (v.seat && !v.ask && !v.request && v.phase !== "over") parts.push(el("p", { class: "dim", id: "waiting", text: t("waiting") }));
  if (v.private && v.private.alive === false) parts.push(el("p", { class: "dead", id: "dead", text: t("dead") }));
  if (v.private && (v.private.role || v.private.lines)) parts.push(cards(v.private, v.messages || [], v.request));
  if (v.host) parts.push(...standingsParts(v));
  if (v.host) parts.push(hostScreen(v.host));
  $("app").replaceChildren(...parts);
}

function waiting(v) {
  const box = el("div", { class: "card", id: "wait" }, el("p", { text: t("waiting_phones", { n: v.waiting.free }) }));
  if (v.host) box.append(el("button", { type: "button", id: "start", text: t("start_anyway"), onclick: () => hostPost("start", {}) }));
  return box;
}

function day(v) {
  const box = el("div", { class: "card", id: "day" });
  if (v.timer !== null && v.timer !== undefined) {
    if (timerLeft === null || Math.abs(timerLeft - v.timer) > 1) timerLeft = v.timer;
    clearInterval(timerTick);
    timerTick = setInterval(() => { timerLeft = Math.max(0, timerLeft - 1); const n = $("timer"); if (n) n.textContent = clock(timerLeft); }, 1000);
    box.append(el("p", {}, t("time_left") + " ", el("b", { id: "timer", text: clock(timerLeft) })));
  } else { clearInterval(timerTick); timerLeft = null; }
  if (v.host && v.host.timer_serial !== null && v.host.timer_serial !== undefined) {
    // The host screen ends the discussion the table has finished (Enter or the button elsewhere).
    const serial = v.host.timer_serial;
    box.append(el("button", { type: "button", id: "end-timer", text: t("end_timer"),
                              onclick: () => hostPost("end-timer", { timer: serial }) }));
  }
  box.append(el("p", { id: "alive", text: t("alive") + ": " + v.alive.map(seatLabel).join(", ") }));
  return box;
}

function clock(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }

function result(v) {
  const box = el("div", { class: "card result", id: "result" }, el("div", { text: t("phase_over") }));
  // a game file's winner in its own words (its wolf.win.<team> line, as the narrator said it);
  // else the team's word from strings.json (winner_citizens: 市民チームの勝利); never its raw id
  const named = v.winner && t("winner_" + v.winner) !== "winner_" + v.winner ? t("winner_" + v.winner) : "";
  const winner = (v.winner_line && textOf(v.winner_line)) || named;
  if (winner) box.append(el("div", { id: "winner", text: winner }));
  if (v.private && "won" in v.private) box.append(el("b", { id: "you-won", "data-won": String(v.private.won), text: t(v.private.won ? "won" : "lost") }));
  if (v.host && v.host.end_lines && v.host.end_lines.length) {  // the end as it was said, to read back
    box.append(el("ol", { id: "end-lines" }, ...v.host.end_lines.map((texts) => el("li", { text: textOf(texts) }))));
  }
  return box;
}

function choiceLabel(choice) {
  if (view.names && view.names.includes(choice)) return seatLabel(choice);
  const centre = /^centre(\d+)$/.exec(choice);  // one centre card, by place (a lone wolf's look)
  if (centre) return t("centre_card", { n: centre[1] });
  const own = (view.private && view.private.labels) || [];  // a card, named by the game's own line
  if (own.includes(choice)) return textOf(view.private.label_lines[own.indexOf(choice)]);
  return word("choice", choice);
}

function ask(a) {
  if (sentSerial !== a.serial && picked.serial !== a.serial) picked = Object.assign([], { serial: a.serial });
  const box = el("div", { class: "card ask", id: "ask", "data-serial": String(a.serial), "data-line": a.line });
  if (a.private) box.append(el("h2", { text: t("your_turn") }));
  box.append(el("p", { text: textOf(a.text) }));
  const sent = sentSerial === a.serial;
  for (const choice of a.choices) {
    const button = el("button", { type: "button", "data-choice": choice, text: choiceLabel(choice) });
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

// An answer: the host screen's public ones by plain POST, a seat's private ones sealed.
// "Sent" is shown only once the narrator has it.
async function answer(a, value) {
  sentSerial = a.serial;
  render(view);
  // Only on this question's own screen: by the reply the narrator may have asked the next one.
  const say = (key) => {
    const box = $("ask");
    const msg = box && box.dataset.serial === String(a.serial) ? $("msg") : null;
    if (msg) msg.textContent = t(key);
  };
  say("sending");
  let status;
  if (seatKey() && a.private) {
    const reply = await send("answer", { serial: a.serial, value }, () => say("sending"));
    status = reply ? reply.status : 0;
  } else if (mine && mine.sk) {  // the host screen: a public question, through its sealed door
    status = (await hostPost("answer", { serial: a.serial, value })).status;
  } else {
    status = (await post("/api/answer", { serial: a.serial, value }).catch(() => ({ status: 0 }))).status;
  }
  if (status === 200) return say("sent");
  if (status !== 409 && sentSerial === a.serial) { sentSerial = null; render(view); }
  say(status === 409 ? "closed" : status === 0 ? "send_failed" : "error");
}

// A night memo or a vote. While the cards are hidden it reads the same for every role: the
// same words and every living player to choose from (the role's own words are on the card).
function request(r) {
  if (round.serial !== r.serial) round = { serial: r.serial, target: null, ability: null, sent: false };
  const night = r.phase === "night";
  const box = el("div", { class: "card ask", id: "request", "data-serial": String(r.serial), "data-phase": r.phase });
  box.append(el("h2", { text: t(night ? "your_memo" : r.phase === "call" ? "your_call" : "your_vote") }));
  box.append(el("p", { id: "request-text", text: night ? t("memo_choose") : textOf(r.text) }));
  const sent = r.sent || (round.sent && { [r.key]: round.target, ability: round.ability });
  if (sent) {
    let text = t("sent_choice", { choice: seatLabel(sent[r.key]) });
    if (r.ability) text += " / " + t(sent.ability ? "ability_yes" : "ability_no");
    box.append(el("p", { class: "msg", id: "msg", "data-sent": sent[r.key], text }));
    return box;
  }
  const pick = (key, value) => { round[key] = value; render(view); };
  const offered = night ? view.alive : r.choices;
  for (const choice of offered) {
    const button = el("button", { type: "button", "data-target": choice, text: seatLabel(choice) });
    if (round.target === choice) button.classList.add("picked");
    button.addEventListener("click", () => {
      if (!r.choices.includes(choice)) { $("msg").textContent = t("not_allowed"); return; }
      pick("target", choice);
    });
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
  const sendButton = el("button", { type: "button", id: "send", text: t("send") });
  sendButton.disabled = round.target === null || (r.ability && round.ability === null);
  sendButton.disabled = sendButton.disabled || round.sending;
  sendButton.addEventListener("click", async () => {
    // This round's own record: a reply that comes once the next round is open (the narrator
    // went on as soon as the last memo came) must not mark the new round sent.
    const mine = round;
    const answer = { [r.key]: mine.target };
    if (r.ability) answer.ability = mine.ability;
    mine.sending = true;
    mine.failed = false;
    render(view);
    const reply = await send("private", { serial: r.serial, answer });
    mine.sending = false;
    // "sent" only when the narrator has it: its 200 (or, after a lost reply, its next view's `sent`)
    if (reply && reply.status === 200) mine.sent = true;
    else mine.failed = !reply ? "send_failed" : reply.status === 409 ? "closed" : "error";
    if (round === mine) render(view);
  });
  const status = round.sending ? t("sending") : round.failed ? t(round.failed) : "";
  box.append(sendButton, el("p", { class: "msg", id: "msg", text: status }));
  return box;
}

function cards(p, messages, r) {
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
  if (p.lines && p.card) {  // a role card and an additional card (Additional Werewolf), in its own lines
    box.append(el("p", { id: "role", "data-role": p.role, text: textOf(p.lines[0]) }));
    box.append(el("p", { id: "card", "data-card": p.card, text: textOf(p.lines[1]) }));
  } else if (p.lines && p.role) {  // a role card told in the pack's own lines: the role, then its attribute
    box.append(el("p", { id: "role", "data-role": p.role, text: textOf(p.lines[0]) }));
    if (p.lines[1]) {  // a game file's role card has no attribute: one line (a blank page threw here)
      box.append(el("p", { id: "attribute", "data-attribute": p.attribute, text: textOf(p.lines[1]) }));
    }
    if (r && r.phase === "night") box.append(el("p", { id: "memo-role-text", text: textOf(r.text) }));
  } else if (p.lines) {  // any other game's own lines (its pack's words), in the order it gave them
    p.lines.forEach((line, i) => box.append(el("p", { id: "own-line-" + i, text: textOf(line) })));
  }
  if (messages.length) {
    const list = el("ul", { id: "messages" });
    for (const m of messages) list.append(el("li", { text: textOf(m) }));
    box.append(el("h2", { text: t("messages") }), list);
  }
  if (p.hand_lines) box.append(el("p", { id: "hand", text: textOf(p.hand_lines[0]) }));
  if (p.memo_lines && p.memo_lines.length) {  // the game's own lines, one per memo
    const list = el("ul", { id: "memos" });
    p.memo_lines.forEach((line, i) => list.append(el("li", { "data-kind": p.memos[i].kind, text: textOf(line) })));
    box.append(el("h2", { text: t("memos") }), list);
  }
  return box;
}

// The host screen: each free seat's own code, one seat at a time; release or move a seat;
// the table's public questions.
function hostScreen(h) {
  const box = el("div", { class: "card", id: "host" }, el("h2", { text: t("host_title", { n: h.free }) }));
  if (h.no_speaker) box.append(el("p", { class: "notice", id: "no-speaker", role: "status", text: t("no_speaker") }));
  if (h.ask) box.append(ask(h.ask));
  if (showing !== null && h.seats[showing - 1] && !h.seats[showing - 1].taken) box.append(codeCard(h.seats[showing - 1]));
  else showing = shownCode = null;
  const free = h.seats.filter((s) => !s.taken);
  for (const s of h.seats) {
    const row = el("div", { class: "seat", "data-seat": s.name }, el("span", { text: s.number + ". " + s.name + (s.taken ? "" : " (" + t("free") + ")") }));
    if (s.taken) {
      row.append(el("button", { type: "button", class: "release", text: t("release"), onclick: () => {
        if (confirm(t("release_confirm", { seat: s.number + ". " + s.name }))) hostPost("release", { seat: s.name });
      } }));
      if (free.length) {
        const select = el("select", { class: "move", "aria-label": t("move") }, el("option", { value: "", text: t("move") }));
        for (const f of free) select.append(el("option", { value: f.name, text: f.number + ". " + f.name }));
        select.addEventListener("change", () => { if (select.value) hostPost("move", { from: s.name, to: select.value }); });
        row.append(select);
      }
    } else {
      row.append(el("button", { type: "button", class: "show-code", text: t("show_code"), onclick: () => { showing = s.number; render(view); } }));
    }
    box.append(row);
  }
  return box;
}

// The table's standings on the host screen: by themselves once the game is over, on request
// before the first night; never while a game is under way.
function standingsParts(v) {
  if (v.host.standings) return [standings(v.host.standings, false)];
  if (v.phase !== "setup") { asked = null; return []; }
  if (asked) return [standings(asked, true)];
  return [el("button", { type: "button", id: "standings-button", text: t("standings_button"), onclick: async () => {
    asked = await (await fetch("/api/host/standings")).json();
    render(view);
  } })];
}

function standings(d, closable) {
  const box = el("div", { class: "card", id: "standings" }, el("h2", { text: t("standings_title") }));
  const dash = t("standings_unknown");
  if (!d.shown) box.append(el("p", { class: "dim", text: t(d.reason === "off" ? "standings_off" : "standings_later") }));
  else if (!d.rows.length) box.append(el("p", { class: "dim", text: t("standings_none") }));
  else {
    const keys = ["player", "games", "wins", "rate", "roles", "survived"];
    const table = el("table", {}, el("tr", {}, ...keys.map((k) => el("th", { text: t("standings_" + k) }))));
    for (const r of d.rows) {
      const cells = [r.name, String(r.games), r.decided ? String(r.wins) : dash,
        r.win_rate === null ? dash : Math.round(r.win_rate * 100) + "%",
        r.held_most.map((h) => textOf(h.text) + " " + h.times).join(", ") || dash,
        r.survival_known ? r.survived + "/" + r.survival_known : dash];
      table.append(el("tr", { "data-player": r.name }, ...cells.map((c) => el("td", { text: c }))));
    }
    box.append(table);
  }
  if (closable) box.append(el("button", { type: "button", id: "standings-close", text: t("standings_close"), onclick: () => { asked = null; render(view); } }));
  return box;
}

// A seat's code, sealed to this host screen's own key: its letters, and its QR code drawn
// here from the modules (an image from the server would travel in the clear). The screen is
// drawn again at every push (a night call brings one a second from every phone): the card
// starts from the code it showed last and only then asks again, because a card drawn empty
// until its reply came blanked the letters a player was copying (and a test read "" there).
function codeCard(s) {
  const box = el("div", { class: "code-card", id: "seat-code", "data-seat": s.name },
    el("p", { text: t("code_for", { seat: s.number + ". " + s.name }) }));
  const letters = el("p", { id: "letters", class: "letters" });
  const qr = el("div", { id: "qr", role: "img", "aria-label": t("qr_alt") });
  const fill = (d) => {
    letters.textContent = d.code ? d.code.slice(0, 5) + " " + d.code.slice(5) : "";
    if (d.qr) qr.replaceChildren(qrDrawing(d.qr));
  };
  if (shownCode && shownCode.number === s.number) fill(shownCode.data);
  fetch("/api/host/code/" + s.number).then((r) => r.json()).then((d) => {
    if (d.box) d = (mine && mine.sk && Seal.openForHost(mine.sk, table.key, d.box)) || {};
    if (d.code && showing === s.number) shownCode = { number: s.number, data: d };
    fill(d);
  }).catch(() => {});  // no reply: the letters shown stay
  box.append(qr, letters, el("button", { type: "button", id: "hide-code", text: t("hide_code"), onclick: () => { showing = null; render(view); } }));
  return box;
}

function qrDrawing(rows) {
  const ns = "http://www.w3.org/2000/svg", size = rows.length + 4;  // a quiet zone of 2 modules
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + size + " " + size);
  svg.setAttribute("width", String(size * 6));
  svg.setAttribute("height", String(size * 6));
  const back = document.createElementNS(ns, "rect");
  for (const [k, v] of [["width", size], ["height", size], ["fill", "#fff"]]) back.setAttribute(k, String(v));
  svg.append(back);
  let d = "";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += "M" + (x + 2) + " " + (y + 2) + "h1v1h-1z"; });
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(path);
  return svg;
}

boot();
