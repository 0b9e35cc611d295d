// Tile Seeder console: the job list, a form to submit jobs, cancel, and a Leaflet map of the seeded tiles.
// No build step, no dependencies but Leaflet (and proj4js for tile matrix sets in other CRSs). Every piece of server data goes into the DOM through textContent
// (or escapeHtml for Leaflet's attribution).
//
// Access: when the API answers 401 the console asks for a token, keeps it in sessionStorage (this tab only) and
// sends it as "Authorization: Bearer" on every call, tiles included (fetched, not <img src>). A server without
// auth never answers 401, so the console never asks.
'use strict';

const FINAL_STATES = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'LOST']);
const CRS_BY_MATRIX_SET = { WebMercatorQuad: L.CRS.EPSG3857, WorldCRS84Quad: L.CRS.EPSG4326 };
const EXTENSION_BY_FORMAT = { png: 'png', png8: 'png', jpeg: 'jpg', 'webp-lossless': 'webp' };
const MERCATOR_MAX_LAT = 85.0511287798;
const TOKEN_KEY = 'seeder.token';

const $ = (id) => document.getElementById(id);
const layerSelect = $('layer'), tmsSelect = $('tms'), formatSelect = $('format');
const form = $('job-form'), bboxInput = $('f-bbox'), drawButton = $('draw');
const tokenDialog = $('token-dialog');

let layers = [];
let map = null;           // recreated when the CRS changes: Leaflet cannot switch CRS on a live map
let tileLayer = null;
let area = null;          // the job form's area (L.LatLngBounds), or null for the whole world
let areaRectangle = null;
let coverage = null;      // the job's own coverage: GeoJSON drawn on the map or loaded from a file, or null
let coverageShape = null; // the coverage shown on the map (the job's own or a layer's)
let coverageShown = null; // the GeoJSON coverageShape draws
let polygon = null;       // the polygon being drawn: its corners (L.LatLng) and its line on the map
let selectedJobId = null;
let finishedJobs = null;  // ids of the final jobs seen so far; null before the first poll
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

function fillSelect(select, values, preferred, labelOf = (v) => v) {
  select.replaceChildren(...values.map((v) => new Option(labelOf(v), v)));
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

// ---- API and access ----

/** fetch() with the token, if any; a 401 opens the token form. */
async function api(path, options = {}) {
  const headers = new Headers({ Accept: 'application/json', ...options.headers });
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(path, { ...options, headers, cache: 'no-store' });
  if (response.status === 401) {
    askForToken(token ? 'The server refused this token (401). Enter another one.'
      : 'The server needs an access token (401).');
  }
  return response;
}

/** The problem+json body of an error response: {status, detail, errors}. */
async function problemOf(response) {
  let problem = {};
  try {
    problem = await response.json();
  } catch {
    // not JSON: the status says enough
  }
  return { status: response.status, detail: problem.detail || problem.title || `HTTP ${response.status}`,
    errors: problem.errors || [] };
}

/** What to tell the operator about a refused call; `action` says what was tried ("submit jobs"). */
function refusal(problem, action) {
  if (problem.status === 401) return `To ${action} the server needs a token: enter one, then try again.`;
  if (problem.status === 403) return `This token may not ${action} (403): ${problem.detail}`;
  return problem.detail;
}

async function getJson(path, accept = 'application/json') {
  const response = await api(path, { headers: { Accept: accept } });
  if (!response.ok) {
    const problem = await problemOf(response);
    throw Object.assign(new Error(`${path}: ${problem.detail}`), { status: response.status });
  }
  return response.json();
}

function askForToken(reason) {
  $('token-reason').textContent = reason;
  $('token-button').hidden = false;
  if (!tokenDialog.open) {
    $('token').value = '';
    tokenDialog.returnValue = '';
    tokenDialog.showModal();
  }
}

function onTokenDialogClosed() {
  if (tokenDialog.returnValue !== 'save') return;
  sessionStorage.setItem(TOKEN_KEY, $('token').value.trim());
  reload();
}

function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
  $('token').value = '';
  $('token-reason').textContent = 'Token forgotten: this tab sends none now.';
}

// ---- map ----

const currentLayer = () => layers.find((l) => l.name === layerSelect.value);

/**
 * Tiles fetched with the Authorization header and shown from a blob. 404 means not seeded (or empty and
 * skipped): an empty tile, not an error.
 */
