// Priorities and fair share under a running seed job: while the world layer z0-10 is reseeded (priority 0), one
// VU submits 40 jobs of one metatile each, one after the other, alternately of higher priority (1) and of equal
// priority (0), and times each from its submission until /wait answers it SUCCEEDED. The thresholds are the
// targets: p95 at most 5 s for higher, 30 s for equal priority (docs/distributed.md, "Priorities and the queue").
// K6_WARMUP_TASKS (default 1) is how many results of the seed job the measurement waits for: 21845 starts it at
// zoom 10, where the seed job's tasks are the slowest (z0-9 make 21 845 metatiles of 4x4).
//   SEEDER_URL=... SEEDER_TOKEN=... k6 run k6/priority.js
import { check, fail, sleep } from 'k6';
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';
import * as api from './lib/seeder.js';

const SUBMISSIONS = Number(__ENV.K6_SUBMISSIONS || 40); // fewer for a quick look, e.g. at an older build
const WARMUP_TASKS = Number(__ENV.K6_WARMUP_TASKS || 1);
const jobSeconds = new Trend('job_seconds');

export const options = {
  scenarios: {
    jobs: { executor: 'shared-iterations', vus: 1, iterations: SUBMISSIONS, exec: 'oneMetatile', maxDuration: '15m' },
  },
  thresholds: {
    'job_seconds{priority:higher}': ['p(95)<5'],
    'job_seconds{priority:equal}': ['p(95)<30'],
    checks: ['rate==1'],
  },
  setupTimeout: '15m',
  summaryTrendStats: ['min', 'med', 'p(95)', 'max', 'count'],
};

// The seed job, once it has WARMUP_TASKS results: the measurement starts against a queue already full of its work.
export function setup() {
  const { res, job } = api.submit({ layer: 'world', zoom: { min: 0, max: 10 }, mode: 'reseed', priority: 0,
    labels: { source: 'k6-priority' } }, 'setup');
  if (!job) {
    fail(`setup: the seed job was refused: ${res.status} ${res.body}`);
  }
  for (let i = 0; i < 8400; i++) {
    const now = api.status(job.id, 'setup');
    if (now.status === 200 && now.json('progress.tasksDone') >= WARMUP_TASKS) {
      return { seedJob: job.id };
    }
    sleep(0.1);
  }
  return fail(`setup: the seed job ${job.id} has not ${WARMUP_TASKS} results after 14 minutes`);
}

// A random spot in WorldCRS84Quad at zoom 10: one metatile, never one the seed job (WebMercatorQuad) locks.
function oneMetatileJob(priority) {
  const lon = -179 + Math.random() * 358;
  const lat = -89 + Math.random() * 178;
  return { layer: 'world', tileMatrixSet: 'WorldCRS84Quad', zoom: { min: 10, max: 10 },
    bbox: [lon, lat, lon + 0.001, lat + 0.001], mode: 'reseed', priority, labels: { source: 'k6-priority' } };
}

export function oneMetatile(data) {
  const higher = exec.scenario.iterationInTest % 2 === 0;
  const start = Date.now();
  const { res, job } = api.submit(oneMetatileJob(higher ? 1 : 0));
  if (!check(res, { 'submitted: 202': (r) => r.status === 202 })) {
    return;
  }
  const done = api.wait(job.id, 120);
  jobSeconds.add((Date.now() - start) / 1000, { priority: higher ? 'higher' : 'equal' });
  check(done, { 'the job succeeded': (r) => r.status === 200 && r.json('state') === 'SUCCEEDED' });
  const seed = api.status(data.seedJob);
  check(seed, { 'the seed job still runs': (r) => r.status === 200 && !api.FINAL.includes(r.json('state')) });
}

export function teardown(data) {
  const seed = api.status(data.seedJob, 'teardown');
  if (seed.status === 200) {
    console.log(`seed job ${data.seedJob}: ${seed.json('state')}, ${seed.json('progress.tasksDone')} tasks done, `
      + `${seed.json('progress.tilesPerSecond')} tiles/s`);
  }
  api.cancel(data.seedJob);
}
