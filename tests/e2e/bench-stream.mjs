// Benchmark of streaming in the browser (not a test): the counterpart of
// `precis bench-stream` (src/cli/bench_stream.rs) in the app's own worker.
//
// A synthetic news stream in five languages (en, fr, de, es, it; one dated
// article every 5 minutes, 8 sentences each) is generated here from a seed
// and pushed, 64 articles (512 sentences) at a time, to the app's worker
// (www/worker.js with the app's wasm, started the way the page starts it)
// through the worker's live-stream messages (`live_open`, `live_push`:
// src/worker/live.rs). The worker splits, encodes and decides every push.
// Each policy gets a fresh browser context and worker. Measured:
//
// - throughput: sentences / time from posting a push to its answer
//   (splitting, language detection, encoding, decisions, messages);
// - every decision's time: `Engine::decide` alone, timed in the worker with
//   performance.now(), whose steps are 5 µs because the benchmark page is
//   cross-origin isolated (100 µs otherwise);
// - memory after every push: the worker's wasm memory, the worker's JS heap
//   (CDP Runtime.getHeapUsage) and the renderer process's resident memory
//   (/proc, the worker runs in it), printed at 1k / 10k / 30k sentences.
//
//   node bench-stream.mjs [--sentences 30720] [--policies ls+cos,cos] [--languages en,fr,de,es,it]
//                         [--push 64] [--seed 7] [--out FILE]
//
// Needs dist/ (trunk build --release). Writes bench-results/stream-browser.json.
import { chromium } from "playwright-core";
import { execSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { renderers } from "./processes.mjs";
import { DIST, startServer } from "./serve.mjs";

const { values: args } = parseArgs({
  options: {
    sentences: { type: "string", default: "30720" },
    policies: { type: "string", default: "ls+cos,cos" },
    /** Articles per push. */
    push: { type: "string", default: "64" },
    "per-document": { type: "string", default: "8" },
    /** Seconds between articles. */
    interval: { type: "string", default: "300" },
    seed: { type: "string", default: "7" },
    /** Languages drawn from (en alone is `precis bench-stream`'s stream). */
    languages: { type: "string", default: "en,fr,de,es,it" },
    out: { type: "string", default: resolve(DIST, "../bench-results/stream-browser.json") },
  },
});
const SENTENCES = Number(args.sentences);
const PER_DOCUMENT = Number(args["per-document"]);
const PUSH_DOCUMENTS = Number(args.push);
const INTERVAL = Number(args.interval);
/** Memory is reported after the first push that reaches each of these. */
const CHECKPOINTS = [1_000, 10_000, 100_000].filter((c) => c < SENTENCES).concat(SENTENCES);
const QUERY = "earthquake rescue in the coastal city"; // as in `precis bench-stream`

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

// Cross-origin isolation: performance.now() in 5 µs steps instead of 100 µs.
const ISOLATION = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

// ---------------------------------------------------------------------------
// The synthetic stream: template sentences with random slots, as in
// bench_stream.rs (its English lists), in five languages. Reproducible from
// the seed (mulberry32).

function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LANGUAGES = {
  en: {
    subjects: ["Rescue teams", "The mayor", "Officials", "Witnesses", "The coast guard", "Hospital staff", "Engineers",
      "Local residents", "The governor", "Firefighters", "Police", "Aid agencies"],
    verbs: ["reported", "confirmed", "warned about", "described", "denied", "investigated", "announced", "disputed",
      "estimated", "responded to"],
    objects: ["new aftershocks", "collapsed buildings", "the number of injured", "power outages", "road closures",
      "shelter capacity", "water shortages", "the damage to the port", "missing fishermen", "school closures",
      "price increases", "the evacuation order"],
    places: ["in the old town", "near the harbor", "along the coast road", "in the northern district",
      "at the main hospital", "outside the city", "in three villages", "across the province"],
    tail: (day, n) => `on day ${day}, with ${n} people affected.`,
  },
  fr: {
    subjects: ["Les secouristes", "Les élus", "Les autorités", "Des témoins", "Les garde-côtes", "Les soignants",
      "Les ingénieurs", "Les habitants", "Les préfets", "Les pompiers", "Les policiers", "Les agences humanitaires"],
    verbs: ["ont signalé", "ont confirmé", "ont décrit", "ont démenti", "ont annoncé", "ont contesté", "ont estimé",
      "ont évoqué", "ont documenté", "ont minimisé"],
    objects: ["de nouvelles répliques", "des immeubles effondrés", "le nombre de blessés", "des coupures de courant",
      "des routes fermées", "la capacité des abris", "des pénuries d'eau", "les dégâts dans le port",
      "des pêcheurs disparus", "la fermeture des écoles", "la hausse des prix", "l'ordre d'évacuation"],
    places: ["dans la vieille ville", "près du port", "le long de la route côtière", "dans le quartier nord",
      "à l'hôpital principal", "en dehors de la ville", "dans trois villages", "dans toute la province"],
    tail: (day, n) => `le jour ${day}, avec ${n} personnes touchées.`,
  },
  de: {
    subjects: ["Rettungskräfte", "Die Bürgermeister", "Beamte", "Zeugen", "Die Küstenwachen", "Krankenhausmitarbeiter",
      "Ingenieure", "Anwohner", "Die Behörden", "Feuerwehrleute", "Polizisten", "Hilfsorganisationen"],
    verbs: ["meldeten", "bestätigten", "beschrieben", "dementierten", "untersuchten", "bestritten", "schätzten",
      "dokumentierten", "erwähnten", "kritisierten"],
    objects: ["neue Nachbeben", "eingestürzte Gebäude", "die Zahl der Verletzten", "Stromausfälle", "Straßensperrungen",
      "die Kapazität der Notunterkünfte", "Wasserknappheit", "die Schäden am Hafen", "vermisste Fischer",
      "Schulschließungen", "Preiserhöhungen", "die Evakuierungsanordnung"],
    places: ["in der Altstadt", "am Hafen", "entlang der Küstenstraße", "im Norden der Stadt", "am Hauptkrankenhaus",
      "außerhalb der Stadt", "in drei Dörfern", "in der ganzen Provinz"],
    tail: (day, n) => `am Tag ${day}, mit ${n} Betroffenen.`,
  },
  es: {
    subjects: ["Los equipos de rescate", "Los alcaldes", "Las autoridades", "Los testigos", "Los guardacostas",
      "Los sanitarios", "Los ingenieros", "Los vecinos", "Los gobernadores", "Los bomberos", "Los policías",
      "Las agencias de ayuda"],
    verbs: ["confirmaron", "describieron", "desmintieron", "anunciaron", "cuestionaron", "estimaron", "investigaron",
      "documentaron", "mencionaron", "reportaron"],
    objects: ["nuevas réplicas", "edificios derrumbados", "el número de heridos", "cortes de electricidad",
      "cierres de carreteras", "la capacidad de los albergues", "la escasez de agua", "los daños en el puerto",
      "pescadores desaparecidos", "el cierre de escuelas", "subidas de precios", "la orden de evacuación"],
    places: ["en el casco antiguo", "cerca del puerto", "a lo largo de la carretera costera", "en el distrito norte",
      "en el hospital principal", "a las afueras de la ciudad", "en tres pueblos", "en toda la provincia"],
    tail: (day, n) => `el día ${day}, con ${n} personas afectadas.`,
  },
  it: {
    subjects: ["Le squadre di soccorso", "I sindaci", "Le autorità", "I testimoni", "I guardacoste", "I medici",
      "Gli ingegneri", "I residenti", "I prefetti", "I vigili del fuoco", "Gli agenti", "Le agenzie umanitarie"],
    verbs: ["hanno segnalato", "hanno confermato", "hanno descritto", "hanno smentito", "hanno annunciato",
      "hanno contestato", "hanno stimato", "hanno documentato", "hanno citato", "hanno minimizzato"],
    objects: ["nuove scosse di assestamento", "edifici crollati", "il numero dei feriti", "interruzioni di corrente",
      "strade chiuse", "la capienza dei rifugi", "la carenza d'acqua", "i danni al porto", "pescatori dispersi",
      "la chiusura delle scuole", "aumenti dei prezzi", "l'ordine di evacuazione"],
    places: ["nel centro storico", "vicino al porto", "lungo la strada costiera", "nel quartiere nord",
      "all'ospedale principale", "fuori città", "in tre villaggi", "in tutta la provincia"],
    tail: (day, n) => `il giorno ${day}, con ${n} persone coinvolte.`,
  },
};

/** Yields pushes: arrays of dated documents (one language per document). */
function* syntheticStream(seed) {
  const next = random(seed);
  const below = (n) => Math.floor(next() * n);
  const pick = (list) => list[below(list.length)];
  const codes = args.languages.split(",").map((c) => c.trim());
  for (const c of codes) if (!LANGUAGES[c]) throw new Error(`no templates for language ${c} (${Object.keys(LANGUAGES)})`);
  let time = 1_700_000_000;
  let made = 0;
  let documents = 0;
  while (made < SENTENCES) {
    const push = [];
    while (push.length < PUSH_DOCUMENTS && made < SENTENCES) {
      const lang = codes[below(codes.length)];
      const l = LANGUAGES[lang];
      const count = Math.min(PER_DOCUMENT, SENTENCES - made);
      const sentences = Array.from({ length: count }, () =>
        `${pick(l.subjects)} ${pick(l.verbs)} ${pick(l.objects)} ${pick(l.places)} ${l.tail(1 + below(30), 2 + below(500))}`);
      push.push({ id: `synthetic-${documents}`, timestamp: time, text: sentences.join(" "), expected: count, lang });
      made += count;
      documents += 1;
      time += INTERVAL;
    }
    yield push;
  }
}

// ---------------------------------------------------------------------------
// The page side: a blank cross-origin isolated page of the app's origin
// that starts the app's worker and speaks its protocol.

const BENCH_PAGE = "bench-stream.html";

/** The hashed file names Trunk wrote into dist/index.html. */
function appFiles() {
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const js = html.match(/data-app-js="([^"]+)"/)?.[1];
  const wasm = html.match(/data-app-wasm="([^"]+)"/)?.[1];
  if (!js || !wasm) throw new Error("dist/index.html names no app module: run trunk build --release");
  return { js, wasm };
}

