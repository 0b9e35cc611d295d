// The coordinator's REST API as k6 calls: base URL from SEEDER_URL, bearer token from SEEDER_TOKEN (sent
// when set). Every request carries a `kind` tag (submit, status, wait) that the thresholds select on.
import http from 'k6/http';

export const BASE_URL = (__ENV.SEEDER_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const TOKEN = __ENV.SEEDER_TOKEN || '';

// `name` groups the URLs of every job under one name in k6's metrics.
function params(kind, name, extra = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (TOKEN) {
    headers.Authorization = `Bearer ${TOKEN}`;
  }
  return { headers, tags: { kind, name }, ...extra };
}

/** POST /api/v1/jobs; the response's job (or null) is in `job`. */
export function submit(job, kind = 'submit') {
  const res = http.post(`${BASE_URL}/api/v1/jobs`, JSON.stringify(job), params(kind, 'POST /api/v1/jobs'));
  if (res.status !== 202) {
    console.warn(`POST /api/v1/jobs answered ${res.status || res.error}: ${res.body}`);
  }
  return { res, job: res.status === 202 ? res.json() : null };
}

export function status(id, kind = 'status') {
  return http.get(`${BASE_URL}/api/v1/jobs/${id}`, params(kind, 'GET /api/v1/jobs/{id}'));
}

/** Long-polls until the job is final or `seconds` run out; k6's own timeout is a bit longer. */
export function wait(id, seconds, kind = 'wait') {
  return http.get(`${BASE_URL}/api/v1/jobs/${id}/wait?timeout=${seconds}s`,
    params(kind, 'GET /api/v1/jobs/{id}/wait', { timeout: `${seconds + 10}s` }));
}

/** GET /api/v1/jobs, newest first. */
export function list(limit) {
  return http.get(`${BASE_URL}/api/v1/jobs?limit=${limit}`, params('teardown', 'GET /api/v1/jobs'));
}

export function cancel(id) {
  // 409: the job finished meanwhile.
  return http.del(`${BASE_URL}/api/v1/jobs/${id}`, null, params('teardown', 'DELETE /api/v1/jobs/{id}',
    { responseCallback: http.expectedStatuses(200, 409) }));
}

/**
 * A job of one tile: a random spot of the world layer at zoom 3-6 in WorldCRS84Quad, so that the jobs of a
 * load test finish fast, seldom share a metatile, and never share one with a seed job in WebMercatorQuad.
 */
export function tinyJob() {
  const zoom = 3 + Math.floor(Math.random() * 4);
  const lon = -179 + Math.random() * 358;
  const lat = -89 + Math.random() * 178;
  return {
    layer: 'world', tileMatrixSet: 'WorldCRS84Quad', zoom: { min: zoom, max: zoom },
    bbox: [lon, lat, lon + 0.001, lat + 0.001], labels: { source: 'k6' },
  };
}

export const FINAL = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'LOST'];