const StoreTiles = L.GridLayer.extend({
  initialize(path, options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.path = path;
    this.aborts = new WeakMap();
    this.on('tileunload', ({ tile }) => this.aborts.get(tile)?.abort());
  },

  createTile(coords, done) {
    const tile = el('img');
    tile.alt = '';
    const controller = new AbortController();
    this.aborts.set(tile, controller);
    api(`${this.path}/${coords.z}/${coords.x}/${coords.y}.${this.options.extension}${this.options.query}`,
      { headers: { Accept: 'image/*' }, signal: controller.signal })
      .then(async (response) => {
        if (response.status === 404) return done(null, tile);
        if (!response.ok) {
          showMapMessage(refusal(await problemOf(response), 'read tiles'));
          return done(new Error(`HTTP ${response.status}`), tile);
        }
        showMapMessage('');
        tile.onload = () => { URL.revokeObjectURL(tile.src); done(null, tile); };
        tile.onerror = () => done(new Error('not an image'), tile);
        tile.src = URL.createObjectURL(await response.blob());
      })
      .catch((error) => done(error, tile));
    return tile;
  },
});

function showMapMessage(text) {
  $('map-message').textContent = text;
  $('map-message').hidden = !text;
}

function worldBounds(crs) {
  const lat = crs === L.CRS.EPSG3857 ? MERCATOR_MAX_LAT : 90;
  return L.latLngBounds([-lat, -180], [lat, 180]);
}

const gridCrsCache = new Map(); // "layer/tms" -> {crs, tileSize, maxZoom, centre} or {error}

/**
 * A tile matrix set Leaflet does not know, as a Leaflet CRS: its PROJ definition through proj4js, the origin and
 * resolutions of its matrices from GET /api/v1/layers/{layer}/tile-matrix-sets/{id}. A set whose matrices do not
 * share one origin and tile size cannot be one Leaflet CRS: it gets {error}.
 */
async function gridCrs(layer, tms) {
  const key = `${layer.name}/${tms}`;
  if (gridCrsCache.has(key)) return gridCrsCache.get(key);
  const response = await api(`/api/v1/layers/${encodeURIComponent(layer.name)}/tile-matrix-sets/${encodeURIComponent(tms)}`);
  if (!response.ok) return { error: refusal(await problemOf(response), 'read the tile matrix set') };
  const set = await response.json();
  const northingFirst = /^(N|Y|Lat)/i.test(set.orderedAxes[0]);
  const point = (p) => (northingFirst ? [p[1], p[0]] : p);
  const first = set.tileMatrices[0];
  const [left, top] = point(first.pointOfOrigin);
  const same = set.tileMatrices.every((m) => {
    const [x, y] = point(m.pointOfOrigin);
    return x === left && y === top && m.tileWidth === first.tileWidth && m.tileHeight === first.tileWidth;
  });
  let entry;
  if (!same) {
    entry = { error: `${tms}: its matrices have different origins or tile sizes; the preview map cannot show it` };
  } else {
    const resolutions = set.tileMatrices.map((m) => m.cellSize);
    const projection = proj4('EPSG:4326', set.proj4);
    const span = first.tileWidth * first.cellSize;
    const crs = L.extend({}, L.CRS, {
      code: tms,
      projection: {
        project: (latlng) => L.point(projection.forward([latlng.lng, latlng.lat])),
        unproject: (p) => { const [lng, lat] = projection.inverse([p.x, p.y]); return L.latLng(lat, lng); },
        // The first matrix: Leaflet asks for no tile beyond it.
        bounds: L.bounds([left, top - first.matrixHeight * span], [left + first.matrixWidth * span, top]),
      },
      transformation: new L.Transformation(1, -left, -1, top),
      scale: (zoom) => 1 / resolutions[zoom],
      zoom: (scale) => resolutions.findIndex((r) => 1 / r >= scale * (1 - 1e-9)),
      infinite: false,
    });
    const last = set.tileMatrices.at(-1);
    const width = last.matrixWidth * last.tileWidth * last.cellSize;
    const height = last.matrixHeight * last.tileHeight * last.cellSize;
    entry = {
      crs,
      tileSize: first.tileWidth,
      maxZoom: set.tileMatrices.length - 1,
      centre: crs.projection.unproject(L.point(left + width / 2, top - height / 2)),
    };
  }
  gridCrsCache.set(key, entry);
  return entry;
}