/** Installed in the page: starts the worker, then `window.bench.request(message)`. */
function pageSide({ js, wasm }) {
  const absolute = (path) => new URL(path, location.href).href;
  const url = `worker.js?js=${encodeURIComponent(absolute(js))}&wasm=${encodeURIComponent(absolute(wasm))}`;
  const worker = new Worker(url, { type: "module" });
  const waiting = new Map();
  const state = { started: false, offer: null, model: null, errors: [] };
  let nextId = 1;
  let resolveReady;
  const ready = new Promise((done) => (resolveReady = done));
  worker.onerror = (event) => state.errors.push(String(event.message ?? event));
  worker.onmessage = (event) => {
    // Messages are externally tagged (src/worker/protocol.rs): "started" or
    // {"model": {...}}; read as {type, ...fields}.
    const message = JSON.parse(event.data);
    const [type, fields] = typeof message === "string" ? [message, {}] : Object.entries(message)[0];
    const answer = { type, ...fields };
    const received = performance.now();
    if (answer.type === "started") state.started = true;
    else if (answer.type === "stream_offer") state.offer = answer.offer;
    else if (answer.type === "model") state.model = answer.status;
    if (state.offer && state.model && state.model.state !== "fetching" && state.model.state !== "loading") resolveReady();
    if (answer.id !== undefined && waiting.has(answer.id) && answer.type !== "progress") {
      waiting.get(answer.id)({ answer, received });
      waiting.delete(answer.id);
    }
  };
  window.bench = {
    state,
    ready: () => ready.then(() => ({ offer: state.offer, model: state.model, crossOriginIsolated })),
    /** Posts a request; resolves to its answer and the round trip in ms. */
    async request(message) {
      const id = nextId++;
      const answered = new Promise((done) => waiting.set(id, done));
      const posted = performance.now();
      const { type, ...fields } = message;
      worker.postMessage([JSON.stringify({ [type]: { ...fields, id } })]);
      const { answer, received } = await answered;
      if (answer.type === "failed") throw new Error(answer.message);
      return { answer, ms: received - posted };
    },
  };
}

