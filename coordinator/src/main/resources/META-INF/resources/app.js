// Tile Seeder preview: a Leaflet map of the seeded tiles and the job list. No build step, no dependencies but Leaflet.
// Every piece of server data goes into the DOM through textContent (or escapeHtml for Leaflet's attribution).
'use strict';

const FINAL_STATES = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);
const CRS_BY_MATRIX_SET = { WebMercatorQuad: L.CRS.EPSG3857, WorldCRS84Quad: L.CRS.EPSG4326 };
const EXTENSION_BY_FORMAT = { png: 'png', jpeg: 'jpg' };
const MERCATOR_MAX_LAT = 85.0511287798;

const $ = (id) => document.getElementById(id);
const layerSelect = $('layer'), tmsSelect = $('tms'), formatSelect = $('format');

let layers = [];
let map = null;           // recreated when the CRS changes: Leaflet cannot switch CRS on a live map
let tileLayer = null;
let cacheBust = Date.now();
let selectedJobId = null;
let finishedJobs = null;   // ids of the final jobs seen so far; null before the first poll
let pollTimer = null;

// ---- helpers ----

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function escapeHtml(text) {
  const div = document.createElement('div');
  div.textContent = text ?? '';
  return div.innerHTML;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function fillSelect(select, values, preferred) {
  select.replaceChildren(...values.map((v) => new Option(v, v)));
  select.value = values.includes(preferred) ? preferred : values[0];
}

const number = (n) => Number(n ?? 0).toLocaleString('en-US');

function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = Math.floor(seconds % 60);
  return h ? `${h}h ${m}m` : m ? `${m}m ${s}s` : `${s}s`;
}

function bytes(n) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
  return `${i ? n.toFixed(1) : n} ${units[i]}`;
}

const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '–');

// ---- map ----

const currentLayer = () => layers.find((l) => l.name === layerSelect.value);

function tileUrl(layer, tms, format) {
  const ext = EXTENSION_BY_FORMAT[format] || format;
  return `/tiles/${encodeURIComponent(layer)}/${encodeURIComponent(tms)}/{z}/{x}/{y}.${ext}?v=${cacheBust}`;
}

function worldBounds(crs) {
  const lat = crs === L.CRS.EPSG3857 ? MERCATOR_MAX_LAT : 90;
  return L.latLngBounds([-lat, -180], [lat, 180]);
}

/** Shows the picked layer / matrix set / format; fits `bounds` if given (or the world when the CRS changed). */
function showTiles(bounds) {
  const layer = currentLayer();
  if (!layer) return;
  const tms = tmsSelect.value, format = formatSelect.value;
  const crs = CRS_BY_MATRIX_SET[tms] || L.CRS.EPSG3857;

  if (!map || map.options.crs !== crs) {
    if (map) map.remove();
    map = L.map('map', { crs, minZoom: 0, maxZoom: layer.zoom.max });
    tileLayer = null;
    // A 256 px world at zoom 0 in EPSG:3857, 512x256 in EPSG:4326: one zoom less shows the same extent.
    if (!bounds) map.setView([20, 0], Math.min(crs === L.CRS.EPSG4326 ? 1 : 2, layer.zoom.max));
  }
  if (tileLayer) map.removeLayer(tileLayer);
  map.setMaxZoom(layer.zoom.max);
  tileLayer = L.tileLayer(tileUrl(layer.name, tms, format), {
    minZoom: 0,
    maxZoom: layer.zoom.max,
    attribution: escapeHtml(layer.attribution),
  }).addTo(map);

  if (bounds) {
    const world = worldBounds(crs);
    const clamped = L.latLngBounds(
      [Math.max(bounds.getSouth(), world.getSouth()), bounds.getWest()],
      [Math.min(bounds.getNorth(), world.getNorth()), bounds.getEast()]);
    map.fitBounds(clamped, { maxZoom: layer.zoom.max });
  }
}

/** Re-fetches the visible tiles, past the browser cache, e.g. after a job wrote new ones. */
function refreshTiles() {
  cacheBust = Date.now();
  if (tileLayer) tileLayer.setUrl(tileUrl(layerSelect.value, tmsSelect.value, formatSelect.value));
}

function onLayerPicked() {
  const layer = currentLayer();
  fillSelect(tmsSelect, layer.tileMatrixSets, tmsSelect.value || 'WebMercatorQuad');
  fillSelect(formatSelect, layer.formats, formatSelect.value || 'png');
  showTiles();
}

// ---- jobs ----