/** Shows the picked layer / matrix set / format; fits `bounds` if given (or the world when the CRS changed). */
async function showTiles(bounds) {
  const layer = currentLayer();
  if (!layer) return;
  const tms = tmsSelect.value, format = formatSelect.value;
  let grid = { crs: CRS_BY_MATRIX_SET[tms], tileSize: 256, maxZoom: layer.zoom.max };
  if (!grid.crs) {
    grid = await gridCrs(layer, tms);
    if (grid.error) {
      showMapMessage(grid.error);
      return;
    }
  }
  const crs = grid.crs;
  const maxZoom = Math.min(layer.zoom.max, grid.maxZoom);

  if (!map || map.options.crs !== crs) {
    if (map) {
      stopDrawing();
      stopPolygon();
      map.remove();
    }
    map = L.map('map', { crs, minZoom: 0, maxZoom });
    tileLayer = null;
    areaRectangle = null;
    coverageShape = null;
    showArea();
    showCoverage(coverageShown);
    // A 256 px world at zoom 0 in EPSG:3857, 512x256 in EPSG:4326: one zoom less shows the same extent. Another
    // set shows its first matrix, centred.
    if (!bounds) {
      if (grid.centre) map.setView(grid.centre, 0);
      else map.setView([20, 0], Math.min(crs === L.CRS.EPSG4326 ? 1 : 2, maxZoom));
    }
  }
  if (tileLayer) map.removeLayer(tileLayer);
  map.setMaxZoom(maxZoom);
  showMapMessage('');
  tileLayer = new StoreTiles(`/tiles/${encodeURIComponent(layer.name)}/${encodeURIComponent(tms)}`, {
    extension: EXTENSION_BY_FORMAT[format] || format,
    query: dimensionQuery(),
    tileSize: grid.tileSize,
    minZoom: 0,
    maxZoom,
    attribution: escapeHtml(layer.attribution),
  }).addTo(map);

  if (bounds) {
    const world = worldBounds(crs);
    const clamped = L.latLngBounds(
      [Math.max(bounds.getSouth(), world.getSouth()), bounds.getWest()],
      [Math.min(bounds.getNorth(), world.getNorth()), bounds.getEast()]);
    map.fitBounds(clamped, { maxZoom });
  }
}

/** Fetches the visible tiles again, e.g. after a job wrote new ones. */
function refreshTiles() {
  if (tileLayer) tileLayer.redraw();
}

function onPreviewLayerPicked() {
  const layer = currentLayer();
  fillSelect(tmsSelect, layer.tileMatrixSets, tmsSelect.value || 'WebMercatorQuad');
  fillSelect(formatSelect, layer.formats, formatSelect.value || 'png');
  fillDimensions($('dimensions'), layer, 'preview');
  showTiles();
}

/**
 * An input per dimension of the layer, named after it, empty for its default; its allowed values offered when the
 * layer lists them.
 */
function fillDimensions(container, layer, prefix) {
  container.replaceChildren(...(layer.dimensions || []).map((dimension) => {
    const input = el('input');
    input.id = `${prefix}-dimension-${dimension.name}`;
    input.dataset.dimension = dimension.name;
    input.autocomplete = 'off';
    input.placeholder = dimension.default ? `default: ${dimension.default}` : 'required';
    const label = el('label', null, `${dimension.name} `);
    label.append(input);
    if (dimension.values && dimension.values.length) {
      const list = el('datalist');
      list.id = `${input.id}-values`;
      list.append(...dimension.values.map((value) => new Option(value, value)));
      input.setAttribute('list', list.id);
      label.append(list);
    }
    return label;
  }));
}

/** The values typed for dimensions in `container`, by name; the empty ones left out. */
function dimensionValues(container) {
  const values = {};
  for (const input of container.querySelectorAll('input[data-dimension]')) {
    if (input.value.trim() !== '') values[input.dataset.dimension] = input.value.trim();
  }
  return values;
}

/** The preview's dimension values as the tile endpoint's query ("?TIME=..."), or "" for the defaults. */
function dimensionQuery() {
  const query = new URLSearchParams(dimensionValues($('dimensions'))).toString();
  return query ? `?${query}` : '';
}

// ---- the job's area: drawn on the map or typed ----

