// The counter kiosk: the order screen and the stock screen over the HTTP API.
//
// Every word comes from GET /api/v1/strings (the catalog's "kiosk." keys); every sentence
// with a number or a name comes rendered from the API (`message`, a problem's `detail`,
// an event's `text`). This file holds no words of any language.
"use strict";

const api = "/api/v1";

const state = {
  // The chosen language, and every language's words, fetched once each.
  language: null,
  languages: [],
  words: new Map(),
  // fruit id → {id, name, level, sequence}: `sequence` is the journal entry the level is from.
  fruits: new Map(),
  juices: [],
  // The last journal entry seen, for `?after=` when the stream is opened again.
  lastSequence: 0,
  // Whether the event stream is current: ordering is enabled only then.
  live: false,
  source: null,
  reopenTimer: null,
  // The idempotency keys of this page's own requests, to tell its changes from others'.
  ownKeys: new Set(),
  // fruit id → the promise of its last stepper press, so presses run one after another.
  steps: new Map(),
  // The fruit the refusal dialog offers to edit.
  shortFruit: null,
};

const $ = (id) => document.getElementById(id);

// MARK: - Words

/** The word for `key` in the chosen language. */
function word(key) {
  const words = state.words.get(state.language) || {};
  return words[key] || "";
}

/** Puts the chosen language's words into every element that asks for one. */
function applyWords() {
  document.documentElement.lang = state.language;
  document.title = word("kiosk.title");
  for (const element of document.querySelectorAll("[data-text]")) {
    element.textContent = word(element.dataset.text);
  }
  for (const element of document.querySelectorAll("[data-label]")) {
    element.setAttribute("aria-label", word(element.dataset.label));
  }
  for (const button of document.querySelectorAll("#languages button")) {
    button.setAttribute("aria-pressed", String(button.lang === state.language));
  }
}

/** Fetches the words of `language` (the server's choice when null). */
async function fetchWords(language) {
  const response = await request("GET", "/strings", { language, signIn: false });
  if (!response.ok) throw response;
  state.words.set(response.body.language, response.body.strings);
  return response.body;
}

/** One button per language, each named in its own language. */
function renderLanguages() {
  const group = $("languages");
  group.replaceChildren();
  for (const language of state.languages) {
    const words = state.words.get(language) || {};
    const button = document.createElement("button");
    button.type = "button";
    button.className = "language";
    button.lang = language;
    button.textContent = words["kiosk.languageName"] || language;
    button.addEventListener("click", () => switchLanguage(language));
    group.append(button);
  }
  group.hidden = state.languages.length < 2;
}

/** Shows the page in another language without a reload. */
async function switchLanguage(language) {
  if (language === state.language) return;
  state.language = language;
  const url = new URL(location.href);
  url.searchParams.set("lang", language);
  history.replaceState(null, "", url);
  applyWords();
  // Names and notices come from the API in the language asked for.
  await loadShop();
  openEvents();
}

// MARK: - Requests

/** A random idempotency key; `crypto.randomUUID` exists only in secure contexts. */
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)]
    .join("-");
}

/**
 * Sends a request to the API in the chosen language.
 *
 * Resolves to {ok, status, body} for every answer of the server, and to {ok: false,
 * status: 0} when it could not be reached. A 401 shows the sign-in screen unless
 * `signIn` is false.
 */
async function request(method, path, { body, key, language = state.language, signIn = true } = {}) {
  const url = new URL(api + path, location.origin);
  if (language) url.searchParams.set("lang", language);
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(url, {
      method, headers, credentials: "same-origin", cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, body: null };
  }
  let parsed = null;
  if ((response.headers.get("Content-Type") || "").includes("json")) {
    try { parsed = await response.json(); } catch { parsed = null; }
  }
  if (response.status === 401 && signIn) showSignIn();
  return { ok: response.ok, status: response.status, body: parsed };
}

/** The sentence of a failed request: the problem's detail, else the general word. */
function failure(response) {
  return (response.body && response.body.detail) || word("kiosk.error");
}

// MARK: - The shop