/** Pushes one batch of documents; returns what the benchmark keeps of the answer. */
const pushInPage = (page, documents) =>
  page.evaluate(async (documents) => {
    const { answer, ms } = await window.bench.request({ type: "live_push", documents });
    const { push } = answer;
    const perDocument = new Map();
    for (const s of push.sentences) perDocument.set(s.doc, (perDocument.get(s.doc) ?? 0) + 1);
    const langs = new Map();
    for (const s of push.sentences) langs.set(s.lang, (langs.get(s.lang) ?? 0) + 1);
    return {
      ms,
      sentences: push.sentences.length,
      perDocument: documents.map((_, i) => perDocument.get(i) ?? 0),
      langs: Object.fromEntries(langs),
      updates: push.updates,
      timing: push.timing,
    };
  }, documents);

// ---------------------------------------------------------------------------
// Memory outside the page: the worker's JS heap over CDP, the renderer's RSS.

/** A CDP client for the app's worker (attached from the browser session). */
async function workerHeap(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send("Target.getTargets");
  const target = targetInfos.find((t) => t.type === "worker" && t.url.includes("worker.js"));
  if (!target) return { collectGarbage: async () => {}, read: async () => null, close: () => cdp.detach() };
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
  let nextId = 1;
  const waiting = new Map();
  cdp.on("Target.receivedMessageFromTarget", (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message);
    if (waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  });
  const call = (method, params = {}) => {
    const id = nextId++;
    const answered = new Promise((done) => waiting.set(id, done));
    cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return Promise.race([answered, new Promise((done) => setTimeout(() => done(null), 5_000))]);
  };
  return {
    collectGarbage: () => call("HeapProfiler.collectGarbage"),
    async read() {
      const answer = await call("Runtime.getHeapUsage");
      return answer?.result ? { used: answer.result.usedSize, total: answer.result.totalSize } : null;
    },
    close: () => cdp.detach().catch(() => {}),
  };
}