function showArea() {
  if (areaRectangle) areaRectangle.remove();
  areaRectangle = area && map
    ? L.rectangle(area, { color: '#00796b', weight: 2, fillOpacity: 0.12, interactive: false }).addTo(map)
    : null;
}

/** "W,S,E,N" in degrees, clamped to the world and rounded to 4 decimals (about 10 m). */
function bboxText(bounds) {
  const round = (v, limit) => Number(Math.max(-limit, Math.min(limit, v)).toFixed(4));
  return [round(bounds.getWest(), 180), round(bounds.getSouth(), 90),
    round(bounds.getEast(), 180), round(bounds.getNorth(), 90)].join(',');
}

/** The numbers typed in the bbox field: [] when empty, null when some part is not a number. */
function typedBbox() {
  const parts = bboxInput.value.split(/[\s,]+/).filter(Boolean).map(Number);
  return parts.every(Number.isFinite) ? parts : null;
}

function onBboxTyped() {
  const bbox = typedBbox();
  if (bbox && bbox.length === 0) area = null;
  else if (bbox && bbox.length === 4) area = L.latLngBounds([bbox[1], bbox[0]], [bbox[3], bbox[2]]);
  showArea();
}

function onDrawStart(down) {
  const stretch = (event) => {
    area = L.latLngBounds(down.latlng, event.latlng);
    showArea();
  };
  map.on('mousemove', stretch);
  map.once('mouseup', (up) => {
    map.off('mousemove', stretch);
    stretch(up);
    bboxInput.value = bboxText(area);
    stopDrawing();
  });
}

function startDrawing() {
  if (polygon) stopPolygon();
  drawButton.setAttribute('aria-pressed', 'true');
  map.dragging.disable();
  map.getContainer().classList.add('drawing');
  map.once('mousedown', onDrawStart);
}

function stopDrawing() {
  drawButton.setAttribute('aria-pressed', 'false');
  map.off('mousedown', onDrawStart);
  map.dragging.enable();
  map.getContainer().classList.remove('drawing');
}

// ---- the job's coverage: a layer's, a polygon drawn on the map, or a GeoJSON file ----

const DRAWN = '#drawn', LOADED = '#file';

function showCoverage(geojson) {
  coverageShown = geojson;
  if (coverageShape) coverageShape.remove();
  coverageShape = geojson && map
    ? L.geoJSON(geojson, { style: { color: '#6a1b9a', weight: 2, fillOpacity: 0.12 }, interactive: false }).addTo(map)
    : null;
}

/** Sets the coverage select to `value`, adding an option for the job's own coverage when it has one. */
function pickCoverage(value, label) {
  const select = $('f-coverage');
  for (const own of select.querySelectorAll(`option[value="${DRAWN}"], option[value="${LOADED}"]`)) own.remove();
  if (value === DRAWN || value === LOADED) select.append(new Option(label, value));
  select.value = value;
}

async function onCoveragePicked() {
  const name = $('f-coverage').value;
  clearFieldError('coverage');
  if (name === DRAWN || name === LOADED) {
    showCoverage(coverage);
    return;
  }
  coverage = null;
  pickCoverage(name);
  if (!name) {
    showCoverage(null);
    return;
  }
  try {
    showCoverage(await getJson(`/api/v1/layers/${encodeURIComponent($('f-layer').value)}/coverages/`
      + encodeURIComponent(name), 'application/geo+json'));
  } catch (error) {
    showFieldErrors([{ field: 'coverage', reason: `could not load coverage ${name}: ${error.message}` }]);
  }
}

function onPolygonClick(event) {
  const first = polygon.corners[0];
  const closes = polygon.corners.length >= 3
    && map.latLngToContainerPoint(first).distanceTo(map.latLngToContainerPoint(event.latlng)) < 10;
  if (closes) {
    finishPolygon();
    return;
  }
  polygon.corners.push(event.latlng);
  polygon.line.setLatLngs(polygon.corners);
}

function finishPolygon() {
  const corners = polygon.corners;
  stopPolygon();
  if (corners.length < 3) return;
  const ring = corners.map((c) => [Number(c.lng.toFixed(6)), Number(c.lat.toFixed(6))]);
  ring.push(ring[0]);
  coverage = { type: 'Polygon', coordinates: [ring] };
  pickCoverage(DRAWN, `polygon drawn on the map (${corners.length} corners)`);
  clearFieldError('coverage');
  showCoverage(coverage);
}