/** Fetches the stock and the menu, and draws both screens. */
async function loadShop() {
  const [stock, menu] = await Promise.all([request("GET", "/stock"), request("GET", "/menu")]);
  if (stock.status === 401 || menu.status === 401) return false;
  if (!stock.ok || !menu.ok) {
    notice(failure(stock.ok ? menu : stock));
    return false;
  }
  state.fruits = new Map();
  for (const fruit of stock.body.fruits) {
    state.fruits.set(fruit.id, {
      id: fruit.id, name: fruit.name, level: fruit.level, sequence: stock.body.sequence,
    });
  }
  state.juices = menu.body.juices;
  if (!state.source) state.lastSequence = Math.max(state.lastSequence, stock.body.sequence);
  renderStock();
  renderMenu();
  return true;
}

/** The order screen's stock row and the stock screen's steppers. */
function renderStock() {
  const list = $("stock-list");
  const steppers = $("stepper-list");
  list.replaceChildren();
  steppers.replaceChildren();
  for (const fruit of state.fruits.values()) {
    const item = document.createElement("li");
    item.className = "fruit";
    item.dataset.fruit = fruit.id;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = fruit.name;
    const level = document.createElement("span");
    level.className = "level";
    item.append(name, level);
    list.append(item);

    const row = document.createElement("li");
    row.className = "stepper";
    row.dataset.fruit = fruit.id;
    const nameID = "stepper-name-" + fruit.id;
    const rowName = document.createElement("span");
    rowName.className = "name";
    rowName.id = nameID;
    rowName.textContent = fruit.name;
    const rowLevel = document.createElement("output");
    rowLevel.className = "level";
    rowLevel.setAttribute("aria-labelledby", nameID);
    rowLevel.setAttribute("aria-live", "polite");
    const minus = stepButton(fruit.id, -1, "\u2212", nameID + " word-decrease");
    const plus = stepButton(fruit.id, 1, "+", nameID + " word-increase");
    row.append(rowName, minus, rowLevel, plus);
    steppers.append(row);
    showLevel(fruit);
  }
}

function stepButton(fruit, delta, sign, labelledBy) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = delta < 0 ? "step decrease" : "step increase";
  button.dataset.step = String(delta);
  button.setAttribute("aria-labelledby", labelledBy);
  const glyph = document.createElement("span");
  glyph.setAttribute("aria-hidden", "true");
  glyph.textContent = sign;
  button.append(glyph);
  button.addEventListener("click", () => step(fruit, delta));
  return button;
}

/** Shows one fruit's level on both screens. */
function showLevel(fruit, changed = false) {
  for (const item of document.querySelectorAll(`[data-fruit="${CSS.escape(fruit.id)}"]`)) {
    item.querySelector(".level").textContent = String(fruit.level);
    const minus = item.querySelector(".decrease");
    if (minus) minus.setAttribute("aria-disabled", String(fruit.level <= 0));
    if (changed) flash(item, "changed");
  }
}

/** Replays a CSS animation on an element. */
function flash(element, name) {
  element.classList.remove(name);
  void element.offsetWidth;
  element.classList.add(name);
}

/** Sets a fruit's level when `sequence` is newer than the level shown. */
function updateLevel(id, level, sequence, changed = true) {
  const fruit = state.fruits.get(id);
  if (!fruit || sequence < fruit.sequence) return;
  fruit.sequence = sequence;
  if (fruit.level === level) return;
  fruit.level = level;
  showLevel(fruit, changed);
}

/** One button per juice: its name, then the order word, as on the seed's screen. */
function renderMenu() {
  const list = $("menu-list");
  list.replaceChildren();
  for (const juice of state.juices) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "order";
    button.dataset.juice = juice.id;
    const name = document.createElement("span");
    name.className = "juice";
    name.textContent = juice.name;
    const verb = document.createElement("span");
    verb.className = "verb";
    verb.dataset.text = "kiosk.order";
    verb.textContent = word("kiosk.order");
    button.append(name, " ", verb);
    button.disabled = !state.live;
    button.addEventListener("click", () => order(juice.id, button));
    item.append(button);
    list.append(item);
  }
}

// MARK: - Ordering