/** CPU seconds of a renderer's dedicated worker threads (and the whole process). */
function cpuSeconds(pid) {
  const ticks = (path) => {
    const stat = readFileSync(path, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  };
  const hz = Number(execSync("getconf CLK_TCK").toString()) || 100;
  let worker = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").startsWith("DedicatedWorker")) worker += ticks(`/proc/${pid}/task/${task}/stat`);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return { worker: worker / hz, process: ticks(`/proc/${pid}/stat`) / hz };
}

// ---------------------------------------------------------------------------

function quantiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

async function runPolicy(browser, server, files, policy) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.route(server.url + BENCH_PAGE, (route) =>
    route.fulfill({ status: 200, headers: { "content-type": "text/html; charset=utf-8", ...ISOLATION },
      body: "<!doctype html><meta charset=utf-8><title>stream benchmark</title>" }));
  await page.goto(server.url + BENCH_PAGE);
  const loadStarted = Date.now();
  await page.evaluate(pageSide, files);
  const ready = await page.evaluate(() => window.bench.ready());
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  if (ready.model.state !== "ready") throw new Error(`model: ${JSON.stringify(ready.model)}`);
  if (policy.startsWith("ls") && !ready.offer.trained) throw new Error("this build has no LS weights (models/stream/ls.json)");
  if (!ready.crossOriginIsolated) console.warn("warning: the page is not cross-origin isolated: decisions timed in 100 µs steps");
  const heap = await workerHeap(browser);
  const pageCdp = await context.newCDPSession(page);
  const opened = await page.evaluate((job) => window.bench.request({ type: "live_open", job }), { policy, query: QUERY });

  const pushes = [];
  const decisions = [];
  const arrivals = [];
  const memory = [];
  let sentences = 0;
  let expected = 0;
  let updates = 0;
  const langs = {};
  let missplit = 0;
  const renderer = renderers().sort((a, b) => b.rss - a.rss)[0];
  const cpuBefore = renderer ? cpuSeconds(renderer.pid) : null;
  const started = Date.now();
  for (const documents of syntheticStream(Number(args.seed))) {
    const sent = documents.map(({ expected: _, lang: __, ...d }) => d);
    const push = await pushInPage(page, sent);
    expected += documents.reduce((n, d) => n + d.expected, 0);
    missplit += documents.filter((d, i) => push.perDocument[i] !== d.expected).length;
    sentences += push.sentences;
    updates = push.updates;
    for (const [lang, n] of Object.entries(push.langs)) langs[lang] = (langs[lang] ?? 0) + n;
    decisions.push(...push.timing.decisions_us);
    arrivals.push(...push.timing.arrivals_us);
    const { decisions_us: _, arrivals_us: __, ...timing } = push.timing;
    pushes.push({ sentences, ms: push.ms, ...timing });
    // At the checkpoints, what is still held: garbage collected first in
    // the worker and in the page (both live in the renderer process).
    const checkpoint = CHECKPOINTS.some((c) => sentences - push.sentences < c && c <= sentences);
    if (checkpoint) {
      await heap.collectGarbage();
      await pageCdp.send("HeapProfiler.collectGarbage");
    }
    const rendererRss = Math.max(0, ...renderers().map((r) => r.rss));
    memory.push({ sentences, checkpoint, wasm: push.timing.memory_bytes, workerHeap: await heap.read(), rendererRss });
    if (process.stdout.isTTY && pushes.length % 10 === 0) {
      process.stdout.write(`  ${policy}: ${sentences} sentences, ${(sentences / (pushes.reduce((t, p) => t + p.ms, 0) / 1000)).toFixed(0)} sentences/s\r`);
    }
  }
  const wallSeconds = (Date.now() - started) / 1000;
  const cpuAfter = renderer ? cpuSeconds(renderer.pid) : null;
  const cpu = cpuBefore && { worker: cpuAfter.worker - cpuBefore.worker, renderer: cpuAfter.process - cpuBefore.process };
  await heap.close();
  await context.close();
  const sum = (key) => pushes.reduce((t, p) => t + p[key], 0);
  const pushMs = sum("ms");
  const at = memory.filter((m) => m.checkpoint);
  return {
    policy,
    threshold: opened.answer.opened.threshold,
    modelLoadSeconds: loadSeconds,
    sentences,
    expectedSentences: expected,
    documentsSplitDifferently: missplit,
    languages: langs,
    updates,
    pushes: pushes.length,
    sentencesPerSecond: sentences / (pushMs / 1000),
    sentencesPerSecondWall: sentences / wallSeconds,
    decisionsOnlyPerSecond: sentences / (sum("decide_ms") / 1000),
    // What a quiet machine would give if the worker had a core to itself.
    sentencesPerWorkerCpuSecond: cpu ? sentences / cpu.worker : null,
    cpuSeconds: cpu,
    seconds: { push: pushMs / 1000, split: sum("split_ms") / 1000, encode: sum("encode_ms") / 1000,
      decide: sum("decide_ms") / 1000, wall: wallSeconds },
    decisionMicros: quantiles(decisions),
    arrivalMicros: quantiles(arrivals),
    memoryAt: at,
    memory,
    errors,
  };
}