function startPolygon() {
  stopDrawing();
  $('draw-polygon').setAttribute('aria-pressed', 'true');
  map.doubleClickZoom.disable();
  map.getContainer().classList.add('drawing');
  polygon = { corners: [], line: L.polyline([], { color: '#6a1b9a', weight: 2 }).addTo(map) };
  map.on('click', onPolygonClick);
  map.once('dblclick', finishPolygon);
}

function stopPolygon() {
  $('draw-polygon').setAttribute('aria-pressed', 'false');
  if (!polygon) return;
  polygon.line.remove();
  polygon = null;
  map.off('click', onPolygonClick);
  map.off('dblclick', finishPolygon);
  map.doubleClickZoom.enable();
  map.getContainer().classList.remove('drawing');
}

async function onCoverageFile() {
  const file = $('f-coverage-file').files[0];
  if (!file) return;
  clearFieldError('coverage');
  try {
    const geojson = JSON.parse(await file.text());
    if (!geojson || typeof geojson !== 'object' || Array.isArray(geojson)) throw new Error('not a GeoJSON object');
    L.geoJSON(geojson);
    coverage = geojson;
    pickCoverage(LOADED, `file ${file.name}`);
    showCoverage(coverage);
    map.fitBounds(coverageShape.getBounds());
  } catch (error) {
    showFieldErrors([{ field: 'coverage', reason: `${file.name} is not GeoJSON: ${error.message}` }]);
  } finally {
    $('f-coverage-file').value = '';
  }
}

// ---- the job form ----

function onFormLayerPicked() {
  const layer = layers.find((l) => l.name === $('f-layer').value);
  fillSelect($('f-tms'), layer.tileMatrixSets, $('f-tms').value || 'WebMercatorQuad');
  fillSelect($('f-format'), layer.formats, $('f-format').value || 'png');
  fillDimensions($('f-dimensions'), layer, 'form');
  $('f-dimensions-field').hidden = !(layer.dimensions || []).length;
  for (const input of [$('f-zoom-min'), $('f-zoom-max')]) {
    input.min = layer.zoom.min;
    input.max = layer.zoom.max;
  }
  $('f-zoom-min').value = layer.zoom.min;
  $('f-zoom-max').value = Math.min(layer.zoom.max, layer.zoom.min + 5);
  // The job's own coverage stays; a layer's stays if the layer has one of that name.
  const select = $('f-coverage');
  const own = coverage && select.selectedOptions[0];
  const kept = own && [own.value, own.textContent];
  const previous = select.value;
  select.replaceChildren(new Option('none: the whole bbox', ''),
    ...(layer.coverages || []).map((name) => new Option(`layer coverage: ${name}`, name)));
  if (kept) {
    pickCoverage(...kept);
  } else {
    select.value = (layer.coverages || []).includes(previous) ? previous : '';
    onCoveragePicked();
  }
}

function formMessage(text, kind) {
  $('form-message').textContent = text;
  $('form-message').className = kind || '';
}

function clearFieldError(name) {
  const field = form.querySelector(`.field[data-field="${name}"]`);
  field.classList.remove('invalid');
  field.querySelector('.error').textContent = '';
}

function clearFieldErrors() {
  for (const field of form.querySelectorAll('.field')) {
    field.classList.remove('invalid');
    field.querySelector('.error').textContent = '';
  }
}

/** Puts each error next to the field it names ("zoom.min" and "bbox[2]" go to zoom and bbox); returns the rest. */
function showFieldErrors(errors) {
  const unplaced = [];
  for (const error of errors) {
    const field = form.querySelector(`.field[data-field="${CSS.escape(error.field.split(/[.[]/)[0])}"]`);
    if (!field) {
      unplaced.push(error);
      continue;
    }
    field.classList.add('invalid');
    const message = field.querySelector('.error');
    message.textContent = [message.textContent, `${error.field}: ${error.reason}`].filter(Boolean).join('\n');
  }
  return unplaced;
}

