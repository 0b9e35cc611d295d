// End-to-end test of the web console in Debian's headless Chromium, driven by playwright-core (which never
// downloads a browser). dev/console-test starts the servers and sets:
//   CONSOLE_URL        a `seeder serve` in the embedded mode, without auth, on an empty store
//   CONSOLE_ARTIFACTS  where the screenshots go
//   CONSOLE_AUTH_URL   a `seeder serve` with a tokens file holding CONSOLE_READ_TOKEN (role read) and
//                      CONSOLE_WRITE_TOKEN (role write); its checks are skipped without it
// Every wait is on a condition with a bound, never a fixed sleep. Prints one line per check and closes with
// "N passed, N failed"; exits 1 when a check failed.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const JOB_TIMEOUT = 60_000;   // a z0-2 job takes about a second; the bound is for a loaded CI machine
const UI_TIMEOUT = 15_000;

const url = process.env.CONSOLE_URL;
const artifacts = process.env.CONSOLE_ARTIFACTS;
const authUrl = process.env.CONSOLE_AUTH_URL;
const readToken = process.env.CONSOLE_READ_TOKEN, writeToken = process.env.CONSOLE_WRITE_TOKEN;
if (!url || !artifacts || (authUrl && !(readToken && writeToken))) {
  console.error('usage: CONSOLE_URL=http://127.0.0.1:PORT CONSOLE_ARTIFACTS=DIR [CONSOLE_AUTH_URL=URL'
    + ' CONSOLE_READ_TOKEN=T CONSOLE_WRITE_TOKEN=T] node console.test.js');
  process.exit(2);
}

let passed = 0, failed = 0;

