// The ruledsl viewer: draws one step of a game as the chosen seat sees it.
// Everything shown comes from the local server's /api/game and /api/step/N,
// which carry only that seat's view of the game.
"use strict";

const cache = new Map();
let info = null;
let current = 0;
let known = [];  // the moves received so far, described for this seat

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

// The server answers only calls that carry the token of the page's own address (?token=...).
const TOKEN = new URLSearchParams(window.location.search).get("token") || "";

async function getJSON(url, options) {
  const response = await fetch(url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(TOKEN), options);
  return response.json();
}

async function loadStep(i) {
  if (!cache.has(i)) cache.set(i, await getJSON(`/api/step/${i}`));
  return cache.get(i);
}

// A card face, a card back ("?": the seat cannot see it) or an empty slot (null).
function card(label, slotNumber) {
  if (label === null || label === undefined) return el("span", { class: "card slot", text: String(slotNumber ?? "") });
  if (label === "?") return el("span", { class: "card back", title: "hidden" });
  // a hidden card the seat knows something about (`tell`): "red ?"
  if (label.endsWith(" ?")) return el("span", { class: "card back", title: "hidden; known: " + label.slice(0, -2),
                                               text: label.slice(0, -2) });
  const red = /[\u2665\u2666]/.test(label);  // red suit symbols, when the cards use them
  return el("span", { class: "card face" + (red ? " red" : ""), text: label });
}

function drawZone(meta, cards) {
  const box = el("div", { class: "zone " + meta.shape, "data-zone": meta.name });
  const label = el("div", { class: "name", text: meta.name });
  box.appendChild(label);
  if (meta.shape === "track") {
    const n = cards.length;
    const radius = Math.max(60, n * 7.5);
    const ring = el("div", { class: "ring" });
    ring.style.width = `${2 * radius + 40}px`;
    ring.style.height = `${2 * radius + 52}px`;
    cards.forEach((c, i) => {
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      const node = card(c, i);
      node.style.left = `${radius + radius * Math.cos(angle) + 3}px`;
      node.style.top = `${radius + radius * Math.sin(angle) + 3}px`;
      node.setAttribute("data-slot", String(i));
      ring.appendChild(node);
    });
    box.appendChild(ring);
  } else if (meta.shape === "pile") {
    const pile = el("div", { class: "cards pile" });
    if (cards.length === 0) pile.appendChild(card(null, ""));
    else pile.appendChild(card(cards[cards.length - 1]));
    box.appendChild(pile);
    label.appendChild(el("span", { class: "count", text: `(${cards.length})` }));
  } else {
    const row = el("div", { class: "cards" + (cards.every((c) => c === "?") ? " fan" : "") });
    for (const c of cards) row.appendChild(card(c));
    box.appendChild(row);
    label.appendChild(el("span", { class: "count", text: `(${cards.length})` }));
  }
  return box;
}

function drawVars(vars, keep) {
  const box = el("div", { class: "vars" });
  for (const [name, value] of Object.entries(vars)) {
    if (!keep(name)) continue;
    const item = el("span", { class: "var", "data-var": name, text: `${name} = ` });
    item.appendChild(el("b", { text: value === null ? "none" : String(value) }));
    box.appendChild(item);
  }
  return box;
}

function familyOf(varName) { return varName.split("[")[0]; }
function playerOf(varName) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*\[(\d+)/.exec(varName);
  return m ? Number(m[1]) : null;
}