async function order(juice, button) {
  if (!state.live) return;
  const key = newKey();
  state.ownKeys.add(key);
  const response = await request("POST", "/orders", { body: { juice, count: 1 }, key });
  if (response.status === 201) {
    for (const level of response.body.levels || []) {
      updateLevel(level.fruit, level.level, response.body.sequence);
    }
    $("made-text").textContent = response.body.message;
    openDialog($("made-dialog"), $("made-ok"), button);
  } else if (response.body && response.body.code === "outOfStock") {
    const shortages = response.body.shortages || [];
    state.shortFruit = shortages.length ? shortages[0].fruit : null;
    $("refused-detail").textContent = failure(response);
    openDialog($("refused-dialog"), $("refused-yes"), button);
  } else if (response.status !== 401) {
    notice(failure(response));
  }
}

// MARK: - Editing the stock

/** One stepper press: a compare-and-set from the level shown to one step away. */
function step(id, delta) {
  const previous = state.steps.get(id) || Promise.resolve();
  const next = previous.then(() => sendStep(id, delta));
  state.steps.set(id, next);
  return next;
}

async function sendStep(id, delta) {
  const fruit = state.fruits.get(id);
  if (!fruit) return;
  const expected = fruit.level;
  const target = expected + delta;
  if (target < 0) return;
  const key = newKey();
  state.ownKeys.add(key);
  const response = await request("POST", "/stock/" + encodeURIComponent(id), {
    body: { set: target, expected }, key,
  });
  if (response.ok) {
    updateLevel(id, response.body.after, response.body.sequence, false);
  } else if (response.body && response.body.code === "stockChanged") {
    const current = state.fruits.get(id);
    if (current && typeof response.body.actual === "number") {
      current.level = response.body.actual;
      showLevel(current, true);
    }
    for (const row of document.querySelectorAll(`.stepper[data-fruit="${CSS.escape(id)}"]`)) {
      flash(row, "stale");
    }
    // The API's detail names the fruit and both levels; the catalog's word when it has none.
    notice(response.body.detail || word("kiosk.stale"), "stale");
  } else if (response.status !== 401) {
    notice(failure(response));
  }
}

// MARK: - Screens and dialogs

/** Opens a modal dialog with focus on `focus`; focus goes back to `opener` when it closes. */
function openDialog(dialog, focus, opener) {
  dialog.returnFocus = opener || document.activeElement;
  if (!dialog.open) dialog.showModal();
  if (focus) focus.focus();
}

function onDialogClose(event) {
  const dialog = event.target;
  const target = dialog.returnFocus;
  dialog.returnFocus = null;
  if (dialog.handOff) {
    const next = dialog.handOff;
    dialog.handOff = null;
    next(target);
  } else if (target && target.isConnected) {
    target.focus();
  }
}

/** Opens the stock screen, with focus on a fruit's + button, or on its close button. */
function openStock(fruit, opener) {
  const row = fruit && document.querySelector(`.stepper[data-fruit="${CSS.escape(fruit)}"]`);
  for (const other of document.querySelectorAll(".stepper.short")) other.classList.remove("short");
  if (row) row.classList.add("short");
  openDialog($("stock-screen"), row ? row.querySelector(".increase") : $("close-stock"), opener);
  if (row) row.scrollIntoView({ block: "nearest" });
}

// MARK: - Notices

/** Shows a short notice on the screen in front, for a few seconds. */
function notice(text, kind) {
  if (!text) return;
  const hosts = document.querySelectorAll("dialog.screen[open] .notices");
  const host = hosts.length ? hosts[hosts.length - 1] : document.querySelector("#order-screen .notices");
  const item = document.createElement("p");
  item.className = "notice" + (kind ? " " + kind : "");
  item.textContent = text;
  host.append(item);
  while (host.children.length > 3) host.firstElementChild.remove();
  setTimeout(() => item.remove(), 6000);
}

// MARK: - Live

/** Marks the stream current or not: ordering follows it. */
function setLive(live) {
  state.live = live;
  if (live) document.body.classList.remove("reconnecting");
  for (const button of document.querySelectorAll("button.order")) button.disabled = !live;
}