/** Runs one named check; a failure is reported and counted, and the next checks still run. */
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passed++;
    console.log(`ok    ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(`FAIL  ${name} (${Date.now() - started} ms)\n      ${String(error.message).split('\n')[0]}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const isPost = (response) => response.url().endsWith('/api/v1/jobs') && response.request().method() === 'POST';

const isPngTile = (response) => response.url().includes('/tiles/world/WebMercatorQuad/')
  && response.status() === 200 && response.headers()['content-type'] === 'image/png';

/** Fills the job form and submits it; returns the POST's response. */
async function submitJob(page, { zoom: [min, max], bbox = '', tms = 'WebMercatorQuad' }) {
  await page.selectOption('#f-layer', 'world');
  await page.selectOption('#f-tms', tms);
  await page.fill('#f-zoom-min', String(min));
  await page.fill('#f-zoom-max', String(max));
  await page.fill('#f-bbox', bbox);
  await page.selectOption('#f-format', 'png');
  await page.selectOption('#f-mode', 'seed');
  const [response] = await Promise.all([page.waitForResponse(isPost, { timeout: UI_TIMEOUT }),
    page.click('#submit')]);
  return response;
}

const job = (page, id) => page.locator(`li.job[data-id="${id}"]`);

async function waitForState(page, id, state, timeout = JOB_TIMEOUT) {
  await job(page, id).locator(`.state.${state}`).waitFor({ timeout });
}

/** Takes the screenshot once the map's tiles have loaded and faded in (a finished job redraws them). */
async function screenshot(page, name) {
  await page.waitForFunction(() => [...document.querySelectorAll('#map .leaflet-tile')]
    .every((tile) => tile.classList.contains('leaflet-tile-loaded') && tile.style.opacity === '1'),
  null, { timeout: UI_TIMEOUT });
  await page.screenshot({ path: join(artifacts, name) });
}

async function openConsole(context, pageErrors) {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** The console against a server without auth: the job list, the form, cancel and the map preview. */
async function openServerChecks(context) {
  const pageErrors = [];
  const page = await openConsole(context, pageErrors);
  let goodJob, bigJob, tile;

  await check('the page loads: the layers fill the form, the job list is empty, no token is asked', async () => {
    await page.goto(url, { timeout: UI_TIMEOUT });
    await page.locator('#f-layer option[value="world"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    await page.locator('#status', { hasText: 'No jobs yet' }).waitFor({ timeout: UI_TIMEOUT });
    await page.locator('#map .leaflet-tile-container').first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    assert(!(await page.locator('#token-dialog').isVisible()), 'the token form is open');
    assert(!(await page.locator('#token-button').isVisible()), 'the token button shows');
  });

  await check('a bad job (zoom min > max) shows the API\'s error next to the zoom field', async () => {
    const response = await submitJob(page, { zoom: [3, 1] });
    assert(response.status() === 400, `POST answered ${response.status()}, not 400`);
    const error = page.locator('.field[data-field="zoom"] .error');
    await error.filter({ hasText: 'min 3 is greater than max 1' }).waitFor({ timeout: UI_TIMEOUT });
    assert(await page.locator('.field[data-field="zoom"].invalid').count() === 1, 'the zoom field is not marked');
    assert(await page.locator('.field.invalid').count() === 1, 'other fields are marked too');
    assert(await page.locator('#jobs li').count() === 0, 'a refused job is in the list');
  });

  await check('a good job (world, z0-2) reaches SUCCEEDED with a full progress bar', async () => {
    const tileShown = page.waitForResponse(isPngTile, { timeout: JOB_TIMEOUT });
    const response = await submitJob(page, { zoom: [0, 2] });
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    goodJob = (await response.json()).id;
    assert(await page.locator('.field.invalid').count() === 0, 'the old zoom error is still shown');
    await waitForState(page, goodJob, 'SUCCEEDED');
    const bar = job(page, goodJob).locator('[role="progressbar"]');
    assert(await bar.getAttribute('aria-valuenow') === '100', `progress ${await bar.getAttribute('aria-valuenow')}`);
    const width = await bar.locator('.fill').evaluate((fill) => fill.getBoundingClientRect().width
      / fill.parentElement.getBoundingClientRect().width);
    assert(width > 0.99, `the bar is ${Math.round(width * 100)} % full`);
    assert(/\/ 21 tiles/.test(await job(page, goodJob).innerText()), 'the stats do not say 21 tiles');
    tile = await tileShown;
  });

  await check('the map preview shows the seeded tiles (200 image/png, drawn from a blob)', async () => {
    assert(tile, 'no tile was answered 200 image/png');
    await page.locator('#map img.leaflet-tile-loaded[src^="blob:"]').first().waitFor({ timeout: UI_TIMEOUT });
    const size = await page.locator('#map img.leaflet-tile-loaded[src^="blob:"]').first()
      .evaluate((img) => [img.naturalWidth, img.naturalHeight].join('x'));
    assert(size === '256x256', `a tile of ${size}`);
  });

  await check('an area dragged on the map fills the bbox field', async () => {
    await page.click('#draw');
    const box = await page.locator('#map').boundingBox();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.6, { steps: 5 });
    await page.mouse.up();
    const bbox = (await page.inputValue('#f-bbox')).split(',').map(Number);
    assert(bbox.length === 4 && bbox.every(Number.isFinite), `bbox "${bbox}"`);
    assert(bbox[0] < bbox[2] && bbox[1] < bbox[3], `bbox ${bbox} is not west < east, south < north`);
    assert(await page.getAttribute('#draw', 'aria-pressed') === 'false', 'still drawing');
    assert(await page.locator('#map .leaflet-overlay-pane path').count() === 1, 'no rectangle on the map');
  });

  await check('cancelling a running bigger job (z0-10 over the drawn area) shows CANCELLED', async () => {
    const response = await submitJob(page, { zoom: [0, 10], bbox: await page.inputValue('#f-bbox') });
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    bigJob = (await response.json()).id;
    await job(page, bigJob).locator('.state.RUNNING').waitFor({ timeout: JOB_TIMEOUT });
    await job(page, bigJob).locator('button.cancel').click();
    await waitForState(page, bigJob, 'CANCELLED');
    assert(await job(page, bigJob).locator('button.cancel').count() === 0, 'a cancelled job still has Cancel');
  });

  await check('a polygon clicked on the map becomes the job\'s coverage: only its tiles are planned', async () => {
    await page.click('#draw-polygon');
    const box = await page.locator('#map').boundingBox();
    const at = (fx, fy) => [box.x + box.width * fx, box.y + box.height * fy];
    for (const [fx, fy] of [[0.45, 0.35], [0.6, 0.4], [0.5, 0.6]]) await page.mouse.click(...at(fx, fy));
    await page.mouse.click(...at(0.45, 0.35));
    assert(await page.getAttribute('#draw-polygon', 'aria-pressed') === 'false', 'still drawing');
    assert(await page.inputValue('#f-coverage') === '#drawn', 'the coverage select is not on the drawn polygon');
    const response = await submitJob(page, { zoom: [0, 3] });
    const sent = JSON.parse(response.request().postData());
    assert(sent.coverage && sent.coverage.type === 'Polygon' && sent.coverage.coordinates[0].length === 4,
      `the job sent ${JSON.stringify(sent.coverage)}`);
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    const id = (await response.json()).id;
    await waitForState(page, id, 'SUCCEEDED');
    const planned = Number((await job(page, id).innerText()).match(/\/ ([\d,]+) tiles/)[1].replace(/,/g, ''));
    assert(planned >= 4 && planned < 85, `${planned} tiles planned, not a part of the world's 85 at z0-3`);
  });

  await check('a file that is not GeoJSON is refused next to the coverage field', async () => {
    await page.setInputFiles('#f-coverage-file', { name: 'area.geojson', mimeType: 'application/geo+json',
      buffer: Buffer.from('{"type": "Polygon", ') });
    await page.locator('.field[data-field="coverage"] .error', { hasText: 'area.geojson is not GeoJSON' })
      .waitFor({ timeout: UI_TIMEOUT });
  });

  await check('the layer\'s coverage picked by name is shown and seeded', async () => {
    // The coverage's GeoJSON must come back: the drawn polygon before it has the same stroke, so the map alone
    // would not tell a coverage that failed to load.
    const [loaded] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/coverages/africa'), { timeout: UI_TIMEOUT }),
      page.selectOption('#f-coverage', 'africa'),
    ]);
    assert(loaded.status() === 200, `the africa coverage answered ${loaded.status()}`);
    await page.locator('.field[data-field="coverage"].invalid').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await page.locator('#map .leaflet-overlay-pane path[stroke="#6a1b9a"]').waitFor({ timeout: UI_TIMEOUT });
    const response = await submitJob(page, { zoom: [0, 2] });
    assert(JSON.parse(response.request().postData()).coverage === 'africa', 'the job did not name africa');
    const id = (await response.json()).id;
    await waitForState(page, id, 'SUCCEEDED');
    assert(/coverage africa/.test(await job(page, id).innerText()), 'the job list does not say coverage africa');
    await page.selectOption('#f-coverage', '');
  });

  await check('a job in EuropeanETRS89_LAEAQuad is previewed on its own grid (proj4js, the set\'s JSON)', async () => {
    const response = await submitJob(page, { zoom: [0, 2], tms: 'EuropeanETRS89_LAEAQuad' });
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    const id = (await response.json()).id;
    await waitForState(page, id, 'SUCCEEDED');
    const isLaeaTile = (r) => r.url().includes('/tiles/world/EuropeanETRS89_LAEAQuad/') && r.status() === 200
      && r.headers()['content-type'] === 'image/png';
    const [set, shown] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/tile-matrix-sets/EuropeanETRS89_LAEAQuad'),
        { timeout: UI_TIMEOUT }),
      page.waitForResponse(isLaeaTile, { timeout: UI_TIMEOUT }),
      page.selectOption('#tms', 'EuropeanETRS89_LAEAQuad'),
    ]);
    assert(set.status() === 200, `the set answered ${set.status()}`);
    assert(/\/tiles\/world\/EuropeanETRS89_LAEAQuad\/0\/0\/0\.png$/.test(shown.url()),
      `the first tile shown is ${shown.url()}, not zoom 0's single tile`);
    assert(!(await page.locator('#map-message').isVisible()), await page.locator('#map-message').innerText());
    await screenshot(page, 'console-laea.png');
    await page.selectOption('#tms', 'WebMercatorQuad');
  });

  await check('a layer\'s dimension: a form field sent with the job, a refused value named, a preview field', async () => {
    await page.selectOption('#f-layer', 'styled');
    await page.locator('#f-dimensions-field').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const placeholder = await page.getAttribute('#form-dimension-STYLES', 'placeholder');
    assert(placeholder === 'default: day', `the STYLES field says "${placeholder}"`);
    await page.fill('#f-zoom-min', '0');
    await page.fill('#f-zoom-max', '2');
    await page.fill('#f-bbox', '');
    await page.fill('#form-dimension-STYLES', 'dark');
    const [refused] = await Promise.all([page.waitForResponse(isPost, { timeout: UI_TIMEOUT }),
      page.click('#submit')]);
    assert(refused.status() === 400, `POST of STYLES dark answered ${refused.status()}, not 400`);
    await page.locator('.field[data-field="dimensions"] .error', { hasText: 'STYLES \'dark\' is not one of day, night' })
      .waitFor({ timeout: UI_TIMEOUT });
    await page.fill('#form-dimension-STYLES', 'night');
    const [response] = await Promise.all([page.waitForResponse(isPost, { timeout: UI_TIMEOUT }),
      page.click('#submit')]);
    const sent = JSON.parse(response.request().postData());
    assert(sent.dimensions && sent.dimensions.STYLES === 'night', `the job sent ${JSON.stringify(sent.dimensions)}`);
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    await waitForState(page, (await response.json()).id, 'SUCCEEDED');
    const isNightTile = (r) => r.url().includes('/tiles/styled/WebMercatorQuad/') && r.url().endsWith('?STYLES=night')
      && r.status() === 200 && r.headers()['content-type'] === 'image/png';
    await page.selectOption('#layer', 'styled');
    const [shown] = await Promise.all([page.waitForResponse(isNightTile, { timeout: UI_TIMEOUT }),
      page.fill('#preview-dimension-STYLES', 'night').then(() => page.dispatchEvent('#preview-dimension-STYLES',
        'change'))]);
    assert(shown.ok(), `the night tile answered ${shown.status()}`);
    await page.selectOption('#layer', 'world');
    await page.selectOption('#f-layer', 'world');
    assert(!(await page.locator('#f-dimensions-field').isVisible()), 'the world layer shows a dimensions field');
  });

  await check('a pack job sent to the API is listed with its archive, not zoom levels', async () => {
    const archive = join(mkdtempSync(join(tmpdir(), 'console-test-pack-')), 'world.pmtiles');
    const response = await fetch(`${url}/api/v1/jobs`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ layer: 'world', mode: 'pack', archive }) });
    assert(response.status === 202, `the API answered ${response.status} to a pack job`);
    const id = (await response.json()).id;
    await waitForState(page, id, 'SUCCEEDED');
    const text = await job(page, id).innerText();
    assert(text.includes(`world · into ${archive}`), `the pack job reads ${JSON.stringify(text)}`);
    assert(text.includes('pack · whole cache'), `the pack job's line reads ${JSON.stringify(text)}`);
  });

  await check('no JavaScript error on the page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('; '));
  });

  await screenshot(page, 'console.png');
  await page.close();
}

