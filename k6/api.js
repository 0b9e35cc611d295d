// The coordinator's API under arrival rates: submissions, status reads and waits at once, while a seed job
// runs. The profile (K6_PROFILE: smoke, load, stress; lib/profiles.js) sets the rates and the thresholds.
//   SEEDER_URL=http://127.0.0.1:8080 SEEDER_TOKEN=... K6_PROFILE=load k6 run k6/api.js
import { check, fail } from 'k6';
import exec from 'k6/execution';
import * as api from './lib/seeder.js';
import { PROFILE_NAME, profile } from './lib/profiles.js';

const p = profile();
const WAIT_SECONDS = Math.ceil(p.p95.wait / 1000) * 2;

// A wait that runs when its scenario ends may finish (gracefulStop) rather than be cut off unrecorded.
function scenario(kind) {
  return {
    ...p.rates[kind], exec: kind, preAllocatedVUs: Math.ceil(p.vus[kind] / 5), maxVUs: p.vus[kind],
    gracefulStop: `${WAIT_SECONDS + 15}s`,
  };
}

const thresholds = {
  http_req_failed: [`rate<=${p.errors}`],
  checks: [`rate>=${1 - p.errors}`],
};
for (const kind of ['status', 'submit', 'wait']) {
  thresholds[`http_req_duration{kind:${kind}}`] = [`p(95)<${p.p95[kind]}`];
  thresholds[`http_reqs{kind:${kind}}`] = ['count>0']; // so that the summary has each kind's count and rate
}
if (p.dropped !== null) {
  thresholds.dropped_iterations = [`count<=${p.dropped}`];
}

export const options = {
  scenarios: { status: scenario('status'), submit: scenario('submit'), wait: scenario('wait') },
  thresholds,
  setupTimeout: '4m',
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  tags: { profile: PROFILE_NAME },
};

// A few finished jobs, then the seed job (the world layer, rendered again) that runs during the test.
export function setup() {
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const { res, job } = api.submit(api.tinyJob(), 'setup');
    if (!job) {
      fail(`setup: POST /api/v1/jobs answered ${res.status}: ${res.body}`);
    }
    const done = api.wait(job.id, 60, 'setup');
    if (done.status !== 200 || done.json('state') !== 'SUCCEEDED') {
      fail(`setup: job ${job.id} did not succeed within 60 s: ${done.status} ${done.body}`);
    }
    ids.push(job.id);
  }
  const { res, job } = api.submit({ layer: 'world', zoom: p.seedJob.zoom, mode: 'reseed', labels: { source: 'k6' } },
    'setup');
  if (!job) {
    fail(`setup: the seed job was refused: ${res.status} ${res.body}`);
  }
  ids.push(job.id);
  return { ids, seedJob: job.id };
}

export function status(data) {
  const res = api.status(data.ids[exec.scenario.iterationInTest % data.ids.length]);
  check(res, { 'status: 200 with a state': (r) => r.status === 200 && !!r.json('state') });
}

export function submit() {
  const { res } = api.submit(api.tinyJob());
  check(res, { 'submit: 202': (r) => r.status === 202 });
}

export function wait() {
  const { job } = api.submit(api.tinyJob());
  if (!check(job, { 'wait: submitted': (j) => j !== null })) {
    return;
  }
  const res = api.wait(job.id, WAIT_SECONDS);
  check(res, { 'wait: the job succeeded in time': (r) => r.status === 200 && r.json('state') === 'SUCCEEDED' });
}

// Reports how far the seed job got, then cancels every job of this test (label source=k6) not final yet,
// so that their tasks do not hold up the next run's: first the newest 1000, again until none is left.
export function teardown(data) {
  const job = api.status(data.seedJob, 'teardown').json();
  console.log(`seed job ${job.id}: ${job.state}, ${job.progress.tilesDone} of ${job.progress.tilesPlanned} tiles`);
  let cancelled;
  do {
    const running = api.list(1000).json().filter((j) => j.spec.labels?.source === 'k6' && !api.FINAL.includes(j.state));
    running.forEach((j) => api.cancel(j.id));
    cancelled = running.length;
  } while (cancelled > 0);
}