/** Opens the event stream from the last entry seen, in the chosen language. */
function openEvents() {
  if (state.source) state.source.close();
  clearTimeout(state.reopenTimer);
  const url = new URL(api + "/events", location.origin);
  url.searchParams.set("after", String(state.lastSequence));
  url.searchParams.set("lang", state.language);
  const source = new EventSource(url);
  state.source = source;
  setLive(false);
  source.onmessage = (event) => {
    let entry;
    try { entry = JSON.parse(event.data); } catch { return; }
    receive(entry);
  };
  source.addEventListener("live", (event) => {
    try {
      const body = JSON.parse(event.data);
      if (typeof body.sequence === "number") {
        state.lastSequence = Math.max(state.lastSequence, body.sequence);
      }
    } catch { /* a live event without a body is still live */ }
    setLive(true);
  });
  source.addEventListener("menu", () => { loadShop(); });
  source.onerror = () => {
    if (state.source !== source) return;
    setLive(false);
    document.body.classList.add("reconnecting");
    // The browser reconnects by itself with Last-Event-ID; when it gave up (the server
    // answered with an error), open a new stream after the last entry seen.
    if (source.readyState === EventSource.CLOSED) {
      state.reopenTimer = setTimeout(reopen, 1000);
    }
  };
}

/** After the stream was closed for good: sign in again if asked, else open a new one. */
async function reopen() {
  const check = await request("GET", "/stock");
  if (check.status === 401) return;
  if (check.ok) {
    for (const fruit of check.body.fruits) {
      updateLevel(fruit.id, fruit.level, check.body.sequence);
    }
  }
  openEvents();
}

/** One journal entry from any shop. */
function receive(entry) {
  if (typeof entry.sequence === "number") {
    state.lastSequence = Math.max(state.lastSequence, entry.sequence);
  }
  for (const change of entry.changes || []) {
    updateLevel(change.fruit, change.after, entry.sequence);
  }
  // The page's own change: its answer has shown it already. Each key is journaled once.
  if (state.ownKeys.delete(entry.requestId)) return;
  notice(entry.text, "other");
}

// MARK: - Sign-in

function showSignIn() {
  if (state.source) { state.source.close(); state.source = null; }
  clearTimeout(state.reopenTimer);
  setLive(false);
  document.body.classList.remove("reconnecting");
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  $("order-screen").hidden = true;
  $("loading").hidden = true;
  const section = $("sign-in");
  if (section.hidden) {
    section.hidden = false;
    $("sign-in-token").focus();
  }
}

async function signIn(event) {
  event.preventDefault();
  const field = $("sign-in-token");
  const token = field.value;
  const response = await request("POST", "/session", { body: { token }, signIn: false });
  field.value = "";
  if (response.ok) {
    $("sign-in-failed").hidden = true;
    $("sign-in").hidden = true;
    await (state.language ? start() : boot());
  } else {
    const failed = $("sign-in-failed");
    failed.hidden = false;
    flash(failed, "changed");
    field.focus();
  }
}

// MARK: - Start

async function start() {
  $("loading").hidden = false;
  if (!(await loadShop())) {
    $("loading").hidden = true;
    return;
  }
  $("loading").hidden = true;
  $("sign-in").hidden = true;
  $("order-screen").hidden = false;
  openEvents();
}

async function boot() {
  const asked = new URL(location.href).searchParams.get("lang");
  let first;
  try {
    first = await fetchWords(asked);
  } catch (response) {
    // A server that keeps even its words behind a token: sign in first. Otherwise there
    // is nothing to show yet; try again shortly.
    if (response && response.status === 401) showSignIn();
    else setTimeout(boot, 2000);
    return;
  }
  state.language = first.language;
  state.languages = first.languages || [first.language];
  await Promise.all(state.languages.filter((language) => !state.words.has(language))
    .map((language) => fetchWords(language).catch(() => null)));
  renderLanguages();
  applyWords();
  await start();
}

$("edit-stock").addEventListener("click", (event) => openStock(null, event.currentTarget));
$("close-stock").addEventListener("click", () => $("stock-screen").close());
$("made-ok").addEventListener("click", () => $("made-dialog").close());
$("refused-no").addEventListener("click", () => $("refused-dialog").close());
$("refused-yes").addEventListener("click", () => {
  const dialog = $("refused-dialog");
  const fruit = state.shortFruit;
  // Yes opens the stock screen on the short fruit; focus returns to the order button after it.
  dialog.handOff = (opener) => openStock(fruit, opener);
  dialog.close();
});
for (const dialog of document.querySelectorAll("dialog")) {
  dialog.addEventListener("close", onDialogClose);
}
$("sign-in-form").addEventListener("submit", signIn);
boot();