/** The console against a server with a tokens file: the token form, a read token, then a write token. */
async function authServerChecks(context) {
  const pageErrors = [];
  const page = await openConsole(context, pageErrors);
  let shownJob;

  await check('with auth on, the page asks for a token (401) and asks again when the token is refused', async () => {
    await page.goto(authUrl, { timeout: UI_TIMEOUT });
    await page.locator('#token-dialog').waitFor({ timeout: UI_TIMEOUT });
    await page.locator('#token-reason', { hasText: 'needs an access token (401)' }).waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'console-token.png');
    await page.fill('#token', 'not-a-token');
    await page.click('#token-save');
    await page.locator('#token-reason', { hasText: 'refused this token' }).waitFor({ timeout: UI_TIMEOUT });
    assert(await page.locator('#token-dialog').isVisible(), 'the token form closed');
  });

  await check('a read token shows the jobs, and the tiles are fetched with it', async () => {
    shownJob = await seedWithApi({ layer: 'world', zoom: { min: 0, max: 2 } }, writeToken);
    const tileShown = page.waitForResponse((response) => isPngTile(response)
      && response.request().headers().authorization === `Bearer ${readToken}`, { timeout: JOB_TIMEOUT });
    await page.fill('#token', readToken);
    await page.click('#token-save');
    await page.locator('#token-dialog').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    await waitForState(page, shownJob, 'SUCCEEDED');
    await tileShown;
    const kept = await page.evaluate(() => sessionStorage.getItem('seeder.token'));
    assert(kept === readToken, 'the token is not in sessionStorage seeder.token');
  });

  await check('submitting with the read token shows the 403 message', async () => {
    const response = await submitJob(page, { zoom: [0, 1] });
    assert(response.status() === 403, `POST answered ${response.status()}, not 403`);
    await page.locator('#form-message.error', { hasText: 'may not submit jobs (403)' }).waitFor({ timeout: UI_TIMEOUT });
    assert(await page.locator('.field.invalid').count() === 0, 'a field is marked');
  });

  await check('a write token (Token… button) submits a job that succeeds', async () => {
    await page.click('#token-button');
    await page.fill('#token', writeToken);
    await page.click('#token-save');
    await page.locator('#token-dialog').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    const response = await submitJob(page, { zoom: [0, 1] });
    assert(response.status() === 202, `POST answered ${response.status()}, not 202`);
    await waitForState(page, (await response.json()).id, 'SUCCEEDED');
  });

  await check('no JavaScript error on the page with auth', async () => {
    assert(pageErrors.length === 0, pageErrors.join('; '));
  });
  await page.close();
}

/** Submits a job straight to the API (not through the console) and waits until it has finished; its id. */
async function seedWithApi(request, token) {
  const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
  const response = await fetch(`${authUrl}/api/v1/jobs`, { method: 'POST', headers, body: JSON.stringify(request) });
  assert(response.status === 202, `the API answered ${response.status} to a job with the write token`);
  const id = (await response.json()).id;
  const finished = await (await fetch(`${authUrl}/api/v1/jobs/${id}/wait?timeout=60s`, { headers })).json();
  assert(finished.state === 'SUCCEEDED', `the job seeded through the API is ${finished.state}`);
  return id;
}

mkdirSync(artifacts, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), 'console-test-chromium-'));
const started = Date.now();
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: BROWSER_ARGS,
  viewport: { width: 1400, height: 860 },
});
try {
  await openServerChecks(context);
  if (authUrl) await authServerChecks(context);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`console: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