function draw(step) {
  const view = step.view;
  const zones = info.table.zones;
  const playerVars = new Set(info.table.player_vars);
  const shared = document.getElementById("shared");
  shared.replaceChildren(...zones.filter((z) => z.owner === null).map((z) => drawZone(z, view.zones[z.name] || [])));
  document.getElementById("globals").replaceChildren(
    drawVars(view.vars, (name) => !playerVars.has(familyOf(name))));
  const players = [];
  for (let p = 0; p < info.players; p++) {
    const panel = el("div", { class: "player", "data-player": String(p) });
    if (p === info.seat) panel.classList.add("you");
    if (!view.over && view.current_player === p) panel.classList.add("deciding");
    panel.appendChild(el("h3", { text: `player ${p}` + (p === info.seat ? " (you)" : "") +
      (!view.over && view.current_player === p ? ` \u2014 deciding ${view.decision}` : "") }));
    for (const z of zones.filter((z) => z.owner === p)) panel.appendChild(drawZone(z, view.zones[z.name] || []));
    panel.appendChild(drawVars(view.vars, (name) => playerVars.has(familyOf(name)) && playerOf(name) === p));
    players.push(panel);
  }
  document.getElementById("players").replaceChildren(...players);

  const status = document.getElementById("status");
  if (view.over) {
    const winners = (step.winners || []).map((w) => `player ${w}`).join(", ") || "none";
    status.replaceChildren(el("span", { class: "who", text: "game over" }),
      document.createTextNode(` \u2014 scores ${JSON.stringify(step.scores)}, winners: ${winners}` +
        (step.finding ? ` (stopped: ${step.finding})` : "")));
  } else {
    const who = view.current_player === info.seat ? "you" : `player ${view.current_player}`;
    status.replaceChildren(el("span", { class: "who", text: who }),
      document.createTextNode(` to decide \u201c${view.decision}\u201d`),
      document.createTextNode(step.move ? ` \u2014 last move: player ${step.move.player}: ${step.move.text}` : ""));
    if (step.changes && step.changes.length)
      status.appendChild(el("div", { class: "changes", text: step.changes.join("; ") }));
    if (view.building) {
      const built = view.building;
      status.appendChild(el("div", { class: "building", text: `building ${built.move}: {${built.cards.join(", ")}}` +
                                                              (built.condition ? `; ${built.condition}` : "") }));
    }
  }
  drawLive(step);
}

function drawLive(step) {
  const live = document.getElementById("live");
  if (!info.live) return;
  live.hidden = false;
  const moves = document.getElementById("moves");
  const view = step.view;
  const atEnd = step.index === info.steps - 1;
  if (!atEnd || view.over || view.current_player !== info.seat) {
    moves.replaceChildren(el("div", { text: view.over ? "the game is over" :
      (atEnd ? "waiting" : "go to the last step to play") }));
    return;
  }
  moves.replaceChildren(...(view.legal_moves || []).map((text, i) => {
    const button = el("button", { "data-index": String(i), text });
    button.addEventListener("click", () => play(i));
    return button;
  }));
}

async function play(i) {
  const answer = await getJSON("/api/move", { method: "POST", headers: { "Content-Type": "application/json" },
                                               body: JSON.stringify({ index: i }) });
  document.getElementById("message").textContent = answer.ok ? "" : answer.message;
  info = await getJSON("/api/game");
  await show(info.steps - 1);
}

// The moves that led to step i, and no later ones: the page never asks ahead of the step it shows.
async function drawHistory(i) {
  if (known.length < i) known = await getJSON(`/api/moves?upto=${i}`);
  const list = document.getElementById("history");
  const items = [];
  for (let n = 1; n <= i; n++) {
    const move = known[n - 1];
    const item = el("li", { "data-step": String(n), text: `player ${move.player}: ${move.text}` });
    if (n === i) item.className = "now";
    item.addEventListener("click", () => show(n));
    items.push(item);
  }
  list.replaceChildren(...items);
  const aside = document.querySelector("aside");
  aside.scrollTop = aside.scrollHeight;  // the latest move in sight, without scrolling the page
}

async function show(i) {
  i = Math.max(0, Math.min(info.steps - 1, i));
  const step = await loadStep(i);
  current = i;
  draw(step);
  document.getElementById("step").textContent = `step ${i} of ${info.steps - 1}`;
  const slider = document.getElementById("slider");
  slider.max = String(info.steps - 1);
  slider.value = String(i);
  document.getElementById("first").disabled = document.getElementById("prev").disabled = i === 0;
  document.getElementById("last").disabled = document.getElementById("next").disabled = i === info.steps - 1;
  await drawHistory(i);
  document.body.dataset.step = String(i);
}

async function start() {
  info = await getJSON("/api/game");
  document.title = `${info.game} \u2014 ruledsl viewer`;
  document.getElementById("title").textContent = info.game;
  document.getElementById("seat").textContent = `seen by player ${info.seat}, ${info.players} players` +
    (info.live ? " \u2014 you play against bots" : "");
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  document.getElementById("last").addEventListener("click", () => show(info.steps - 1));
  document.getElementById("slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(current + 1);
    else if (e.key === "ArrowLeft") show(current - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(info.steps - 1);
  });
  await show(info.live ? info.steps - 1 : 0);
  document.body.dataset.ready = "true";
}

start();