function jobRequest() {
  const zoom = (input) => (input.value === '' ? null : Number(input.value));
  const request = {
    layer: $('f-layer').value,
    tileMatrixSet: $('f-tms').value,
    zoom: { min: zoom($('f-zoom-min')), max: zoom($('f-zoom-max')) },
    format: $('f-format').value,
    mode: $('f-mode').value,
  };
  if ($('f-priority').value !== '') request.priority = Number($('f-priority').value);
  const bbox = typedBbox();
  if (bbox && bbox.length) request.bbox = bbox;
  const picked = $('f-coverage').value;
  if (picked === DRAWN || picked === LOADED) request.coverage = coverage;
  else if (picked) request.coverage = picked;
  const dimensions = Object.entries(dimensionValues($('f-dimensions')));
  if (dimensions.length) {
    request.dimensions = Object.fromEntries(dimensions.map(([name, value]) => {
      const values = value.split(',').map((v) => v.trim()).filter(Boolean);
      return [name, values.length > 1 ? values : value];
    }));
  }
  return request;
}

async function submitJob(event) {
  event.preventDefault();
  clearFieldErrors();
  if (!typedBbox()) {
    showFieldErrors([{ field: 'bbox', reason: 'four numbers W,S,E,N in degrees, or empty for the whole world' }]);
    return;
  }
  $('submit').disabled = true;
  formMessage('Submitting…');
  try {
    const response = await api('/api/v1/jobs', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(jobRequest()),
    });
    if (response.ok) {
      const job = await response.json();
      selectedJobId = job.id;
      formMessage(`Submitted job ${job.id}.`, 'ok');
      loadJobs();
      return;
    }
    const problem = await problemOf(response);
    const rest = showFieldErrors(problem.errors);
    formMessage(problem.errors.length && !rest.length ? 'The server refused the job: see the fields marked red.'
      : refusal(problem, 'submit jobs'), 'error');
  } catch (error) {
    formMessage(`Could not submit the job: ${error.message}`, 'error');
  } finally {
    $('submit').disabled = false;
  }
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