function showJobOnMap(job) {
  const spec = job.spec;
  const layer = layers.find((l) => l.name === spec.layer);
  if (!layer) return;
  selectedJobId = job.id;
  layerSelect.value = layer.name;
  fillSelect(tmsSelect, layer.tileMatrixSets, spec.tileMatrixSet);
  fillSelect(formatSelect, layer.formats, spec.format);
  const [w, s, e, n] = spec.bbox && spec.bbox.length === 4 ? spec.bbox : [-180, -90, 180, 90];
  showTiles(L.latLngBounds([s, w], [n, e]));
  for (const item of document.querySelectorAll('.job')) {
    item.classList.toggle('selected', item.dataset.id === job.id);
  }
}

function renderJob(job) {
  const spec = job.spec, p = job.progress || {};
  const item = el('li', `job ${job.state}`);
  item.dataset.id = job.id;
  if (job.id === selectedJobId) item.classList.add('selected');
  item.title = 'Show on the map';
  item.addEventListener('click', () => showJobOnMap(job));

  const head = el('div', 'head');
  head.append(
    el('span', 'what', `${spec.layer} · z${spec.zoom.min}–${spec.zoom.max}`),
    el('span', `state ${job.state}`, job.state));
  item.append(head,
    el('div', 'meta', `${spec.tileMatrixSet} · ${spec.format} · ${spec.mode} · created ${time(job.created)}`));

  const bar = el('div', 'bar');
  const fill = el('div', 'fill');
  const percent = Math.max(0, Math.min(100, Number(p.percent) || 0));
  fill.style.width = `${percent}%`;
  bar.append(fill, el('span', 'label', `${percent.toFixed(1)} %`));
  item.append(bar);

  const planned = p.planningDone ? number(p.tilesPlanned) : `${number(p.tilesPlanned)}+`;
  const rate = `${number(Math.round(p.tilesPerSecond || 0))} tiles/s`;
  const eta = FINAL_STATES.has(job.state) ? `took ${duration(elapsed(job))}` : `ETA ${duration(p.etaSeconds)}`;
  item.append(el('div', 'stats', `${number(p.tilesDone)} / ${planned} tiles · ${rate} · ${eta}`));
  item.append(el('div', 'stats', `written ${number(p.tilesWritten)} · empty ${number(p.tilesEmpty)}`
    + ` · skipped ${number(p.tilesSkipped)} · deleted ${number(p.tilesDeleted)}`
    + ` · failed ${number(p.tilesFailed)} · ${bytes(p.bytes || 0)}`));

  if (job.reason) item.append(el('div', 'reason', job.reason));
  const failed = job.failedTasks || [];
  for (const task of failed.slice(0, 3)) item.append(el('div', 'reason', `task ${task.task}: ${task.reason}`));
  if (failed.length > 3) item.append(el('div', 'reason', `… and ${failed.length - 3} more failed tasks`));
  return item;
}

function elapsed(job) {
  if (!job.started || !job.finished) return null;
  return (new Date(job.finished) - new Date(job.started)) / 1000;
}

async function loadJobs() {
  clearTimeout(pollTimer);
  let active = false;
  try {
    const jobs = await getJson('/api/v1/jobs');
    $('jobs').replaceChildren(...jobs.map(renderJob));
    // A job that finished since the last poll (even one that started and ended between two polls) may have
    // written tiles the map shows: fetch them again.
    const finishedNow = jobs.filter((job) => FINAL_STATES.has(job.state)).map((job) => job.id);
    if (finishedJobs && finishedNow.some((id) => !finishedJobs.has(id))) refreshTiles();
    finishedJobs = new Set([...(finishedJobs || []), ...finishedNow]);
    active = jobs.some((job) => !FINAL_STATES.has(job.state));
    $('status').textContent = jobs.length === 0 ? 'No jobs yet. POST one to /api/v1/jobs.'
      : active ? 'Refreshing every 2 s.' : `Updated ${new Date().toLocaleTimeString()}.`;
  } catch (error) {
    $('status').textContent = `Could not load the jobs: ${error.message}`;
  }
  // Every 2 s while a job runs; less often otherwise, to notice jobs submitted elsewhere.
  pollTimer = setTimeout(loadJobs, active ? 2000 : 5000);
}

// ---- start ----

async function start() {
  try {
    layers = await getJson('/api/v1/layers');
  } catch (error) {
    $('status').textContent = `Could not load the layers: ${error.message}`;
    return;
  }
  if (layers.length === 0) {
    $('status').textContent = 'No layers are configured.';
  } else {
    layerSelect.replaceChildren(...layers.map((l) => new Option(l.title || l.name, l.name)));
    layerSelect.addEventListener('change', onLayerPicked);
    tmsSelect.addEventListener('change', () => showTiles());
    formatSelect.addEventListener('change', () => showTiles());
    onLayerPicked();
  }
  $('refresh').addEventListener('click', () => { refreshTiles(); loadJobs(); });
  loadJobs();
}

start();