const mib = (bytes) => (bytes == null ? "–" : (bytes / 2 ** 20).toFixed(0));
const server = await startServer(DIST, 0, ISOLATION);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS, headless: true });
try {
  const files = appFiles();
  const results = [];
  console.log(`synthetic stream: ${SENTENCES} sentences in ${args.languages}, ${PER_DOCUMENT} per article, ` +
    `one article every ${INTERVAL} s, ${PUSH_DOCUMENTS} articles per push`);
  for (const policy of args.policies.split(",")) results.push(await runPolicy(browser, server, files, policy.trim()));
  const commit = (() => {
    try {
      return execSync("git rev-parse --short HEAD", { cwd: DIST, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    } catch {
      return null;
    }
  })();
  const report = {
    date: new Date().toISOString(),
    commit,
    load_average: loadavg(),
    chromium: browser.version(),
    settings: { sentences: SENTENCES, languages: args.languages, perDocument: PER_DOCUMENT, pushDocuments: PUSH_DOCUMENTS, interval: INTERVAL, seed: Number(args.seed), query: QUERY },
    results,
  };
  mkdirSync(resolve(args.out, ".."), { recursive: true });
  writeFileSync(args.out, JSON.stringify(report, null, 1));

  if (process.stdout.isTTY) console.log("".padEnd(100));
  // Decision times are read in 5 µs steps: 0 means below one step.
  const us = (v) => (v < 2.5 ? "<5" : v.toFixed(0));
  console.log("| policy | sentences | sentences/s (push → answer) | per worker CPU second | split / encode / decide / rest (s) | decisions alone /s | decision p50 / p95 / p99 / max (µs) | mean (µs) | updates |");
  console.log("|---|---:|---:|---:|---|---:|---|---:|---:|");
  for (const r of results) {
    const s = r.seconds;
    const d = r.decisionMicros;
    console.log(`| ${r.policy} | ${r.sentences} | ${r.sentencesPerSecond.toFixed(0)} | ${r.sentencesPerWorkerCpuSecond?.toFixed(0) ?? "–"} | ` +
      `${s.split.toFixed(1)} / ${s.encode.toFixed(1)} / ${s.decide.toFixed(2)} / ${(s.push - s.split - s.encode - s.decide).toFixed(1)} | ` +
      `${r.decisionsOnlyPerSecond.toFixed(0)} | ${us(d.p50)} / ${us(d.p95)} / ${us(d.p99)} / ${us(d.max)} | ${d.mean.toFixed(1)} | ${r.updates} |`);
  }
  for (const r of results) {
    console.log(`${r.policy}: memory (MiB) at ${r.memoryAt.map((m) => m.sentences).join(" / ")} sentences: ` +
      `wasm ${r.memoryAt.map((m) => mib(m.wasm)).join(" / ")}, worker JS heap ${r.memoryAt.map((m) => mib(m.workerHeap?.used)).join(" / ")}, ` +
      `renderer RSS ${r.memoryAt.map((m) => mib(m.rendererRss)).join(" / ")}`);
    console.log(`  model ready in ${r.modelLoadSeconds.toFixed(1)} s; article arrival p50 / p95 / max ${r.arrivalMicros.p50.toFixed(0)} / ` +
      `${r.arrivalMicros.p95.toFixed(0)} / ${r.arrivalMicros.max.toFixed(0)} µs; worker CPU ${r.cpuSeconds?.worker.toFixed(1)} s ` +
      `(renderer ${r.cpuSeconds?.renderer.toFixed(1)} s) in ${r.seconds.wall.toFixed(1)} s wall; languages ${JSON.stringify(r.languages)}; ` +
      `${r.documentsSplitDifferently} of ${r.sentences / PER_DOCUMENT} articles split into another number of sentences than generated`);
    if (r.errors.length) console.log(`  page errors: ${r.errors.join("; ")}`);
  }
  console.log(`wrote ${args.out}`);
} finally {
  await browser.close();
  await server.close();
}
