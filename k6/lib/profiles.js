// The load profiles of api.js as data, one chosen by K6_PROFILE (default smoke): the arrival rate of each
// request kind, the seed job that runs meanwhile, and the thresholds that fail the run.
//   submit  POST /api/v1/jobs of a one-tile job, not waited for
//   status  GET /api/v1/jobs/{id} of the seed job and a few finished jobs
//   wait    submits a one-tile job and long-polls /wait until it is final: how long a small job takes
//           behind the seed job's backlog
// Latency thresholds are p95 in milliseconds. `errors` is the highest share of failed requests (HTTP status
// >= 400 or none) and of failed checks; `dropped` the most iterations dropped (no VU free at an arrival, so the
// rate was not reached), null for no limit. smoke is CI's check that everything works, on a cold JVM and a
// busy machine: its latency limits are loose; load holds the targets.

const constant = (rate, duration) => ({ executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration });
// Up to `to` per second in `rampUp`, held for `hold`.
const ramp = (to, rampUp, hold) => ({
  executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s',
  stages: [{ target: to, duration: rampUp }, { target: to, duration: hold }],
});

export const PROFILES = {
  smoke: {
    seedJob: { zoom: { min: 0, max: 5 } },
    rates: { status: constant(20, '20s'), submit: constant(2, '20s'), wait: constant(1, '20s') },
    vus: { status: 20, submit: 10, wait: 30 },
    p95: { status: 500, submit: 1000, wait: 30000 },
    errors: 0,
    dropped: null,
  },
  load: {
    seedJob: { zoom: { min: 0, max: 8 } },
    rates: { status: ramp(200, '10s', '60s'), submit: ramp(20, '10s', '60s'), wait: constant(1, '70s') },
    vus: { status: 200, submit: 100, wait: 150 },
    p95: { status: 50, submit: 200, wait: 30000 },
    errors: 0,
    dropped: 0,
  },
  stress: {
    seedJob: { zoom: { min: 0, max: 9 } },
    rates: { status: ramp(1000, '90s', '30s'), submit: ramp(100, '90s', '30s'), wait: constant(2, '120s') },
    vus: { status: 400, submit: 200, wait: 150 },
    p95: { status: 250, submit: 1000, wait: 60000 },
    errors: 0.01,
    dropped: null,
  },
};

export const PROFILE_NAME = __ENV.K6_PROFILE || 'smoke';

export function profile() {
  const chosen = PROFILES[PROFILE_NAME];
  if (!chosen) {
    throw new Error(`K6_PROFILE=${PROFILE_NAME}: unknown profile; one of ${Object.keys(PROFILES).join(', ')}`);
  }
  return chosen;
}