async function cancelJob(id, button) {
  button.disabled = true;
  $('jobs-message').textContent = '';
  try {
    const response = await api(`/api/v1/jobs/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (!response.ok) $('jobs-message').textContent = refusal(await problemOf(response), 'cancel jobs');
  } catch (error) {
    $('jobs-message').textContent = `Could not cancel job ${id}: ${error.message}`;
  }
  loadJobs();
}

function renderJob(job) {
  const spec = job.spec, p = job.progress || {};
  const item = el('li', `job ${job.state}`);
  item.dataset.id = job.id;
  if (job.id === selectedJobId) item.classList.add('selected');
  item.title = 'Show on the map';
  item.addEventListener('click', () => showJobOnMap(job));

  const head = el('div', 'head');
  // A pack job has no zoom levels of its own: it packs the whole finished cache into its archive.
  const what = spec.zoom ? `z${spec.zoom.min}–${spec.zoom.max}` : `into ${spec.archive}`;
  head.append(el('span', 'what', `${spec.layer} · ${what}`));
  if (!FINAL_STATES.has(job.state)) {
    const cancel = el('button', 'cancel', 'Cancel');
    cancel.type = 'button';
    cancel.title = `Cancel job ${job.id}`;
    cancel.addEventListener('click', (event) => {
      event.stopPropagation();
      cancelJob(job.id, cancel);
    });
    head.append(cancel);
  }
  const state = job.queuePosition ? `${job.state} #${job.queuePosition}` : job.state;
  head.append(el('span', `state ${job.state}`, state));
  if (job.queuePosition) head.lastChild.title = `Starts when a running job ends; ${job.queuePosition - 1} queued before it`;
  const world = !spec.bbox || spec.bbox.join(',') === '-180,-90,180,90';
  const box = world ? 'world' : spec.bbox.join(', ');
  const within = world ? '' : ` in ${box}`;
  const where = typeof spec.coverage === 'string' ? `coverage ${spec.coverage}${within}`
    : spec.coverage ? `own coverage${within}` : spec.tiles ? 'tile list' : spec.archive ? 'whole cache' : box;
  item.append(head, el('div', 'meta',
    `${spec.tileMatrixSet} · ${spec.format} · ${spec.mode} · ${where} · priority ${spec.priority}`
    + ` · created ${time(job.created)}`));

  const percent = Math.max(0, Math.min(100, Number(p.percent) || 0));
  const bar = el('div', 'bar');
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', '100');
  bar.setAttribute('aria-valuenow', String(percent));
  const fill = el('div', 'fill');
  fill.style.width = `${percent}%`;
  bar.append(fill, el('span', 'label', `${percent.toFixed(1)} %`));
  item.append(bar);

  const planned = p.planningDone ? number(p.tilesPlanned) : `${number(p.tilesPlanned)}+`;
  const rate = `${number(Math.round(p.tilesPerSecond || 0))} tiles/s`;
  const eta = FINAL_STATES.has(job.state) ? `took ${duration(elapsed(job))}` : `ETA ${duration(p.etaSeconds)}`;
  item.append(el('div', 'stats', `${number(p.tilesDone)} / ${planned} tiles · ${rate} · ${eta}`));
  item.append(el('div', 'stats', `written ${number(p.tilesWritten)} · empty ${number(p.tilesEmpty)}`
    + ` · skipped ${number(p.tilesSkipped)} · unchanged ${number(p.tilesUnchanged || 0)}`
    + ` · deleted ${number(p.tilesDeleted)}`
    + ` · failed ${number(p.tilesFailed)} · ${bytes(p.bytes || 0)}`));

  for (const waiting of job.waitingFor || []) {
    const since = Math.max(0, Math.round((Date.now() - Date.parse(waiting.since)) / 1000));
    item.append(el('div', 'waiting', `waiting for ${waiting.dependency} (unreachable for ${duration(since)}): `
      + waiting.reason));
  }
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
    $('status').textContent = jobs.length === 0 ? 'No jobs yet: submit one above.'
      : active ? 'Refreshing every 2 s.' : `Updated ${new Date().toLocaleTimeString()}.`;
  } catch (error) {
    $('status').textContent = `Could not load the jobs: ${error.message}`;
    // Without a token, wait for one (saving it reloads) rather than asking again and again.
    if (error.status === 401) return;
  }
  // Every 2 s while a job runs; less often otherwise, to notice jobs submitted elsewhere.
  pollTimer = setTimeout(loadJobs, active ? 2000 : 5000);
}

// ---- start ----

async function loadLayers() {
  try {
    layers = await getJson('/api/v1/layers');
  } catch (error) {
    // Without a token, wait for one (saving it reloads); otherwise (a server still starting answers 503) retry.
    const retry = error.status !== 401;
    $('status').textContent = `Could not load the layers: ${error.message}${retry ? ' Trying again in 5 s.' : ''}`;
    if (retry) setTimeout(reload, 5000);
    return;
  }
  if (layers.length === 0) {
    $('status').textContent = 'No layers are configured.';
    return;
  }
  const title = (name) => layers.find((l) => l.name === name).title || name;
  const names = layers.map((l) => l.name);
  fillSelect(layerSelect, names, layerSelect.value, title);
  fillSelect($('f-layer'), names, $('f-layer').value, title);
  onFormLayerPicked();
  onPreviewLayerPicked();
}

/** Loads what is missing and refreshes the rest: at start and after a new token. */
async function reload() {
  if (layers.length === 0) await loadLayers();
  else refreshTiles();
  loadJobs();
}

layerSelect.addEventListener('change', onPreviewLayerPicked);
tmsSelect.addEventListener('change', () => showTiles());
formatSelect.addEventListener('change', () => showTiles());
$('dimensions').addEventListener('change', () => showTiles());
$('f-layer').addEventListener('change', onFormLayerPicked);
bboxInput.addEventListener('change', onBboxTyped);
drawButton.addEventListener('click', () => {
  if (!map) return;
  if (drawButton.getAttribute('aria-pressed') === 'true') stopDrawing();
  else startDrawing();
});
$('f-coverage').addEventListener('change', onCoveragePicked);
$('draw-polygon').addEventListener('click', () => {
  if (!map) return;
  if (polygon) finishPolygon();
  else startPolygon();
});
$('f-coverage-file').addEventListener('change', onCoverageFile);
form.addEventListener('submit', submitJob);
$('refresh').addEventListener('click', () => { refreshTiles(); loadJobs(); });
$('token-button').addEventListener('click', () => askForToken(sessionStorage.getItem(TOKEN_KEY)
  ? 'This tab uses a token. Enter another one to replace it.' : 'Enter an access token.'));
$('token-forget').addEventListener('click', forgetToken);
tokenDialog.addEventListener('close', onTokenDialogClosed);
$('token-button').hidden = !sessionStorage.getItem(TOKEN_KEY);
reload();
